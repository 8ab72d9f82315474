package rules_test

import (
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight1/bots"
	"github.com/rewind-game/rewind/games/colorfight1/rules"
)

// TestHashGolden: a game of 8 built-ins (two of each) over 2000 ticks
// ends in a fixed hash, the same on every platform (run under
// GOARCH=386 too): its floats, 2^x and Python's generator included.
func TestHashGolden(t *testing.T) {
	g, err := rules.Ruleset.New(9, engine.Settings{Players: 8, MaxTurns: 2000})
	if err != nil {
		t.Fatal(err)
	}
	var ss []engine.Strategy
	for p := range 8 {
		ss = append(ss, bots.Builtins[p%len(bots.Builtins)].New(uint64(p)))
	}
	cmds := make([][]string, 8)
	hashes := []uint64{g.Hash()}
	for !g.Over() {
		for p := range ss {
			cmds[p] = ss[p].Commands(g, p, cmds[p][:0])
		}
		g.Round(cmds)
		if g.Turn()%500 == 0 {
			hashes = append(hashes, g.Hash())
		}
	}
	want := []uint64{0x6c6c036e6770dd54, 0x1e106a6355634818, 0xbfb9248a1787f495, 0x1e3f1dcaf56a9a16, 0x5846eccf29f484e}
	for i := range want {
		if hashes[i] != want[i] {
			t.Fatalf("hashes %#x, want %#x", hashes, want)
		}
	}
}
