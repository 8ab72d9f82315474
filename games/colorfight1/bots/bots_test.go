package bots

import (
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight1/rules"
)

// TestBotsPlay: four built-ins, one of each, play 3000 ticks (600 s):
// every seat joins, at its own tick (mid-game for all but the first),
// every bot takes cells, few of their commands are refused, and the
// bases, blasts and multiattacks of the strategies that use them occur.
func TestBotsPlay(t *testing.T) {
	g, err := rules.Ruleset.New(3, engine.Settings{Players: len(Builtins), MaxTurns: 3000})
	if err != nil {
		t.Fatal(err)
	}
	var bots []engine.Strategy
	for i, b := range Builtins {
		bots = append(bots, b.New(uint64(i)))
	}
	cmds := make([][]string, len(bots))
	kinds := map[string]int{}
	codes := map[int]int{}
	joined := map[int]int{}
	captures := make([]int64, len(bots))
	sent, refused := 0, 0
	var vals []int64
	for !g.Over() {
		for p := range bots {
			cmds[p] = bots[p].Commands(g, p, cmds[p][:0])
			sent += len(cmds[p])
		}
		turn := g.Turn()
		errs := g.Round(cmds)
		refused += len(errs)
		for _, e := range errs {
			codes[e.Code]++
		}
		var evs []engine.Event
		for _, e := range g.Events(evs) {
			kinds[e.Kind]++
			if _, ok := joined[e.Player]; e.Kind == "join" && !ok {
				joined[e.Player] = turn
			}
		}
		for p := range bots {
			vals = g.Values(p, vals[:0])
			captures[p] += vals[5]
		}
	}
	for p, b := range Builtins {
		if tick, ok := joined[p]; !ok || tick != 3*p {
			t.Errorf("%s (seat %d) joined at tick %d (%v), want %d", b.Name, p, tick, ok, 3*p)
		}
		if captures[p] < 20 {
			t.Errorf("%s took %d cells in 3000 ticks", b.Name, captures[p])
		}
	}
	if refused*10 > sent {
		t.Errorf("%d of %d commands refused", refused, sent)
	}
	for _, k := range []string{"capture", "base_built", "blast", "multiattack"} {
		if kinds[k] == 0 {
			t.Errorf("no %s in the game (events %v)", k, kinds)
		}
	}
	t.Logf("captures %v, %d of %d commands refused (by code %v), events %v, ranking %v", captures, refused, sent, codes, kinds, g.Ranking())
}
