// Package engine is the game-agnostic seam between rewind's shell (match
// runners, recorders, the CLI) and a game's rules. A ruleset (package
// games/colorfight2, games/monad) provides a Ruleset; everything the
// shell needs to know about a game it asks through Ruleset and Game.
//
// The seam is deliberately small: commands cross it as the text a bot
// sent, a round is one call, and what the shell may show or chart is
// described by Metrics and Board. A ruleset keeps its own concrete types
// for its hot paths (re-simulating a recording, its own binary record
// layout); the seam is for code that must work for every game.
//
// Contracts every implementation keeps:
//
//   - Determinism: Game.Round is a pure function of the state and the
//     commands (and of faults reported with Fault before it): no clock, no
//     I/O, no map iteration, no floating point. The same seed, settings and
//     rounds give the same Hash on every platform.
//   - Malformed input never fails a round: every command that cannot be
//     played is rejected on its own with a CommandError and the round
//     plays on.
//   - Players are numbered 0..Players()-1 across the seam (a ruleset that
//     numbers them otherwise, like ColorfightII's uids 1..n, converts).
package engine

import "fmt"

// Settings configure a new game. Zero values pick the ruleset's defaults.
type Settings struct {
	// Players is the number of players, 1..the ruleset's maximum.
	Players int
	// MaxTurns is the turn limit; 0 is the ruleset's default.
	MaxTurns int
	// Names are the players' names, in player order (may be shorter than
	// Players; a ruleset that does not keep names ignores them).
	Names []string
}

// Ruleset is one game's rules as the shell sees them.
type Ruleset interface {
	// ID is the ruleset's id, as a .rwd header's "ruleset" names it
	// ("colorfight2", "monad").
	ID() string
	// Version is the version of the rules implemented (a .rwd header's
	// "ruleset_version").
	Version() int
	// Metrics describes, in order, the values Game.Values reports per
	// player. The slice must not be modified.
	Metrics() []Metric
	// New returns the game before its first round, its map drawn from
	// seed as the ruleset specifies. It fails on settings the ruleset
	// cannot play.
	New(seed uint64, s Settings) (Game, error)
}

// Game is one game in progress. It is not safe for concurrent use.
type Game interface {
	// Players returns the number of players.
	Players() int
	// Turn returns the number of rounds played.
	Turn() int
	// MaxTurns returns the turn limit.
	MaxTurns() int
	// Over reports whether the game has ended; Round then does nothing.
	Over() bool
	// Fault reports that player p failed to answer the next round (a
	// timeout, a crash, a garbled reply) with a short description. What a
	// fault does is the ruleset's: ColorfightII records it as one
	// rejected command of that round, Monad marks the player timed out or
	// crashed for good. Faults are part of what decides the next state.
	Fault(p int, f Fault, text string)
	// Round plays one round: cmds[p] are the commands player p sent, as
	// text, in order (a missing or nil list sends nothing). It returns the
	// commands that drew an error (parse errors, illegal moves, faults),
	// valid until the next Round.
	Round(cmds [][]string) []CommandError
	// Hash is a platform-independent hash of everything that decides the
	// game's future, as the ruleset's documentation defines it (it is the
	// hash a .rwd checkpoint of that ruleset holds).
	Hash() uint64
	// Values appends player p's current values, one per Metric in
	// Ruleset.Metrics order, to dst and returns it.
	Values(p int, dst []int64) []int64
	// Board describes the board now into b, reusing b's storage.
	Board(b *Board)
	// Ranking returns the players best first, by the ruleset's ranking.
	Ranking() []int
}

// Fault is the kind of a bot's failure to answer a round.
type Fault uint8

// Faults.
const (
	// FaultTimeout: no answer in time; the bot may answer later rounds.
	FaultTimeout Fault = iota + 1
	// FaultCrash: the bot is gone for good.
	FaultCrash
	// FaultGarbage: the answer was not a reply at all.
	FaultGarbage
)

// String names the fault.
func (f Fault) String() string {
	switch f {
	case FaultTimeout:
		return "timeout"
	case FaultCrash:
		return "crash"
	case FaultGarbage:
		return "garbage"
	}
	return fmt.Sprintf("fault(%d)", uint8(f))
}

// MaxCommandsPerRound is the most commands a player may send in one round
// and a recording hold for it (docs/limits.md): a runner cuts a longer
// list, a .rwd writer refuses it and a reader finds the file damaged.
const MaxCommandsPerRound = 10000

// CommandError is one command of a round that drew an error.
type CommandError struct {
	Player int
	// Index is the command's position in the list the player sent; -1
	// for an error that belongs to no command the player sent (a fault,
	// an implicit action of the ruleset).
	Index int
	// Code is the ruleset's error code (non-zero); Text describes it.
	Code int
	Text string
}

// MetricKind says how a metric evolves.
type MetricKind uint8

// Metric kinds.
const (
	// Gauge is a level at the end of a round (gold held, cells owned).
	Gauge MetricKind = iota
	// Counter is a running total since the game began; it never
	// decreases (units produced, commands rejected).
	Counter
	// Amount is what the round that led to the frame added (cells
	// captured this round, gold spent this round): its total over the
	// game is the sum of its values over the frames, and a frame's value
	// says nothing of the frames before.
	Amount
)

// String names the kind as analysis output and the viewer write it:
// "gauge", "counter" or "amount".
func (k MetricKind) String() string {
	switch k {
	case Counter:
		return "counter"
	case Amount:
		return "amount"
	}
	return "gauge"
}

// Metric describes one per-player value for analysis and charts.
type Metric struct {
	Name string // snake_case identifier, unique within the ruleset
	Unit string // what it counts ("gold", "cells", "units")
	Kind MetricKind
	// FromCommands says the value is counted from the commands the rules
	// applied (ColorfightII's commands, errors, faults, capture_energy
	// and wasted_energy), so a stream whose rounds are shown rather than
	// played from their commands (replay.StreamMeta.Resimulated false:
	// an official replay of states) cannot know it. Such a stream
	// reports -1, "unknown", for it (0 where there is nothing to count,
	// as at frame 0), and a reader neither sums nor compares it: the
	// generic analysis's summary of it is -1 (analysis.MetricSummary).
	FromCommands bool
	// Surge, when set (an Amount's), asks the analysis for this metric's
	// spending surges (engine.Surge).
	Surge Surge
	// Swings, on the score (engine.Scorer), asks the analysis for the
	// big lead swings: lead changes where the new leader gained the most
	// of it on the old one.
	Swings bool
	// Explain, when set (an Amount's), is how the analysis says what a
	// player did of this metric in the rounds before a lead change, %d
	// its sum then ("stole %d gold"): said when the sum is not 0, or
	// always when Explain starts with "+" (which is not said).
	Explain string
}

// Topology is the shape of a board's cells.
type Topology uint8

// Topologies.
const (
	// Square: cell (x, y) touches (x±1, y) and (x, y±1).
	Square Topology = iota
	// Hex: rows of hexagons, odd rows (y = 1, 3, …) shifted left by half a
	// cell relative to even rows, as Monad's map (monad.Neighbor).
	Hex
	// HexAxial: a diamond of hexagons in axial coordinates, as Skyport's
	// map: X is j, Y is k, cell (j, k) touches (j±1, k), (j, k±1),
	// (j-1, k-1) and (j+1, k+1); drawn with (0, 0) at the top, j growing
	// down-left and k down-right.
	HexAxial
)

// String names the topology as the viewer's board scripts take it:
// "square", "hex" or "hex-axial".
func (t Topology) String() string {
	switch t {
	case Hex:
		return "hex"
	case HexAxial:
		return "hex-axial"
	}
	return "square"
}

// Board describes a board for display: its shape and, per cell, what a
// viewer colours and labels. Cells are in row-major order, index y*Width+x.
type Board struct {
	Topology      Topology
	Width, Height int
	// TerrainName, ValueName name what Cell.Terrain and Cell.Value hold
	// ("natural_cost", "units"); Badges names the badge bits (bit i of
	// Cell.Badges is Badges[i]; at most 32).
	TerrainName, ValueName string
	Badges                 []string
	Cells                  []Cell
	// Layers are further numbers per cell a viewer can show (ColorfightII's
	// natural gold and energy), optional: each has len(Cells) values, in
	// cell order, and a board keeps the same layers, by name and order,
	// from frame to frame. Most never change over a game; a viewer packs
	// a layer's values only when they do. At most MaxLayers.
	Layers []Layer
	// Entities and Effects are filled by a Boarder's Extras (Describe
	// empties them first); a Game without it leaves them empty.
	Entities []Entity
	Effects  []Effect
}

// Describe fills b with g's board: Board, then, for a Boarder, Extras.
func Describe(g Game, b *Board) {
	b.Entities = b.Entities[:0]
	b.Effects = b.Effects[:0]
	g.Board(b)
	if x, ok := g.(Boarder); ok {
		x.Extras(b)
	}
}

// Builtin is a built-in bot of a game as its package lists it for the
// registry (package rulesets): its name, one line saying how it plays,
// and how to make one for a seat, its choices drawn from seed.
type Builtin struct {
	Name string
	Doc  string
	New  func(seed uint64) Strategy
}

// Strategy is a built-in bot for one ruleset, played in the process
// through the seam. A game's strategies live beside its rules
// (games/colorfight2/bots/<game>) and are registered in package rulesets.
type Strategy interface {
	// Name is the strategy's registered name ("hunter").
	Name() string
	// Commands appends the commands player p sends for the next Round of
	// g (a Game of the strategy's ruleset, which it may type-assert to
	// its concrete type) to dst and returns it. It must not modify g.
	Commands(g Game, p int, dst []string) []string
}

// VectorFileError is an error of a game's conformance vector code
// (engine.Vectors.Conform) about one of the vector's two files: rewind
// conform puts that file's path before it. It is defined here, below the
// registry, so that vector code the registry imports can return it.
type VectorFileError struct {
	// Expected is true for the expected file, false for the input.
	Expected bool
	Err      error
}

func (e *VectorFileError) Error() string { return e.Err.Error() }

// Unwrap returns the error about the file.
func (e *VectorFileError) Unwrap() error { return e.Err }

// Cell is one cell of a Board.
type Cell struct {
	// Terrain is what the map gives the cell (ColorfightII's natural
	// cost, Monad's resource left).
	Terrain int64
	// Owner is the player holding the cell, or -1.
	Owner int
	// Value is the ruleset's main number for the cell (ColorfightII's
	// attack cost, Monad's unit count).
	Value int64
	// Badges is a bit set over Board.Badges (a building, a hive).
	Badges uint32
}

// Layer is one named number per cell of a Board (Board.Layers).
type Layer struct {
	// Name says what the values are ("natural_gold").
	Name   string
	Values []int64
}

// MaxLayers is the most layers a Board has.
const MaxLayers = 8

// ResizeLayers makes b.Layers the layers names, in that order, each of
// len(b.Cells) values (call it after Resize), reusing their storage;
// the values are the caller's to fill.
func (b *Board) ResizeLayers(names []string) {
	if cap(b.Layers) < len(names) {
		b.Layers = append(b.Layers[:cap(b.Layers)], make([]Layer, len(names)-cap(b.Layers))...)
	}
	b.Layers = b.Layers[:len(names)]
	n := len(b.Cells)
	for i, name := range names {
		l := &b.Layers[i]
		l.Name = name
		if cap(l.Values) < n {
			l.Values = make([]int64, n)
		}
		l.Values = l.Values[:n]
	}
}

// Resize makes b.Cells hold width*height cells, reusing its storage.
func (b *Board) Resize(width, height int) {
	b.Width, b.Height = width, height
	n := width * height
	if cap(b.Cells) < n {
		b.Cells = make([]Cell, n)
	}
	b.Cells = b.Cells[:n]
}
