package analysis

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/rewind-game/rewind/engine"
)

// SlowestTurns is how many of a player's slowest turns ReplyTimes lists.
const SlowestTurns = 5

// ReplyTimes summarises one player's reply times (engine.Frame.ReplyTimes:
// how long its bot took to answer, side data of the replay). Turns are
// frames, as the replay page numbers them: turn t is the round t-1 → t,
// the bot's reply to turn t-1.
type ReplyTimes struct {
	Player int
	// Turns counts the player's timed turns; Median (the lower median)
	// and Max are over them, in microseconds (0 without one).
	Turns       int
	Median, Max int64
	// Slowest are its SlowestTurns slowest turns, slowest first (the
	// earlier turn first among equal times).
	Slowest []SlowTurn
}

// SlowTurn is one turn's reply time, in microseconds.
type SlowTurn struct {
	Turn   int
	Micros int64
}

// replyKey packs a reply time of us microseconds at turn t into one
// int64 that sorts by time, then by earlier turn first when sorted
// descending: us (at most MaxReplyMicros, 32 bits) above 20 bits of the
// turn's complement.
func replyKey(us int64, t int) int64 { return us<<20 | int64(replyTurnMask-t) }

// replyOf unpacks replyKey.
func replyOf(k int64) SlowTurn {
	return SlowTurn{Turn: replyTurnMask - int(k&replyTurnMask), Micros: k >> 20}
}

const replyTurnMask = 1<<20 - 1

// MaxReplyMicros is the longest reply time the analysis counts, in
// microseconds (an hour, replay.MaxReplyTime); a longer one counts as
// it.
const MaxReplyMicros = int64(time.Hour / time.Microsecond)

// replies keeps frame f's reply times (the game after round t): one
// value per timed seat, counted against the analysis's values.
func (az *analyzerState) replies(f *engine.Frame, t int) {
	if len(f.ReplyTimes) == 0 || t > replyTurnMask {
		return
	}
	if az.replyKeys == nil {
		az.replyKeys = make([][]int64, az.n)
	}
	for p, d := range f.ReplyTimes {
		if p >= az.n || d < 0 {
			continue
		}
		us := min(int64(d/time.Microsecond), MaxReplyMicros)
		az.replyKeys[p] = append(az.replyKeys[p], replyKey(us, t))
		az.replyValues++
	}
}

// finishReplies summarises the reply times kept (Analysis.ReplyTimes).
func (az *analyzerState) finishReplies() {
	if az.replyKeys == nil {
		return
	}
	g := az.g
	g.ReplyTimes = make([]ReplyTimes, az.n)
	for p, keys := range az.replyKeys {
		r := &g.ReplyTimes[p]
		r.Player, r.Turns = p, len(keys)
		if len(keys) == 0 {
			continue
		}
		slices.Sort(keys)
		r.Median, r.Max = replyOf(keys[(len(keys)-1)/2]).Micros, replyOf(keys[len(keys)-1]).Micros
		for i := len(keys) - 1; i >= 0 && len(r.Slowest) < SlowestTurns; i-- {
			r.Slowest = append(r.Slowest, replyOf(keys[i]))
		}
	}
	az.replyKeys = nil
}

// writeReplyTimesJSON writes the "reply_times" key of the JSON (of an
// analysis or a document), players numbered by seat (engine.Seat), when
// the replay has reply times.
func writeReplyTimesJSON(j *jsonWriter, rt []ReplyTimes) {
	if rt == nil {
		return
	}
	j.key("reply_times", false)
	jsonArray(j, rt, func(r ReplyTimes) {
		j.raw("{")
		j.key("seat", true)
		j.value(engine.Seat(r.Player))
		j.key("turns", false)
		j.value(r.Turns)
		j.key("median_us", false)
		j.value(r.Median)
		j.key("max_us", false)
		j.value(r.Max)
		j.key("slowest", false)
		jsonArray(j, r.Slowest, func(s SlowTurn) {
			j.raw("{")
			j.key("turn", true)
			j.value(s.Turn)
			j.key("us", false)
			j.value(s.Micros)
			j.raw("}")
		})
		j.raw("}")
	})
}

// writeReplyTimesTable writes the reply times as lines of the text table
// (of an analysis or a document), a player's name by name: per seat its
// median, its max and its slowest turns.
func writeReplyTimesTable(w io.Writer, rt []ReplyTimes, name func(p int) string) {
	if rt == nil {
		return
	}
	fmt.Fprintln(w, "reply times (median, max; slowest turns):")
	for _, r := range rt {
		if r.Turns == 0 {
			fmt.Fprintf(w, "  seat %d %s: not timed\n", engine.Seat(r.Player), name(r.Player))
			continue
		}
		fmt.Fprintf(w, "  seat %d %s: median %s, max %s over %d turns; slowest:", engine.Seat(r.Player), name(r.Player), ReplyText(r.Median), ReplyText(r.Max), r.Turns)
		for i, s := range r.Slowest {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(w, "%s turn %d (%s)", sep, s.Turn, ReplyText(s.Micros))
		}
		fmt.Fprintln(w)
	}
}

// ReplyText writes a reply time of us microseconds in milliseconds,
// rounded: "0.42 ms" below 10 ms, "12.3 ms" below a second, "1234 ms".
func ReplyText(us int64) string {
	switch {
	case us < 9_995:
		h := (us + 5) / 10
		return fmt.Sprintf("%d.%02d ms", h/100, h%100)
	case us < 999_950:
		h := (us + 50) / 100
		return fmt.Sprintf("%d.%d ms", h/10, h%10)
	}
	return strconv.FormatInt((us+500)/1000, 10) + " ms"
}

// replyTimes is the reply times of the document's analysis, nil without
// one (a document read back from an index keeps none).
func (a *Document) replyTimes() []ReplyTimes {
	if a.G == nil {
		return nil
	}
	return a.G.ReplyTimes
}
