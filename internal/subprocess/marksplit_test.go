package subprocess

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/match"
)

// splitAll runs a round's stderr through markSplit in pieces cut at
// every cut (byte offsets), then ends the round.
func splitAll(stderr string, cuts ...int) (log string, marks []string) {
	var s markSplit
	var lb bytes.Buffer
	logf := func(p []byte) { lb.Write(p) }
	markf := func(p []byte) { marks = append(marks, string(p)) }
	last := 0
	for _, c := range append(cuts, len(stderr)) {
		s.split([]byte(stderr[last:c]), logf, markf)
		last = c
	}
	s.roundEnd(logf, markf)
	return lb.String(), marks
}

// TestMarkSplit: the lines that start with match.MarkPrefix are marks
// (their text, without the line's end), everything else is the log byte
// for byte — however the pipe cuts the stream; a mark line longer than
// match.MaxMarkLine keeps one byte more (to say so); a round that ends
// inside a mark line keeps what it has as a mark; a line that only
// begins like the prefix is log.
func TestMarkSplit(t *testing.T) {
	long := strings.Repeat("x", match.MaxMarkLine+40)
	stderr := "thinking\n" + match.MarkPrefix + `{"dot":[1,2]}` + "\n" +
		"rewind:markers are fun\n\n" + match.MarkPrefix + `{"cell":[0,0]}` + "\r\n" +
		"  " + match.MarkPrefix + "indented is log\n" + match.MarkPrefix + long + "\n" +
		"rew"
	wantLog := "thinking\nrewind:markers are fun\n\n  " + match.MarkPrefix + "indented is log\nrew"
	wantMarks := []string{`{"dot":[1,2]}`, `{"cell":[0,0]}`, long[:match.MaxMarkLine+1]}
	for cut := 0; cut <= len(stderr); cut++ {
		log, marks := splitAll(stderr, cut)
		if log != wantLog || fmt.Sprint(marks) != fmt.Sprint(wantMarks) {
			t.Fatalf("cut at %d: log %q, marks %q; want %q, %q", cut, log, marks, wantLog, wantMarks)
		}
	}
	if log, marks := splitAll(match.MarkPrefix + `{"dot":[3`); log != "" || len(marks) != 1 || marks[0] != `{"dot":[3` {
		t.Fatalf("a mark cut by the round's end: log %q, marks %q", log, marks)
	}
}

// FuzzMarkSplit: whatever the bot writes, the log is what it wrote
// without its mark lines, and no mark is longer than MaxMarkLine+1.
func FuzzMarkSplit(f *testing.F) {
	f.Add("a\n"+match.MarkPrefix+"{}\nb", 3)
	for _, m := range []string{`{"dot":[5]}`, `{"dot":[]}`, `{"dot":[1,2,3]}`, `{"line":[[1,2]]}`, `{"DOT":[1,2]}`} {
		f.Add(match.MarkPrefix+m+"\nlog\n", len(match.MarkPrefix)+3)
	}
	f.Fuzz(func(t *testing.T, stderr string, cut int) {
		if cut < 0 || cut > len(stderr) {
			return
		}
		log, marks := splitAll(stderr, cut)
		var want strings.Builder
		for _, line := range strings.SplitAfter(stderr, "\n") {
			if !strings.HasPrefix(line, match.MarkPrefix) {
				want.WriteString(line)
			}
		}
		if log != want.String() {
			t.Fatalf("log %q, want %q", log, want.String())
		}
		for _, m := range marks {
			if len(m) > match.MaxMarkLine+1 {
				t.Fatalf("a mark of %d bytes", len(m))
			}
		}
	})
}
