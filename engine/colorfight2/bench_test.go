package colorfight2_test

import (
	"testing"

	"github.com/rewind-game/rewind/engine/colorfight2"
	cf2vectors "github.com/rewind-game/rewind/engine/colorfight2/vectors"
)

// BenchmarkRound times one round of conformance vector c03 (8 players,
// 30×30): one op is one round. It cycles through the vector's 499 command
// rounds, restarting from the initial state outside the timer, so ns/op is
// the time per round.
func BenchmarkRound(b *testing.B) {
	const c03 = "../../testdata/conformance/c03"
	g, err := cf2vectors.Load(c03+cf2vectors.Input, c03+cf2vectors.Expected)
	if err != nil {
		b.Fatal(err)
	}
	initial, err := g.NewState()
	if err != nil {
		b.Fatal(err)
	}
	initial.Step(nil) // round 0 -> 1 takes no commands
	rounds := make([][][]colorfight2.Command, 0, g.Config.MaxTurn)
	for t := 1; t < g.Config.MaxTurn; t++ {
		rounds = append(rounds, g.Commands(t, nil))
	}
	s := initial.Clone()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(rounds)
		if k == 0 && i > 0 {
			b.StopTimer()
			s.CopyFrom(initial)
			b.StartTimer()
		}
		s.Step(rounds[k])
	}
}
