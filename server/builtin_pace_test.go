package server

import (
	"testing"
	"time"
)

// A timed room of built-in bots alone keeps round_time: each round waits
// for the clock (the built-ins answer at once, but their commands are
// applied only when the round is due), so the game does not race to its
// end.
func TestTimedRoundsBuiltinsOnly(t *testing.T) {
	ts := newTestServer(t, Options{})
	cfg := lockstep(200, "greedy", "turtle")
	cfg.RoundTime = 1
	ts.createRoom("r", cfg)
	ts.start("r")
	id := ts.s.Games()[0].ID
	ts.waitTurn(id, 1)
	for turn := 2; turn <= 4; turn++ {
		ts.clk.Advance(time.Second)
		ts.waitTurn(id, turn)
		// The next round is not due: the game cannot have gone further
		// (before the fix the built-ins raced to turn 200 at once).
		if g := ts.s.Games()[0]; g.Turn != turn {
			t.Fatalf("after %d round times the game is at turn %d, want %d", turn-1, g.Turn, turn)
		}
	}
}
