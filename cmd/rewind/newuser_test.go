package main

import (
	"strings"
	"testing"
)

// What surprised a new user (issue 40): each test here failed on the
// commit before its fix.

// TestTotalsSayTotal (item 5): analyze's table of a ColorfightII game
// heads its columns of cells captured and lost over the game "total …",
// not the names of the per-round series (captured, lost).
func TestTotalsSayTotal(t *testing.T) {
	out, err := runCLIOut(t, "analyze", c06+".cfr")
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Fields(strings.SplitN(out, "\n", 3)[1])
	for _, w := range []string{"captured", "lost", "stolen"} {
		i := strings.Index(strings.Join(head, " "), "total "+w)
		if i < 0 {
			t.Errorf("analyze's table heads %q: no %q", head, "total "+w)
		}
	}
}
