package subprocess

import (
	"strings"
	"testing"
)

// TestGameNeeded: a bot is created for a well-formed game id only (one
// the start message can carry; whether it is registered is the CLI's to
// check).
func TestGameNeeded(t *testing.T) {
	for _, id := range []string{`chess"`, "Chess", strings.Repeat("a", 33)} {
		if _, err := New(python(t)+" testdata/monad.py", Options{Game: id}); err == nil {
			t.Fatalf("game id %q accepted", id)
		}
	}
}
