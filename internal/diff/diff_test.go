package diff_test

import (
	"io"
	"runtime"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/diff"
)

// synthetic is a stream of frames of a 100×100 board with 2 players and
// 3 metrics, turns frames long; from turn split on, its player 2 sends
// "b" and owns cell 0 (else "a"). probe, when set, is called at each
// frame with its turn.
type synthetic struct {
	meta        engine.StreamMeta
	turn, turns int
	split       int
	probe       func(turn int)
}

func newSynthetic(turns, split int) *synthetic {
	s := &synthetic{turns: turns, split: split}
	s.meta = engine.StreamMeta{Ruleset: "synthetic", Format: "test", MaxTurns: turns, EndKnown: true,
		Players: []engine.StreamPlayer{{Name: "one"}, {Name: "two"}},
		Metrics: []engine.Metric{{Name: "gold"}, {Name: "cells"}, {Name: "units"}}}
	return s
}

func (s *synthetic) Meta() *engine.StreamMeta { return &s.meta }
func (s *synthetic) SkipCommandText()         {}
func (s *synthetic) Close() error             { return nil }

func (s *synthetic) Next(f *engine.Frame) error {
	if s.turn > s.turns {
		return io.EOF
	}
	if s.probe != nil {
		s.probe(s.turn)
	}
	f.Reset(2)
	f.Turn = s.turn
	f.Board.Resize(100, 100)
	for i := range f.Board.Cells {
		f.Board.Cells[i] = engine.Cell{Owner: -1}
	}
	f.Ranking = append(f.Ranking[:0], 0, 1)
	b := "a"
	if s.split > 0 && s.turn >= s.split {
		b = "b"
		f.Board.Cells[0].Owner = 1
	}
	for p := range 2 {
		f.Values[p] = append(f.Values[p], int64(s.turn*(p+1)), 1, 2)
	}
	if s.split > 0 && s.turn >= s.split {
		f.Values[1][0] += int64(s.turn % 7)
	}
	if s.turn > 0 {
		f.CommandsKnown = true
		f.Commands[0] = append(f.Commands[0], "a")
		f.Commands[1] = append(f.Commands[1], b)
	}
	f.Over = s.turn == s.turns
	s.turn++
	return nil
}

// TestCompareHoldsNoGame: comparing two streams holds one frame of each
// and a fixed amount per player and metric, whatever their length
// (docs/limits.md, diff): the live heap late in a 20,000-turn game of
// a 10,000-cell board, after a divergence at turn 10, is within 1 MiB of
// the heap early in it.
func TestCompareHoldsNoGame(t *testing.T) {
	const turns = 20000
	var early, late uint64
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	a, b := newSynthetic(turns, 0), newSynthetic(turns, 10)
	b.probe = func(turn int) {
		switch turn {
		case 100:
			early = heap()
		case turns - 10:
			late = heap()
		}
	}
	res, err := diff.Compare(a, b, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != diff.Diverged || res.Commands == nil || res.Commands.Turn != 10 || res.State == nil || res.State.Turn != 10 {
		t.Fatalf("verdict %s, commands %+v, state %+v; want both at turn 10", res.Verdict, res.Commands, res.State)
	}
	if late > early+1<<20 {
		t.Errorf("the heap grew from %d to %d bytes over the game", early, late)
	}
	for _, s := range res.Series {
		if len(s.LeadChanges) > diff.MaxListed {
			t.Errorf("%s seat %d lists %d lead changes, more than %d", s.Metric, s.Seat, len(s.LeadChanges), diff.MaxListed)
		}
	}
}

// TestCompareLists: a state that differs in more cells than MaxListed
// lists MaxListed of them and counts them all.
func TestCompareLists(t *testing.T) {
	a, b := newSynthetic(3, 0), &wideDifference{synthetic: newSynthetic(3, 0)}
	res, err := diff.Compare(a, b, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != diff.DifferentSetups {
		t.Fatalf("verdict %s: the boards differ from turn 0", res.Verdict)
	}
	a, b = newSynthetic(3, 0), &wideDifference{synthetic: newSynthetic(3, 0)}
	b.from = 2
	res, err = diff.Compare(a, b, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	if res.State == nil || res.State.Turn != 2 || res.State.CellsDiffer != 500 || len(res.State.Cells) != diff.MaxListed {
		t.Fatalf("state %+v; want turn 2, 500 cells differing, %d listed", res.State, diff.MaxListed)
	}
	if res.Commands != nil {
		t.Errorf("commands %+v differ; they do not", res.Commands)
	}
	if got := res.State.Cells[1]; got.X != 1 || got.Y != 0 || got.B.Owner != 0 {
		t.Errorf("second cell listed %+v", got)
	}
}

// wideDifference gives player 1 the first 500 cells from turn from on.
type wideDifference struct {
	*synthetic
	from int
}

func (w *wideDifference) Next(f *engine.Frame) error {
	turn := w.turn
	if err := w.synthetic.Next(f); err != nil {
		return err
	}
	if turn >= w.from {
		for i := range 500 {
			f.Board.Cells[i].Owner = 0
		}
	}
	return nil
}
