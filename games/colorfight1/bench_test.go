package colorfight1

import (
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight1/bots"
	"github.com/rewind-game/rewind/games/colorfight1/rules"
)

// BenchmarkTick measures one tick of a game of 8 players through the
// seam (rules.Game.Round: the poll's world update, then the tick's
// commands, parsed from their text): the ticks 300..1299 of a game of
// the built-ins (two of each), their commands recorded beforehand and
// played again from a copy of the game at tick 300 when they run out.
func BenchmarkTick(b *testing.B) {
	const warm, window = 300, 1000
	play := func() (*rules.Game, [][][]string) {
		eg, err := rules.Ruleset.New(9, engine.Settings{Players: 8, MaxTurns: warm + window})
		if err != nil {
			b.Fatal(err)
		}
		var ss []engine.Strategy
		for p := range 8 {
			ss = append(ss, bots.Builtins[p%len(bots.Builtins)].New(uint64(p)))
		}
		rec := make([][][]string, 0, window)
		for !eg.Over() {
			cmds := make([][]string, 8)
			for p := range ss {
				cmds[p] = ss[p].Commands(eg, p, nil)
			}
			if eg.Turn() >= warm {
				rec = append(rec, cmds)
			}
			eg.Round(cmds)
		}
		return eg.(*rules.Game), rec
	}
	_, rec := play()
	start := func() *rules.Game {
		eg, _ := rules.Ruleset.New(9, engine.Settings{Players: 8, MaxTurns: warm + window})
		var ss []engine.Strategy
		for p := range 8 {
			ss = append(ss, bots.Builtins[p%len(bots.Builtins)].New(uint64(p)))
		}
		cmds := make([][]string, 8)
		for eg.Turn() < warm {
			for p := range ss {
				cmds[p] = ss[p].Commands(eg, p, cmds[p][:0])
			}
			eg.Round(cmds)
		}
		return eg.(*rules.Game)
	}
	g := start()
	alive := 0
	for p := range 8 {
		if g.UID(p) != 0 {
			alive++
		}
	}
	if alive < 6 {
		b.Fatalf("only %d players alive at tick %d", alive, warm)
	}
	b.ReportAllocs()
	b.ResetTimer()
	t := 0
	for i := 0; i < b.N; i++ {
		if t == len(rec) {
			b.StopTimer()
			g, t = start(), 0
			b.StartTimer()
		}
		g.Round(rec[t])
		t++
	}
}
