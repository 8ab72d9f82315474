package subprocess

import (
	"strings"
	"testing"
)

// TestGameNeeded: a bot is created for a well-formed game id only (one
// the start message can carry; whether it is registered is the CLI's to
// check), and a Monad bot needs its turn limit.
func TestGameNeeded(t *testing.T) {
	for _, id := range []string{`chess"`, "Chess", strings.Repeat("a", 33)} {
		if _, err := New(python(t)+" testdata/monad.py", Options{Game: id}); err == nil {
			t.Fatalf("game id %q accepted", id)
		}
	}
	if _, err := New(python(t)+" testdata/monad.py", Options{Game: GameMonad}); err == nil {
		t.Fatal("a Monad bot without its turn limit accepted")
	}
}
