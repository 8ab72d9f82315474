package subprocess

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/match"
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
// log over match.MaxRoundLog is cut and marked; the stderr log file still
// gets everything.
func TestRoundLog(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "stderr.log")
	b := startBot(t, python(t)+" "+quoteArg(filepath.Join("testdata", "logger.py")), Options{Deadline: answerDeadline, StderrLog: logPath})
	for _, turn := range testTurns(10) {
		if _, err := ask(b, turn); err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		got := b.RoundLog()
		if len(got) > match.MaxRoundLog {
			t.Fatalf("turn %d: log of %d bytes", turn, len(got))
		}
		if turn == 5 {
			n := bytes.Count(got, []byte("x"))
			want := strings.Repeat("x", n) + fmt.Sprintf("\n… [%d bytes cut]\n", 20000-n)
			if string(got) != want || n < match.MaxRoundLog-64 {
				t.Fatalf("turn 5: log %q...%q (%d bytes), want %d x and the marker", got[:8], got[max(0, len(got)-30):], len(got), n)
			}
			continue
		}
		if string(got) != wantRoundLog(turn) {
			t.Fatalf("turn %d: log %q, want %q", turn, got, wantRoundLog(turn))
		}
		if wantRoundLog(turn) == "" && got != nil {
			t.Fatalf("turn %d: empty log is not nil", turn)
		}
	}
}
