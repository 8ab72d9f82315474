package protocol

import (
	"strings"
	"testing"
	"time"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/replay"
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

// A lock-step round released at the deadline records, for each remote
// player who sent no command message, a bot fault saying so — the pending
// list still plays; a player who sent is not faulted. The state message
// shows the fault among the player's errors, and the raw text of the
// commands after it stays theirs.
func TestLockstepMissedRoundIsAFault(t *testing.T) {
	ts := newTestServer(t, Options{LockstepDeadline: 5 * time.Second})
	gc, ab, _ := ts.startPlayers(lockstep(200, "turtle"), "a", "b")
	a, b := ab[0], ab[1]
	id := ts.s.Games()[0].ID
	// turn 1: only b sends (a failing command); a misses the round
	b.command("a 99 99 1")
	ts.clk.Advance(5 * time.Second)
	st := waitState(t, gc, atTurn(2))
	if got := st.Error["1"]; len(got) != 1 || !strings.Contains(got[0], "no commands by the lock-step deadline") {
		t.Errorf("a's errors at turn 2: %q, want the missed round", got)
	}
	if got := st.Error["2"]; len(got) != 1 || got[0] != "a 99 99 1 failed, Attack position is not in the map." {
		t.Errorf("b's errors at turn 2: %q", got)
	}
	// turn 2: both send; the round runs without the deadline, no fault
	a.command("a 99 99 2")
	b.command()
	st = waitState(t, gc, atTurn(3))
	if got := st.Error["1"]; len(got) != 1 || got[0] != "a 99 99 2 failed, Attack position is not in the map." {
		t.Errorf("a's errors at turn 3: %q", got)
	}
	ts.waitTurn(id, 3)
	faults := map[int][]int{} // uid -> turns with a fault
	ts.closeAndResimulate(func(game *replay.Sim) {
		for i, l := range game.Game().(*colorfight2.Game).Applied() {
			for _, c := range l {
				if c.Err == colorfight2.ErrBotFault {
					faults[i+1] = append(faults[i+1], game.Round().Turn)
				}
			}
		}
	})
	if len(faults) != 1 || len(faults[1]) != 1 || faults[1][0] != 1 {
		t.Errorf("recorded faults %v, want a's at turn 1 only", faults)
	}
}
