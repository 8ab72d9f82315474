package rules_test

import (
	"testing"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	cf2vectors "github.com/rewind-game/rewind/games/colorfight2/vectors"
)

// BenchmarkRound times one round of conformance vector c03 (8 players,
// 30×30): one op is one round. It cycles through the vector's 499 command
// rounds, restarting from the initial state outside the timer, so ns/op is
// the time per round.
func BenchmarkRound(b *testing.B) {
	g, initial := c03(b)
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

// c03 loads conformance vector c03 and returns it with its initial state.
func c03(b *testing.B) (*cf2vectors.Game, *colorfight2.State) {
	b.Helper()
	const c03 = "../../../testdata/conformance/c03"
	g, err := cf2vectors.Load(c03+cf2vectors.Input, c03+cf2vectors.Expected)
	if err != nil {
		b.Fatal(err)
	}
	s, err := g.NewState()
	if err != nil {
		b.Fatal(err)
	}
	return g, s
}

// c03Frames plays conformance vector c03 and returns its frames of
// turns 1..max_turn, with the game's configuration.
func c03Frames(b *testing.B) (colorfight2.Config, []colorfight2.Frame) {
	g, s := c03(b)
	s.Step(nil)
	frames := make([]colorfight2.Frame, 0, g.Config.MaxTurn)
	for t := 1; ; t++ {
		var f colorfight2.Frame
		s.Frame(&f)
		frames = append(frames, f)
		if t == g.Config.MaxTurn {
			return g.Config, frames
		}
		s.Step(g.Commands(t, nil))
	}
}

// BenchmarkLoadFrame times State.LoadFrameUnchecked into one state, one
// op a frame, cycling through frames 250 and 251 of vector c03 (8
// players, 30×30), as a stream of an official replay loads each frame
// it has just decoded (in the cache).
func BenchmarkLoadFrame(b *testing.B) {
	cfg, frames := c03Frames(b)
	frames = frames[250:252]
	var s colorfight2.State
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := s.LoadFrameUnchecked(cfg, &frames[i%len(frames)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkFrame times State.Frame, one op a frame, on the states of
// vector c03's frames (loaded outside the timer, every 50 ops).
func BenchmarkFrame(b *testing.B) {
	cfg, frames := c03Frames(b)
	var s colorfight2.State
	var f colorfight2.Frame
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%50 == 0 {
			b.StopTimer()
			if err := s.LoadFrameUnchecked(cfg, &frames[(i/50)%len(frames)]); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		s.Frame(&f)
		i++
	}
}
