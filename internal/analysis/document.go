package analysis

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/satint"
)

// A game's own document (engine.Registration.Document; ColorfightII's,
// docs/analysis-json.md): a presentation built from an Analysis and
// laid out as the ruleset's engine.Document says. Nothing in it is the game's code: its figures
// are the stream's metrics, its events the analysis's, renumbered
// as the document numbers players.
//
// Contracts:
//
//   - Document reads nothing: it is a function of the Analysis it is
//     given (which it keeps, as G), byte for byte.
//   - Players are numbered by uid: player p of the stream is uid
//     p+FirstPlayer; an event's Other likewise, 0 for none, unless its
//     kind's Other is a number (engine.EventKind.OtherNumber, the
//     surges' last turn); a bot_fault's Other is 0.
//   - Series are per round: Values(uid, metric)[t-1] is the metric after
//     turn t, t = 1..Rounds (frame 0, the start, is not listed).
//   - Memory: the Analysis's (AnalyzeStream's bound), plus one Standing
//     per player and one DocumentEvent per event.

// Document is a game's own analysis document (see Document).
type Document struct {
	// G is the analysis the document is built from.
	G *Analysis `json:"-"`
	// Doc is the ruleset's layout.
	Doc      *engine.Document `json:"-"`
	Ruleset  string
	Format   string
	Config   []Setting
	MaxTurns int
	Rounds   int // N: the number of rounds (frames after frame 0)
	// Created is when the game was recorded (StreamMeta.Created).
	Created     time.Time
	HasCommands bool
	MaxUID      int
	Players     []*DocumentPlayer // ascending uid
	Events      []DocumentEvent   // in turn order, then as detected
	Summary     Summary
	// Truncated is the error that ended a damaged or cut-short replay
	// after Rounds whole rounds; everything above covers those rounds.
	// nil when the replay ended cleanly.
	Truncated error `json:"-"`
}

// Setting is one integer setting of the game (engine.Document.Config).
type Setting struct {
	Key   string
	Value int64
}

// DocumentPlayer is one player's identity.
type DocumentPlayer struct {
	UID      int
	Username string
	Bot      string // "" when unknown
	// FirstTurn is the first turn the player appears in (1).
	FirstTurn int
	// p is the player's number in the stream.
	p int
}

// DocumentEvent is something notable that happened in a round, players numbered
// by uid (see Document).
type DocumentEvent struct {
	Turn  int    `json:"turn"`
	Kind  string `json:"kind"`
	UID   int    `json:"uid"`
	Other int    `json:"other"`
	Value int64  `json:"value"`
	// g is 1 + the index of the analysis's event it is, in G.Events; 0
	// for an event Document did not build (by hand, or read back).
	g int
}

// Standing is one line of the final ranking, with the player's totals:
// Values[i] is the document's Standing field i (engine.Document).
type Standing struct {
	Rank     int
	UID      int
	Username string
	Bot      string
	// Score is the player's score (the Final of the game's score
	// metric).
	Score  int64
	Values []int64
	// fields is the document's layout of Values.
	fields []engine.StandingField
}

// Get returns the standing's field key, ok false for no such field.
func (s *Standing) Get(key string) (v int64, ok bool) {
	for i, f := range s.fields {
		if f.Key == key && i < len(s.Values) {
			return s.Values[i], true
		}
	}
	return 0, false
}

// MarshalJSON writes rank, uid, username and bot, then the document's
// fields in its order (a Flag as a boolean).
func (s Standing) MarshalJSON() ([]byte, error) {
	b := []byte(`{"rank":`)
	b = strconv.AppendInt(b, int64(s.Rank), 10)
	b = append(b, `,"uid":`...)
	b = strconv.AppendInt(b, int64(s.UID), 10)
	for _, kv := range [2][2]string{{"username", s.Username}, {"bot", s.Bot}} {
		b = append(b, `,"`+kv[0]+`":`...)
		q, err := json.Marshal(kv[1])
		if err != nil {
			return nil, err
		}
		b = append(b, q...)
	}
	for i, f := range s.fields {
		q, err := json.Marshal(f.Key)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, ','), q...), ':')
		switch {
		case f.Of == engine.Flag:
			b = strconv.AppendBool(b, s.Values[i] != 0)
		default:
			b = strconv.AppendInt(b, s.Values[i], 10)
		}
	}
	return append(b, '}'), nil
}

// Summary is the outcome of the game.
type Summary struct {
	Ranking []Standing `json:"ranking"`
	// Winner is Ranking[0].UID (0 when there are no players).
	Winner int `json:"winner"`
	// Margin is the score of the first minus the second (the first's
	// with a single player).
	Margin int64 `json:"margin"`
	// LeadSince is the first turn from which the winner's score was
	// strictly the highest through the last turn (Analysis.LeadSince).
	LeadSince int `json:"lead_since"`
	// SwingTurn is the turn whose round changed the winner's lead over
	// the best other player the most, SwingGold that change (negative
	// when the lead shrank); 0 with fewer than two players.
	SwingTurn int   `json:"swing_turn"`
	SwingGold int64 `json:"swing_gold"`
	// Incomplete is Analysis.Incomplete: the game stops before its end,
	// so Winner is the leader at the last round, not a winner.
	Incomplete bool `json:"incomplete"`
}

// ErrNoDocument: the game's ruleset has no document of its own
// (engine.Registration.Document); its analysis is the Analysis alone.
var ErrNoDocument = errors.New("analysis: the game has no document of its own")

// AnalyzeDocument reads s to its end and gives its game's own document:
// NewDocument(AnalyzeStream(s)). The document needs no command text: s is
// asked to leave it out (engine.Stream.SkipCommandText), so a flood of
// commands costs their decoding, not their text. It does not close s.
func AnalyzeDocument(s engine.Stream) (*Document, error) {
	if m := s.Meta(); m == nil || m.Document == nil {
		return nil, ErrNoDocument
	}
	s.SkipCommandText()
	g, err := AnalyzeStream(s, Options{})
	if err != nil {
		return nil, err
	}
	return NewDocument(g)
}

// NewDocument builds the document of g's game (see the contracts above);
// ErrNoDocument when its ruleset has none.
func NewDocument(g *Analysis) (*Document, error) {
	doc := g.Meta.Document
	if doc == nil {
		return nil, ErrNoDocument
	}
	fp := doc.FirstPlayer
	a := &Document{G: g, Doc: doc, Ruleset: g.Meta.Ruleset, Format: g.Meta.Format, MaxTurns: g.Meta.MaxTurns,
		Rounds: g.Turns, Created: g.Meta.Created, HasCommands: g.Meta.Resimulated, Truncated: g.Truncated, MaxUID: len(g.Players) - 1 + fp}
	for _, key := range doc.Config {
		for _, kv := range g.Meta.Settings {
			if kv[0] == key {
				v, err := strconv.ParseInt(kv[1], 10, 64)
				if err != nil {
					return nil, fmt.Errorf("analysis: setting %s is %q, not an integer", key, kv[1])
				}
				a.Config = append(a.Config, Setting{key, v})
			}
		}
	}
	for p := range g.Players {
		name := ""
		if p < len(g.Meta.Players) {
			name = g.Meta.Players[p].Name
		}
		a.Players = append(a.Players, &DocumentPlayer{UID: p + fp, Username: name, Bot: g.Players[p].Bot, FirstTurn: 1, p: p})
	}
	a.events()
	a.ranking()
	return a, nil
}

// uid is player p's number in the document, 0 for -1 (none).
func (a *Document) uid(p int) int {
	if p < 0 {
		return 0
	}
	return p + a.Doc.FirstPlayer
}

// metric returns the index of metric name in the stream, -1 for none.
func (a *Document) metric(name string) int {
	for i := range a.G.Meta.Metrics {
		if a.G.Meta.Metrics[i].Name == name {
			return i
		}
	}
	return -1
}

// Values returns player uid's values of metric name after each round
// (index t-1 is turn t), nil for no such player or metric. The slice is
// the analysis's: do not modify it.
func (a *Document) Values(uid int, name string) []int64 {
	p, i := a.Player(uid), a.metric(name)
	if p == nil || i < 0 || a.G.Series == nil {
		return nil
	}
	v := a.G.Series[i].Values[p.p]
	return v[1:min(len(v), a.Rounds+1)]
}

// At returns player uid's value of metric name after turn t (1..Rounds),
// 0 when there is no such player, metric or turn.
func (a *Document) At(uid, t int, name string) int64 {
	if v := a.Values(uid, name); t >= 1 && t <= len(v) {
		return v[t-1]
	}
	return 0
}

// events renumbers the analysis's events, in the document's order: by
// turn, then the game's events and lead changes as they came, the lead
// for good, the surges, the lead swings and the bot faults. Command
// errors are not the document's.
func (a *Document) events() {
	g := a.G
	group := func(e *Event) int {
		if !e.Shell {
			return 0
		}
		switch e.Kind {
		case EventLeadChange:
			return 0
		case EventLeadForGood:
			return 1
		case EventLeadSwing:
			return 3
		case EventBotFault:
			return 4
		}
		if g.surgeMetric(e.Kind) >= 0 {
			return 2
		}
		return -1
	}
	idx := make([]int, 0, len(g.Events))
	for i := range g.Events {
		if group(&g.Events[i]) >= 0 {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		ei, ej := &g.Events[i], &g.Events[j]
		if ei.Turn != ej.Turn {
			return ei.Turn - ej.Turn
		}
		return group(ei) - group(ej)
	})
	a.Events = make([]DocumentEvent, len(idx))
	for k, i := range idx {
		e := &g.Events[i]
		other := e.Other
		switch {
		case e.Shell && e.Kind == EventBotFault:
			other = 0
		case e.Shell && g.surgeMetric(e.Kind) >= 0:
		case e.Shell || !g.otherNumber(e.Kind):
			other = a.uid(other)
		}
		a.Events[k] = DocumentEvent{Turn: e.Turn, Kind: e.Kind, UID: a.uid(e.Player), Other: other, Value: e.Value, g: i + 1}
	}
}

// ranking fills the summary.
func (a *Document) ranking() {
	g, doc := a.G, a.Doc
	s := &a.Summary
	for _, p := range g.Ranking {
		gp := &g.Players[p]
		st := Standing{Rank: gp.Rank, UID: a.uid(p), Username: a.Players[p].Username, Bot: gp.Bot,
			Values: make([]int64, len(doc.Standing)), fields: doc.Standing}
		if sc := g.Score(); sc >= 0 {
			st.Score = gp.Metrics[sc].Final
		}
		for i, f := range doc.Standing {
			st.Values[i] = a.standing(p, f)
		}
		s.Ranking = append(s.Ranking, st)
	}
	s.Incomplete = a.Incomplete()
	if len(s.Ranking) == 0 {
		return
	}
	sc := g.Score()
	final := func(p int) int64 {
		if sc < 0 {
			return 0
		}
		return g.Players[p].Metrics[sc].Final
	}
	w := g.Ranking[0]
	s.Winner, s.Margin = a.uid(w), final(w)
	if len(g.Ranking) > 1 {
		s.Margin = final(w) - final(g.Ranking[1])
	}
	s.LeadSince = g.LeadSince
	if len(g.Players) < 2 || sc < 0 {
		return
	}
	score := g.Series[sc].Values
	var prev int64
	for t := 1; t <= a.Rounds; t++ {
		best, any := int64(0), false
		for p := range score {
			if p != w && (!any || score[p][t] > best) {
				best, any = score[p][t], true
			}
		}
		lead := satint.Sum(score[w][t], -best)
		if d := satint.Sum(lead, -prev); t > 1 && (s.SwingTurn == 0 || abs64(d) > abs64(s.SwingGold)) {
			s.SwingTurn, s.SwingGold = t, d
		}
		prev = lead
	}
}

// standing is field f of player p's standing.
func (a *Document) standing(p int, f engine.StandingField) int64 {
	g := a.G
	switch f.Of {
	case engine.Final, engine.Flag:
		if i := a.metric(f.Name); i >= 0 {
			return g.Players[p].Metrics[i].Final
		}
	case engine.Peak, engine.PeakTurn:
		i := a.metric(f.Name)
		if i < 0 || g.Series == nil {
			return 0
		}
		var peak int64
		turn := 0
		for t, v := range g.Series[i].Values[p][1:] {
			if v > peak {
				peak, turn = v, t+1
			}
		}
		if f.Of == engine.Peak {
			return peak
		}
		return int64(turn)
	case engine.EventTurn:
		turn := 0
		for _, e := range g.Events {
			if !e.Shell && e.Kind == f.Name && e.Player == p {
				turn = e.Turn
			}
		}
		return int64(turn)
	}
	return 0
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// Name returns how the player uid is shown to people: its username, or
// "player N" when it has none or is not a player of the game.
func (a *Document) Name(uid int) string {
	if p := a.Player(uid); p != nil && p.Username != "" {
		return p.Username
	}
	return "player " + strconv.Itoa(uid)
}

// Player returns the player with this uid, or nil.
func (a *Document) Player(uid int) *DocumentPlayer {
	if i := uid - a.Doc.FirstPlayer; i >= 0 && i < len(a.Players) {
		return a.Players[i]
	}
	return nil
}

// streamName returns name as the streamName analysis's naming of players.
func (a *Document) streamName(name func(uid int) string) func(p int) string {
	return func(p int) string { return name(a.uid(p)) }
}

// EventText describes e in one sentence (Analysis.EventText), naming
// players with name (normally a.Name; the text table passes one that
// quotes them). The text is plain, not HTML.
func (a *Document) EventText(e DocumentEvent, name func(uid int) string) string {
	if ge, ok := a.AnalysisEvent(e); ok {
		return a.G.EventText(ge, a.streamName(name))
	}
	return fmt.Sprintf("%s: %s (other %d, value %d)", strings.ReplaceAll(e.Kind, "_", " "), name(e.UID), e.Other, e.Value)
}

// AnalysisEvent returns the analysis's event e is (false for an event not
// built by Document).
func (a *Document) AnalysisEvent(e DocumentEvent) (Event, bool) {
	if a.G == nil || e.g < 1 || e.g > len(a.G.Events) {
		return Event{}, false
	}
	return a.G.Events[e.g-1], true
}

// Explain is Analysis.Explain's line for a lead swing ("" for any other
// event), naming players with name.
func (a *Document) Explain(e DocumentEvent, name func(uid int) string) string {
	if e.Kind != EventLeadSwing {
		return ""
	}
	line, _ := a.ExplainLeadChange(e.Turn, name)
	return line
}

// ExplainLeadChange is Analysis.ExplainLeadChange, naming players by uid
// with name.
func (a *Document) ExplainLeadChange(turn int, name func(uid int) string) (string, bool) {
	return a.G.ExplainLeadChange(turn, a.streamName(name))
}

// TurningPoints are the document's events that are turning points
// (IsTurningPoint), in turn order.
func (a *Document) TurningPoints() []DocumentEvent {
	var out []DocumentEvent
	for _, e := range a.Events {
		if a.G.IsTurningPoint(e.Kind) {
			out = append(out, e)
		}
	}
	return out
}

// ShownAtFirst reports whether an event is in the list a reader sees at
// first (Analysis.ShownAtFirst).
func (a *Document) ShownAtFirst(e DocumentEvent) bool {
	return e.Kind != EventLeadChange || e.Turn <= EarlyLeadTurns(a.Rounds)
}

// Outcome says in one line when the winner took the lead for good and
// the round of the largest swing ("" when there is neither), as the
// viewer's header shows it. In an incomplete game (Incomplete) the first
// is the leader, not a winner, and is called so.
func (a *Document) Outcome() string {
	s := a.Summary
	var parts []string
	if s.LeadSince > 0 {
		parts = append(parts, fmt.Sprintf("%s led for good from turn %d", a.Name(s.Winner), s.LeadSince))
	}
	if s.SwingTurn > 0 {
		who := "winner"
		if a.Incomplete() {
			who = "leader"
		}
		parts = append(parts, fmt.Sprintf("largest swing at turn %d (the %s's lead %+d %s)", s.SwingTurn, who, s.SwingGold, a.Unit()))
	}
	return strings.Join(parts, "; ")
}

// Unit is the score's unit ("gold"), "" for a game without metrics.
func (a *Document) Unit() string {
	if s := a.G.Score(); s >= 0 {
		return a.G.Meta.Metrics[s].Unit
	}
	return ""
}

// Incomplete reports whether the game stops before its end: a damaged or
// cut-short replay (Truncated), or one that ends before its turn limit
// (a match interrupted, a server game stopped). Its first is a leader,
// not a winner (FirstPlace).
func (a *Document) Incomplete() bool {
	return a.Truncated != nil || (a.MaxTurns > 0 && a.Rounds < a.MaxTurns)
}

// FirstPlace names the first of the ranking, name, as every output says it
// (the viewer's header, the report, analyze's table): "winner NAME" for
// a game played to its end, "leader at round N (game incomplete): NAME"
// for one that stops at round N before it (Analysis.Incomplete) — never
// "winner". unit is what the game counts ("round", Monad's "turn").
func FirstPlace(incomplete bool, unit string, n int, name string) string {
	if incomplete {
		return fmt.Sprintf("leader at %s %d (game incomplete): %s", unit, n, name)
	}
	return "winner " + name
}

// FirstPlace is FirstPlace for a's first player.
func (a *Document) FirstPlace() string {
	return FirstPlace(a.Incomplete(), "round", a.Rounds, a.Name(a.Summary.Winner))
}

// ConfigText is the game's settings in a line ("width 30, height 30, …").
func (a *Document) ConfigText() string {
	parts := make([]string, len(a.Config))
	for i, s := range a.Config {
		parts[i] = s.Key + " " + strconv.FormatInt(s.Value, 10)
	}
	return strings.Join(parts, ", ")
}

// columns are the indexes in the stream's metrics of the series the
// document lists, in its order (engine.Document.Series, then the rest).
func (a *Document) columns() []int {
	var cols []int
	for _, name := range a.Doc.Series {
		if i := a.metric(name); i >= 0 && !slices.Contains(cols, i) {
			cols = append(cols, i)
		}
	}
	for i := range a.G.Meta.Metrics {
		if !slices.Contains(cols, i) {
			cols = append(cols, i)
		}
	}
	return cols
}

// writeJSONTo is the one JSON writer of a document (WriteJSON).
func (a *Document) writeJSONTo(j *jsonWriter) {
	j.raw("{")
	j.key("format", true)
	j.value(a.Format)
	j.key("config", false)
	cfg := make(map[string]int64, len(a.Config))
	for _, s := range a.Config {
		cfg[s.Key] = s.Value
	}
	j.value(cfg)
	j.key("rounds", false)
	j.value(a.Rounds)
	j.key("has_commands", false)
	j.value(a.HasCommands)
	if a.Truncated != nil {
		j.key("truncated", false)
		j.value(a.Truncated.Error())
	}
	j.key("players", false)
	ps := make([]playerJSON, 0, len(a.Players))
	for _, p := range a.Players {
		ps = append(ps, playerJSON{p.UID, p.Username, p.Bot, p.FirstTurn})
	}
	j.value(ps)
	j.key("summary", false)
	j.value(a.Summary)
	j.key("events", false)
	ev := a.Events
	if ev == nil {
		ev = []DocumentEvent{}
	}
	j.value(ev)
	writeReplyTimesJSON(j, a.replyTimes())
	j.key("series", false)
	j.raw("{")
	j.key("turn", true)
	turns := make([]int64, a.Rounds)
	for i := range turns {
		turns[i] = int64(i + 1)
	}
	j.ints(turns)
	j.key("players", false)
	j.raw("{")
	cols := a.columns()
	for pi, p := range a.Players {
		j.key(strconv.Itoa(p.UID), pi == 0)
		j.raw("{")
		for ci, c := range cols {
			j.key(a.G.Series[c].Metric.Name, ci == 0)
			j.ints(a.G.Series[c].Values[p.p][1 : a.Rounds+1])
		}
		j.raw("}")
	}
	j.raw("}}}\n")
}
