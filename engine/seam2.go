package engine

import (
	"io"
	"strconv"
	"strings"
)

// This file extends the seam with what the generic shell needs beyond a
// round: the game's events, a board with entities and effects, the turn
// structure, and optional fast paths a ruleset may offer. Every interface
// here is optional: the shell checks for it with a type assertion and
// falls back to the generic path when it is absent. A wrapper around a
// Game must forward each one it can (an embedded Game hides them).

// Event is something notable that happened in the last round: a capture,
// an elimination, a shot, a blast. Kind names it (snake_case, one of the
// ruleset's EventKinds); fields a kind does not use are -1 (Player,
// Other, X, Y) or 0 (Value).
type Event struct {
	Kind   string
	Player int   // who did it (or to whom it happened)
	Other  int   // the other player involved, or a number of the kind's ({other_number})
	X, Y   int   // where, in Board coordinates
	Value  int64 // how much (the kind's doc says of what)
}

// EventKind documents one kind of event for analysis and the viewer.
type EventKind struct {
	Name string
	// Text is the sentence the shell shows (Sentence), with {player},
	// {other}, {x}, {y} and {value} replaced by the event's fields
	// (players by name), and {other_number} by Other as a number, for a
	// kind whose Other is not a player (ColorfightII's tax bracket).
	Text string
	// OtherNumber says Other is a number of the kind's (a level, a
	// bracket), not a player: a reader that renumbers players leaves it.
	OtherNumber bool
}

// Sentence is k's Text for event e, its placeholders replaced, players
// named by name (which is given -1 for no player). It is the one
// rendering of a declared event's sentence; the text is plain, not HTML.
func (k *EventKind) Sentence(e *Event, name func(p int) string) string {
	pairs := [...]string{
		"{player}", name(e.Player),
		"{other}", name(e.Other),
		"{x}", strconv.Itoa(e.X),
		"{y}", strconv.Itoa(e.Y),
		"{value}", strconv.FormatInt(e.Value, 10),
		"{other_number}", "",
	}
	n := len(pairs) - 2 // {other_number} only when used: it costs the others
	if strings.Contains(k.Text, "{other_number}") {
		pairs[n+1], n = strconv.Itoa(e.Other), len(pairs)
	}
	return strings.NewReplacer(pairs[:n]...).Replace(k.Text)
}

// Evented is a Game that reports events. Events appends the events of
// the last Round to dst, in the order they happened, and returns it.
type Evented interface {
	Events(dst []Event) []Event
}

// EventKinds is a Ruleset that declares the events its games report.
type EventKinds interface {
	EventKinds() []EventKind
}

// Sequential is a Game in which one player acts per Round (Skyport): Round
// reads only cmds[Active()], and Turn counts those player-turns. A Game
// that does not implement it plays every player at once.
type Sequential interface {
	// Active returns the player who acts in the next Round, or -1 when
	// the game is over.
	Active() int
}

// Active returns g's active player if g is Sequential, else -1 (all
// players act every round).
func Active(g Game) int {
	if s, ok := g.(Sequential); ok {
		return s.Active()
	}
	return -1
}

// Observer is a Game that can show a player the state as that player's
// bot sees it: AppendObservation appends to dst one JSON object (the
// game's own bot message; docs/bot-protocol.md) and returns it. A bot
// outside the process (package subprocess) is sent this object every
// turn.
type Observer interface {
	AppendObservation(dst []byte, p int) []byte
}

// Entity is a thing on the board that is not a cell: a unit, a player's
// avatar, a droid. X, Y are Board coordinates.
type Entity struct {
	Kind   string
	Player int // owner, or -1
	X, Y   int
	Health int64
	// Value is the kind's main number (level, count); Label a short
	// text the viewer may write beside it.
	Value int64
	Label string
}

// EffectKind is the shape of an Effect.
type EffectKind uint8

// Effect shapes.
const (
	// Line from (X, Y) to (X2, Y2): a laser.
	Line EffectKind = iota + 1
	// Area around (X, Y) of Radius cells: a blast.
	Area
	// Path through Points, in order: a droid's walk.
	Path
	// Mark at (X, Y): a number or a note (damage taken).
	Mark
)

// Effect is something drawn over the board for the round that produced
// it: a shot, a blast, a path, a damage number.
type Effect struct {
	Kind   EffectKind
	Name   string // what it is ("laser", "mortar", "damage")
	Player int    // who caused it, or -1
	X, Y   int
	X2, Y2 int
	Radius int
	Points []Point
	Value  int64
}

// Point is a board position.
type Point struct{ X, Y int }

// Boarder is a Game whose board has entities and effects beyond its
// cells. Extras appends them to b.Entities and b.Effects (which Board
// left empty).
type Boarder interface {
	Extras(b *Board)
}

// Scorer is a Ruleset whose games have a score the shell ranks and shows
// (ColorfightII's gold, Skyport's score): ScoreMetric is its index in
// Metrics. Without it the first metric is the score.
type Scorer interface {
	ScoreMetric() int
}

// ScoreIndex is the index of r's score among its metrics: its
// Scorer's, or 0 when it declares none (or one out of range).
func ScoreIndex(r Ruleset) int {
	if s, ok := r.(Scorer); ok && s.ScoreMetric() >= 0 && s.ScoreMetric() < len(r.Metrics()) {
		return s.ScoreMetric()
	}
	return 0
}

// Describer is a Game that can say what its state is in a few lines of
// text for `rewind info` and the viewer's header (map, settings).
type Describer interface {
	// Setting returns key/value pairs describing the game's settings, in
	// a fixed order.
	Setting() [][2]string
}

// Restorer is a Ruleset whose games can be started from a saved
// setup instead of a seed: a map file, an imported origin. Setup is an
// opaque byte string the ruleset defines and a .rwd header carries (as
// base64 JSON); NewFromSetup must accept whatever Setup of its games
// returned.
type Restorer interface {
	NewFromSetup(setup []byte, s Settings) (Game, error)
}

// SetupSaver is a Game that started from something its seed does not
// give (a map file): Setup returns the bytes Restorer.NewFromSetup needs
// to start it again, or nil when its seed is enough.
type SetupSaver interface {
	Setup() []byte
}

// MapReader is a Ruleset that plays on map files (`rewind play --map
// FILE`): SetupFromMap turns a map file's bytes into the setup its
// Restorer starts from, seed choosing what the map leaves open (spawns,
// turn order). A bad file is an error saying what and where.
type MapReader interface {
	SetupFromMap(file []byte, seed uint64, players int) ([]byte, error)
}

// Codec is a Ruleset whose games record their rounds in a compact record
// of their own (Compact), a fast path beside the commands' text: a .rwd
// of such a ruleset holds these records unless it was written with the
// text codec (docs/replay-format.md, "Codecs"). Its Restorer's setup is
// a JSON object, which the file's header keeps under the ruleset's ID
// (ColorfightII's, whose header predates this, in fields of its own).
type Codec interface {
	Restorer
	// NewDecoder returns a decoder of the records of one recording
	// whose game, at turn 0, is g (as the recording's header starts it;
	// the decoder neither plays nor changes it). A decoder rather than
	// a stateless call, and a game to make it from, because a record
	// may be coded against the game and the records before it:
	// ColorfightII codes a cell on its map's width and height and near
	// the player's previous one, from its home on.
	NewDecoder(g Game) (RecordDecoder, error)
	// FooterMetric is the index in Metrics of the value a file's footer
	// keeps per player: the one its files have always kept, which may
	// predate its score (Scorer).
	FooterMetric() int
}

// RecordDecoder reads the records of one recording, in order from its
// first, without playing them (Codec.NewDecoder).
type RecordDecoder interface {
	// DecodeRound reads the next record from r: player p's commands, as
	// text Round would take, are appended to cmds[p], and the fault the
	// round recorded for p (the Fault before Round) is set in faults[p]
	// and its text in faultText[p] (all three of length Players). A
	// record that ends early returns r's error (io.EOF); one that exceeds
	// a limit of the format a *LimitError; any other damage an error
	// saying what.
	DecodeRound(r io.ByteReader, cmds [][]string, faults []Fault, faultText []string) error
}

// LimitError is a record a codec refuses because it exceeds one of the
// format's limits (more than MaxCommandsPerRound commands, a longer text
// than the format keeps) rather than because it is damaged; its message
// is Err's, saying which limit and where.
type LimitError struct{ Err error }

func (e *LimitError) Error() string { return e.Err.Error() }

func (e *LimitError) Unwrap() error { return e.Err }

// FooterIndex is the index of the metric whose final values a .rwd
// footer of r keeps: its Codec's FooterMetric for a file of r's own codec
// (compact true), else its score (ScoreIndex).
func FooterIndex(r Ruleset, compact bool) int {
	if c, ok := r.(Codec); ok && compact {
		if i := c.FooterMetric(); i >= 0 && i < len(r.Metrics()) {
			return i
		}
	}
	return ScoreIndex(r)
}

// Compact is a Game of a Codec ruleset. Its records are self-delimiting
// and their first bit is 0. A game's records form one stream, from its
// first round: like a RecordDecoder, a Compact game may code a record
// against the ones before it.
type Compact interface {
	// AppendRecord appends the record of the round last played: the
	// commands as the game took them and the faults it was given before
	// that round. A Game that has not played a round appends nothing.
	AppendRecord(dst []byte) []byte
	// PlayRecord reads one record from r and plays it, as Fault and
	// Round would have played the round it records, returning the
	// command errors (valid until the next round). When cmds is not nil
	// the round's commands are appended to cmds[p] and faults and
	// faultText set, as RecordDecoder.DecodeRound does; when cmds is nil
	// but faults and faultText are not, only they are set (a reader that
	// wants the faults but not the commands' text). Errors are
	// DecodeRound's, and a damaged record leaves the game unplayed.
	PlayRecord(r io.ByteReader, cmds [][]string, faults []Fault, faultText []string) ([]CommandError, error)
}

// Option is an on/off setting of a ruleset's games that a match may set
// (`rewind play --NAME`): Name is the flag's name (kebab-case), Doc one
// line saying what it does.
type Option struct {
	Name, Doc string
}

// Optioner is a Ruleset whose games have options beyond their seed.
// SetupFromOptions returns the setup its Restorer starts a game of seed
// and players from with the options named in set on (each one of
// Options'); a combination it cannot play is an error saying why.
type Optioner interface {
	Restorer
	Options() []Option
	SetupFromOptions(set []string, seed uint64, players int) ([]byte, error)
}

// Messenger is a Game whose bots outside the process are sent a turn
// message of the game's own (its reference's protocol, which existing bots
// speak) instead of the generic one wrapping an Observer's state:
// AppendTurnMessage appends player p's message for the next Round, one
// line ending in a newline, deadlineMS being the bot's answer deadline.
type Messenger interface {
	AppendTurnMessage(dst []byte, p int, deadlineMS int64) []byte
}

// Retirer is a Game whose players can leave it for good (Monad's timed
// out and crashed players): Out reports that player p takes no further
// part, so a runner neither asks its bot nor reports its faults.
type Retirer interface {
	Out(p int) bool
}

// Idler is a Game whose next Round may take no commands at all
// (ColorfightII's round 0 -> 1, which only starts the game): while Idle
// reports true a runner plays Round without asking any bot, reporting no
// fault and recording no log for it.
type Idler interface {
	Idle() bool
}

// Accounting is a Ruleset whose games have per-round figures beyond their
// Metrics that it computes from consecutive states of a game (and the
// round's applied commands when they are known): ColorfightII's
// accounting of gold, energy, captures and spending. A generic stream of
// such a game appends them to each player's values after those of
// Metrics (replay.MetaOf, replay.Figures).
type Accounting interface {
	// AccountMetrics describes the figures of a game of players players,
	// in the order Accountant.Values reports them: some may exist once
	// per player (ColorfightII's cells captured from each other player),
	// so their number may depend on players, and only on it. Their names
	// are distinct from each other and from Metrics'. The caller may
	// keep the slice but must not modify it.
	AccountMetrics(players int) []Metric
	// NewAccountant returns the accountant of one game of players
	// players. commandsKnown says whether the game's rounds are played
	// from their commands (a recording re-simulated) or only shown (a
	// stream of states, such as an official replay); it is the same for
	// every round of the game. Without commands the figures whose Metric
	// has FromCommands are -1, unknown (0 where there is nothing to
	// count, as at frame 0).
	NewAccountant(players int, commandsKnown bool) Accountant
	// AccountEventKinds declares the events Accountant.Events reports,
	// beside (and named apart from) the ruleset's EventKinds. The slice
	// must not be modified.
	AccountEventKinds() []EventKind
}

// Accountant computes one game's figures (Accounting), frame by frame.
type Accountant interface {
	// Observe accounts for g as it is now. It is called once per frame of
	// one game, in order from frame 0 (the game before its first round),
	// with a Game of the ruleset that made the accountant showing that
	// frame; a figure of frame t may depend on every frame before it. An
	// error says why g cannot be accounted (a game of another ruleset,
	// a state the figures cannot follow) and leaves the figures of the
	// frame before.
	Observe(g Game) error
	// Values appends player p's figures of the frame last observed, one
	// per AccountMetrics(players) in order, to dst and returns it (zeros
	// before the first Observe and for a player the game has not shown
	// yet).
	Values(p int, dst []int64) []int64
	// Events appends the events of the round that led to the frame last
	// observed (none for frame 0), each of a kind of AccountEventKinds,
	// to dst in the order they happened and returns it.
	Events(dst []Event) []Event
}
