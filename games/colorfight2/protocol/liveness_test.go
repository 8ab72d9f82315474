package protocol

import (
	"testing"
	"time"
)

// Issue 25, "a hung bot in lock-step": a client that registers and never
// sends costs at most LockstepMisses deadlines; the game then runs at the
// speed of the others and finishes.
func TestLockstepSilentPlayerCostsKDeadlines(t *testing.T) {
	ts := newTestServer(t, Options{LockstepDeadline: 10 * time.Second})
	cfg := lockstep(200, "greedy")
	cfg.MaxPlayer = 2
	gc, _, _ := ts.startPlayers(cfg, "hung")
	for k := 1; k <= DefaultLockstepMisses; k++ {
		ts.clk.Advance(10 * time.Second) // the deadline of round k
		waitState(t, gc, atTurn(k+1))
	}
	// no more deadlines: the game finishes on its own
	id := ts.s.Games()[0].ID
	if g := ts.waitTurn(id, 200); g.Turn != 200 {
		t.Fatalf("game stopped at turn %d", g.Turn)
	}
	if st := readState(t, ts.dial("r", "game_channel")); st.Turn != 200 {
		t.Errorf("turn %d", st.Turn)
	}
}

// A dropped player that registers again (same name and password) takes
// its seat back and holds rounds again; the others go on meanwhile.
func TestLockstepDroppedPlayerReconnects(t *testing.T) {
	ts := newTestServer(t, Options{LockstepDeadline: 10 * time.Second, LockstepMisses: 2})
	gc, ab, _ := ts.startPlayers(lockstep(200), "a", "b")
	b := ab[1]
	for turn := 2; turn <= 3; turn++ {
		b.command()
		ts.clk.Advance(10 * time.Second) // a is silent
		waitState(t, gc, atTurn(turn))
	}
	// a is dropped: b alone paces the game, without deadlines
	for turn := 4; turn <= 8; turn++ {
		b.command()
		waitState(t, gc, atTurn(turn))
	}
	dropped := func() bool {
		r := ts.s.room("r")
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.g.seats[0].p.dropped
	}
	if !dropped() {
		t.Fatal("a is not marked dropped")
	}
	// a wrong password does not take the seat
	a2 := ts.action("r")
	wantErr(t, a2.send(map[string]any{"action": "register", "username": "a", "password": "x", "join_key": ""}), "Username exists")
	if !dropped() {
		t.Fatal("a wrong password took the seat back")
	}
	if uid := a2.register("a", "pa"); uid != 1 {
		t.Errorf("reconnect uid %d", uid)
	}
	if dropped() {
		t.Fatal("a registered again but is still dropped")
	}
	// a holds rounds again: b's commands alone do not make the round
	// ready; with a's it runs at once
	b.command()
	r := ts.s.room("r")
	r.mu.Lock()
	ready, turn := r.g.allReady(), r.g.turn
	r.mu.Unlock()
	if ready || turn != 8 {
		t.Errorf("turn %d ready %v without a's commands", turn, ready)
	}
	a2.command()
	waitState(t, gc, atTurn(9))
}
