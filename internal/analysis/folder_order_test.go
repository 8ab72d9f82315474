package analysis

import (
	"slices"
	"testing"
	"time"
)

// TestInGameOrder: games are ordered by creation time, those without one
// first, then by path; the input is not changed.
func TestInGameOrder(t *testing.T) {
	at := map[string]time.Time{
		"a.rwd": time.Unix(300, 0), "b.rwd": time.Unix(100, 0), "c.cfr": {}, "d.rwd": time.Unix(100, 0), "e.rwd": time.Unix(200, 0),
	}
	in := []string{"a.rwd", "b.rwd", "c.cfr", "d.rwd", "e.rwd"}
	got := InGameOrder(in, func(p string) string { return p }, func(p string) time.Time { return at[p] })
	if want := []string{"c.cfr", "b.rwd", "d.rwd", "e.rwd", "a.rwd"}; !slices.Equal(got, want) {
		t.Errorf("game order %v, want %v", got, want)
	}
	if !slices.Equal(in, []string{"a.rwd", "b.rwd", "c.cfr", "d.rwd", "e.rwd"}) {
		t.Errorf("the input was changed: %v", in)
	}
}
