package replay

import (
	"fmt"
	"slices"

	"github.com/rewind-game/rewind/engine"
)

// MetaOf fills the ruleset-wide fields of an engine.StreamMeta from r, for a
// game of players players. Metrics and EventKinds are r's, followed for
// a ruleset with engine.Accounting by its AccountMetrics(players) and
// AccountEventKinds: a stream of such a game appends each frame's
// figures to the values, and the accountant's events to the game's,
// with Figures (of the same number of players). players matters only
// for such a ruleset.
func MetaOf(r engine.Ruleset, players int) engine.StreamMeta {
	m := engine.StreamMeta{Ruleset: r.ID(), RulesetVersion: r.Version(), Metrics: r.Metrics(), EventKinds: r.EventKinds()}
	if a := engine.AccountingOf(r); a != nil {
		m.Metrics = append(slices.Clip(m.Metrics), a.AccountMetrics(players)...)
		m.EventKinds = append(slices.Clip(m.EventKinds), a.AccountEventKinds()...)
	}
	m.Document = engine.DocumentOf(r)
	m.Score = engine.ScoreIndex(r)
	return m
}

// Observe fills f's turn, values, events, board, ranking and Over from g
// as it is now, reusing f's storage (a stream of such frames sets
// engine.StreamMeta.EndKnown). The commands, faults, errors and logs are
// the caller's, and so are, for a ruleset with engine.Accounting, the
// figures after the values (Figures.Append).
func Observe(g engine.Game, f *engine.Frame) {
	n := g.Players()
	f.Turn = g.Turn()
	if cap(f.Values) < n {
		f.Values = make([][]int64, n)
	}
	f.Values = f.Values[:n]
	for p := 0; p < n; p++ {
		f.Values[p] = g.Values(p, f.Values[p][:0])
	}
	f.Events = g.Events(f.Events[:0])
	g.Board(&f.Board)
	f.Ranking = append(f.Ranking[:0], g.Ranking()...)
	f.Over = g.Over()
}

// Figures appends to the frames of one stream the figures and events of
// a ruleset with engine.Accounting (after the values of its Metrics and
// its game's events, as MetaOf lists them), from one accountant of the
// stream's game. Every stream
// that fills its frames with Observe appends them with Figures.Append
// after it. A nil *Figures (NewFigures of any other ruleset) appends
// nothing and costs nothing.
type Figures struct {
	acc *engine.Accountant
}

// NewFigures returns the Figures of one stream of a game of r with
// players players, nil when r has no engine.Accounting. commandsKnown
// says whether the stream's rounds are played from their commands
// (engine.Accounting.NewAccountant): it must be the stream's
// engine.StreamMeta.Resimulated, which tells a reader whether the figures of
// metrics with FromCommands are known (engine.Metric).
func NewFigures(r engine.Ruleset, players int, commandsKnown bool) *Figures {
	a := engine.AccountingOf(r)
	if a == nil {
		return nil
	}
	return &Figures{acc: a.NewAccountant(players, commandsKnown)}
}

// Append accounts for g as it is now, the game of frame f, appends each
// player's figures to f.Values[p] and the accountant's events to
// f.Events (after the game's own). It must be called for every frame of
// the stream, in order from frame 0, after Observe filled f. An error
// (the accountant's, wrapped) leaves f's values and events without
// them.
func (x *Figures) Append(g engine.Game, f *engine.Frame) error {
	if x == nil {
		return nil
	}
	if err := x.acc.Observe(g); err != nil {
		return fmt.Errorf("replay: turn %d: %w", g.Turn(), err)
	}
	for p := range f.Values {
		f.Values[p] = x.acc.Values(p, f.Values[p])
	}
	f.Events = x.acc.Events(f.Events)
	return nil
}
