package replay_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/rewind-game/rewind/engine"
	bot "github.com/rewind-game/rewind/games/colorfight2/bots"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// timedBot is a built-in that says how long it took (match.ReplyTimer):
// reply(turn) for the game's turn it was last asked at.
type timedBot struct {
	match.GamePlayer
	reply func(turn int) time.Duration
	last  time.Duration
}

func (b *timedBot) Commands(g engine.Game, p int) ([]string, error) {
	b.last = b.reply(g.Turn())
	return b.GamePlayer.Commands(g, p)
}

func (b *timedBot) Timed() bool              { return true }
func (b *timedBot) ReplyTime() time.Duration { return b.last }

// testReply is what seat 1 of timedGame takes at turn t (seat 2 is a
// plain built-in, not timed): 17 ms at turn 9, 2 hours (over
// MaxReplyTime) at turn 11, else t+3 tenths of a ms and 40 µs (rounded
// down to the unit), shifted by skew.
func testReply(t int, skew time.Duration) time.Duration {
	switch t {
	case 9:
		return 17 * time.Millisecond
	case 11:
		return 2 * time.Hour
	}
	return time.Duration(t+3)*replay.ReplyTimeUnit + 40*time.Microsecond + skew
}

// timedGame records a game of turns rounds between two built-ins, seat 1
// timed (testReply with skew) when timed is set.
func timedGame(tb testing.TB, turns int, timed bool, skew time.Duration) ([]byte, *match.Result) {
	tb.Helper()
	return playOwn(tb, 5, turns, builtinSeats(tb, func(uid int, b match.GamePlayer) match.GamePlayer {
		if !timed || uid != 1 {
			return b
		}
		return &timedBot{GamePlayer: b, reply: func(t int) time.Duration { return testReply(t, skew) }}
	}, "greedy", "raider"))
}

// TestReplyTimesRecorded: a game with a timed seat is format version 4
// and holds each round's reply times (a time over MaxReplyTime kept as
// it, a seat not timed as negative); two plays whose reply times differ
// are the same game (hash, checkpoints, footer, commands, content hash)
// and verify alike, and a game without a timed seat is still version 1.
func TestReplyTimesRecorded(t *testing.T) {
	const turns = 40
	a, resA := timedGame(t, turns, true, 0)
	b, resB := timedGame(t, turns, true, 5*time.Millisecond)
	plain, resPlain := timedGame(t, turns, false, 0)
	if resA.Hash != resB.Hash || resA.Hash != resPlain.Hash {
		t.Fatal("reply times changed the game")
	}
	if bytes.Equal(a, b) {
		t.Fatal("different reply times recorded the same bytes")
	}
	// The content hash (dedupe, job checks) leaves the reply times out.
	if ha, hb, hp := contentHash(t, a), contentHash(t, b), contentHash(t, plain); ha == "" || ha != hb || ha != hp {
		t.Fatalf("content hashes %q, %q and %q (untimed) of one game with other reply times", ha, hb, hp)
	}
	checkVersion(t, a, replay.VersionReplyTimes, "with reply times")
	checkVersion(t, plain, 1, "without reply times")
	verifyWhole(t, turns, a, b, plain)
	ra, _ := roundsBeside(t, a, plain, func(rd, rdp *replay.TextRound) {
		if rd.Hash != rdp.Hash || rd.HasHash != rdp.HasHash {
			t.Fatalf("round %d differs with reply times", rd.Turn)
		}
		if rdp.ReplyTimes != nil {
			t.Fatalf("round %d: reply times in a file without", rd.Turn)
		}
		if rd.Turn == 0 { // ColorfightII's first round asks no bot
			if rd.ReplyTimes != nil {
				t.Fatalf("round 0: reply times %v", rd.ReplyTimes)
			}
			return
		}
		want := min(testReply(rd.Turn, 0), replay.MaxReplyTime).Truncate(replay.ReplyTimeUnit)
		if len(rd.ReplyTimes) != 2 || rd.ReplyTimes[0] != want || rd.ReplyTimes[1] >= 0 {
			t.Fatalf("round %d: reply times %v, want [%v, not timed]", rd.Turn, rd.ReplyTimes, want)
		}
	})
	if !ra.Header().ReplyTimes {
		t.Fatal("header does not say the file keeps reply times")
	}
	sim, err := replay.OpenSim(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	var f engine.Frame
	for sim.Next() == nil {
		sim.Frame(&f)
		if f.Turn == 10 && (len(f.ReplyTimes) != 2 || f.ReplyTimes[0] != 17*time.Millisecond) {
			t.Fatalf("frame 10's reply times %v, want 17ms for seat 1", f.ReplyTimes)
		}
	}
}

// TestReplyTimesWithLogs: a round with both side records
// (logs, then reply times) reads both.
func TestReplyTimesWithLogs(t *testing.T) {
	bi, _ := engine.Registration{Bots: bot.Builtins}.FindBot("greedy")
	tb := &timedBot{GamePlayer: match.BuiltinPlayer(bi), reply: func(t int) time.Duration { return time.Duration(t) * time.Millisecond }}
	seats := []match.GameSeat{
		{Bot: &loggingBot{GamePlayer: tb, log: func(t int) []byte { return []byte("hi\n") }}},
		{Bot: match.BuiltinPlayer(bi)},
	}
	rec, _ := playOwn(t, 5, 8, seats)
	r, err := replay.NewReader(bytes.NewReader(rec))
	if err != nil {
		t.Fatal(err)
	}
	n := testutil.EachRecord(t, r.NextText, func(rd *replay.TextRound) {
		// loggingBot does not forward ReplyTimer: seat 1 is not timed.
		if rd.Turn > 0 && (string(rd.Logs[0]) != "hi\n") {
			t.Fatalf("round %d: logs %q", rd.Turn, rd.Logs)
		}
	})
	if n != 8 {
		t.Fatalf("%d rounds", n)
	}
}

// replyRecord builds a reply-time record of raw entries (µs + 1, 0 not
// timed), its seat count n.
func replyRecord(n int, entries ...uint64) []byte {
	b := []byte{0x80 | 'R'}
	b = binary.AppendUvarint(b, uint64(n))
	for _, e := range entries {
		b = binary.AppendUvarint(b, e)
	}
	return b
}

// TestReplyTimesBounded: the reader refuses a reply time over
// MaxReplyTime (ErrLimit, naming it), damaged reply-time records
// (ErrCorrupt), and such a record in a file whose version has none (an
// unknown record).
func TestReplyTimesBounded(t *testing.T) {
	data, _ := timedGame(t, 3, true, 0)
	h, err := replay.ReadHeader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	h.Config.MaxTurn = 10
	max := uint64(replay.MaxReplyTime/replay.ReplyTimeUnit) + 1
	cases := []struct {
		name  string
		times bool
		rec   []byte
		want  error
	}{
		{"fits", true, replyRecord(2, max, 0), nil},
		{"over", true, replyRecord(2, max+1, 0), replay.ErrLimit},
		{"one seat", true, replyRecord(1, 5), replay.ErrCorrupt},
		{"three seats", true, replyRecord(3, 5, 5, 5), replay.ErrCorrupt},
		{"none timed", true, replyRecord(2, 0, 0), replay.ErrCorrupt},
		{"cut", true, replyRecord(2, 5), replay.ErrTruncated},
		{"two records", true, append(replyRecord(2, 5, 0), replyRecord(2, 5, 0)...), replay.ErrCorrupt},
		{"before a log record", true, append(replyRecord(2, 5, 0), logRecord(1, []byte("x"))...), replay.ErrCorrupt},
		{"older version", false, replyRecord(2, 5, 0), replay.ErrUnknownRecord},
	}
	for _, c := range cases {
		hc := *h
		hc.ReplyTimes = c.times
		file := craftedBody(t, &hc, nil, c.rec)
		if c.name == "cut" {
			file = craftedRaw(t, &hc, append([]byte{0b0110_0000}, c.rec...))
		}
		r, err := replay.NewReader(bytes.NewReader(file))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		r.NextText() // round 0
		rd, err := r.NextText()
		if c.want == nil {
			if err != nil || rd.ReplyTimes[0] != replay.MaxReplyTime || rd.ReplyTimes[1] >= 0 {
				t.Fatalf("%s: %v %v", c.name, err, rd)
			}
			continue
		}
		var fe *replay.FormatError
		if !errors.Is(err, c.want) || !errors.As(err, &fe) || fe.Round != 1 {
			t.Fatalf("%s: %v, want %v in round 1", c.name, err, c.want)
		}
		if c.want == replay.ErrLimit && !strings.Contains(err.Error(), "1h0m0s") {
			t.Fatalf("%s: %v does not name the limit", c.name, err)
		}
	}
}

// craftedRaw returns a file with h's header and body as its records.
func craftedRaw(t *testing.T, h *replay.Header, body []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := replay.NewGameWriter(&buf, *h); err != nil {
		t.Fatal(err)
	}
	enc, _ := zstd.NewWriter(nil)
	return enc.EncodeAll(body, buf.Bytes())
}

// TestReplyTimesSize measures what reply times add to a recording: a
// 500-round ColorfightII game of 4 seats, every seat timed, against the
// same game untimed — with times of a steady bot (about 2 ms, a jitter
// of a few tenths, a spike of 20–40 ms one turn in 50) and, the worst
// case, times spread evenly over 0.2–30 ms. The figures are in
// docs/replay-format.md.
func TestReplyTimesSize(t *testing.T) {
	const turns, seats = 500, 4
	steady := func(x uint64) time.Duration {
		if x>>40%50 == 0 {
			return 20*time.Millisecond + time.Duration(x>>33%20_000)*time.Microsecond
		}
		return 2*time.Millisecond + time.Duration(x>>33%400)*time.Microsecond
	}
	even := func(x uint64) time.Duration {
		return 200*time.Microsecond + time.Duration(x>>33%29_800)*time.Microsecond
	}
	play := func(times func(uint64) time.Duration) []byte {
		var bots []match.GameSeat
		x := uint64(1)
		for i := range seats {
			bi, _ := engine.Registration{Bots: bot.Builtins}.FindBot([]string{"greedy", "raider", "turtle", "economist"}[i])
			b := match.BuiltinPlayer(bi)
			if times != nil {
				b = &timedBot{GamePlayer: b, reply: func(int) time.Duration {
					x = x*6364136223846793005 + 1442695040888963407
					return times(x)
				}}
			}
			bots = append(bots, match.GameSeat{Bot: b})
		}
		var buf bytes.Buffer
		cfg := match.GameConfig{Ruleset: colorfight2.Ruleset, Seed: 5, MaxTurns: turns, Seats: bots, Recorder: recording.NewRecorder(&buf, created, "rewind test")}
		if _, err := match.RunGame(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	plain := len(play(nil))
	for _, c := range []struct {
		name  string
		times func(uint64) time.Duration
		most  float64 // bytes a seat a round
	}{{"steady", steady, 1.5}, {"even 0.2-30 ms", even, 3}} {
		timed := len(play(c.times))
		per := float64(timed-plain) / turns
		t.Logf("%s: %d seats, %d rounds: %d bytes timed, %d untimed: %.1f bytes a round (%.2f a seat)", c.name, seats, turns, timed, plain, per, per/seats)
		if per > c.most*seats {
			t.Errorf("%s: reply times add %.1f bytes a round for %d seats, want at most %.1f", c.name, per, seats, c.most*seats)
		}
	}
}
