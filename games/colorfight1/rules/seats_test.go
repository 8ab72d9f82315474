package rules_test

import (
	"testing"

	"github.com/rewind-game/rewind/games/colorfight1/rules"
)

// TestSeatIsOneJoin: a seat is one successful join. In a game of 8
// built-ins, a seat whose player died keeps its player's name, and a
// /joingame it sends is refused (CodeJoined) without a new row: a player
// joining again is a new seat.
func TestSeatIsOneJoin(t *testing.T) {
	m := newBuiltinsMatch(t, 8, 3000)
	g, cmds := m.g, m.cmds
	gm := g.(*rules.Game)
	dead := -1
	for !g.Over() && dead < 0 {
		m.tick()
		for p := range 8 {
			if gm.Joined(p) && gm.UID(p) == 0 {
				dead = p
			}
		}
	}
	if dead < 0 {
		t.Fatalf("no player died in %d ticks", g.Turn())
	}
	name, users := gm.PlayerName(dead), len(gm.State.Users)
	if name == "" {
		t.Fatalf("seat %d: no name after its player's death", dead+1)
	}
	for p := range cmds {
		cmds[p] = cmds[p][:0]
		if p == dead {
			cmds[p] = append(cmds[p], `/joingame {"name":"again"}`)
		}
	}
	errs := g.Round(cmds)
	if len(errs) != 1 || errs[0].Player != dead || errs[0].Code != rules.CodeJoined {
		t.Errorf("a second join of seat %d: errors %+v, want one CodeJoined", dead+1, errs)
	}
	if got := gm.PlayerName(dead); got != name || gm.UID(dead) != 0 || len(gm.State.Users) > users {
		t.Errorf("after a second join seat %d is %q (uid %d), %d users; want %q, no player, at most %d users", dead+1, got, gm.UID(dead), len(gm.State.Users), name, users)
	}
}
