package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/replay/source"
)

// Monad's analysis: one pass over a source.MonadSource's frames (a Monad
// .rwd re-simulated, or an official reference log) computing per-player
// per-turn series, the game's events and its ranking. It is the one place
// these aggregates are computed; the CLI prints them and the viewer charts
// them.
//
// Contracts:
//
//   - AnalyzeMonad reads the source once, front to back, and keeps two
//     frames (the previous and the current one) besides its results:
//     memory is O(players × turns × series), 8 bytes per value (at most 4
//     players × (turns+1) × 11 series), plus the events (at most
//     MaxMonadEvents). players × (turns+1) is capped by MaxPlayerRounds,
//     as ColorfightII's analysis (docs/limits.md).
//   - Series values are indexed [player][turn], turn 0..Turns: frame 0 is
//     the state before the first turn.
//   - Every value is read from the frames (Players, Cells, Moves, Fights)
//     or derived from them; no rule is played again. The ranking is
//     monad.RankStats of the last frame's facts.
//   - The counter series (units_produced, units_lost, rejected),
//     units_moved and the bot_fault events exist only when the source
//     knows them (MonadMeta.Counters); otherwise they are absent, never
//     zeros. Without a .rwd's Fights, a hive built and destroyed in the
//     same turn is not seen (docs/analysis-json.md, "Monad").
//   - A hostile source cannot make it panic (FuzzAnalyzeMonad): players
//     beyond 1..monad.MaxPlayers are refused, a frame with another player
//     count ends the analysis as a cut-short replay, out-of-range owners
//     and moves are ignored.

// Monad series derived by the analysis, beside monad.Ruleset.Metrics().
const (
	// SeriesMined is the resources a player mined in the turn that led
	// to the frame (0 at turn 0): the change in its resources plus
	// monad.HiveCost for every hive it built in the turn.
	SeriesMined = "resources_mined"
	// SeriesMoved is the units a player moved in the turn: the counts of
	// its applied MOVE commands (a unit moved twice by chained moves
	// counts twice). Only with MonadMeta.Counters: a reference log's
	// moves have inferred kinds and their counts as logged, which do not
	// tell this.
	SeriesMoved = "units_moved"
	// SeriesHivesBuilt is the hives a player has built since turn 0,
	// including hives destroyed since: hives that appeared on the board,
	// and hives built and destroyed in the same turn (seen in the turn's
	// Fights, which only a .rwd has).
	SeriesHivesBuilt = "hives_built"
	// SeriesHivesLost is the hives of a player destroyed since turn 0.
	SeriesHivesLost = "hives_lost"
)

// monadDerived describes the derived series, in output order.
var monadDerived = []engine.Metric{
	{Name: SeriesMined, Unit: "resources", Kind: engine.Gauge},
	{Name: SeriesMoved, Unit: "units", Kind: engine.Gauge},
	{Name: SeriesHivesBuilt, Unit: "hives", Kind: engine.Counter},
	{Name: SeriesHivesLost, Unit: "hives", Kind: engine.Counter},
}

// monadCounterSeries are the series known only when MonadMeta.Counters is
// true.
var monadCounterSeries = map[string]bool{"units_produced": true, "units_lost": true, "rejected": true, SeriesMoved: true}

// MonadSeriesMetrics returns the series an analysis holds, in order: the
// ruleset's metrics, then the derived ones (resources_mined, units_moved,
// hives_built, hives_lost); units_produced, units_lost, rejected and
// units_moved only when counters is true. Gauges of a derived flow
// (resources_mined, units_moved) are the turn's amount, not a running
// total.
func MonadSeriesMetrics(counters bool) []engine.Metric {
	var ms []engine.Metric
	for _, list := range [][]engine.Metric{monad.Ruleset.Metrics(), monadDerived} {
		for _, m := range list {
			if counters || !monadCounterSeries[m.Name] {
				ms = append(ms, m)
			}
		}
	}
	return ms
}

// MaxMonadEvents bounds the events an analysis keeps; the ones past it
// are counted in MonadAnalysis.EventsDropped. A real game has a few
// hundred (hives cost resources, and the map holds at most 20,000).
const MaxMonadEvents = 1 << 16

// Monad event kinds. Kinds that mean what a ColorfightII event means use
// its kind and wording: EventDied (a player with no cell left: no unit and
// no hive, which no rule lets it come back from), EventLeadChange,
// EventLeadForGood, EventBotFault.
const (
	// EventHiveBuilt: Player built a hive at (X, Y); Value is the hives
	// it owns after the turn.
	EventHiveBuilt = "hive_built"
	// EventHiveDestroyed: Player's hive at (X, Y) was destroyed; Other is
	// the side left holding the cell (-1: nobody, or unknown); Value is
	// the hives Player owns after the turn.
	EventHiveDestroyed = "hive_destroyed"
)

// MonadEventKinds lists every Monad event kind with how people call it
// (for an event filter), in the order to show them.
var MonadEventKinds = []struct{ Kind, Title string }{
	{EventDied, "eliminations"},
	{EventBotFault, "bot faults"},
	{EventLeadForGood, "lead for good"},
	{EventLeadChange, "lead changes"},
	{EventHiveDestroyed, "hives destroyed"},
	{EventHiveBuilt, "hives built"},
}

// MonadEvent is something notable in a Monad game. Fields a kind does not
// use are -1 (Other, X, Y) or 0 (Value):
//
//   - hive_built: Player built a hive at X, Y (one event per hive that
//     appeared, or was destroyed in the turn it was built); Value =
//     Player's hives after the turn.
//   - hive_destroyed: Player (the hive's owner), Other (the side left
//     holding the cell, -1 for nobody or unknown), X, Y, Value = Player's
//     hives after the turn.
//   - died: Player has no unit and no hive left; Value = the cells it held
//     the turn before.
//   - bot_fault: Player's bot timed out (Value = 1, engine.FaultTimeout)
//     or crashed (Value = 2, engine.FaultCrash) in this turn, for good;
//     only when the source knows it (MonadMeta.Counters).
//   - lead_change: Player leads the ranking alone (more hives, or as many
//     hives and more units, than everyone else), Other the previous sole
//     leader (-1: none); Value = Player's hives.
//   - lead_for_good: Player, the winner, took the lead it kept to the
//     last turn (MonadAnalysis.LeadSince); Value = its hives then.
type MonadEvent struct {
	Turn   int    `json:"turn"`
	Kind   string `json:"kind"`
	Player int    `json:"player"`
	Other  int    `json:"other"`
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Value  int64  `json:"value"`
}

// Text describes the event in one sentence, naming players with name
// (normally (*MonadAnalysis).Name; the text table passes one that quotes
// them). Kinds shared with ColorfightII use Event.Text's wording. The text
// is plain, not HTML.
func (e MonadEvent) Text(name func(player int) string) string {
	switch e.Kind {
	case EventHiveBuilt:
		return fmt.Sprintf("%s builds a hive at (%d, %d) (%d hives)", name(e.Player), e.X, e.Y, e.Value)
	case EventHiveDestroyed:
		if e.Other >= 0 {
			return fmt.Sprintf("%s loses its hive at (%d, %d) to %s (%d hives left)", name(e.Player), e.X, e.Y, name(e.Other), e.Value)
		}
		return fmt.Sprintf("%s loses its hive at (%d, %d) (%d hives left)", name(e.Player), e.X, e.Y, e.Value)
	case EventDied:
		return Event{Kind: EventDied, UID: e.Player}.Text(name)
	case EventBotFault:
		if e.Value == int64(engine.FaultCrash) {
			return fmt.Sprintf("%s's bot crashes: no more commands, ranked last", name(e.Player))
		}
		return fmt.Sprintf("%s's bot times out: no more commands", name(e.Player))
	case EventLeadChange:
		return fmt.Sprintf("%s takes the lead (%d hives)", name(e.Player), e.Value)
	case EventLeadForGood:
		return leadForGoodText(name(e.Player), e.Value, "hives")
	}
	return fmt.Sprintf("%s: %s (other %d, value %d)", e.Kind, name(e.Player), e.Other, e.Value)
}

// Series is one per-player per-turn series of a Monad analysis.
type Series struct {
	// Metric names the series (snake_case), its unit and kind.
	Metric engine.Metric
	// Values[player][turn], turn 0..Turns.
	Values [][]int64
}

// MonadAnalysis is the result of AnalyzeMonad.
type MonadAnalysis struct {
	Meta *source.MonadMeta
	// Turns is the number of turns read (frames read - 1).
	Turns int
	// Names are the players' display names in player order (the
	// replay's name, or "player N").
	Names []string
	// Series are the per-player per-turn series, in MonadSeriesMetrics
	// order.
	Series []Series
	// Events are in turn order (within a turn: hives built, hives
	// destroyed, eliminations, bot faults, the lead change, lead for
	// good).
	Events []MonadEvent
	// EventsDropped counts events past MaxMonadEvents (0 in real games).
	EventsDropped int
	// Ranking lists the players best first by the ruleset's ranking
	// (monad.RankStats: hives, then units, then id; crashed last) of the
	// last frame.
	Ranking []int
	// Winner is the sole leader of the last frame (Ranking[0] when it
	// has more hives, or as many hives and more units, than Ranking[1]
	// and has not crashed); -1 for none or a draw, which the ranking
	// orders by player id.
	Winner int
	// LeadSince is the first turn (>= 1) from which Winner was the sole
	// leader through the last turn; 0 when there is no winner or no turn.
	LeadSince int
	// Leader[t] is the sole leader after turn t, -1 for none (a tie at
	// the top, or everyone crashed).
	Leader []int
	// Final is every player's facts in the last frame (player order):
	// what Ranking ranks (monad.RankStats(Final) gives each player's rank,
	// crashed players sharing the last) and what a corpus aggregates.
	Final []monad.PlayerStats
	// Truncated is the error that ended a damaged or cut-short replay
	// after Turns whole turns; nil when it ended cleanly.
	Truncated error
}

// SeriesNamed returns the series with this metric name, or nil (a counter
// series of a source without counters is absent).
func (a *MonadAnalysis) SeriesNamed(name string) *Series {
	for i := range a.Series {
		if a.Series[i].Metric.Name == name {
			return &a.Series[i]
		}
	}
	return nil
}

// Players returns the number of players.
func (a *MonadAnalysis) Players() int { return len(a.Names) }

// Name returns player p's display name ("player N" for no such player).
func (a *MonadAnalysis) Name(p int) string {
	if p >= 0 && p < len(a.Names) {
		return a.Names[p]
	}
	return "player " + strconv.Itoa(p)
}

// AnalyzeMonadFile opens and analyzes the Monad replay at path.
func AnalyzeMonadFile(path string) (*MonadAnalysis, error) {
	src, err := source.OpenMonad(path)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	a, err := AnalyzeMonad(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// monadAnalyzer is AnalyzeMonad's streaming state.
type monadAnalyzer struct {
	a        *MonadAnalysis
	n        int
	counters bool
	// column of each series, -1 when absent
	col      map[string]int
	stats    []monad.PlayerStats
	built    []int64 // hives built so far
	lost     []int64 // hives lost so far
	died     []bool
	fault    [][2]bool           // timed out, crashed reported
	fightAt  [monad.NumCells]int // 1 + index in Fights, 0 none
	prevLead int
}

// AnalyzeMonad reads src to its end and analyses the game. It does not
// close src. A source whose frames are damaged after the first turn gives
// the analysis of its whole turns, with Truncated set.
func AnalyzeMonad(src source.MonadSource) (*MonadAnalysis, error) {
	m := src.Meta()
	if m == nil {
		return nil, errors.New("analysis: Monad replay has no metadata")
	}
	var prev, cur source.MonadFrame
	if err := src.Next(&prev); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("analysis: Monad replay has no frames")
		}
		return nil, fmt.Errorf("analysis: frame 0: %w", err)
	}
	n := len(prev.Players)
	if n < 1 || n > monad.MaxPlayers {
		return nil, fmt.Errorf("analysis: frame 0: %d players, want 1..%d", n, monad.MaxPlayers)
	}
	if cfg := m.Config.MaxTurns; cfg > 0 && int64(n)*int64(cfg+1) > MaxPlayerRounds {
		return nil, fmt.Errorf("analysis: %d players for %d turns is %d player-turns, which exceeds the limit of %d; see docs/limits.md: %w",
			n, cfg, int64(n)*int64(cfg+1), MaxPlayerRounds, ErrLimit)
	}
	az := &monadAnalyzer{
		a:        &MonadAnalysis{Meta: m, Winner: -1},
		n:        n,
		counters: m.Counters,
		col:      map[string]int{},
		stats:    make([]monad.PlayerStats, n),
		built:    make([]int64, n),
		lost:     make([]int64, n),
		died:     make([]bool, n),
		fault:    make([][2]bool, n),
		prevLead: -1,
	}
	a := az.a
	for p := 0; p < n; p++ {
		name := ""
		if p < len(m.Names) {
			name = m.Names[p]
		}
		if name == "" {
			name = "player " + strconv.Itoa(p)
		}
		a.Names = append(a.Names, name)
	}
	capHint := seriesCapHint
	if t := m.Config.MaxTurns; t > 0 && t+1 < capHint {
		capHint = t + 1
	}
	for i, mt := range MonadSeriesMetrics(m.Counters) {
		s := Series{Metric: mt, Values: make([][]int64, n)}
		for p := range s.Values {
			s.Values[p] = make([]int64, 0, capHint)
		}
		a.Series = append(a.Series, s)
		az.col[mt.Name] = i
	}
	if err := az.frame(nil, &prev); err != nil {
		return nil, err
	}
	for {
		err := src.Next(&cur)
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil && len(cur.Players) != n {
			err = fmt.Errorf("%d players, frame 0 had %d", len(cur.Players), n)
		}
		if err == nil && int64(n)*int64(a.Turns+2) > MaxPlayerRounds {
			return nil, fmt.Errorf("analysis: frame %d: more than %d player-turns (players × turns), which exceeds the limit; see docs/limits.md: %w",
				a.Turns+1, MaxPlayerRounds, ErrLimit)
		}
		if err != nil {
			if a.Turns == 0 {
				return nil, fmt.Errorf("analysis: frame %d: %w", a.Turns+1, err)
			}
			a.Truncated = fmt.Errorf("frame %d: %w", a.Turns+1, err)
			break
		}
		a.Turns++
		if err := az.frame(&prev, &cur); err != nil {
			return nil, err
		}
		prev, cur = cur, prev
	}
	az.finish(&prev)
	return a, nil
}

func (az *monadAnalyzer) event(e MonadEvent) {
	if len(az.a.Events) >= MaxMonadEvents {
		az.a.EventsDropped++
		return
	}
	az.a.Events = append(az.a.Events, e)
}

func (az *monadAnalyzer) put(name string, p int, v int64) {
	if i, ok := az.col[name]; ok {
		s := &az.a.Series[i]
		s.Values[p] = append(s.Values[p], v)
	}
}

// frame adds frame cur (turn a.Turns) given the previous one (nil for
// frame 0).
func (az *monadAnalyzer) frame(prev, cur *source.MonadFrame) error {
	a, n, t := az.a, az.n, az.a.Turns
	for p := 0; p < n; p++ {
		az.stats[p] = cur.Players[p].PlayerStats
	}
	// This turn's applied moves.
	var moved [monad.MaxPlayers]int64
	if prev != nil {
		for _, mv := range cur.Moves {
			if mv.Code == monad.ErrNone && mv.Kind == monad.KindMove && mv.Player >= 0 && mv.Player < n {
				moved[mv.Player] = satSum(moved[mv.Player], max(mv.Count, 0))
			}
		}
	}
	// Hives built and destroyed, from the board: a hive appears only by a
	// BUILD and goes only by being destroyed (it never changes hands). A
	// hive built and destroyed in the same turn shows only in the turn's
	// fights (a cell whose hive before the update was not there before
	// the turn).
	var built, lostNow [monad.MaxPlayers]int64
	var builds, destroyed []MonadEvent
	if prev != nil {
		clear(az.fightAt[:])
		for i, f := range cur.Fights {
			if f.X >= 0 && f.Y >= 0 && f.X < monad.Width && f.Y < monad.Height {
				az.fightAt[f.Y*monad.Width+f.X] = i + 1
			}
		}
		for k := range cur.Cells {
			was, now := int(prev.Cells[k].Hive), int(cur.Cells[k].Hive)
			fell := -1 // a hive built this turn and destroyed in the update
			if fi := az.fightAt[k]; fi > 0 {
				if f := &cur.Fights[fi-1]; f.Outcome == monad.FightDestroyed && f.Hive >= 0 && f.Hive < n && f.Hive != was && f.Hive != now {
					fell = f.Hive
				}
			}
			x, y := k%monad.Width, k/monad.Width
			for _, b := range [2]int{now, fell} {
				if b >= 0 && b < n && b != was {
					built[b]++
					builds = append(builds, MonadEvent{Turn: t, Kind: EventHiveBuilt, Player: b, Other: -1, X: x, Y: y})
				}
			}
			for _, o := range [2]int{was, fell} {
				if o < 0 || o >= n || o == now {
					continue
				}
				by := int(cur.Cells[k].Owner)
				if by == o || by >= n {
					by = -1
				}
				lostNow[o]++
				destroyed = append(destroyed, MonadEvent{Turn: t, Kind: EventHiveDestroyed, Player: o, Other: by, X: x, Y: y})
			}
		}
	}
	for p := 0; p < n; p++ {
		st := &az.stats[p]
		az.put("resources", p, st.Resources)
		az.put("units", p, st.Units)
		az.put("hives", p, int64(st.Hives))
		az.put("cells", p, int64(st.Cells))
		az.put("units_produced", p, st.UnitsProduced)
		az.put("units_lost", p, st.UnitsLost)
		az.put("rejected", p, st.Rejected)
		var mined int64
		if prev != nil {
			mined = satSum(st.Resources, -prev.Players[p].Resources, built[p]*monad.HiveCost)
		}
		az.put(SeriesMined, p, mined)
		az.put(SeriesMoved, p, moved[p])
		az.built[p] += built[p]
		az.put(SeriesHivesBuilt, p, az.built[p])
	}
	for p := 0; p < n; p++ {
		az.lost[p] += lostNow[p]
		az.put(SeriesHivesLost, p, az.lost[p])
	}
	// Events, in the documented order within a turn.
	for _, e := range builds {
		e.Value = int64(az.stats[e.Player].Hives)
		az.event(e)
	}
	for _, e := range destroyed {
		e.Value = int64(az.stats[e.Player].Hives)
		az.event(e)
	}
	for p := 0; p < n; p++ {
		st := &az.stats[p]
		if prev != nil && !az.died[p] && st.Cells == 0 && prev.Players[p].Cells > 0 {
			az.died[p] = true
			az.event(MonadEvent{Turn: t, Kind: EventDied, Player: p, Other: -1, X: -1, Y: -1, Value: int64(prev.Players[p].Cells)})
		}
	}
	if az.counters {
		for p := 0; p < n; p++ {
			st := &az.stats[p]
			if st.TimedOut && !az.fault[p][0] {
				az.fault[p][0] = true
				az.event(MonadEvent{Turn: t, Kind: EventBotFault, Player: p, Other: -1, X: -1, Y: -1, Value: int64(engine.FaultTimeout)})
			}
			if st.Crashed && !az.fault[p][1] {
				az.fault[p][1] = true
				az.event(MonadEvent{Turn: t, Kind: EventBotFault, Player: p, Other: -1, X: -1, Y: -1, Value: int64(engine.FaultCrash)})
			}
		}
	}
	l := az.leader()
	a.Leader = append(a.Leader, l)
	if l >= 0 && l != az.prevLead && prev != nil {
		az.event(MonadEvent{Turn: t, Kind: EventLeadChange, Player: l, Other: az.prevLead, X: -1, Y: -1, Value: int64(az.stats[l].Hives)})
	}
	if l >= 0 && prev != nil {
		az.prevLead = l
	}
	return nil
}

// leader returns the sole leader of the current frame's facts: the first
// of the ranking when it is not crashed and the second (if any, and not
// crashed) has fewer hives, or as many and fewer units; -1 otherwise.
func (az *monadAnalyzer) leader() int {
	rk := monad.RankStats(az.stats)
	if len(rk) == 0 {
		return -1
	}
	first := az.stats[rk[0].Player]
	if first.Crashed {
		return -1
	}
	if len(rk) > 1 {
		second := az.stats[rk[1].Player]
		if !second.Crashed && second.Hives == first.Hives && second.Units == first.Units {
			return -1
		}
	}
	return rk[0].Player
}

func (az *monadAnalyzer) finish(last *source.MonadFrame) {
	a := az.a
	for p := 0; p < az.n; p++ {
		az.stats[p] = last.Players[p].PlayerStats
	}
	a.Final = slices.Clone(az.stats)
	for _, r := range monad.RankStats(a.Final) {
		a.Ranking = append(a.Ranking, r.Player)
	}
	a.Winner = a.Leader[a.Turns]
	if a.Winner < 0 {
		return
	}
	if a.Turns == 0 {
		return
	}
	t := a.Turns
	for t > 1 && a.Leader[t-1] == a.Winner {
		t--
	}
	a.LeadSince = t
	e := MonadEvent{Turn: t, Kind: EventLeadForGood, Player: a.Winner, Other: -1, X: -1, Y: -1}
	if s := a.SeriesNamed("hives"); s != nil {
		e.Value = s.Values[a.Winner][t]
	}
	az.event(e)
	slices.SortStableFunc(a.Events, func(x, y MonadEvent) int { return cmp.Compare(x.Turn, y.Turn) })
}
