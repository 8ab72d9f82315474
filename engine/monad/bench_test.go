package monad_test

import (
	"testing"

	"github.com/rewind-game/rewind/conform"
	"github.com/rewind-game/rewind/engine/monad"
)

type benchTurn struct {
	cmds     [][]monad.Command
	timedOut []int
}

// loadBench reads vector name from testdata and returns its turns, parsed.
func loadBench(b *testing.B, name string) (*conform.MonadVector, []benchTurn) {
	b.Helper()
	v, err := conform.ReadMonadVector("../../testdata/monad/" + name + ".commands.json")
	if err != nil {
		b.Fatal(err)
	}
	turns := make([]benchTurn, len(v.Turns))
	for t := range turns {
		turns[t].cmds, turns[t].timedOut = v.Commands(t)
	}
	return v, turns
}

// runBench times turns[from:] from state start (the state before turn
// from): one op is one turn; the state is restored outside the timer when
// the cycle wraps.
func runBench(b *testing.B, start *monad.State, turns []benchTurn, from int) {
	s := start.Clone()
	s.Step(turns[from].cmds) // warm the scratch buffers
	s.CopyFrom(start)
	n := len(turns) - from
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % n
		if k == 0 && i > 0 {
			b.StopTimer()
			s.CopyFrom(start)
			b.StartTimer()
		}
		tr := &turns[from+k]
		for _, p := range tr.timedOut {
			s.SetTimedOut(p)
		}
		s.Step(tr.cmds)
	}
}

// BenchmarkMonadTurn times one turn of vector m04 (4 players, the engine's
// full 1000 turns) in mid-game: it cycles through turns 500..999, starting
// each cycle from the state before turn 500, so ns/op is the time per turn.
// Commands are parsed beforehand.
func BenchmarkMonadTurn(b *testing.B) {
	v, turns := loadBench(b, "m04")
	s, err := monad.New(v.Config())
	if err != nil {
		b.Fatal(err)
	}
	const mid = 500
	for t := 0; t < mid; t++ {
		s.Step(turns[t].cmds)
	}
	runBench(b, s, turns, mid)
}

// BenchmarkMonadVector times every turn of each vector (one op is one
// turn, averaged over the whole game), for comparison with the reference
// engine's time per turn on the same vectors (testdata/refbench.py).
func BenchmarkMonadVector(b *testing.B) {
	for _, name := range []string{"m01", "m02", "m03", "m04", "m05", "m06"} {
		b.Run(name, func(b *testing.B) {
			v, turns := loadBench(b, name)
			s, err := monad.New(v.Config())
			if err != nil {
				b.Fatal(err)
			}
			runBench(b, s, turns, 0)
		})
	}
}

// BenchmarkMonadParse times parsing one turn's replies of m04, turns
// 500..999 (one op is one turn: every player's raw commands through
// ParseCommand), the part of a turn BenchmarkMonadTurn leaves out.
func BenchmarkMonadParse(b *testing.B) {
	v, _ := loadBench(b, "m04")
	var raw [][]byte
	var ends []int
	for t := 500; t < len(v.Turns); t++ {
		for p := 0; p < v.Players; p++ {
			for _, c := range v.Turns[t].Commands[string(rune('0'+p))] {
				raw = append(raw, c)
			}
		}
		ends = append(ends, len(raw))
	}
	b.ReportAllocs()
	b.ResetTimer()
	k, start := 0, 0
	for i := 0; i < b.N; i++ {
		for _, c := range raw[start:ends[k]] {
			monad.ParseCommand(c)
		}
		start = ends[k]
		k++
		if k == len(ends) {
			k, start = 0, 0
		}
	}
}
