// Package engine is the game-agnostic seam between rewind's shell (match
// runners, recorders, the CLI) and a game's rules. A game (package
// games/<id>) registers a Ruleset (Register); everything the shell needs
// to know about a game it asks through Ruleset and Game, or reads from
// its Registration.
//
// The seam is deliberately small: commands cross it as the text a bot
// sent, a round is one call, and what the shell may show or chart is
// described by Metrics and Board. A ruleset keeps its own concrete types
// for its hot paths (re-simulating a recording, its own binary record
// layout); the seam is for code that must work for every game.
//
// Beyond Ruleset and Game a game may offer a few optional capabilities,
// each checked in one place in this package, with a fallback for a game
// without it: Codec (CodecOf), Accounting (AccountingOf), Messenger
// (MessengerOf), Observer (AppendObservation) and Attendance (Idle, Out,
// PlayerName).
// A wrapper around a Game must forward each one it can (an embedded Game
// hides them).
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

import (
	"errors"
	"fmt"
)

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
	// ScoreMetric is the index in Metrics of the score the shell ranks
	// and shows (ColorfightII's gold, Skyport's score); 0, the first
	// metric, for a game without a score of its own. ScoreIndex reads it.
	ScoreMetric() int
	// EventKinds declares the events its games report (Game.Events),
	// nil for a game that reports none. The slice must not be modified.
	EventKinds() []EventKind
	// New returns the game before its first round, its map drawn from
	// seed as the ruleset specifies. It fails on settings the ruleset
	// cannot play.
	New(seed uint64, s Settings) (Game, error)
	// NewFromSetup returns the game before its first round started from
	// a saved setup instead of a seed (a map file, an imported origin):
	// an opaque byte string the ruleset defines and a .rwd header
	// carries (as base64 JSON). It accepts whatever Game.Setup of its
	// games returned; a ruleset whose games always start from a seed
	// returns ErrSeedOnly.
	NewFromSetup(setup []byte, s Settings) (Game, error)
}

// ErrSeedOnly is NewFromSetup's error of a ruleset whose games start
// from a seed only.
var ErrSeedOnly = errors.New("engine: the game starts from a seed only")

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
	// Active returns the player who acts in the next Round of a game in
	// which one player acts per round (Skyport's): Round then reads only
	// cmds[Active()], and Turn counts those player-turns. It is -1 when
	// the game is over, and always for a game in which every player acts
	// in every round.
	Active() int
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
	// Events appends the events of the last Round, each of a kind of
	// Ruleset.EventKinds, to dst in the order they happened and returns
	// it (a game that reports no events returns dst).
	Events(dst []Event) []Event
	// Board describes the board now into b, reusing b's storage: its
	// cells, and its entities and effects (which it empties first; a
	// board of cells only leaves them empty).
	Board(b *Board)
	// Ranking returns the players best first, by the ruleset's ranking.
	Ranking() []int
	// Setting returns key/value pairs describing the game's settings
	// (map, options), in a fixed order, for `rewind info` and the
	// viewer's header; nil when there is nothing to say.
	Setting() [][2]string
	// Setup returns the bytes Ruleset.NewFromSetup starts the game again
	// from when it started from something its seed does not give (a map
	// file), nil when its seed is enough.
	Setup() []byte
}

// ScoreIndex is the index of r's score among its metrics: its
// ScoreMetric, or 0 when that is out of range.
func ScoreIndex(r Ruleset) int {
	if i := r.ScoreMetric(); i >= 0 && i < len(r.Metrics()) {
		return i
	}
	return 0
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
	// Swings, on the score (Ruleset.ScoreMetric), asks the analysis for the
	// big lead swings: lead changes where the new leader gained the most
	// of it on the old one.
	Swings bool
	// Explain, when set (an Amount's), is how the analysis says what a
	// player did of this metric in the rounds before a lead change, %d
	// its sum then ("stole %d gold"): said when the sum is not 0, or
	// always when Explain starts with "+" (which is not said).
	Explain string
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
