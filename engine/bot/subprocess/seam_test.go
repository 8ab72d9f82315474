package subprocess

import "testing"

// TestGameNeeded: a bot is created for a registered game only, and a
// Monad bot needs its turn limit.
func TestGameNeeded(t *testing.T) {
	if _, err := New(python(t)+" testdata/monad.py", Options{Game: "chess"}); err == nil {
		t.Fatal("unknown game accepted")
	}
	if _, err := New(python(t)+" testdata/monad.py", Options{Game: GameMonad}); err == nil {
		t.Fatal("a Monad bot without its turn limit accepted")
	}
}
