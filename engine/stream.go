package engine

import (
	"encoding/json"
	"io"
	"time"

	"github.com/rewind-game/rewind/internal/resize"
)

// This file holds the frame stream: any game, from any file (a .rwd
// re-simulated, an official replay decoded by its Format), as the shell
// reads it.

// Frame is one moment of any game as the generic shell sees it, read
// through the seam: the values of every declared metric, the board, the
// events and the commands of the round that led to it. Frame 0 is the
// game before its first round.
type Frame struct {
	// Turn is the number of rounds played (player-turns in a game whose
	// players act in turn: Game.Active).
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
	Faults    []Fault
	FaultText []string
	// Errors are the commands of the round that drew an error.
	Errors []CommandError
	// Values[p] are player p's values, one per StreamMeta.Metrics.
	Values [][]int64
	// Events happened in the round that led here.
	Events []Event
	// Board is the board after the round.
	Board Board
	// Logs[p] is what player p's bot logged while choosing the round's
	// commands (nil when nothing).
	Logs [][]byte
	// ReplyTimes[p] is how long player p's bot took to answer for the
	// round, from the moment it was asked to its answer; negative for a
	// seat not timed (a built-in, a seat not asked). Empty when the
	// source has no reply time for the round. Side data, not part of the
	// game.
	ReplyTimes []time.Duration
	// Marks are what the bots drew for the round (their replies to turn
	// Turn-1, about the board they were shown: the frame before this
	// one), in player order. Side data, not part of the game.
	Marks []BotMark
	// Ranking is the players best first after the round.
	Ranking []int
	// Over says the game is over after the round (Game.Over), in
	// a stream whose StreamMeta.EndKnown; false otherwise.
	Over bool
}

// Reset sizes f for n players with every list empty, reusing its
// storage: Commands and Values hold n empty lists, Faults, FaultText and
// Logs n zero values, Errors, Events, ReplyTimes and Marks none; Active is -1 and
// CommandsKnown false. Turn, Board and Ranking are the source's to fill.
func (f *Frame) Reset(n int) {
	f.Active, f.CommandsKnown, f.Over = -1, false, false
	f.Commands, f.Values = resize.Lists(f.Commands, n), resize.Lists(f.Values, n)
	f.Faults, f.FaultText, f.Logs = resize.N(f.Faults, n), resize.N(f.FaultText, n), resize.N(f.Logs, n)
	f.Errors, f.Events, f.ReplyTimes, f.Marks = f.Errors[:0], f.Events[:0], f.ReplyTimes[:0], f.Marks[:0]
}

// BotMarkKind is what a bot's mark draws (docs/bot-protocol.md, "Marks").
type BotMarkKind uint8

// Mark kinds.
const (
	// MarkDot is a dot on cell (X, Y).
	MarkDot BotMarkKind = iota + 1
	// MarkLine is a line from cell (X, Y) to cell (X2, Y2).
	MarkLine
	// MarkCell colours cell (X, Y).
	MarkCell
	// MarkText writes Text on cell (X, Y).
	MarkText
)

// String names the kind as the protocol's mark does: "dot", "line",
// "cell" or "text".
func (k BotMarkKind) String() string {
	switch k {
	case MarkDot:
		return "dot"
	case MarkLine:
		return "line"
	case MarkCell:
		return "cell"
	case MarkText:
		return "text"
	}
	return "mark?"
}

// BotMark is one mark a bot drew for a round: side data, recorded beside
// the game (docs/replay-format.md, "Mark record") and drawn by the
// viewer over the board; it never changes the game. Cells are in the
// board's coordinates (Board: X, Y), which are the game's own as its
// protocol writes them.
type BotMark struct {
	// Player is the seat (0-based) whose bot drew it.
	Player int
	Kind   BotMarkKind
	X, Y   int
	// X2, Y2 is a line's other end (MarkLine only).
	X2, Y2 int
	// Color is 0xRRGGBB, or -1 for the seat's colour.
	Color int32
	// Text is a text mark's text (MarkText only).
	Text string
}

// Bounds of the marks a bot draws (docs/limits.md), for the runner, the
// recording and the reader alike.
const (
	// MaxBotMarks is the most marks one seat's bot draws for one round: a
	// runner drops the rest with a note in the round's log, a .rwd writer
	// refuses more and a reader refuses a mark record with more
	// (ErrLimit).
	MaxBotMarks = 256
	// MaxBotMarkTextBytes bounds a text mark's text, in UTF-8 bytes: a
	// runner drops a longer one with a note, a .rwd writer and reader
	// refuse it.
	MaxBotMarkTextBytes = 64
)

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
	// Ruleset and RulesetVersion identify the game (Ruleset).
	Ruleset        string
	RulesetVersion int
	// Format names the file format ("rwd", or an official format's name).
	Format string
	// Label, when set, qualifies the source for the user ("recorded by
	// a pre-Rev 1 server: shown as recorded, not re-simulated").
	Label string
	// Metrics and EventKinds are the ruleset's declarations.
	Metrics    []Metric
	EventKinds []EventKind
	// Score is the index in Metrics of the score (ScoreIndex).
	Score int
	// Sequential is true when one player acts per round.
	Sequential bool
	Players    []StreamPlayer
	MaxTurns   int
	// Seed is the seed the game was drawn from (when Seeded).
	Seed   uint64
	Seeded bool
	// Settings are key/value pairs describing the game (Game.Setting).
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
	// Created is when the recording was made, as its header says (the
	// order standings count games in: docs/ratings.md); zero when the
	// source does not say.
	Created time.Time
	// Document is the game's own analysis document layout
	// (Registration.Document), nil for a game without one.
	Document *Document
}

// Stream is any game as a stream of generic frames.
type Stream interface {
	Meta() *StreamMeta
	// Next fills f with the next frame, reusing its storage; io.EOF after
	// the last.
	Next(f *Frame) error
	// SkipCommandText tells the stream that its reader needs the game
	// but not what was sent (a game's own document:
	// analysis.AnalyzeDocument). Called before the second frame, it lets
	// the stream leave the commands' text out of the frames after it
	// (CommandsKnown false, no Commands; their faults, errors, values,
	// events and board as before); a stream that gains nothing by it
	// ignores it, so a reader must not rely on either.
	SkipCommandText()
	Close() error
}

// Format is an official replay file format of a game (its Registration
// lists it), read as a Stream: a name, how to tell its files and how to
// decode one, in the shape of image.RegisterFormat's.
type Format struct {
	// Name names the format ("skyport-jsn"); a stream of it says so in
	// StreamMeta.Format.
	Name string
	// Exts are the file name endings of the format (".jsn"), for the
	// library to list such files, in the order of preference (an upload
	// of the format named otherwise is kept with the first).
	Exts []string
	// SharedExts: Exts are endings other files have too (".json"), so a
	// file with one is the format's only when Sniff claims its content.
	SharedExts bool
	// DecodeBytes is the most memory Open holds for one file when it
	// decodes the file whole before the first frame (a server reserves
	// it before opening such a file); 0 when the format is read as it
	// goes.
	DecodeBytes int64
	// Sniff reports whether a file starting with prefix (its first
	// SniffBytes bytes, or the whole file when shorter) is of this
	// format. It must not claim a .rwd, nor a file of a format
	// registered before it (Catchall formats are tried last).
	Sniff func(prefix []byte) bool
	// Catchall: Sniff claims broad content (any gzip, any JSON array),
	// so the format is tried after every other one.
	Catchall bool
	// Open reads the file from r; the Stream reads r until Close.
	Open func(r io.Reader) (Stream, error)
	// OpenInferred, when set, is Open with the commands of the rounds
	// inferred from the file's frames where the format holds none
	// (StreamMeta.CommandsInferred), for a reader that shows them; nil:
	// Open.
	OpenInferred func(r io.Reader) (Stream, error)
	// Quiet: Open's errors are worded for the user as they are, without
	// the format's name before them.
	Quiet bool
	// Summarize, when set, summarizes a whole file of the format read
	// from r in a pass of its own, cheaper than reading its frames
	// through Open; nil: a summary reads the frames. Like Open, it
	// fails only when r is not of the format (or its first frame cannot
	// be read); damage after it is the Summary's Damage.
	Summarize func(r io.Reader) (*Summary, error)

	// The operations below are optional: nil when the format has none,
	// which the command that needs one says.

	// Import reads a file of the format that records states but not
	// commands, infers each round's commands and writes to w a .rwd
	// whose commands re-simulate to every frame of it (`rewind
	// import`). A file that no legal commands produce, or with a round
	// the inference does not explain, is not imported: the error is a
	// *RulesError and w may hold a partial recording. A file cut short
	// is imported up to its last whole frame (ImportResult.Warning).
	Import func(r io.Reader, w io.Writer, opts ImportOptions) (*ImportResult, error)
	// Audit plays a file of the format by the rules and lists every
	// frame they do not give, at most limit of each kind (0, or more
	// than the format's own cap: that cap) (`rewind audit`). It fails
	// only when the file cannot be read; what is found is the result.
	Audit func(r io.Reader, limit int) (*AuditResult, error)
	// InferRounds reads a file of the format as Import does and gives
	// its rounds 0 .. upTo-1 to round, in order, as the game plays
	// them: each player's commands as text, and the faults with their
	// text (valid during the call only). It stops after round upTo-1
	// and returns the game's start and the turn the file reached (upTo,
	// or less when it ends first), for a game that plays on from it
	// (`rewind fork`). A round the rules refute or do not explain fails
	// with a *RulesError; an error of round is returned as it is.
	InferRounds func(r io.Reader, upTo int, round func(t int, cmds [][]string, faults []Fault, faultText []string) error) (start *GameStart, reached int, err error)
	// Export reads a recording of the format's game from r (a .rwd, or
	// a file of the format) and writes it to w as a file of the format
	// (`rewind export`), returning the frames written. When r fails
	// after some frames (a recording cut short, a damaged file), the
	// frames read before are still finished as a whole file on w and
	// the error is returned with their number: the caller decides
	// whether to keep them.
	Export func(r io.Reader, w io.Writer) (frames int, err error)
	// Compare re-simulates the .rwd read from rwd and compares every
	// frame, field by field, with the file of the format read from
	// official (`rewind verify --against`). An error reading official
	// before the first frame starts with officialName; Comparison.Err
	// holds the first difference or damage.
	Compare func(rwd, official io.Reader, officialName string) (*Comparison, error)
}

// ImportOptions describe a Format.Import.
type ImportOptions struct {
	// Source names the file imported (its base name goes in the .rwd's
	// header) and SHA256 is the hex SHA-256 of its bytes.
	Source, SHA256 string
	// Created and Tool are the recording's creation time and the
	// program that wrote it.
	Created time.Time
	Tool    string
}

// ImportResult is what a Format.Import wrote.
type ImportResult struct {
	// Rounds and Commands are the rounds recorded and the commands
	// inferred in them.
	Rounds, Commands int
	// Complete is true when the file reached its turn limit and the
	// .rwd has its footer.
	Complete bool
	// Warning says why a file cut short was imported only up to its
	// last whole frame.
	Warning error
}

// AuditResult is what a Format.Audit found.
type AuditResult struct {
	// Rounds is the number of rounds played.
	Rounds int
	// Violations are the frames no commands give, each a line for
	// people (turn, where, the value found and the value the rules
	// allow), in turn order.
	Violations []string
	// Unexplained are the rounds the inference found no commands for
	// while no rule refutes them (the file may still be legal), each a
	// line for people.
	Unexplained []string
	// More is true when violations or unexplained rounds beyond the
	// limit were left out.
	More bool
	// Cut says why the file ends before its end (cut short): the audit
	// covers its Rounds whole rounds; nil otherwise.
	Cut error
}

// RulesError is the error of a Format operation on a file whose frames
// the rules do not give: Violations (each a line for people, as in
// AuditResult) when no commands produce a frame, or, with Unexplained,
// a round the inference does not explain while no rule refutes it (the
// file may still be legal). Turn is the turn of the first such frame;
// Err is the format's own error, whose message it has.
type RulesError struct {
	Turn        int
	Violations  []string
	Unexplained bool
	Err         error
}

func (e *RulesError) Error() string { return e.Err.Error() }

// Unwrap returns the format's own error.
func (e *RulesError) Unwrap() error { return e.Err }

// GameStart is what a game that plays on from an official file starts
// from (Format.InferRounds): the ruleset's setup of the file's game
// (Restorer) and what the file says of its players.
type GameStart struct {
	Ruleset Ruleset
	Setup   []byte
	// Names are the players' names (uid order), MaxTurns the game's
	// turn limit.
	Names    []string
	MaxTurns int
	// Info is the file's own description of its game (a JSON object),
	// kept in a recording that plays on from it; nil when none.
	Info json.RawMessage
	// Verified and Ranking are the players' ratings (uid order) as the
	// file gives them, nil when it does not.
	Verified []bool
	Ranking  []string
}

// Comparison is the outcome of a Format.Compare.
type Comparison struct {
	// Rounds is how many rounds re-simulated consistently with every
	// checkpoint of the .rwd; Complete is true when its footer was
	// reached and matched.
	Rounds   int
	Complete bool
	// Frames is the number of frames found equal.
	Frames int
	// Err is the first problem: nil when every frame is equal and both
	// files end together; the .rwd reader's error for damage (wrapping
	// its ErrTruncated for a recording that stops early); otherwise the
	// first difference, naming the frame, the place, the field and both
	// values.
	Err error
}

// Summary is what a file of a Format says about its game at a glance
// (Format.Summarize), read without re-simulating or analysing it.
type Summary struct {
	// MaxTurn is the game's turn limit (0 when unknown).
	MaxTurn int
	// Players in uid order (uids from 1), each with its Rank (1 best)
	// and Score (the score metric) at the last whole round.
	Players []SummaryPlayer
	// Rounds is the number of whole rounds the file holds.
	Rounds int
	// Complete is true when the file reads to its end; Damage says why
	// reading stopped before it otherwise.
	Complete bool
	Damage   error
	// Winner is the uid ranked first at the last whole round, 0 when
	// there is none; WinnerScore its score.
	Winner      int
	WinnerScore int64
	// Settings describe the game as the file's header does (its map, its
	// configuration), in order, as `rewind info` prints them.
	Settings [][2]string
}

// SummaryPlayer is one player of a Summary.
type SummaryPlayer struct {
	UID   int
	Name  string
	Rank  int
	Score int64
}

// SniffBytes is how much of a file Format.Sniff is shown.
const SniffBytes = 512
