package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rewind-game/rewind/internal/satint"
)

// Turning points: what a reader of a game's events wants first — who
// spent far above its habit, and where the lead swung — above the churn
// of lead changes (ShownAtFirst). They are events of the
// analysis, found in its series: a game asks for the surges of its
// amounts (engine.Metric.Surge) and the lead swings of its score
// (engine.Metric.Swings).

// The shell-derived turning points' kinds. A surge's kind is the one its
// metric names (engine.Surge.Event).
const (
	// EventLeadSwing: a lead change where the new leader (Player) gained
	// the most score on the old one (Other): Value over the
	// explainWindow rounds before; the biggest and those at least half
	// as big, at most maxLeadSwings.
	EventLeadSwing = "lead_swing"
	// EventLeadChange and EventLeadForGood are the analysis's
	// lead changes (Event), EventBotFault its bot faults.
	EventLeadChange  = "lead_change"
	EventLeadForGood = "lead_for_good"
	EventBotFault    = "bot_fault"
)

// Spending surges (engine.Surge): a player's spend over surgeWindow
// rounds at least surgeFactor times what it spent in as many rounds
// before (its mean over the surgeHistory rounds before the window, at
// least surgeMinHistory of them), and at least the surge's Floor. The
// event (Turn the first round, Other the last, Value the sum) covers the
// window's rounds that carry a real share of it (at least a
// 1/(4·surgeWindow) part), from the first.
const (
	surgeWindow     = 3
	surgeHistory    = 30
	surgeMinHistory = 10
	surgeFactor     = 10
)

// EarlyLeadTurns is how many turns of a game of rounds rounds a reader
// sees the lead changes of at first: the first tenth of the game, at
// least 10 turns and at most 50. Later lead changes are folded
// (ShownAtFirst) — the lead for good and the largest swing stand for
// them — and listed when a reader asks for them all.
func EarlyLeadTurns(rounds int) int { return min(50, max(10, rounds/10)) }

// ShownAtFirst reports whether an event is in the list a reader sees at
// first: every kind but the lead changes after the opening
// (EarlyLeadTurns). The viewer, the report and analyze's table fold the
// others the same way.
func (g *Analysis) ShownAtFirst(e Event) bool {
	return e.Kind != EventLeadChange || e.Turn <= EarlyLeadTurns(g.Turns)
}

// surgeMetric returns the index of the metric whose surges are events of
// kind, -1 for none.
func (g *Analysis) surgeMetric(kind string) int {
	for i := range g.Meta.Metrics {
		if s := &g.Meta.Metrics[i].Surge; s.Event != "" && s.Event == kind {
			return i
		}
	}
	return -1
}

// otherNumber reports whether kind, a game's, has a number for Other
// (engine.EventKind.OtherNumber).
func (g *Analysis) otherNumber(kind string) bool {
	for i := range g.Meta.EventKinds {
		if g.Meta.EventKinds[i].Name == kind {
			return g.Meta.EventKinds[i].OtherNumber
		}
	}
	return false
}

// IsTurningPoint reports whether events of kind are turning points: the
// surges, the lead swings and the lead for good.
func (g *Analysis) IsTurningPoint(kind string) bool {
	return kind == EventLeadSwing || kind == EventLeadForGood || g.surgeMetric(kind) >= 0
}

// TurningPoints are the events a reader wants first (IsTurningPoint), in
// turn order. The viewer, the report and analyze's table list them above
// the full list, each lead swing with ExplainLeadChange's line.
func (g *Analysis) TurningPoints() []Event {
	var out []Event
	for _, e := range g.Events {
		if e.Shell && g.IsTurningPoint(e.Kind) {
			out = append(out, e)
		}
	}
	return out
}

// surges adds the spending surges of every player, by player, then by
// the surge's kind name.
func (az *analyzerState) surges() {
	g := az.g
	var ms []int
	for i := range g.Meta.Metrics {
		if g.Meta.Metrics[i].Surge.Event != "" {
			ms = append(ms, i)
		}
	}
	slices.SortStableFunc(ms, func(a, b int) int {
		return strings.Compare(g.Meta.Metrics[a].Surge.Event, g.Meta.Metrics[b].Surge.Event)
	})
	for p := 0; p < az.n; p++ {
		for _, i := range ms {
			az.surgesOf(p, i)
		}
	}
}

// surgesOf adds player p's surges of metric i: its value at frame t is
// what it spent in round t (negative counts as 0).
func (az *analyzerState) surgesOf(p, i int) {
	g := az.g
	s := g.Series[i].Values[p][1:]
	sg := g.Meta.Metrics[i].Surge
	v := func(r int) int64 { return max(s[r], 0) }
	for r := surgeMinHistory; r+surgeWindow <= len(s); r++ {
		if v(r) == 0 {
			continue
		}
		var before int64
		from := max(0, r-surgeHistory)
		for j := from; j < r; j++ {
			before = satint.Sum(before, v(j))
		}
		var win int64
		for j := r; j < r+surgeWindow; j++ {
			win = satint.Sum(win, v(j))
		}
		usual := before / int64(r-from) * surgeWindow // as many rounds before
		if win < sg.Floor || win < surgeFactor*usual {
			continue
		}
		end, sum := r, int64(0)
		for j := r; j < r+surgeWindow; j++ {
			if v(j)*4*surgeWindow >= win {
				end = j
			}
		}
		for j := r; j <= end; j++ {
			sum = satint.Sum(sum, v(j))
		}
		az.event(Event{Turn: r + 1, Kind: sg.Event, Player: p, Other: end + 1, X: -1, Y: -1, Value: sum, Shell: true}, 5)
		r = end
	}
}

// swings adds the big lead swings: of the lead changes between two
// players, those whose new leader gained the most score on the old one
// over the explainWindow rounds before (ExplainLeadChange says what each
// did) — the biggest, and the others that gained at least half as much,
// at most maxLeadSwings, biggest first.
func (az *analyzerState) swings() {
	g := az.g
	sc := g.Score()
	if sc < 0 || !g.Meta.Metrics[sc].Swings {
		return
	}
	score := g.Series[sc].Values
	var swings []Event
	for _, e := range az.events {
		if e.Kind != EventLeadChange || !e.Shell || e.Other < 0 || e.Other >= az.n {
			continue
		}
		from := max(1, e.Turn-explainWindow)
		n, o := score[e.Player], score[e.Other]
		if swing := satint.Sum(n[e.Turn], -o[e.Turn], -n[from], o[from]); swing > 0 {
			swings = append(swings, Event{Turn: e.Turn, Kind: EventLeadSwing, Player: e.Player, Other: e.Other, X: -1, Y: -1, Value: swing, Shell: true})
		}
	}
	slices.SortStableFunc(swings, func(a, b Event) int {
		switch {
		case a.Value > b.Value:
			return -1
		case a.Value < b.Value:
			return 1
		}
		return 0
	})
	for i, e := range swings {
		if i == maxLeadSwings || e.Value < swings[0].Value/2 {
			break
		}
		az.event(e, 6)
	}
}

// maxLeadSwings bounds the lead swings listed.
const maxLeadSwings = 3

// explainWindow is how many rounds before a lead change ExplainLeadChange
// sums up.
const explainWindow = 10

// Explain is ExplainLeadChange's line for a lead swing ("" for any other
// event), naming players with name.
func (g *Analysis) Explain(e Event, name func(p int) string) string {
	if e.Kind != EventLeadSwing || !e.Shell {
		return ""
	}
	line, _ := g.ExplainLeadChange(e.Turn, name)
	return line
}

// ExplainLeadChange says in one line why the lead changed at turn (the
// last lead change between two players at or before it): the score each
// of the two held then, and what each did in the explainWindow rounds
// before — its score's change, then each metric the game explains a
// lead with (engine.Metric.Explain: cells captured and lost, gold spent
// on buildings, energy on attacks, gold stolen) — naming players with
// name (as EventText). ok is false when there is no such lead change.
func (g *Analysis) ExplainLeadChange(turn int, name func(p int) string) (line string, ok bool) {
	sc := g.Score()
	var ev *Event
	for i := range g.Events {
		e := &g.Events[i]
		if e.Shell && e.Kind == EventLeadChange && e.Turn <= turn && e.Other >= 0 && e.Other < len(g.Players) {
			ev = e
		}
	}
	if ev == nil || sc < 0 || g.Series == nil {
		return "", false
	}
	t := ev.Turn
	from := max(1, t-explainWindow)
	unit := g.Meta.Metrics[sc].Unit
	did := func(p int) (string, int64) {
		score := g.Series[sc].Values[p]
		parts := []string{fmt.Sprintf("%+d %s", score[t]-score[from], unit)}
		for i := range g.Meta.Metrics {
			x := g.Meta.Metrics[i].Explain
			if x == "" || g.Unknown(i) {
				continue
			}
			var sum int64
			for r := from + 1; r <= t; r++ {
				sum = satint.Sum(sum, max(g.Series[i].Values[p][r], 0))
			}
			if always := strings.HasPrefix(x, "+"); always || sum != 0 {
				parts = append(parts, fmt.Sprintf(strings.TrimPrefix(x, "+"), sum))
			}
		}
		return name(p) + ": " + strings.Join(parts, ", "), score[t]
	}
	newDid, newScore := did(ev.Player)
	oldDid, oldScore := did(ev.Other)
	return fmt.Sprintf("At turn %d %s (%d %s) takes the lead from %s (%d %s). Turns %d–%d: %s; %s.",
		t, name(ev.Player), newScore, unit, name(ev.Other), oldScore, unit, from+1, t, newDid, oldDid), true
}

// turnSpan is "360–361", or "360" for one turn.
func turnSpan(from, to int) string {
	if to <= from {
		return fmt.Sprint(from)
	}
	return fmt.Sprintf("%d–%d", from, to)
}

// leadForGoodText is the lead_for_good sentence of every game: who took
// the lead for good, with value of unit (gold, hives) then.
func leadForGoodText(who string, value int64, unit string) string {
	return fmt.Sprintf("%s takes the lead for good (%d %s)", who, value, unit)
}
