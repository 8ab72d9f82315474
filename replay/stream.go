package replay

import (
	"fmt"
	"slices"

	"github.com/rewind-game/rewind/engine"
)

// Frame is one moment of any game as the generic shell sees it, read
// through the seam: the values of every declared metric, the board, the
// events and the commands of the round that led to it. Frame 0 is the
// game before its first round.
type Frame struct {
	// Turn is the number of rounds played (player-turns in a Sequential
	// game).
	Turn int
	// Active is the player who acted in the round that led here, -1 when
	// all players act at once (or for frame 0).
	Active int
	// Commands[p] are player p's commands of the round that led here, as
	// sent; CommandsKnown is false when the source has no command log (a
	// state stream) and Commands is then empty.
	Commands      [][]string
	CommandsKnown bool
	// Faults[p] is the fault recorded for player p before the round, 0
	// for none; FaultText its description.
	Faults    []engine.Fault
	FaultText []string
	// Errors are the commands of the round that drew an error.
	Errors []engine.CommandError
	// Values[p] are player p's values, one per StreamMeta.Metrics.
	Values [][]int64
	// Events happened in the round that led here.
	Events []engine.Event
	// Board is the board after the round.
	Board engine.Board
	// Logs[p] is what player p's bot logged while choosing the round's
	// commands (nil when nothing).
	Logs [][]byte
	// Ranking is the players best first after the round.
	Ranking []int
	// Over says the game is over after the round (engine.Game.Over), in
	// a stream whose StreamMeta.EndKnown; false otherwise.
	Over bool
}

// Reset sizes f for n players with every list empty, reusing its
// storage: Commands and Values hold n empty lists, Faults, FaultText and
// Logs n zero values, Errors and Events none; Active is -1 and
// CommandsKnown false. Turn, Board and Ranking are the source's to fill.
func (f *Frame) Reset(n int) {
	f.Active, f.CommandsKnown, f.Over = -1, false, false
	f.Commands, f.Values = resizeLists(f.Commands, n), resizeLists(f.Values, n)
	f.Faults, f.FaultText, f.Logs = resizeN(f.Faults, n), resizeN(f.FaultText, n), resizeN(f.Logs, n)
	f.Errors, f.Events = f.Errors[:0], f.Events[:0]
}

// StreamPlayer is a player as a generic stream names it.
type StreamPlayer struct {
	Name string
	// Bot is the built-in strategy or command that played, "" when
	// unknown.
	Bot string
}

// StreamMeta is what a generic stream says about its game before its
// frames.
type StreamMeta struct {
	// Ruleset and RulesetVersion identify the game (engine.Ruleset).
	Ruleset        string
	RulesetVersion int
	// Format names the file format ("rwd", or an official format's name).
	Format string
	// Label, when set, qualifies the source for the user ("recorded by
	// a pre-Rev 1 server: shown as recorded, not re-simulated").
	Label string
	// Metrics and EventKinds are the ruleset's declarations.
	Metrics    []engine.Metric
	EventKinds []engine.EventKind
	// Score is the index in Metrics of the score (engine.Scorer).
	Score int
	// Sequential is true when one player acts per round.
	Sequential bool
	Players    []StreamPlayer
	MaxTurns   int
	// Seed is the seed the game was drawn from (when Seeded).
	Seed   uint64
	Seeded bool
	// Settings are key/value pairs describing the game (engine.Describer).
	Settings [][2]string
	// Resimulated is true when frames come from re-simulating recorded
	// commands (exact), false when they are read from a state stream.
	Resimulated bool
	// CommandsInferred is true when the frames' commands (those with
	// Frame.CommandsKnown) are inferred from a state stream's frames, not
	// recorded: canonical commands that the rules turn from one frame
	// into the next, not necessarily what the players sent (an official
	// .cfr read by cfrstream.OpenInferred). A reader shows them as such,
	// as the replay page does ("Inferred commands" in docs/viewer.md).
	CommandsInferred bool
	// EndKnown is true when the frames say whether the game is over
	// (Frame.Over): a stream that plays or loads the game (Observe). A
	// reader tells a game stopped before its end (a match interrupted, a
	// server game stopped: its last frame not Over) from one that ended.
	EndKnown bool
	// Provenance says where a recording's game came from, for people
	// (Header.Provenance: the replay a fork played on from, the official
	// replay an import inferred its commands from), "" when it was
	// recorded as played or the source does not say.
	Provenance string
	// Document is the ruleset's own analysis document layout
	// (engine.Documented), nil for a ruleset without one.
	Document *engine.Document
}

// Stream is any game as a stream of generic frames.
type Stream interface {
	Meta() *StreamMeta
	// Next fills f with the next frame, reusing its storage; io.EOF after
	// the last.
	Next(f *Frame) error
	Close() error
}

// TextSkipper is a Stream that can leave the commands' text out of its
// frames, for a reader that needs the game but not what was sent (a
// game's own document: analysis.AnalyzeDocument). After SkipCommandText,
// called before the second frame, frames have CommandsKnown false and no
// Commands; their faults, errors, values, events and board are as
// before. A wrapper of a Stream forwards it.
type TextSkipper interface {
	SkipCommandText()
}

// MetaOf fills the ruleset-wide fields of a StreamMeta from r, for a
// game of players players. Metrics and EventKinds are r's, followed for
// a ruleset with engine.Accounting by its AccountMetrics(players) and
// AccountEventKinds: a stream of such a game appends each frame's
// figures to the values, and the accountant's events to the game's,
// with Figures (of the same number of players). players matters only
// for such a ruleset.
func MetaOf(r engine.Ruleset, players int) StreamMeta {
	m := StreamMeta{Ruleset: r.ID(), RulesetVersion: r.Version(), Metrics: r.Metrics()}
	if k, ok := r.(engine.EventKinds); ok {
		m.EventKinds = k.EventKinds()
	}
	if a, ok := r.(engine.Accounting); ok {
		m.Metrics = append(slices.Clip(m.Metrics), a.AccountMetrics(players)...)
		m.EventKinds = append(slices.Clip(m.EventKinds), a.AccountEventKinds()...)
	}
	if d, ok := r.(engine.Documented); ok {
		m.Document = d.Document()
	}
	m.Score = engine.ScoreIndex(r)
	return m
}

// Observe fills f's turn, values, events, board, ranking and Over from g
// as it is now, reusing f's storage (a stream of such frames sets
// StreamMeta.EndKnown). The commands, faults, errors and logs are
// the caller's, and so are, for a ruleset with engine.Accounting, the
// figures after the values (Figures.Append).
func Observe(g engine.Game, f *Frame) {
	n := g.Players()
	f.Turn = g.Turn()
	if cap(f.Values) < n {
		f.Values = make([][]int64, n)
	}
	f.Values = f.Values[:n]
	for p := 0; p < n; p++ {
		f.Values[p] = g.Values(p, f.Values[p][:0])
	}
	f.Events = f.Events[:0]
	if e, ok := g.(engine.Evented); ok {
		f.Events = e.Events(f.Events)
	}
	engine.Describe(g, &f.Board)
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
	acc engine.Accountant
}

// NewFigures returns the Figures of one stream of a game of r with
// players players, nil when r has no engine.Accounting. commandsKnown
// says whether the stream's rounds are played from their commands
// (engine.Accounting.NewAccountant): it must be the stream's
// StreamMeta.Resimulated, which tells a reader whether the figures of
// metrics with FromCommands are known (engine.Metric).
func NewFigures(r engine.Ruleset, players int, commandsKnown bool) *Figures {
	a, ok := r.(engine.Accounting)
	if !ok {
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
func (x *Figures) Append(g engine.Game, f *Frame) error {
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
