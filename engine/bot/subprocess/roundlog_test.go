package subprocess

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine/bot"
)

// wantRoundLog is what testdata/logger.py writes to stderr when asked for
// turn t's commands, as RoundLog keeps it.
func wantRoundLog(t int) string {
	switch {
	case t%3 == 0:
		return fmt.Sprintf("turn %d: thinking\n<script>alert(%d)</script> \x1b[31mred\x1b[0m\n", t, t)
	case t == 5:
		return "x" // checked apart: cut
	}
	return ""
}

// TestRoundLog: RoundLog holds exactly what the bot wrote to stderr while
// it was asked for the round's commands, nothing on silent rounds, and a
// log over bot.MaxRoundLog is cut and marked; the stderr log file still
// gets everything.
func TestRoundLog(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "stderr.log")
	b := startBot(t, python(t)+" "+quoteArg(filepath.Join("testdata", "logger.py")), Options{Deadline: answerDeadline, StderrLog: logPath})
	for _, f := range testFrames(t, 10) {
		if _, err := b.Commands(f); err != nil {
			t.Fatalf("turn %d: %v", f.Turn, err)
		}
		got := b.RoundLog()
		if len(got) > bot.MaxRoundLog {
			t.Fatalf("turn %d: log of %d bytes", f.Turn, len(got))
		}
		if f.Turn == 5 {
			n := bytes.Count(got, []byte("x"))
			want := strings.Repeat("x", n) + fmt.Sprintf("\n… [%d bytes cut]\n", 20000-n)
			if string(got) != want || n < bot.MaxRoundLog-64 {
				t.Fatalf("turn 5: log %q...%q (%d bytes), want %d x and the marker", got[:8], got[max(0, len(got)-30):], len(got), n)
			}
			continue
		}
		if string(got) != wantRoundLog(f.Turn) {
			t.Fatalf("turn %d: log %q, want %q", f.Turn, got, wantRoundLog(f.Turn))
		}
		if wantRoundLog(f.Turn) == "" && got != nil {
			t.Fatalf("turn %d: empty log is not nil", f.Turn)
		}
	}
}

// TestCutLog: the marker counts the bytes cut, the result never exceeds
// bot.MaxRoundLog and is not cut inside a UTF-8 sequence.
func TestCutLog(t *testing.T) {
	for _, total := range []int64{bot.MaxRoundLog + 1, bot.MaxRoundLog + 100, 1 << 20, 1 << 40} {
		kept := bytes.Repeat([]byte("é"), bot.MaxRoundLog/2)
		got := cutLog(nil, kept, total)
		if len(got) > bot.MaxRoundLog {
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
	if got := cutLog(nil, []byte("ab\n"), 3); string(got) != "ab\n" {
		t.Fatalf("uncut log %q", got)
	}
}
