package viewer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/analysis/report"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/source"
)

// The generic replay page shows any game through the seam: PackStream
// reads an engine.Stream once into a Packed value, which the page
// (templates.Replay, static/page.js) receives as gzip'd JSON and
// draws for every topology (docs/viewer.md, "The replay page").

// PackedVersion is the version of the Packed layout the page (static/decode.js) reads.
const PackedVersion = 2

// The fields of a changed cell in PackedFrame.Cells, as bits.
const (
	CellTerrain = 1 << iota
	CellOwner
	CellValue
	CellBadges
)

// Default limits of PackStream (StreamLimits' zero values).
const (
	// DefaultStreamFrames is the most frames a replay page shows:
	// 50,000 player-turns, far beyond any game's turn limit.
	DefaultStreamFrames = 50_000
	// DefaultStreamBytes bounds what the packed frames cost (their
	// in-memory size plus their JSON: StreamLimits.MaxBytes): a real
	// game of a few thousand turns on a few hundred cells costs a few MB.
	DefaultStreamBytes = 32 << 20
	// DefaultStreamText bounds the command and log text the page holds:
	// a bot's 4 KiB log (replay.MaxRoundLogBytes) every turn of a
	// 1000-turn game.
	DefaultStreamText = 4 << 20
)

// Limits on what any page shows of a replay (StreamLimits' defaults), so
// a hostile file cannot make the server allocate without bound.
const (
	MaxCells   = 10_000 // a board's width × height: Skyport's largest map (99 × 99) fits
	MaxPlayers = 255    // players of one game
	// MaxCommandsShown is how many of one player's commands of one turn
	// the page lists (a real bot sends a few dozen to a few hundred); the
	// rest are counted ("…and N more").
	MaxCommandsShown = 200
)

// commandOverhead is what a kept command costs beyond its text: its Go
// string header (and, in the JSON, its quotes and comma).
const commandOverhead = 16

// Wording of inferred commands, as the pages show it.
const (
	inferredNote    = "commands inferred from the replay (docs/import.md)"
	unexplainedNote = "no commands: the rules do not explain this turn's frame (rewind audit says why)"
	// inferredNoLog is what the page says of a bot log in a replay
	// whose commands are inferred: the file never held one.
	inferredNoLog = "The commands of this replay are inferred from its states, not sent: the file holds no bot log."
	// officialFileNoLog is what the page says of a bot log in a replay
	// of a game's official format (not a .rwd) whose commands are known:
	// such a file never holds one either.
	officialFileNoLog = "This replay is a game's official file, which records commands, not bot logs: the file holds no bot log."
	// inferredManyNotice is the page's notice when a turn's inferred
	// commands number more than the page lists (%s the turns, %d the
	// bound twice).
	inferredManyNotice = "In %s a player's inferred commands number more than %d: the page lists the first %d and counts the rest."
	sentManyNotice     = "In %s a player sent more than %d commands: the page lists the first %d and counts the rest, and how many of them were rejected."
)

// ErrTooBig says a stream holds more than a replay page shows
// (StreamLimits); the page is refused rather than cut.
var ErrTooBig = errors.New("viewer: the replay is too big to show")

// StreamLimits bound what PackStream keeps, so a hostile or runaway
// stream cannot make it allocate or work without bound. Zero values pick
// the defaults.
type StreamLimits struct {
	// MaxFrames bounds the frames (DefaultStreamFrames).
	MaxFrames int
	// MaxCells bounds a board's Width×Height (MaxCells).
	MaxCells int
	// MaxBytes bounds the cost of everything but the text: every frame,
	// cell change, value, entity, effect (and its points), event and
	// error counts its in-memory size plus its JSON (DefaultStreamBytes).
	// Past it PackStream fails with ErrTooBig.
	MaxBytes int64
	// MaxText bounds the commands and bot logs, each counting its length
	// plus 16 bytes (DefaultStreamText). Past it later frames keep only
	// their counts of commands, and Packed.Notice says from which turn.
	MaxText int64
	// MaxCommandsShown bounds one player's commands kept per frame
	// (MaxCommandsShown); the rest are counted.
	MaxCommandsShown int
}

func (l StreamLimits) withDefaults() StreamLimits {
	if l.MaxFrames <= 0 {
		l.MaxFrames = DefaultStreamFrames
	}
	if l.MaxCells <= 0 {
		l.MaxCells = MaxCells
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultStreamBytes
	}
	if l.MaxText <= 0 {
		l.MaxText = DefaultStreamText
	}
	if l.MaxCommandsShown <= 0 {
		l.MaxCommandsShown = MaxCommandsShown
	}
	return l
}

// StreamPeakBytes is the most memory PackStream and EncodePacked take
// together under limits l, besides what the stream itself holds: the
// packed frames (their cost, in-memory size plus JSON, ≤ MaxBytes; their
// text ≤ MaxText, 6 times that as JSON at worst: "\u003c"), the gzip'd
// JSON (≤ the JSON), the JSON being encoded while its buffer grows (≤
// twice a chunk's: frameChunk and a frame), the analysis of the same
// pass (its series, at most MaxBytes/10 values of 8 bytes, one of them
// doubling as it grows: ≤ MaxBytes; its events, at most MaxPageEvents of
// 160 bytes: ≤ 4 MiB), plus 4 MiB for the compressor, the stream's
// current frame and the board's layers of the frame before (8 bytes a
// cell a layer: ≤ 640 KiB at engine.MaxLayers and the default MaxCells):
//
//	8 MiB + 4·MaxBytes + 20·MaxText
//
// EncodeStream takes less: it holds no frame but the few waiting for its
// encoder. A server reserves it before it packs (docs/limits.md).
func StreamPeakBytes(l StreamLimits) int64 {
	l = l.withDefaults()
	return 8<<20 + 4*l.MaxBytes + 20*l.MaxText
}

// Packed is one replay of any game as its generic page reads it (JSON;
// PackedVersion). Players are numbered 0..len(Players)-1 and drawn in
// Palette[p % len(Palette)], as on the other pages.
type Packed struct {
	Version int `json:"version"`
	// Game is the ruleset id ("skyport"), the key of the page's board
	// painters (rewind.boards[Game]); Name its display name.
	Game    string         `json:"game"`
	Name    string         `json:"name"`
	Format  string         `json:"format,omitempty"`
	Label   string         `json:"label,omitempty"`
	Players []PackedPlayer `json:"players"`
	Palette []string       `json:"palette"`
	// Metrics are the ruleset's, in the order of every frame's Values;
	// Score is the index of the score among them.
	Metrics []PackedMetric `json:"metrics"`
	Score   int            `json:"score"`
	// EventKinds are the ruleset's; an event's Kind indexes them.
	EventKinds []engine.EventKind `json:"event_kinds"`
	Sequential bool               `json:"sequential"`
	MaxTurns   int                `json:"max_turns,omitempty"`
	Settings   [][2]string        `json:"settings,omitempty"`
	// Provenance says where the game came from (StreamMeta.Provenance: a
	// fork's parent, an import's official replay), "" when recorded as
	// played.
	Provenance string `json:"provenance,omitempty"`
	// SeriesCSV is the layout of the series CSV `rewind analyze --format
	// csv` writes for this replay (analysis.SeriesCSVLayout), from which
	// the page's CSV button writes a chart's metric for the players it
	// shows, the values its frames' (PackedFrame.Values).
	SeriesCSV analysis.SeriesCSV `json:"series_csv"`
	// Table are the player table's headline columns, from the ruleset's
	// document layout (engine.Document.Table), nil for a ruleset without
	// one: the table then shows every metric.
	Table []PackedColumn `json:"table,omitempty"`
	// Board is the shape of every frame's board (frame 0's).
	Board PackedBoard `json:"board"`
	// Frames are in order; frame 0 is the game before its first round.
	// The fields before Frames are known once frame 0 is packed, those
	// after it only at the end: EncodeStream writes the frames between.
	Frames []PackedFrame `json:"frames"`
	// HasCommands: the source has a command log (Frame.CommandsKnown).
	HasCommands bool `json:"has_commands"`
	// HasReplyTimes: some frame has the seats' reply times
	// (PackedFrame.Replies): the page then charts them.
	HasReplyTimes bool `json:"has_reply_times,omitempty"`
	// HasMarks: some frame has marks its bots drew (PackedFrame.Marks):
	// the page then draws them, with a checkbox per seat.
	HasMarks bool `json:"has_marks,omitempty"`
	// CommandsInferred: the frames' commands are inferred from a state
	// stream's frames (StreamMeta.CommandsInferred), not recorded;
	// CommandsNote then says so to people, and UnexplainedNote why a
	// frame has none (PackedFrame.NoCommands).
	CommandsInferred bool   `json:"commands_inferred,omitempty"`
	CommandsNote     string `json:"commands_note,omitempty"`
	UnexplainedNote  string `json:"unexplained_note,omitempty"`
	// Notice says what the page leaves out (text past MaxText, commands
	// past MaxCommandsShown, events past MaxPageEvents), "" when
	// nothing; Warning why the replay ends early (the stream failed after
	// some frames), "" when whole.
	Notice  string `json:"notice,omitempty"`
	Warning string `json:"warning,omitempty"`
	// Events are the analysis's events (analysis.AnalyzeStream's,
	// of the same pass over the stream: the game's own and the shell's,
	// lead changes, bot faults, rejected commands, surges, lead swings),
	// in its order, worded by Generic.EventText; nil when the analysis
	// failed (a replay past its limits), and the page then lists the
	// frames' events. Outcome is Generic.Outcome's line, "" then.
	Events  []PackedListEvent `json:"events,omitempty"`
	Outcome string            `json:"outcome,omitempty"`
}

// PackedListEvent is one event of the analysis (analysis.Event)
// as the page lists it. Turning marks a turning point
// (Generic.IsTurningPoint), which the page lists above the events with
// Explain (Generic.Explain: a lead swing's line, else ""); Later one that
// is folded at first (not Generic.ShownAtFirst: a lead change after the
// opening), listed when the reader asks for all of its kind.
type PackedListEvent struct {
	Turn    int    `json:"turn"`
	Kind    string `json:"kind"`
	Player  int    `json:"p"`
	Other   int    `json:"o"`
	Value   int64  `json:"v"`
	Text    string `json:"t"`
	Turning bool   `json:"turning,omitempty"`
	Explain string `json:"explain,omitempty"`
	Later   bool   `json:"later,omitempty"`
}

// MaxPageEvents is the most events of the analysis a replay page
// lists (analysis.Options.MaxEvents); the lead for good is always
// among them, and Packed.Notice counts those left out.
const MaxPageEvents = 1 << 14

// PackedPlayer is one player of a Packed replay. Label names it in the
// charts: its name, with its number when another player has the same.
type PackedPlayer struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	Bot   string `json:"bot,omitempty"`
	// NoLog, for a player rewind could not see the program of (it played
	// through its game's official client, match.OfficialClient), says
	// why it has no bot log; the page shows it in place of the log.
	NoLog string `json:"no_log,omitempty"`
}

// officialClientNoLog is what the page says of an official client's
// bot log.
const officialClientNoLog = "This player played through the official client: rewind sees its commands, not its program, so there is no bot log (its stderr stays on its own machine)."

// PackedMetric is one of the ruleset's metrics (Kind "gauge", "counter"
// or "amount": engine.MetricKind's String). Unknown: the stream cannot
// know its values (analysis.UnknownMetric: counted from commands a
// stream of states does not have), which are then -1, and the page shows
// them as unknown.
type PackedMetric struct {
	Name    string `json:"name"`
	Unit    string `json:"unit"`
	Kind    string `json:"kind"`
	Unknown bool   `json:"unknown,omitempty"`
}

// PackedColumn is one headline column of the player table
// (engine.Document.Table): its Heading, and what it shows of the turn
// (an engine.StandingField): Of "final", metric Metric's value; "flag",
// whether it is not 0; "peak" and "peak_turn", its highest value after
// a round up to the turn (0 when it never rose above 0) and the first
// turn it was reached; "event_turn", the turn of the player's last event
// of the game's kind Event up to the turn (0: none). Metric is an index
// of Packed.Metrics, -1 for "event_turn".
type PackedColumn struct {
	Heading string `json:"heading"`
	Of      string `json:"of"`
	Metric  int    `json:"metric"`
	Event   string `json:"event,omitempty"`
}

// columnOf names what a PackedColumn shows, by engine.StandingOf.
var columnOf = [...]string{engine.Final: "final", engine.Flag: "flag", engine.Peak: "peak", engine.PeakTurn: "peak_turn", engine.EventTurn: "event_turn"}

// tableColumns are the headline columns document d gives a stream of
// metrics ms: those of d.Table whose field reads a metric the stream has
// (or an event kind); nil without a document.
func tableColumns(d *engine.Document, ms []engine.Metric) []PackedColumn {
	if d == nil {
		return nil
	}
	var out []PackedColumn
	for _, c := range d.Table {
		for _, f := range d.Standing {
			if f.Key != c[1] || int(f.Of) >= len(columnOf) {
				continue
			}
			col := PackedColumn{Heading: c[0], Of: columnOf[f.Of], Metric: -1}
			if f.Of == engine.EventTurn {
				col.Event = f.Name
			} else {
				for i := range ms {
					if ms[i].Name == f.Name {
						col.Metric = i
					}
				}
				if col.Metric < 0 {
					break
				}
			}
			out = append(out, col)
			break
		}
	}
	return out
}

// PackedBoard is a board's shape and the names of its cells' numbers.
type PackedBoard struct {
	// Topology is engine.Topology's name: "square", "hex", "hex-axial".
	Topology string   `json:"topology"`
	Width    int      `json:"width"`
	Height   int      `json:"height"`
	Terrain  string   `json:"terrain,omitempty"`
	Value    string   `json:"value,omitempty"`
	Badges   []string `json:"badges,omitempty"`
	// Layers name the board's layers (engine.Board.Layers), the same in
	// every frame; PackedFrame.Layers holds their values.
	Layers []string `json:"layers,omitempty"`
}

// PackedFrame is one frame.
type PackedFrame struct {
	Turn int `json:"turn"`
	// Active is the player who acted in the round that led here, -1 when
	// all act at once (and for frame 0).
	Active int `json:"active"`
	// Cells are frame 0's cells, 4 numbers each (terrain, owner, value,
	// badges) in cell order y*Width+x; in a later frame the cells that
	// differ from the frame before, in increasing index, each as the
	// distance of its index from the previous changed cell's (the first
	// counted from -1), then which of its fields changed (CellTerrain |
	// CellOwner | CellValue | CellBadges), then those fields' new values
	// in that order: a cell whose value alone changed is 3 numbers.
	Cells []int64 `json:"cells"`
	// Layers[k] are the values of layer k (PackedBoard.Layers): in frame
	// 0 every cell's, in cell order; in a later frame those that differ
	// from the frame before, 2 numbers each (the distance of the cell's
	// index from the previous changed one's, as in Cells, then the
	// value), nil when none does. Nil when no layer changed (most never
	// do: their values are in frame 0 only).
	Layers [][]int64 `json:"layers,omitempty"`
	// Values[p] are player p's values, one per metric.
	Values   [][]int64      `json:"values"`
	Entities []PackedEntity `json:"entities,omitempty"`
	Effects  []PackedEffect `json:"effects,omitempty"`
	Events   []PackedEvent  `json:"events,omitempty"`
	// Commands[p] are player p's commands of the round that led here,
	// at most MaxCommandsShown; Sent[p] how many it sent (when more than
	// kept, or when the text budget dropped them). Nil without a command
	// log.
	Commands [][]string `json:"commands,omitempty"`
	Sent     []int      `json:"sent,omitempty"`
	// Errors are the round's rejected commands and faults, but for the
	// errors of a player's commands past the first MaxCommandsShown,
	// which are only counted: Rejected[p] is how many of player p's were
	// (nil when none is).
	Errors   []PackedError `json:"errors,omitempty"`
	Rejected []int         `json:"rejected,omitempty"`
	// Faults[p] says how player p failed to answer before the round
	// ("timeout: no reply in 1s"), "" for none; nil when nobody failed.
	Faults []string `json:"faults,omitempty"`
	// Logs[p] is player p's bot log of the round, as text; nil when none.
	Logs []string `json:"logs,omitempty"`
	// Replies[p] is how long player p's bot took to answer for the round
	// (engine.Frame.ReplyTimes), in microseconds, -1 for a seat not
	// timed; nil when the round has no reply time.
	Replies []int64 `json:"replies,omitempty"`
	// Marks are what the bots drew for the round that led here
	// (engine.Frame.Marks: their answers to turn Turn-1, about the board
	// of the frame before), in player order; nil when none.
	Marks   []PackedMark `json:"marks,omitempty"`
	Ranking []int        `json:"ranking,omitempty"`
	// NoCommands: the commands of the round that led here are not known
	// (Frame.CommandsKnown false; never in frame 0, which has no round).
	// In a replay with a command log (HasCommands) it is a round the
	// stream could not give, such as one whose inferred commands the
	// rules do not explain.
	NoCommands bool `json:"no_commands,omitempty"`
}

// PackedMark is an engine.BotMark (short keys: there may be many): Kind
// "dot", "line", "cell" or "text"; Color "#rrggbb", "" for the seat's.
type PackedMark struct {
	Kind   string `json:"k"`
	Player int    `json:"p"`
	X      int    `json:"x"`
	Y      int    `json:"y"`
	X2     int    `json:"x2,omitempty"`
	Y2     int    `json:"y2,omitempty"`
	Color  string `json:"c,omitempty"`
	Text   string `json:"t,omitempty"`
}

// PackedEntity is an engine.Entity (short keys: there may be many).
type PackedEntity struct {
	Kind   string `json:"k"`
	Player int    `json:"p"`
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Health int64  `json:"h"`
	Value  int64  `json:"v,omitempty"`
	Label  string `json:"l,omitempty"`
}

// PackedEffect is an engine.Effect; Kind is "line", "area", "path" or
// "mark", Points a path's [x, y] pairs flattened.
type PackedEffect struct {
	Kind   string `json:"k"`
	Name   string `json:"n,omitempty"`
	Player int    `json:"p"`
	X      int    `json:"x"`
	Y      int    `json:"y"`
	X2     int    `json:"x2,omitempty"`
	Y2     int    `json:"y2,omitempty"`
	Radius int    `json:"r,omitempty"`
	Points []int  `json:"pts,omitempty"`
	Value  int64  `json:"v,omitempty"`
}

// PackedEvent is an engine.Event with its sentence (WordEvent). Kind is
// its index in Packed.EventKinds, -1 for a kind the ruleset did not
// declare (Name then says it).
type PackedEvent struct {
	Kind   int    `json:"k"`
	Name   string `json:"n"`
	Player int    `json:"p"`
	Other  int    `json:"o"`
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Value  int64  `json:"v"`
	Text   string `json:"t"`
}

// PackedError is an engine.CommandError.
type PackedError struct {
	Player int    `json:"p"`
	Index  int    `json:"i"`
	Code   int    `json:"c"`
	Text   string `json:"t"`
}

var effectKinds = [...]string{engine.Line: "line", engine.Area: "area", engine.Path: "path", engine.Mark: "mark"}

// WordEvent is the sentence of event e: its kind's Sentence (or, for a
// kind without one, its name and fields); players by names[p] when known. The result is text,
// never markup.
func WordEvent(k *engine.EventKind, e *engine.Event, names []string) string {
	who := func(p int) string {
		if p >= 0 && p < len(names) {
			return names[p]
		}
		if p < 0 {
			return "nobody"
		}
		return "player " + strconv.Itoa(p)
	}
	if k == nil || k.Text == "" {
		s := strings.ReplaceAll(e.Kind, "_", " ")
		if e.Player >= 0 {
			s = who(e.Player) + ": " + s
		}
		if e.X >= 0 && e.Y >= 0 {
			s += fmt.Sprintf(" at (%d, %d)", e.X, e.Y)
		}
		return s
	}
	return k.Sentence(e, who)
}

// packer keeps a stream's frames as they stream past.
type packer struct {
	l    StreamLimits
	p    *Packed
	cost int64 // of everything but the text
	text int64
	prev []engine.Cell
	// prevLayers are the layers' values of the frame before.
	prevLayers [][]int64
	kinds      map[string]int
	names      []string
	// cells gathers the frame's cells being packed (reused), kept in
	// one allocation of their size.
	cells []int64
	// textFullAt is the turn from which commands and logs are dropped
	// (0: none dropped); shortFrames counts frames whose commands were
	// cut at MaxCommandsShown.
	textFullAt, shortFrames int
	textFull                bool
	// dropped counts the analysis's events past MaxPageEvents.
	dropped int
	// lastTurn is the turn of the last frame packed.
	lastTurn int
	// an analyzes the frames as they are packed (nil once it failed).
	an *analysis.Analyzer
}

// numLen is the length of n in JSON, with its comma.
func numLen(n int64) int64 {
	l := int64(1)
	if n < 0 {
		l++
		if n == -n { // math.MinInt64
			return 21
		}
		n = -n
	}
	for n >= 10 {
		n /= 10
		l++
	}
	return l + 1
}

// spend counts c bytes of cost, failing past MaxBytes.
func (k *packer) spend(c int64, frame int) error {
	k.cost += c
	if k.cost > k.l.MaxBytes {
		return fmt.Errorf("%w: frame %d takes it past %s (frames, cells, entities, effects and events; docs/limits.md)", ErrTooBig, frame, sizeString(k.l.MaxBytes))
	}
	return nil
}

// textCost is what a kept string costs against MaxText (its JSON may
// escape it; StreamPeakBytes counts that).
func textCost(s string) int64 { return int64(len(s)) + commandOverhead }

// PackStream reads s to its end (it does not close s) and packs its
// frames for the replay page, within limits l (zero values: the
// defaults). A stream that fails after its first frame gives the frames
// before and Packed.Warning; one that fails before, or holds more than l
// allows (ErrTooBig), gives an error naming the frame. It never panics on
// what a stream reports: players, cells and coordinates out of range are
// kept as they are (the page skips what it cannot place) or refused.
func PackStream(s engine.Stream, l StreamLimits) (*Packed, error) {
	k, err := newPacker(s, l)
	if err != nil {
		return nil, err
	}
	err = k.run(s, func(pf *PackedFrame) error {
		k.p.Frames = append(k.p.Frames, *pf)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return k.p, nil
}

// newPacker packs the head of s's replay (all but its board and frames).
func newPacker(s engine.Stream, l StreamLimits) (*packer, error) {
	l = l.withDefaults()
	m := s.Meta()
	if m == nil {
		return nil, errors.New("viewer: the stream has no meta")
	}
	if len(m.Players) < 1 || len(m.Players) > MaxPlayers {
		return nil, fmt.Errorf("viewer: %d players, want 1 to %d", len(m.Players), MaxPlayers)
	}
	p := &Packed{Version: PackedVersion, Game: m.Ruleset, Name: m.Ruleset, Format: m.Format, Label: m.Label,
		Palette: report.Palette, Score: m.Score, EventKinds: m.EventKinds, Sequential: m.Sequential, MaxTurns: m.MaxTurns,
		Settings: m.Settings, Provenance: m.Provenance}
	if m.CommandsInferred {
		p.CommandsInferred, p.CommandsNote, p.UnexplainedNote = true, inferredNote, unexplainedNote
	}
	if p.EventKinds == nil {
		p.EventKinds = []engine.EventKind{}
	}
	if info, ok := engine.About(m.Ruleset); ok {
		p.Name = info.Name
	}
	k := &packer{l: l, p: p, kinds: map[string]int{}}
	// The analysis holds its series within MaxBytes: every value costs
	// the packer more than its 8 bytes there (StreamPeakBytes).
	k.an, _ = analysis.NewAnalyzer(m, analysis.Options{MaxEvents: MaxPageEvents, MaxValues: l.MaxBytes / 10}) // m is not nil
	var head int64 = 1024
	for i, ek := range m.EventKinds {
		k.kinds[ek.Name] = i
		head += int64(len(ek.Name)+len(ek.Text)) * 2
	}
	for i, mt := range m.Metrics {
		p.Metrics = append(p.Metrics, PackedMetric{Name: mt.Name, Unit: mt.Unit, Kind: mt.Kind.String(), Unknown: analysis.UnknownMetric(m, i)})
		head += int64(len(mt.Name)+len(mt.Unit)) * 2
	}
	head += int64(len(m.Provenance)) * 2
	p.Table = tableColumns(m.Document, m.Metrics)
	p.SeriesCSV = analysis.SeriesCSVLayout(m)
	head += int64(len(p.SeriesCSV.Head)) * 2
	for _, c := range p.SeriesCSV.Columns {
		head += int64(len(c)+4) * 2
	}
	for _, c := range p.SeriesCSV.Keys {
		head += int64(len(c)+4) * 2
	}
	for _, c := range p.Table {
		head += int64(len(c.Heading)+len(c.Event)) * 2
	}
	for i, pl := range m.Players {
		label := pl.Name
		for j, o := range m.Players {
			if j != i && o.Name == pl.Name {
				label = fmt.Sprintf("%s (%d)", pl.Name, i+1)
				break
			}
		}
		pp := PackedPlayer{Name: pl.Name, Label: label, Bot: pl.Bot}
		switch {
		case m.CommandsInferred:
			pp.NoLog = inferredNoLog
		case pl.Bot == match.OfficialClient:
			pp.NoLog = officialClientNoLog
		case m.Format != "" && m.Format != string(source.RWD):
			pp.NoLog = officialFileNoLog
		}
		p.Players = append(p.Players, pp)
		k.names = append(k.names, pl.Name)
		head += int64(len(pl.Name)*2+len(label)+len(pl.Bot)) * 2
	}
	for _, kv := range m.Settings {
		head += int64(len(kv[0])+len(kv[1])) * 2
	}
	if err := k.spend(head, 0); err != nil {
		return nil, err
	}
	return k, nil
}

// run reads s to its end and packs its frames, handing each to keep in
// order; PackStream's contract (warnings, errors, notices) is run's. An
// error from keep ends the packing with it. keep owns the frame it is
// given: run keeps no reference to it.
func (k *packer) run(s engine.Stream, keep func(*PackedFrame) error) error {
	p, l := k.p, k.l
	var f engine.Frame
	n := 0
	for ; ; n++ {
		err := s.Next(&f)
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil && n >= l.MaxFrames {
			err = fmt.Errorf("%w: more than %d frames", ErrTooBig, l.MaxFrames)
		}
		var pf *PackedFrame
		if err == nil {
			pf, err = k.add(&f, n)
		}
		if err != nil {
			if n == 0 || errors.Is(err, ErrTooBig) {
				return fmt.Errorf("viewer: frame %d: %w", n, err)
			}
			p.Warning = fmt.Sprintf("the replay ends early after turn %d: %v", k.lastTurn, err)
			if k.an != nil {
				k.an.Stop(err)
			}
			break
		}
		k.lastTurn = pf.Turn
		if k.an != nil && k.an.Add(&f) != nil {
			k.an = nil // past the analysis's limits: the page lists the frames' events
		}
		if err := keep(pf); err != nil {
			return err
		}
	}
	if n == 0 {
		return errors.New("viewer: the replay has no frames")
	}
	if err := k.events(); err != nil {
		return err
	}
	switch {
	case k.textFullAt > 0:
		p.Notice = fmt.Sprintf("Commands and bot logs are listed up to turn %d only: the page holds at most %s of text (docs/limits.md); later turns give their counts.", k.textFullAt-1, sizeString(l.MaxText))
	case k.shortFrames > 0:
		turns := fmt.Sprintf("%d turns", k.shortFrames)
		if k.shortFrames == 1 {
			turns = "1 turn"
		}
		notice := sentManyNotice
		if p.CommandsInferred {
			notice = inferredManyNotice
		}
		p.Notice = fmt.Sprintf(notice, turns, l.MaxCommandsShown, l.MaxCommandsShown)
	}
	if k.dropped > 0 {
		s := fmt.Sprintf("The events list the first %d events of the analysis; %d more are left out.", MaxPageEvents, k.dropped)
		p.Notice = strings.TrimSpace(p.Notice + " " + s)
	}
	return nil
}

// events lists the analysis's events and outcome, once the frames are
// read, counting them against MaxBytes.
func (k *packer) events() error {
	if k.an == nil {
		return nil
	}
	g, err := k.an.Finish()
	k.an = nil
	if err != nil {
		return nil // the page lists the frames' events
	}
	k.dropped = g.EventsDropped
	evs := make([]PackedListEvent, len(g.Events))
	cost := int64(0)
	for i, e := range g.Events {
		evs[i] = PackedListEvent{Turn: e.Turn, Kind: e.Kind, Player: e.Player, Other: e.Other, Value: e.Value, Text: g.EventText(e, g.Name),
			Turning: e.Shell && g.IsTurningPoint(e.Kind), Explain: g.Explain(e, g.Name), Later: !g.ShownAtFirst(e)}
		cost += 2 * (120 + int64(len(e.Kind)+len(evs[i].Text)+len(evs[i].Explain)))
	}
	k.p.Outcome = g.Outcome(g.Name)
	if err := k.spend(cost+int64(len(k.p.Outcome))*2, k.lastTurn); err != nil {
		return fmt.Errorf("viewer: the events: %w", err)
	}
	k.p.Events = evs
	return nil
}

// add packs frame n.
func (k *packer) add(f *engine.Frame, n int) (*PackedFrame, error) {
	b := &f.Board
	np := len(k.p.Players)
	if n == 0 {
		if b.Width < 0 || b.Height < 0 || b.Width*b.Height > k.l.MaxCells || (b.Width > 0 && b.Height > k.l.MaxCells/b.Width) {
			return nil, fmt.Errorf("%w: a %d×%d board, at most %d cells", ErrTooBig, b.Width, b.Height, k.l.MaxCells)
		}
		if len(b.Badges) > 32 {
			return nil, fmt.Errorf("%d badges, at most 32", len(b.Badges))
		}
		if len(b.Layers) > engine.MaxLayers {
			return nil, fmt.Errorf("%d layers, at most %d", len(b.Layers), engine.MaxLayers)
		}
		k.p.Board = PackedBoard{Topology: b.Topology.String(), Width: b.Width, Height: b.Height, Terrain: b.TerrainName,
			Value: b.ValueName, Badges: append([]string(nil), b.Badges...)}
		k.prev = make([]engine.Cell, b.Width*b.Height)
		c := int64(len(b.TerrainName) + len(b.ValueName))
		for _, s := range b.Badges {
			c += int64(len(s)) + 8
		}
		for _, l := range b.Layers {
			k.p.Board.Layers = append(k.p.Board.Layers, l.Name)
			k.prevLayers = append(k.prevLayers, make([]int64, len(k.prev)))
			c += int64(len(l.Name)) + 8
		}
		if err := k.spend(2*c, n); err != nil {
			return nil, err
		}
	} else if bd := k.p.Board; b.Topology.String() != bd.Topology || b.Width != bd.Width || b.Height != bd.Height {
		return nil, fmt.Errorf("the board changed shape: %s %d×%d, frame 0 had %s %d×%d", b.Topology, b.Width, b.Height, bd.Topology, bd.Width, bd.Height)
	}
	if len(b.Cells) != len(k.prev) {
		return nil, fmt.Errorf("%d cells on a %d×%d board", len(b.Cells), k.p.Board.Width, k.p.Board.Height)
	}
	if len(f.Values) != np {
		return nil, fmt.Errorf("values for %d players, the replay has %d", len(f.Values), np)
	}
	pf := &PackedFrame{Turn: f.Turn, Active: f.Active, NoCommands: n > 0 && !f.CommandsKnown}
	cost := int64(256 + 16*np)
	// Cells: whole in frame 0, then the changes.
	last := -1
	cells := k.cells[:0]
	for i, c := range b.Cells {
		if n > 0 && c == k.prev[i] {
			continue
		}
		if n == 0 {
			cells = append(cells, c.Terrain, int64(c.Owner), c.Value, int64(c.Badges))
			cost += 32 + numLen(c.Terrain) + numLen(int64(c.Owner)) + numLen(c.Value) + numLen(int64(c.Badges))
			k.prev[i] = c
			continue
		}
		p, mask := k.prev[i], int64(0)
		cells = append(cells, int64(i-last), 0)
		at := len(cells) - 1
		cost += 16 + numLen(int64(i-last)) + 2
		last = i
		// The fields that changed, in CellTerrain..CellBadges order.
		for bit, v := range [4][2]int64{
			{c.Terrain, p.Terrain}, {int64(c.Owner), int64(p.Owner)},
			{c.Value, p.Value}, {int64(c.Badges), int64(p.Badges)},
		} {
			if v[0] != v[1] {
				mask |= 1 << bit
				cells = append(cells, v[0])
				cost += 8 + numLen(v[0])
			}
		}
		cells[at] = mask
		k.prev[i] = c
	}
	k.cells = cells
	pf.Cells = append(make([]int64, 0, len(cells)), cells...)
	c, err := k.layers(pf, b, n)
	if err != nil {
		return nil, err
	}
	cost += c
	// Values: every player's in one allocation.
	nv := 0
	for _, vs := range f.Values {
		nv += len(vs)
	}
	all := make([]int64, 0, nv)
	pf.Values = make([][]int64, np)
	for p, vs := range f.Values {
		all = append(all, vs...)
		pf.Values[p] = all[len(all)-len(vs) : len(all) : len(all)]
		cost += 32
		for _, v := range vs {
			cost += 8 + numLen(v)
		}
	}
	for _, e := range b.Entities {
		pf.Entities = append(pf.Entities, PackedEntity{Kind: e.Kind, Player: e.Player, X: e.X, Y: e.Y, Health: e.Health, Value: e.Value, Label: e.Label})
		cost += 2 * (72 + int64(len(e.Kind)+len(e.Label)))
	}
	for _, e := range b.Effects {
		kind := "mark"
		if int(e.Kind) < len(effectKinds) && effectKinds[e.Kind] != "" {
			kind = effectKinds[e.Kind]
		}
		pe := PackedEffect{Kind: kind, Name: e.Name, Player: e.Player, X: e.X, Y: e.Y, X2: e.X2, Y2: e.Y2, Radius: e.Radius, Value: e.Value}
		for _, pt := range e.Points {
			pe.Points = append(pe.Points, pt.X, pt.Y)
		}
		pf.Effects = append(pf.Effects, pe)
		cost += 2*(120+int64(len(e.Name))) + 48*int64(len(e.Points))
	}
	for i := range f.Events {
		e := &f.Events[i]
		ki, ok := k.kinds[e.Kind]
		var kd *engine.EventKind
		if ok {
			kd = &k.p.EventKinds[ki]
		} else {
			ki = -1
		}
		text := WordEvent(kd, e, k.names)
		pf.Events = append(pf.Events, PackedEvent{Kind: ki, Name: e.Kind, Player: e.Player, Other: e.Other, X: e.X, Y: e.Y, Value: e.Value, Text: text})
		cost += 2 * (120 + int64(len(e.Kind)+len(text)))
	}
	for _, e := range f.Errors {
		if e.Index >= k.l.MaxCommandsShown && e.Player >= 0 && e.Player < np {
			if pf.Rejected == nil {
				pf.Rejected = make([]int, np)
				cost += 8 * int64(np)
			}
			pf.Rejected[e.Player]++
			continue
		}
		pf.Errors = append(pf.Errors, PackedError{Player: e.Player, Index: e.Index, Code: e.Code, Text: e.Text})
		cost += 2 * (64 + int64(len(e.Text)))
	}
	for p, ft := range f.Faults {
		if ft == 0 || p >= np {
			continue
		}
		if pf.Faults == nil {
			pf.Faults = make([]string, np)
		}
		s := ft.String()
		if p < len(f.FaultText) && f.FaultText[p] != "" {
			s += ": " + f.FaultText[p]
		}
		pf.Faults[p] = s
		cost += 2 * (16 + int64(len(s)))
	}
	if len(f.ReplyTimes) > 0 {
		pf.Replies = make([]int64, np)
		for p := range pf.Replies {
			pf.Replies[p] = -1
			if p < len(f.ReplyTimes) && f.ReplyTimes[p] >= 0 {
				pf.Replies[p] = f.ReplyTimes[p].Microseconds()
			}
		}
		cost += 24 * int64(np)
		k.p.HasReplyTimes = true
	}
	for _, m := range f.Marks {
		if m.Player < 0 || m.Player >= np {
			continue
		}
		pm := PackedMark{Kind: m.Kind.String(), Player: m.Player, X: m.X, Y: m.Y, X2: m.X2, Y2: m.Y2, Text: m.Text}
		if m.Color >= 0 {
			pm.Color = fmt.Sprintf("#%06x", m.Color&0xffffff)
		}
		pf.Marks = append(pf.Marks, pm)
		cost += 2 * (100 + int64(len(m.Text)))
		k.p.HasMarks = true
	}
	if len(f.Ranking) <= np {
		pf.Ranking = append([]int(nil), f.Ranking...)
		cost += 24 * int64(len(f.Ranking))
	}
	if err := k.spend(cost, n); err != nil {
		return nil, err
	}
	k.keepText(pf, f, n)
	return pf, nil
}

// layers packs frame n's layers into pf: frame 0's whole, a later
// frame's changes only. It returns their cost.
func (k *packer) layers(pf *PackedFrame, b *engine.Board, n int) (int64, error) {
	names := k.p.Board.Layers
	if len(b.Layers) != len(names) {
		return 0, fmt.Errorf("%d layers, frame 0 had %d", len(b.Layers), len(names))
	}
	cost := int64(0)
	for li := range b.Layers {
		l, prev := &b.Layers[li], k.prevLayers[li]
		if l.Name != names[li] {
			return 0, fmt.Errorf("layer %d is %q, frame 0's was %q", li, l.Name, names[li])
		}
		if len(l.Values) != len(prev) {
			return 0, fmt.Errorf("layer %q has %d values for %d cells", l.Name, len(l.Values), len(prev))
		}
		vals, last := k.cells[:0], -1
		for i, v := range l.Values {
			if n > 0 && v == prev[i] {
				continue
			}
			if n > 0 {
				vals = append(vals, int64(i-last))
				cost += 8 + numLen(int64(i-last))
				last = i
			}
			vals = append(vals, v)
			cost += 8 + numLen(v)
			prev[i] = v
		}
		k.cells = vals
		if len(vals) == 0 {
			continue
		}
		if pf.Layers == nil {
			pf.Layers = make([][]int64, len(names))
			cost += 24 * int64(len(names))
		}
		pf.Layers[li] = append(make([]int64, 0, len(vals)), vals...)
	}
	return cost, nil
}

// keepText keeps frame n's commands and logs while MaxText lasts.
func (k *packer) keepText(pf *PackedFrame, f *engine.Frame, n int) {
	np := len(k.p.Players)
	if f.CommandsKnown {
		k.p.HasCommands = true
	}
	take := func(s string) bool {
		if k.textFull || k.text+textCost(s) > k.l.MaxText {
			if !k.textFull {
				k.textFull, k.textFullAt = true, max(n, 1)
			}
			return false
		}
		k.text += textCost(s)
		return true
	}
	if f.CommandsKnown && len(f.Commands) > 0 {
		// Every player's commands in one allocation.
		most := 0
		for p, cmds := range f.Commands {
			if p < np {
				most += min(len(cmds), k.l.MaxCommandsShown)
			}
		}
		all := make([]string, 0, most)
		pf.Commands = make([][]string, np)
		short := false
		for p, cmds := range f.Commands {
			if p >= np {
				break
			}
			start := len(all)
			for i, c := range cmds {
				if i >= k.l.MaxCommandsShown {
					short = true
					break
				}
				if !take(c) {
					break
				}
				if !utf8.ValidString(c) { // ValidString is the faster scan
					c = strings.ToValidUTF8(c, "\uFFFD")
				}
				all = append(all, c)
			}
			if len(all) > start {
				pf.Commands[p] = all[start:len(all):len(all)]
			}
			if kept := len(all) - start; kept < len(cmds) {
				if pf.Sent == nil {
					pf.Sent = make([]int, np)
					for q := range pf.Sent {
						if q < len(f.Commands) {
							pf.Sent[q] = len(f.Commands[q])
						}
					}
				}
			}
		}
		if short {
			k.shortFrames++
		}
	}
	for p, l := range f.Logs {
		if len(l) == 0 || p >= np || k.textFull {
			continue
		}
		s := logText(l)
		if !take(s) {
			continue
		}
		if pf.Logs == nil {
			pf.Logs = make([]string, np)
		}
		pf.Logs[p] = s
	}
}

// EncodePacked writes p as the replay page reads it: its JSON, gzip'd
// (encoding/json's bytes). The frames are encoded a few at a time, so no
// copy of the whole JSON is ever held.
func EncodePacked(p *Packed) ([]byte, error) {
	before, after, err := packedJSON(p)
	if err != nil {
		return nil, err
	}
	var gz bytes.Buffer
	fw := newFrameWriter(&gz, before)
	for i := range p.Frames {
		fw.frame(&p.Frames[i])
	}
	if err := fw.close(after); err != nil {
		return nil, err
	}
	return gz.Bytes(), nil
}

// EncodeStream reads s to its end (it does not close s) and returns what
// EncodePacked returns for what PackStream returns, with PackStream's
// limits, warnings and errors; but it keeps no frame: each is encoded and
// compressed as soon as it is packed, by a second goroutine while the
// next ones are read. It takes less memory than the two calls, about the
// same CPU time, and less time when a second core is free. A replay
// refused (ErrTooBig) has cost at most what PackStream would have held
// when it refused it.
func EncodeStream(s engine.Stream, l StreamLimits) ([]byte, error) {
	k, err := newPacker(s, l)
	if err != nil {
		return nil, err
	}
	var gz bytes.Buffer
	var fw *frameWriter
	// frames are the packed frames on their way to the encoder (at most
	// encodeAhead waiting), done closed once it has written them all.
	var frames chan *PackedFrame
	done := make(chan struct{})
	stop := func() {
		if frames != nil {
			close(frames)
			<-done
			frames = nil
		}
	}
	defer stop() // when the stream panics, too
	err = k.run(s, func(pf *PackedFrame) error {
		if fw == nil {
			// Frame 0 is packed: the fields before the frames are known.
			before, _, err := packedJSON(k.p)
			if err != nil {
				return err
			}
			fw = newFrameWriter(&gz, before)
			frames = make(chan *PackedFrame, encodeAhead)
			go func() {
				defer close(done)
				for f := range frames {
					fw.frame(f)
				}
			}()
		}
		frames <- pf
		return nil
	})
	stop()
	if err != nil {
		return nil, err
	}
	_, after, err := packedJSON(k.p)
	if err != nil {
		return nil, err
	}
	if err := fw.close(after); err != nil {
		return nil, err
	}
	return gz.Bytes(), nil
}

// encodeAhead is how many packed frames EncodeStream lets wait for the
// encoder: enough to smooth the two goroutines' pace.
const encodeAhead = 32

// packedJSON is p's JSON without its frames: what comes before the
// "frames" key and what comes after its value.
func packedJSON(p *Packed) (before, after []byte, err error) {
	head := *p
	head.Frames = nil
	js, err := json.Marshal(&head)
	if err != nil {
		return nil, nil, fmt.Errorf("viewer: encoding the replay's head: %w", err)
	}
	// Every '"' within a string is escaped: the key is found only as a key.
	const key = `"frames":null`
	i := bytes.Index(js, []byte(key))
	if i < 0 {
		return nil, nil, errors.New("viewer: Packed has no frames key")
	}
	return js[:i], js[i+len(key):], nil
}

// frameWriter writes a Packed value's JSON, gzip'd, to a buffer: the
// part before its frames, then its frames one by one (gathered in chunks
// of about frameChunk bytes), then the part after them.
type frameWriter struct {
	zw *gzip.Writer
	b  []byte
	n  int
}

// frameChunk is about how much JSON frameWriter gathers before it hands
// it to the compressor.
const frameChunk = 32 << 10

func newFrameWriter(gz *bytes.Buffer, before []byte) *frameWriter {
	zw, _ := gzip.NewWriterLevel(gz, gzip.BestSpeed)
	zw.Write(before)
	return &frameWriter{zw: zw, b: append(make([]byte, 0, 2*frameChunk), `"frames":[`...)}
}

// frame writes f, the next frame.
func (w *frameWriter) frame(f *PackedFrame) {
	if w.n > 0 {
		w.b = append(w.b, ',')
	}
	w.n++
	w.b = appendFrame(w.b, f)
	if len(w.b) >= frameChunk {
		w.zw.Write(w.b)
		w.b = w.b[:0]
	}
}

// close writes after, the part after the frames, and finishes the gzip
// stream. (A bytes.Buffer does not fail: neither do the writes.)
func (w *frameWriter) close(after []byte) error {
	w.b = append(w.b, ']')
	w.b = append(w.b, after...)
	w.zw.Write(w.b)
	if err := w.zw.Close(); err != nil {
		return fmt.Errorf("viewer: compressing the replay: %w", err)
	}
	return nil
}

// logText turns a bot's log into plain text for the page: ANSI escape
// sequences (CSI "ESC [ … final", and ESC with one character) and
// control characters other than newline and tab are removed, invalid
// UTF-8 becomes U+FFFD. The page shows it as text, never as markup.
func logText(l []byte) string {
	out := make([]byte, 0, len(l))
	for i := 0; i < len(l); i++ {
		b := l[i]
		switch {
		case b == 0x1b:
			if i+1 < len(l) && l[i+1] == '[' {
				i += 2
				for i < len(l) && (l[i] < 0x40 || l[i] > 0x7e) {
					i++
				}
			} else {
				i++
			}
		case b == '\n' || b == '\t':
			out = append(out, b)
		case b < 0x20 || b == 0x7f:
		default:
			out = append(out, b)
		}
	}
	return strings.ToValidUTF8(string(out), "\uFFFD")
}
