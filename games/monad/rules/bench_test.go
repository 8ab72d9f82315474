package rules_test

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"

	monad "github.com/rewind-game/rewind/games/monad/rules"
	"github.com/rewind-game/rewind/games/monad/vectors/vectorstest"
)

// The vectors the benchmarks replay (testdata/monad), and the 4-player
// ones among them.
var (
	benchVectors  = []string{"m01", "m02", "m03", "m04", "m05", "m06"}
	bench4Players = []string{"m04", "m06"}
)

// benchTurn is one turn of a vector: the replies as the bots sent them
// and, parsed, as Step takes them.
type benchTurn struct {
	raw      [][]json.RawMessage
	cmds     [][]monad.Command
	timedOut []int
}

// benchGame is one vector ready to replay.
type benchGame struct {
	name    string
	initial *monad.State // before turn 0
	turns   []benchTurn
}

// loadBench reads vector name from testdata and returns its turns, parsed.
func loadBench(b *testing.B, name string) benchGame {
	b.Helper()
	v := vectorstest.Vector(b, "../../../testdata/monad/"+name+".commands.json")
	s, err := monad.New(v.Config())
	if err != nil {
		b.Fatal(err)
	}
	g := benchGame{name: name, initial: s, turns: make([]benchTurn, len(v.Turns))}
	for t := range g.turns {
		tr := &g.turns[t]
		tr.cmds, tr.timedOut = v.Commands(t)
		tr.raw = make([][]json.RawMessage, v.Players)
		for p := range tr.raw {
			tr.raw[p] = v.Turns[t].Commands[strconv.Itoa(p)]
		}
	}
	return g
}

// midGame returns the turns a benchmark calls mid-game in a game of n
// turns: the middle half, [n/4, 3n/4). scripts/monad-reference-bench.py
// times the reference engine on the same turns.
func midGame(n int) (from, to int) { return n / 4, 3 * n / 4 }

// segment is a run of turns of one vector and the state before its first.
type segment struct {
	start *monad.State
	turns []benchTurn
}

// segmentOf plays g up to turn from and returns turns [from, to).
func segmentOf(g benchGame, from, to int) segment {
	s := g.initial.Clone()
	for t := 0; t < from; t++ {
		play(s, &g.turns[t], nil, false)
	}
	return segment{start: s, turns: g.turns[from:to]}
}

// play plays one turn on s: the players who timed out then are marked, and
// the commands are either the pre-parsed ones or, with parse, the raw
// replies through monad.ParseCommand into buf (returned for reuse).
func play(s *monad.State, tr *benchTurn, buf [][]monad.Command, parse bool) [][]monad.Command {
	for _, p := range tr.timedOut {
		s.SetTimedOut(p)
	}
	if !parse {
		s.Step(tr.cmds)
		return buf
	}
	for len(buf) < len(tr.raw) {
		buf = append(buf, nil)
	}
	for p, replies := range tr.raw {
		buf[p] = buf[p][:0]
		for _, c := range replies {
			buf[p] = append(buf[p], monad.ParseCommand(c))
		}
	}
	s.Step(buf[:len(tr.raw)])
	return buf
}

// runSegments times the turns of segs, one op per turn, cycling through
// them in order; each segment starts from its own state, restored outside
// the timer. With parse, a turn includes parsing its raw replies. ns/op is
// the mean time per turn over the segments; the metric med-ns/turn is the
// median of the turns timed one by one (of the first maxTimed turns), as
// scripts/monad-reference-bench.py times the reference's, and robust to
// the odd turn a loaded machine stretches. Timing each turn adds two clock
// readings (tens of ns) to a turn of microseconds.
func runSegments(b *testing.B, segs []segment, parse bool) {
	const maxTimed = 1 << 20
	times := make([]int64, 0, min(b.N, maxTimed))
	var buf [][]monad.Command
	// Warm the scratch buffers of the state used below.
	s := segs[0].start.Clone()
	buf = play(s, &segs[0].turns[0], buf, parse)
	s.CopyFrom(segs[0].start)
	seg, k := 0, 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if k == len(segs[seg].turns) {
			b.StopTimer()
			seg, k = (seg+1)%len(segs), 0
			s.CopyFrom(segs[seg].start)
			b.StartTimer()
		}
		t0 := time.Now()
		buf = play(s, &segs[seg].turns[k], buf, parse)
		if len(times) < maxTimed {
			times = append(times, int64(time.Since(t0)))
		}
		k++
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2]), "med-ns/turn")
}

// BenchmarkMonadRound4PlayersMidGame times one Monad round with 4 players
// in mid-game, beside ColorfightII's BenchmarkRound (package
// games/colorfight2): the middle half of the turns of the two 4-player
// vectors, m04 (turns 250..749 of 1000) and m06 (137..410 of 548),
// commands parsed beforehand. One op is one round; each vector's run
// starts from the state before its first mid-game turn, restored outside
// the timer. scripts/monad-bench.sh compares it with the reference engine
// on the same turns.
func BenchmarkMonadRound4PlayersMidGame(b *testing.B) {
	var segs []segment
	for _, name := range bench4Players {
		g := loadBench(b, name)
		from, to := midGame(len(g.turns))
		segs = append(segs, segmentOf(g, from, to))
	}
	runSegments(b, segs, false)
}

// BenchmarkMonadVector times every turn of each vector (one op is one
// turn, the mean over the whole game), commands parsed beforehand, for
// comparison with the reference engine's time per turn on the same
// vectors (scripts/monad-bench.sh).
func BenchmarkMonadVector(b *testing.B) {
	for _, name := range benchVectors {
		b.Run(name, func(b *testing.B) {
			g := loadBench(b, name)
			runSegments(b, []segment{segmentOf(g, 0, len(g.turns))}, false)
		})
	}
}

// BenchmarkMonadVectorParse is BenchmarkMonadVector with each turn's raw
// replies parsed (monad.ParseCommand) inside the turn, as a match does and
// as the reference turns its bots' command objects into Commands.
func BenchmarkMonadVectorParse(b *testing.B) {
	for _, name := range benchVectors {
		b.Run(name, func(b *testing.B) {
			g := loadBench(b, name)
			runSegments(b, []segment{segmentOf(g, 0, len(g.turns))}, true)
		})
	}
}

// BenchmarkMonadParse times parsing one turn's replies of m04, turns
// 500..999 (one op is one turn: every player's raw commands through
// ParseCommand), the part of a turn BenchmarkMonadRound4PlayersMidGame
// leaves out.
func BenchmarkMonadParse(b *testing.B) {
	g := loadBench(b, "m04")
	var raw []json.RawMessage
	var ends []int
	for _, tr := range g.turns[500:] {
		for _, replies := range tr.raw {
			raw = append(raw, replies...)
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
