package rules_test

import (
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight1/bots"
	"github.com/rewind-game/rewind/games/colorfight1/rules"
)

// TestSeatIsOneJoin: a seat is one successful join. In a game of 8
// built-ins, a seat whose player died keeps its player's name, and a
// /joingame it sends is refused (CodeJoined) without a new row: a player
// joining again is a new seat.
func TestSeatIsOneJoin(t *testing.T) {
	g, err := rules.Ruleset.New(9, engine.Settings{Players: 8, MaxTurns: 3000})
	if err != nil {
		t.Fatal(err)
	}
	gm := g.(*rules.Game)
	var ss []engine.Strategy
	for p := range 8 {
		ss = append(ss, bots.Builtins[p%len(bots.Builtins)].New(uint64(p)))
	}
	cmds := make([][]string, 8)
	dead := -1
	for !g.Over() && dead < 0 {
		for p := range ss {
			cmds[p] = ss[p].Commands(g, p, cmds[p][:0])
		}
		g.Round(cmds)
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
