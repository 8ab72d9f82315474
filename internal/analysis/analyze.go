// Package analysis computes per-player, per-round series, events,
// turning points, a summary, standings and ratings from any replay rewind
// can open, streaming over its frames: one analysis for every
// game (AnalyzeStream: the metrics and events a ruleset declares), and, for a game whose ruleset declares a document
// of its own (engine.Registration.Document: ColorfightII's), that document laid out
// from that analysis (NewDocument). Nothing here is a game's code.
package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/satint"
)

// Series is one per-player per-round series of an analysis.
type Series struct {
	// Metric names the series (snake_case), its unit and kind.
	Metric engine.Metric
	// Values[player][round], round 0..Rounds.
	Values [][]int64
}

// The analysis: one pass over any game's engine.Stream, read
// through the seam only (the metrics a ruleset declares, the events it
// reports, its ranking, the commands, faults and errors of each round),
// so it works for every ruleset with no code of its own. It is the
// analysis the shell's `analyze`, `report` and `analyze DIR` give a game
// whose package brings nothing more.
//
// Contracts:
//
//   - AnalyzeStream reads the stream once, front to back, and keeps one
//     frame (the stream's, reused) besides its results. Memory: the
//     series, players × metrics × (turns + 1) int64s (at most
//     MaxValues: 64 MiB; each series reserves min(MaxTurns+1,
//     8192) values up front, 256 when MaxTurns is 0, never more than the
//     limit in all, and growth past that may double one for a moment);
//     turns + 1 ints of leaders (and, for a Sequential game, of active
//     players); at most Options.MaxEvents events (default
//     MaxEvents, 65,536) of 88 bytes while reading, copied to 72
//     bytes each at the end (≤ 10.5 MB at the default bound); and
//     O(players × metrics) of working state. A stream whose header
//     (StreamMeta.MaxTurns) promises more values than the limit is
//     refused before its first frame, one that reaches the limit when it
//     does, with ErrLimit.
//   - Frame t (t = 0..Turns) is the game after t rounds; frame 0 is the
//     start. In a Sequential game a round is one player-turn
//     (Frame.Active acted in it), so every series has one value per
//     player-turn; RoundFrames gives the frames that close a full cycle
//     of the players, for a per-round view.
//   - Every number is read from the frames: no rule is played again, no
//     map is iterated, and the output (JSON, CSV, table) is a function of
//     the frames alone, byte for byte.
//   - A hostile or broken stream cannot make it panic: a frame with
//     another player or metric count than frame 0 ends the analysis as a
//     cut-short replay (Truncated), out-of-range players in events, errors
//     and rankings are kept as numbers or ignored as documented, and a
//     last ranking that is not a permutation of the players is replaced
//     by the score order.

// MaxValues bounds the series an analysis holds: players ×
// metrics × (turns + 1) values of 8 bytes, 2^23 (64 MiB). A real game is
// far below it (ColorfightII: 8 players × 56 metrics, its 39 figures and
// the 17 exchanges with each other party, × 2001 frames is 896,448;
// Monad: 4 × 7 × 1001 is 28,028), and so is the longest game any ruleset
// plays (Monad's 100,000 turns: 2.8 million).
const MaxValues = 1 << 23

// ErrLimit reports a replay beyond one of the analysis's limits.
var ErrLimit = errors.New("analysis: replay exceeds a limit")

// seriesCapHint is the most values a series reserves up front.
const seriesCapHint = 8192

// MaxEvents is how many events an analysis keeps by
// default; those past it are counted in Analysis.EventsDropped.
const MaxEvents = 1 << 16

// EventCommandErrors is the shell-derived event of a run of a player's
// turns in a row with rejected commands (see Analysis.Events).
const EventCommandErrors = "command_errors"

// Options configure AnalyzeStream. The zero value is the default.
type Options struct {
	// MaxEvents bounds the events kept (0: MaxEvents); the events
	// past it are counted in Analysis.EventsDropped, not kept. The
	// lead_for_good event is always kept.
	MaxEvents int
	// MaxValues bounds the values the series hold, players × metrics ×
	// (turns + 1), as MaxValues does by default (0), for a reader
	// that holds the analysis within a smaller budget (the viewer's
	// page). A larger value is MaxValues.
	MaxValues int64
}

// Event is one event of an analysis: one the game reported
// (engine.Event, Shell false) with the turn of the round that produced
// it, or one the analysis derived (Shell true). Fields a kind does not use
// are -1 (Player, Other, X, Y) or 0 (Value).
//
// The shell-derived kinds:
//
//   - lead_change: Player has the strictly highest score (the metric
//     StreamMeta.Score) alone, and did not at the previous frame that had
//     a sole leader; Other is that previous sole leader (-1: none); Value
//     is Player's score. A leader at frame 0 is not a change.
//   - lead_for_good: Player, the first of the last ranking, was the sole
//     score leader from this turn (Analysis.LeadSince) to the last; Value
//     is its score then.
//   - bot_fault: Player's bot failed to answer (Frame.Faults) on this
//     turn and on each of its next Value-1 turns; Other is the fault of
//     the first of them (engine.Fault: 1 timeout, 2 crash, 3 garbage).
//   - a surge (the kind a metric's engine.Surge names): Player spent far
//     above its habit of that metric from this turn to turn Other,
//     Value in all (turning.go).
//   - lead_swing: a lead change where Player gained Value score on
//     Other over the rounds before (turning.go).
//   - command_errors: Player had commands rejected (Frame.Errors with an
//     Index >= 0) on this turn and each of its turns through turn Other;
//     Value is how many in all. Only when commands are known.
//
// A player's turns are every round, or in a Sequential game the rounds
// it was the active player (or had a fault reported).
type Event struct {
	Turn   int    `json:"turn"`
	Kind   string `json:"kind"`
	Player int    `json:"player"`
	Other  int    `json:"other"`
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Value  int64  `json:"value"`
	Shell  bool   `json:"shell"`
}

// MetricSummary is one player's summary of one metric over the game.
type MetricSummary struct {
	// Final is the value at the last frame (for a counter, the total);
	// for an amount (engine.Amount), the game's total: the sum of its
	// values over frames 0..Turns, saturating at the int64 range. For a
	// metric the stream does not know (Analysis.Unknown: counted from
	// commands a stream of states does not have) it is -1, "unknown", as
	// the stream's values are and as ColorfightII's summary has always
	// said, never a sum of them.
	Final int64
	// Peak is a gauge's highest value over frames 0..Turns and PeakTurn
	// the first frame it was reached; both 0 for a counter, an amount or
	// an unknown metric.
	Peak     int64
	PeakTurn int
}

// Player is one player's summary.
type Player struct {
	Player int
	Name   string // StreamMeta.Players' name, or "player N"
	Bot    string // "" when unknown
	// Rank is 1 + the player's position in the last frame's ranking.
	Rank int
	// Metrics has one entry per StreamMeta.Metrics, in order.
	Metrics []MetricSummary
	// OwnTurns counts the rounds the player acted in: every round, or in
	// a Sequential game those it was Frame.Active in.
	OwnTurns int
	// Commands counts the commands the player sent, Rejected those that
	// drew an error (Frame.Errors with Index >= 0; errors of no command,
	// such as faults a ruleset reports as errors, are not counted); both
	// -1 when the stream does not know the commands (CommandsKnown).
	Commands, Rejected int64
	// Faults counts the rounds a fault was recorded for the player before.
	Faults int
}

// Analysis is the result of AnalyzeStream.
type Analysis struct {
	// Meta is the stream's metadata (its slices copied).
	Meta engine.StreamMeta
	// Turns is the number of rounds read (frames read - 1): player-turns
	// in a Sequential game.
	Turns int
	// CommandsKnown is true when every round read carries its commands
	// (Frame.CommandsKnown), and there was at least one.
	CommandsKnown bool
	// Series has one entry per StreamMeta.Metrics, in order: Values[p][t]
	// is player p's value at frame t, t = 0..Turns.
	Series []Series
	// Active[t] is Frame.Active of frame t (-1 for frame 0) in a
	// Sequential game; nil otherwise.
	Active []int
	// Leader[t] is the player with the strictly highest score at frame t
	// alone, -1 when several share it (or there is no metric).
	Leader []int
	// Events are in turn order; within a turn, the game's events as it
	// reported them, then bot_fault, command_errors, lead_change,
	// lead_for_good, the surges (by player, then kind) and the lead
	// swings (biggest first) (see Event).
	Events        []Event
	EventsDropped int
	// Ranking is the last frame's ranking, best first (every player
	// once; a broken one is replaced by descending score, then player).
	Ranking []int
	// Players are the players' summaries, in player order.
	Players []Player
	// LeadSince is the first turn (>= 1) from which Ranking[0] was the
	// sole score leader through the last turn; 0 when it is not the sole
	// leader at the end, or no turn was read.
	LeadSince int
	// Truncated is the error that ended a damaged or cut-short stream
	// after Turns whole rounds; nil when it ended cleanly.
	Truncated error
	// Over is the last frame's Frame.Over: the game is over (meaningful
	// when Meta.EndKnown; see Incomplete).
	Over bool
	// ReplyTimes has one entry per player, in player order, when some
	// frame has reply times (Frame.ReplyTimes: side data); nil otherwise.
	ReplyTimes []ReplyTimes `json:",omitempty"`
}

// NumPlayers returns the number of players.
func (g *Analysis) NumPlayers() int { return len(g.Players) }

// Name returns player p's display name: its name in the stream, or
// "player N"; "nobody" for -1 (an event field not used).
func (g *Analysis) Name(p int) string {
	if p >= 0 && p < len(g.Players) {
		return g.Players[p].Name
	}
	if p == -1 {
		return "nobody"
	}
	return "player " + strconv.Itoa(p)
}

// Score returns the index in Meta.Metrics of the score, -1 when the game
// has no metric.
func (g *Analysis) Score() int {
	return scoreIndex(&g.Meta)
}

func scoreIndex(m *engine.StreamMeta) int {
	if len(m.Metrics) == 0 {
		return -1
	}
	if m.Score >= 0 && m.Score < len(m.Metrics) {
		return m.Score
	}
	return 0
}

// Winner returns the first of the ranking, -1 with no player.
func (g *Analysis) Winner() int {
	if len(g.Ranking) == 0 {
		return -1
	}
	return g.Ranking[0]
}

// SeriesNamed returns the series of the metric name, or nil.
func (g *Analysis) SeriesNamed(name string) *Series {
	for i := range g.Series {
		if g.Series[i].Metric.Name == name {
			return &g.Series[i]
		}
	}
	return nil
}

// RoundFrames returns the frames that end a round, from frame 0: every
// frame 0..Turns, or in a Sequential game frame 0 and the frames that
// close a full cycle of the players, where the next active player does
// not come later in player order than the last (the cycle wraps; players
// out of the game are skipped by the ruleset, so a cycle is of those
// still playing), and the last frame. Charts of a Sequential game sample
// the series at these frames: entry r is the game after round r.
func (g *Analysis) RoundFrames() []int {
	if !g.Meta.Sequential || g.Active == nil {
		fs := make([]int, g.Turns+1)
		for i := range fs {
			fs[i] = i
		}
		return fs
	}
	fs := []int{0}
	for t := 1; t <= g.Turns; t++ {
		if t == g.Turns || g.Active[t] < 0 || g.Active[t+1] <= g.Active[t] {
			fs = append(fs, t)
		}
	}
	return fs
}

// EventText describes e in one sentence, naming players with name
// (normally g.Name; the text table passes one that quotes them). A game's
// event is its EventKind's Sentence; a kind the ruleset did not declare
// gets a neutral sentence. The text is plain, not HTML.
func (g *Analysis) EventText(e Event, name func(p int) string) string {
	unit := ""
	if s := g.Score(); s >= 0 {
		unit = g.Meta.Metrics[s].Unit
	}
	if e.Shell {
		switch e.Kind {
		case EventLeadChange:
			return fmt.Sprintf("%s takes the lead (%d %s)", name(e.Player), e.Value, unit)
		case EventLeadForGood:
			return leadForGoodText(name(e.Player), e.Value, unit)
		case EventBotFault:
			what := engine.Fault(e.Other).String()
			if e.Value == 1 {
				return fmt.Sprintf("%s's bot fails to answer (%s, 1 turn)", name(e.Player), what)
			}
			return fmt.Sprintf("%s's bot fails to answer (%s, %d turns in a row)", name(e.Player), what, e.Value)
		case EventLeadSwing:
			return fmt.Sprintf("lead swing: %s gains %d %s on %s in %d rounds and takes the lead from it", name(e.Player), e.Value, unit, name(e.Other), explainWindow)
		case EventCommandErrors:
			s := "s"
			if e.Value == 1 {
				s = ""
			}
			turns := "turns "
			if e.Other <= e.Turn {
				turns = "turn "
			}
			return fmt.Sprintf("%s has %d command%s rejected in %s%s", name(e.Player), e.Value, s, turns, turnSpan(e.Turn, e.Other))
		}
	}
	if i := g.surgeMetric(e.Kind); e.Shell && i >= 0 {
		m := &g.Meta.Metrics[i]
		return fmt.Sprintf("%s surges: %d %s on %s in turns %s", name(e.Player), e.Value, m.Unit, m.Surge.On, turnSpan(e.Turn, e.Other))
	}
	for i := range g.Meta.EventKinds {
		if k := &g.Meta.EventKinds[i]; k.Name == e.Kind && k.Text != "" {
			return k.Sentence(&engine.Event{Kind: e.Kind, Player: e.Player, Other: e.Other, X: e.X, Y: e.Y, Value: e.Value}, name)
		}
	}
	return fmt.Sprintf("%s: %s (other %s, at %d, %d, value %d)", strings.ReplaceAll(e.Kind, "_", " "), name(e.Player), name(e.Other), e.X, e.Y, e.Value)
}

// Incomplete reports whether the game stops before its end: a cut-short
// stream (Truncated), or one whose last frame says the game is not over
// (Frame.Over, when the stream knows: StreamMeta.EndKnown), as a match
// interrupted or a server game stopped leaves it.
func (g *Analysis) Incomplete() bool {
	return g.Truncated != nil || (g.Meta.EndKnown && !g.Over)
}

// Outcome says in one line who is first, with its score, and since when
// it led for good, naming players with name: e.g. `winner alice (12
// cells), in the lead for good since turn 5`. The first of a game that
// stops before its end (Incomplete) is a leader, not a winner
// (FirstPlace).
func (g *Analysis) Outcome(name func(p int) string) string {
	w := g.Winner()
	if w < 0 {
		return "no players"
	}
	s := FirstPlace(g.Incomplete(), "turn", g.Turns, name(w))
	if sc := g.Score(); sc >= 0 {
		s += fmt.Sprintf(" (%d %s)", g.Players[w].Metrics[sc].Final, g.Meta.Metrics[sc].Unit)
	}
	if g.LeadSince > 0 {
		s += fmt.Sprintf(", in the lead for good since turn %d", g.LeadSince)
	}
	return s
}

// Compact drops what a corpus does not keep (the series, events, leaders
// and active players), leaving the metadata, summaries and ranking: a
// corpus of compacted analyses costs O(games × players × metrics).
func (g *Analysis) Compact() {
	g.Series, g.Events, g.Leader, g.Active, g.ReplyTimes = nil, nil, nil, nil, nil
}

// placedEvent is an event with its place within its turn.
type placedEvent struct {
	Event
	class int // 0 the game's, 1 bot_fault, 2 command_errors, 3 lead_change, 4 lead_for_good, 5 surges, 6 lead_swing
	seq   int
}

// run is a run of a player's turns in a row with a fault or errors.
type run struct {
	open        bool
	start, last int
	n           int64
	kind        int
}

// analyzerState is an Analyzer's streaming state.
type analyzerState struct {
	g         *Analysis
	n, m      int
	score     int
	maxEvents int
	events    []placedEvent
	seq       int
	faultRun  []run
	errRun    []run
	prevLead  int
	rejected  []int64 // this round's rejected commands per player
	// lastRanking and lastScores are the last frame's ranking and its
	// players' scores (copies), which finish reads; lastOver its Over.
	lastRanking []int
	lastScores  []int64
	lastOver    bool
	// replyKeys[p] are player p's reply times so far (replyKey), nil
	// before a frame has any; replyValues counts them all.
	replyKeys   [][]int64
	replyValues int64
}

// An Analyzer is AnalyzeStream one frame at a time, for a reader that
// reads the stream itself and does more with each frame (the viewer's
// page: one pass packs the frames and analyzes them): NewAnalyzer with
// the stream's meta, Add with each frame in order (frame 0 first), Stop
// when the stream fails, Finish at its end. Fed every frame of a stream
// (and Stop with the error of a failing Next), Finish gives what
// AnalyzeStream gives for it, byte for byte, with AnalyzeStream's
// memory, limits and contracts. It keeps no reference to a frame.
type Analyzer struct {
	az            analyzerState
	meta          *engine.StreamMeta
	perFrame      int64
	maxValues     int64
	commandsKnown bool
	frames        int
	// err is a failure that leaves no analysis (frame 0's, a limit's).
	err error
}

// NewAnalyzer starts the analysis of a stream of meta m (its slices are
// copied), with options opt.
func NewAnalyzer(m *engine.StreamMeta, opt Options) (*Analyzer, error) {
	if m == nil {
		return nil, errors.New("analysis: stream has no metadata")
	}
	g := &Analysis{Meta: *m}
	g.Meta.Metrics = slices.Clone(m.Metrics)
	g.Meta.EventKinds = slices.Clone(m.EventKinds)
	g.Meta.Players = slices.Clone(m.Players)
	g.Meta.Settings = slices.Clone(m.Settings)
	a := &Analyzer{az: analyzerState{g: g, m: len(m.Metrics), score: scoreIndex(m), maxEvents: opt.MaxEvents, prevLead: -1}, meta: &g.Meta, commandsKnown: true}
	if a.az.maxEvents <= 0 {
		a.az.maxEvents = MaxEvents
	}
	a.maxValues = opt.MaxValues
	if a.maxValues <= 0 || a.maxValues > MaxValues {
		a.maxValues = MaxValues
	}
	return a, nil
}

// AnalyzeStream reads s to its end and analyzes the game. It does not
// close s. A stream whose frames break off after the first round gives
// the analysis of its whole rounds, with Truncated set; one that fails
// before gives an error.
func AnalyzeStream(s engine.Stream, opt Options) (*Analysis, error) {
	a, err := NewAnalyzer(s.Meta(), opt)
	if err != nil {
		return nil, err
	}
	var f engine.Frame
	for a.err == nil && a.az.g.Truncated == nil {
		err := s.Next(&f)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			a.Stop(err)
			break
		}
		a.Add(&f)
	}
	return a.Finish()
}

// Add adds f, the stream's next frame. An error (frame 0's, or a frame
// past MaxValues: ErrLimit) ends the analysis: Add returns it, and
// Finish too. A later frame of another shape than frame 0 ends the
// analysis as a cut-short stream (Analysis.Truncated); the frames after an
// end are not read.
func (a *Analyzer) Add(f *engine.Frame) error {
	az, g := &a.az, a.az.g
	if a.err != nil || g.Truncated != nil {
		return a.err
	}
	if a.frames == 0 {
		a.err = a.first(f)
		a.frames++
		return a.err
	}
	err := az.checkShape(f, az.n)
	if err == nil && a.perFrame*int64(g.Turns+2)+az.replyValues+int64(len(f.ReplyTimes)) > a.maxValues {
		a.err = fmt.Errorf("analysis: frame %d: more than %d values (players × metrics × frames, and the reply times), which exceeds the limit; see docs/limits.md: %w",
			g.Turns+1, a.maxValues, ErrLimit)
		return a.err
	}
	if err != nil {
		a.Stop(err)
		return a.err
	}
	a.frames++
	g.Turns++
	a.commandsKnown = a.commandsKnown && f.CommandsKnown
	az.round(f, g.Turns)
	az.keepLast(f)
	return nil
}

// Stop ends the analysis at a stream that failed with err reading the
// frame after the last added: the analysis of the whole rounds before,
// with Analysis.Truncated, or, before any round, an error from Finish.
func (a *Analyzer) Stop(err error) {
	g := a.az.g
	switch {
	case a.err != nil || g.Truncated != nil:
	case a.frames == 0:
		a.err = fmt.Errorf("analysis: frame 0: %w", err)
	case g.Turns == 0:
		a.err = fmt.Errorf("analysis: frame %d: %w", g.Turns+1, err)
	default:
		g.Truncated = fmt.Errorf("frame %d: %w", g.Turns+1, err)
	}
}

// Finish ends the analysis and gives it (AnalyzeStream's result), or the
// error that ended it. It is called once.
func (a *Analyzer) Finish() (*Analysis, error) {
	if a.err != nil {
		return nil, a.err
	}
	if a.frames == 0 {
		return nil, errors.New("analysis: stream has no frames")
	}
	a.az.g.CommandsKnown = a.commandsKnown && a.az.g.Turns > 0
	a.az.finish()
	return a.az.g, nil
}

// first takes frame 0 of the stream.
func (a *Analyzer) first(f *engine.Frame) error {
	az, g, meta := &a.az, a.az.g, a.meta
	n := len(f.Values)
	if n < 1 {
		return errors.New("analysis: frame 0 has no players")
	}
	if err := az.checkShape(f, n); err != nil {
		return fmt.Errorf("analysis: frame 0: %w", err)
	}
	az.n = n
	perFrame := int64(n) * int64(max(az.m, 1))
	a.perFrame = perFrame
	limit := a.maxValues
	if perFrame > limit {
		return fmt.Errorf("analysis: %d players × %d metrics is more than the limit of %d values; see docs/limits.md: %w", n, az.m, limit, ErrLimit)
	}
	if t := int64(meta.MaxTurns); t > 0 && (t >= limit || perFrame*(t+1) > limit) {
		return fmt.Errorf("analysis: %d players × %d metrics for %d turns is more than the limit of %d values; see docs/limits.md: %w",
			n, az.m, t, limit, ErrLimit)
	}
	// Each series reserves the whole game when its length is known (the
	// limit was checked above), at most seriesCapHint values; 256
	// otherwise, growing as it must; never more in all than the limit.
	capHint := 256
	if t := meta.MaxTurns; t > 0 {
		capHint = min(t+1, seriesCapHint)
	}
	capHint = int(min(int64(capHint), max(1, limit/perFrame)))
	for _, mt := range g.Meta.Metrics {
		sr := Series{Metric: mt, Values: make([][]int64, n)}
		for p := range sr.Values {
			sr.Values[p] = make([]int64, 0, capHint)
		}
		g.Series = append(g.Series, sr)
	}
	g.Players = make([]Player, n)
	for p := range g.Players {
		gp := &g.Players[p]
		gp.Player = p
		gp.Name = playerName(meta, p)
		if p < len(meta.Players) {
			gp.Bot = meta.Players[p].Bot
		}
		gp.Metrics = make([]MetricSummary, az.m)
	}
	if meta.Sequential {
		g.Active = []int{-1}
	}
	az.faultRun = make([]run, n)
	az.errRun = make([]run, n)
	az.rejected = make([]int64, n)
	az.lastScores = make([]int64, n)
	az.values(f)
	g.Leader = append(g.Leader, az.leader(f))
	az.prevLead = g.Leader[0]
	az.keepLast(f)
	return nil
}

// keepLast keeps f's ranking and scores, the last frame's so far.
func (az *analyzerState) keepLast(f *engine.Frame) {
	az.lastRanking, az.lastOver = append(az.lastRanking[:0], f.Ranking...), f.Over
	if az.score >= 0 {
		for p := range az.lastScores {
			az.lastScores[p] = f.Values[p][az.score]
		}
	}
}

// checkShape checks that f has n players of m values each.
func (az *analyzerState) checkShape(f *engine.Frame, n int) error {
	if len(f.Values) != n {
		return fmt.Errorf("%d players, frame 0 had %d", len(f.Values), n)
	}
	for p, v := range f.Values {
		if len(v) != az.m {
			return fmt.Errorf("player %d has %d values, the game declares %d metrics", p, len(v), az.m)
		}
	}
	return nil
}

// values appends frame f's values to the series and updates the peaks.
func (az *analyzerState) values(f *engine.Frame) {
	g, t := az.g, az.g.Turns
	for i := range g.Series {
		sr := &g.Series[i]
		gauge, amount := sr.Metric.Kind == engine.Gauge, sr.Metric.Kind == engine.Amount
		for p := 0; p < az.n; p++ {
			v := f.Values[p][i]
			sr.Values[p] = append(sr.Values[p], v)
			ms := &g.Players[p].Metrics[i]
			if amount {
				ms.Final = satint.Sum(ms.Final, v)
			} else {
				ms.Final = v
			}
			if gauge && (t == 0 || v > ms.Peak) {
				ms.Peak, ms.PeakTurn = v, t
			}
		}
	}
}

// leader returns the sole score leader of f, or -1.
func (az *analyzerState) leader(f *engine.Frame) int {
	if az.score < 0 {
		return -1
	}
	who, best, tied := -1, int64(0), false
	for p := 0; p < az.n; p++ {
		v := f.Values[p][az.score]
		if who < 0 || v > best {
			who, best, tied = p, v, false
		} else if v == best {
			tied = true
		}
	}
	if tied {
		return -1
	}
	return who
}

func (az *analyzerState) event(e Event, class int) {
	if class != 4 && len(az.events) >= az.maxEvents {
		az.g.EventsDropped++
		return
	}
	az.seq++
	az.events = append(az.events, placedEvent{Event: e, class: class, seq: az.seq})
}

// round adds frame f, the game after round t.
func (az *analyzerState) round(f *engine.Frame, t int) {
	g := az.g
	az.values(f)
	az.replies(f, t)
	active := -1
	if g.Meta.Sequential {
		if f.Active >= 0 && f.Active < az.n {
			active = f.Active
		}
		g.Active = append(g.Active, active)
	}
	for _, e := range f.Events {
		az.event(Event{Turn: t, Kind: e.Kind, Player: e.Player, Other: e.Other, X: e.X, Y: e.Y, Value: e.Value}, 0)
	}
	// Commands and errors of the round.
	var rejected []int64
	if f.CommandsKnown {
		rejected = az.rejected
		clear(rejected)
		for _, e := range f.Errors {
			if e.Player >= 0 && e.Player < az.n && e.Index >= 0 {
				rejected[e.Player]++
			}
		}
	}
	for p := 0; p < az.n; p++ {
		gp := &g.Players[p]
		var fault engine.Fault
		if p < len(f.Faults) {
			fault = f.Faults[p]
		}
		if fault != 0 {
			gp.Faults++
		}
		if !g.Meta.Sequential || active == p {
			gp.OwnTurns++
		}
		if f.CommandsKnown && p < len(f.Commands) {
			gp.Commands += int64(len(f.Commands[p]))
		}
		if rejected != nil {
			gp.Rejected += rejected[p]
		}
		if g.Meta.Sequential && active != p && fault == 0 {
			continue // not the player's turn: its runs go on
		}
		fr := &az.faultRun[p]
		if fault != 0 {
			if !fr.open {
				*fr = run{open: true, start: t, kind: int(fault)}
			}
			fr.n++
			fr.last = t
		} else {
			az.closeFault(p)
		}
		if rejected == nil {
			continue
		}
		er := &az.errRun[p]
		if rejected[p] > 0 {
			if !er.open {
				*er = run{open: true, start: t}
			}
			er.n += rejected[p]
			er.last = t
		} else {
			az.closeErrors(p)
		}
	}
	l := az.leader(f)
	g.Leader = append(g.Leader, l)
	if l >= 0 && l != az.prevLead {
		az.event(Event{Turn: t, Kind: EventLeadChange, Player: l, Other: az.prevLead, X: -1, Y: -1, Value: f.Values[l][az.score], Shell: true}, 3)
	}
	if l >= 0 {
		az.prevLead = l
	}
}

func (az *analyzerState) closeFault(p int) {
	if r := &az.faultRun[p]; r.open {
		az.event(Event{Turn: r.start, Kind: EventBotFault, Player: p, Other: r.kind, X: -1, Y: -1, Value: r.n, Shell: true}, 1)
		r.open = false
	}
}

func (az *analyzerState) closeErrors(p int) {
	if r := &az.errRun[p]; r.open {
		az.event(Event{Turn: r.start, Kind: EventCommandErrors, Player: p, Other: r.last, X: -1, Y: -1, Value: r.n, Shell: true}, 2)
		r.open = false
	}
}

// finish closes the runs, takes the ranking of the last frame and
// orders the events.
func (az *analyzerState) finish() {
	g := az.g
	g.Over = az.lastOver
	for p := 0; p < az.n; p++ {
		az.closeFault(p)
		az.closeErrors(p)
	}
	g.Ranking = validRanking(az.lastRanking, az.n)
	if g.Ranking == nil {
		g.Ranking = make([]int, az.n)
		for p := range g.Ranking {
			g.Ranking[p] = p
		}
		if az.score >= 0 {
			slices.SortStableFunc(g.Ranking, func(a, b int) int { return cmp.Compare(az.lastScores[b], az.lastScores[a]) })
		}
	}
	for i := range g.Series {
		if g.Unknown(i) {
			for p := range g.Players {
				g.Players[p].Metrics[i] = MetricSummary{Final: -1}
			}
		}
	}
	for i, p := range g.Ranking {
		g.Players[p].Rank = i + 1
		if !g.CommandsKnown {
			g.Players[p].Commands, g.Players[p].Rejected = -1, -1
		}
	}
	if w := g.Ranking[0]; g.Turns > 0 && g.Leader[g.Turns] == w {
		t := g.Turns
		for t > 1 && g.Leader[t-1] == w {
			t--
		}
		g.LeadSince = t
		az.event(Event{Turn: t, Kind: EventLeadForGood, Player: w, Other: -1, X: -1, Y: -1, Value: g.Series[az.score].Values[w][t], Shell: true}, 4)
	}
	az.surges()
	az.swings()
	az.finishReplies()
	slices.SortFunc(az.events, func(a, b placedEvent) int {
		return cmp.Or(cmp.Compare(a.Turn, b.Turn), cmp.Compare(a.class, b.class), cmp.Compare(a.seq, b.seq))
	})
	g.Events = make([]Event, len(az.events))
	for i := range az.events {
		g.Events[i] = az.events[i].Event
	}
}

// Unknown reports whether the stream cannot know metric i (an index of
// Meta.Metrics): one counted from the commands (engine.Metric's
// FromCommands) on a stream whose rounds are not played from them
// (StreamMeta.Resimulated false). Its series holds -1 for every frame
// (0 where there is nothing to count, as at frame 0), and its summary's
// Final is -1 (MetricSummary).
func (g *Analysis) Unknown(i int) bool { return UnknownMetric(&g.Meta, i) }

// UnknownMetric reports whether a stream of meta m cannot know metric i
// (an index of m.Metrics): Analysis.Unknown, for a reader of the stream
// itself (the viewer's page shows such values as unknown).
func UnknownMetric(m *engine.StreamMeta, i int) bool {
	return i >= 0 && i < len(m.Metrics) && m.Metrics[i].FromCommands && !m.Resimulated
}

// validRanking returns a copy of r when it lists each of the n players
// once, else nil.
func validRanking(r []int, n int) []int {
	if len(r) != n {
		return nil
	}
	seen := make([]bool, n)
	for _, p := range r {
		if p < 0 || p >= n || seen[p] {
			return nil
		}
		seen[p] = true
	}
	return slices.Clone(r)
}
