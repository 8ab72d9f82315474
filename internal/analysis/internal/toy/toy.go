// Package toy is a tiny game for the analysis's and report's
// tests only: two to four players claim the cells of a 4×4 square board.
// It declares two metrics (claims, a counter; cells, a gauge and the
// score), one event kind (claim) and ranks by cells. Seq makes it
// Sequential: one player acts per round, in turn. Stream plays a script
// of it as an engine.Stream, frames filled with source.Observe.
package toy

import (
	"fmt"
	"io"
	"slices"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/source"
)

// Board size.
const W, H = 4, 4

// Error codes.
const (
	ErrMalformed = 1 // not "claim X Y" with 0 <= X < W, 0 <= Y < H
	ErrOwned     = 2 // the cell is already the player's
	ErrFault     = 9 // the player's bot failed to answer (Index -1)
)

// Ruleset is the toy's rules; Seq plays one player per round.
type Ruleset struct{ Seq bool }

// ID implements engine.Ruleset.
func (r Ruleset) ID() string {
	if r.Seq {
		return "toyseq"
	}
	return "toy"
}

// Version implements engine.Ruleset.
func (Ruleset) Version() int { return 1 }

// Metrics implements engine.Ruleset: claims (counter), cells (gauge).
func (Ruleset) Metrics() []engine.Metric {
	return []engine.Metric{{Name: "claims", Unit: "claims", Kind: engine.Counter}, {Name: "cells", Unit: "cells", Kind: engine.Gauge}}
}

// ScoreMetric implements engine.Ruleset: cells.
func (Ruleset) ScoreMetric() int { return 1 }

// ClaimText is the claim event's sentence.
const ClaimText = "{player} claims ({x}, {y}) from {other} ({value} cells)"

// EventKinds implements engine.Ruleset.
func (Ruleset) EventKinds() []engine.EventKind {
	return []engine.EventKind{{Name: "claim", Text: ClaimText}}
}

// NewFromSetup implements engine.Ruleset: a toy game starts from a seed
// only.
func (Ruleset) NewFromSetup([]byte, engine.Settings) (engine.Game, error) {
	return nil, engine.ErrSeedOnly
}

// New implements engine.Ruleset.
func (r Ruleset) New(seed uint64, s engine.Settings) (engine.Game, error) {
	if s.Players < 1 || s.Players > 4 {
		return nil, fmt.Errorf("toy: %d players", s.Players)
	}
	g := &Game{seq: r.Seq, n: s.Players, maxTurns: s.MaxTurns, claims: make([]int64, s.Players), faults: make([]engine.Fault, s.Players)}
	if g.maxTurns == 0 {
		g.maxTurns = 8
	}
	for i := range g.owner {
		g.owner[i] = -1
	}
	return g, nil
}

// Game is a toy game in progress.
type Game struct {
	seq      bool
	n, turn  int
	maxTurns int
	owner    [W * H]int
	claims   []int64
	faults   []engine.Fault
	events   []engine.Event
	errs     []engine.CommandError
}

func (g *Game) Players() int  { return g.n }
func (g *Game) Turn() int     { return g.turn }
func (g *Game) MaxTurns() int { return g.maxTurns }
func (g *Game) Over() bool    { return g.turn >= g.maxTurns }

// Fault makes p's next round send nothing (and draw an ErrFault error).
func (g *Game) Fault(p int, f engine.Fault, text string) { g.faults[p] = f }

// Active implements engine.Game: the player to act, in turn, in a
// Seq game; -1 in the other kind (as for a Game that does not implement
// Sequential) and once the game is over.
func (g *Game) Active() int {
	if g.Over() || !g.seq {
		return -1
	}
	return g.turn % g.n
}

func (g *Game) cells(p int) int64 {
	var c int64
	for _, o := range g.owner {
		if o == p {
			c++
		}
	}
	return c
}

// Round plays every player in order (Seq: the active one): each "claim
// X Y" takes the cell, whoever held it.
func (g *Game) Round(cmds [][]string) []engine.CommandError {
	g.events, g.errs = g.events[:0], g.errs[:0]
	if g.Over() {
		return nil
	}
	for p := 0; p < g.n; p++ {
		if g.seq && p != g.Active() {
			continue
		}
		if g.faults[p] != 0 {
			g.faults[p] = 0
			g.errs = append(g.errs, engine.CommandError{Player: p, Index: -1, Code: ErrFault, Text: "no answer"})
			continue
		}
		if p >= len(cmds) {
			continue
		}
		for i, c := range cmds[p] {
			var x, y int
			if n, err := fmt.Sscanf(c, "claim %d %d", &x, &y); n != 2 || err != nil || x < 0 || y < 0 || x >= W || y >= H {
				g.errs = append(g.errs, engine.CommandError{Player: p, Index: i, Code: ErrMalformed, Text: "malformed"})
				continue
			}
			k := y*W + x
			if g.owner[k] == p {
				g.errs = append(g.errs, engine.CommandError{Player: p, Index: i, Code: ErrOwned, Text: "already yours"})
				continue
			}
			other := g.owner[k]
			g.owner[k] = p
			g.claims[p]++
			g.events = append(g.events, engine.Event{Kind: "claim", Player: p, Other: other, X: x, Y: y, Value: g.cells(p)})
		}
	}
	g.turn++
	return g.errs
}

// Events implements engine.Game.
func (g *Game) Events(dst []engine.Event) []engine.Event { return append(dst, g.events...) }

// Setting implements engine.Game: nothing to describe.
func (g *Game) Setting() [][2]string { return nil }

// Setup implements engine.Game: nil, the seed is enough.
func (g *Game) Setup() []byte { return nil }

func (g *Game) Hash() uint64 {
	h := uint64(g.turn)
	for _, o := range g.owner {
		h = h*31 + uint64(o+1)
	}
	return h
}

// Values implements engine.Game: claims, cells.
func (g *Game) Values(p int, dst []int64) []int64 { return append(dst, g.claims[p], g.cells(p)) }

func (g *Game) Board(b *engine.Board) {
	b.Topology = engine.Square
	b.Resize(W, H)
	for i, o := range g.owner {
		b.Cells[i] = engine.Cell{Owner: o}
	}
}

// Ranking implements engine.Game: most cells first, ties by player.
func (g *Game) Ranking() []int {
	r := make([]int, g.n)
	for i := range r {
		r[i] = i
	}
	slices.SortStableFunc(r, func(a, b int) int { return int(g.cells(b) - g.cells(a)) })
	return r
}

// Turn is one round of a script: each player's commands and the faults
// reported before it.
type Turn struct {
	Cmds   [][]string
	Faults []engine.Fault
}

// Stream plays a script of a toy game as an engine.Stream.
type Stream struct {
	meta    engine.StreamMeta
	g       engine.Game
	fig     *source.Figures
	script  []Turn
	started bool
	i       int
}

// NewStream starts a game of r (a toy Ruleset, or any other) for names'
// players, seed 1, and plays script round by round through the seam (it
// ends early when the game is over).
func NewStream(r engine.Ruleset, names []string, maxTurns int, script []Turn) (*Stream, error) {
	g, err := r.New(1, engine.Settings{Players: len(names), MaxTurns: maxTurns, Names: names})
	if err != nil {
		return nil, err
	}
	m := source.MetaOf(r, len(names))
	m.Format = "toy"
	m.Sequential = g.Active() >= 0
	m.Seed, m.Seeded = 1, true
	m.MaxTurns = g.MaxTurns()
	for _, n := range names {
		m.Players = append(m.Players, engine.StreamPlayer{Name: n, Bot: "bot-" + n})
	}
	m.Resimulated = true
	return &Stream{meta: m, g: g, script: script, fig: source.NewFigures(r, len(names), m.Resimulated)}, nil
}

func (s *Stream) Meta() *engine.StreamMeta { return &s.meta }
func (s *Stream) Close() error             { return nil }

// SkipCommandText is ignored (engine.Stream): the toy keeps every text.
func (*Stream) SkipCommandText() {}

// Next implements engine.Stream.
func (s *Stream) Next(f *engine.Frame) error {
	n := s.g.Players()
	f.Errors = f.Errors[:0]
	f.Faults = slices.Grow(f.Faults[:0], n)[:n]
	clear(f.Faults)
	f.FaultText = f.FaultText[:0]
	f.Logs = f.Logs[:0]
	f.Commands = slices.Grow(f.Commands[:0], n)[:n]
	clear(f.Commands)
	if !s.started {
		s.started = true
		source.Observe(s.g, f)
		f.Active, f.CommandsKnown = -1, false
		return s.fig.Append(s.g, f)
	}
	if s.i >= len(s.script) || s.g.Over() {
		return io.EOF
	}
	t := s.script[s.i]
	s.i++
	active := s.g.Active()
	for p, fl := range t.Faults {
		if fl != 0 {
			s.g.Fault(p, fl, fl.String())
			f.Faults[p] = fl
		}
	}
	errs := s.g.Round(t.Cmds)
	f.Errors = append(f.Errors, errs...)
	source.Observe(s.g, f)
	f.Active, f.CommandsKnown = active, true
	for p := 0; p < n && p < len(t.Cmds); p++ {
		if (active < 0 || active == p) && f.Faults[p] == 0 {
			f.Commands[p] = t.Cmds[p]
		}
	}
	return s.fig.Append(s.g, f)
}
