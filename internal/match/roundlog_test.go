package match

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rewind-game/rewind/engine"
)

// fullLogger is a built-in whose bot logs a full round log, cut as a bot
// outside the process cuts it (a head of 'é' and the marker line), and
// draws marks that are all dropped, so the runner puts its notes in
// front of that log.
type fullLogger struct {
	GamePlayer
	log []byte
}

func (f *fullLogger) RoundLog() []byte { return f.log }
func (f *fullLogger) RoundMarks() ([][]byte, int) {
	return [][]byte{[]byte(`{"dot":[99,99]}`), []byte(`nonsense`)}, 3
}

// TestMarkNotesKeepLogBound: the notes of dropped marks in front of a
// bot's full log leave the round's log within MaxRoundLog bytes, valid
// UTF-8, starting with the notes and ending in one cut marker that
// counts the bytes left out.
func TestMarkNotesKeepLogBound(t *testing.T) {
	const written = 20000 // the bytes the bot wrote
	marker := "\n… [%d bytes cut]\n"
	head := strings.Repeat("é", (4096-len(fmt.Sprintf(marker, written)))/2)
	botLog := []byte(head + fmt.Sprintf(marker, written-len(head)))
	if len(botLog) > 4096 {
		t.Fatalf("the bot's log is %d bytes", len(botLog))
	}
	rs, _ := engine.Get("colorfight2")
	info, _ := engine.About("colorfight2")
	rec := &keepRounds{}
	if _, err := RunGame(context.Background(), GameConfig{Ruleset: rs, Seed: 5, MaxTurns: 3, Recorder: rec,
		Seats: []GameSeat{{Bot: &fullLogger{GamePlayer: BuiltinPlayer(info.Bots[0]), log: botLog}}, {Bot: BuiltinPlayer(info.Bots[1])}}}); err != nil {
		t.Fatal(err)
	}
	logs := 0
	for i, r := range rec.rounds {
		if len(r.Logs) == 0 || len(r.Logs[0]) == 0 {
			continue
		}
		logs++
		l := r.Logs[0]
		if len(l) > 4096 || !utf8.Valid(l) {
			t.Fatalf("round %d: a log of %d bytes, UTF-8 %v", i, len(l), utf8.Valid(l))
		}
		if !bytes.HasPrefix(l, []byte("rewind: mark 1 dropped: cell [99,99] off the")) {
			t.Fatalf("round %d: the log starts %q", i, l[:min(len(l), 60)])
		}
		notes := bytes.Index(l, []byte("é"))
		at := bytes.LastIndex(l, []byte("\n… ["))
		if notes < 0 || at < notes || bytes.Count(l, []byte("bytes cut]")) != 1 {
			t.Fatalf("round %d: the log %q…%q", i, l[:min(len(l), 300)], l[max(0, len(l)-40):])
		}
		shown := notes + len(l[notes:at])
		if want := fmt.Sprintf(marker, notes+written-shown); string(l[at:]) != want {
			t.Fatalf("round %d: the log ends %q, want %q", i, l[at:], want)
		}
	}
	if logs == 0 {
		t.Fatal("no round logged: the test proves nothing")
	}
}

// TestCutLog: the marker counts the bytes cut, the result never exceeds
// MaxRoundLog and is not cut inside a UTF-8 sequence.
func TestCutLog(t *testing.T) {
	for _, total := range []int64{MaxRoundLog + 1, MaxRoundLog + 100, 1 << 20, 1 << 40} {
		kept := bytes.Repeat([]byte("é"), MaxRoundLog/2)
		got := CutLog(nil, kept, total)
		if len(got) > MaxRoundLog {
			t.Fatalf("total %d: %d bytes", total, len(got))
		}
		i := bytes.LastIndex(got, []byte("\n… ["))
		head := got[:i]
		if !bytes.Equal(head, kept[:len(head)]) || len(head)%2 != 0 {
			t.Fatalf("total %d: head of %d bytes", total, len(head))
		}
		if want := fmt.Sprintf("\n… [%d bytes cut]\n", total-int64(len(head))); string(got[i:]) != want {
			t.Fatalf("total %d: marker %q, want %q", total, got[i:], want)
		}
	}
	if got := CutLog(nil, []byte("ab\n"), 3); string(got) != "ab\n" {
		t.Fatalf("uncut log %q", got)
	}
}

// TestWithNotes: notes in front of a log that fit are the two; over
// MaxRoundLog, the result is cut by CutLog with the count of the log's
// own marker carried on (a log without one has nothing cut of its own).
func TestWithNotes(t *testing.T) {
	notes := "rewind: mark 1 dropped: ✗\n"
	if got := withNotes([]byte(notes), []byte("hi\n")); string(got) != notes+"hi\n" {
		t.Fatalf("fits: %q", got)
	}
	long := strings.Repeat("ab\n", MaxRoundLog/3) // no marker
	marked := CutLog(nil, []byte(strings.Repeat("ü", MaxRoundLog)), 5*MaxRoundLog)
	for _, c := range []struct {
		name    string
		log     string
		written int // bytes of the log's bot, the line end ahead of its marker not counted
	}{
		{"no marker", long, len(long)},
		{"marker", string(marked), 5 * MaxRoundLog},
	} {
		got := withNotes([]byte(notes), []byte(c.log))
		at := bytes.LastIndex(got, []byte("\n… ["))
		if len(got) > MaxRoundLog || !utf8.Valid(got) || !bytes.HasPrefix(got, []byte(notes)) || at < len(notes) {
			t.Fatalf("%s: %d bytes, UTF-8 %v: %q…", c.name, len(got), utf8.Valid(got), got[:min(len(got), 60)])
		}
		shown := at - len(notes)
		if want := fmt.Sprintf("\n… [%d bytes cut]\n", c.written-shown); string(got[at:]) != want {
			t.Fatalf("%s: ends %q, want %q", c.name, got[at:], want)
		}
	}
}
