package analysis

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rewind-game/rewind/internal/satint"
)

// Turning points: what a reader of a game's events wants first — who
// spent far above its habit, and where the lead swung — above the churn
// of lead changes (ShownAtFirst).

// Spending surges (EventAttackSurge, EventBuildSurge): a player's spend
// over surgeWindow rounds at least surgeFactor times what it spent in as
// many rounds before (its mean over the surgeHistory rounds before the
// window, at least surgeMinHistory of them), and at least the kind's
// floor. The event covers the window's rounds that carry a real share of
// it (at least a 1/(4·surgeWindow) part), from the first.
const (
	surgeWindow     = 3
	surgeHistory    = 30
	surgeMinHistory = 10
	surgeFactor     = 10
	// surgeMinEnergy and surgeMinGold are the floors: a surge is
	// something a reader sees on the board.
	surgeMinEnergy = 20000
	surgeMinGold   = 10000
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
func (a *Analysis) ShownAtFirst(e Event) bool {
	return e.Kind != EventLeadChange || e.Turn <= EarlyLeadTurns(a.Rounds)
}

// surges appends p's spending surges of one kind: spend(r) is what it
// spent in round r (negative counts as 0).
func (a *Analysis) surges(p *Player, kind string, floor int64, spend func(r *Round) int64) {
	s := p.Series
	v := func(i int) int64 { return max(spend(&s[i]), 0) }
	for i := surgeMinHistory; i+surgeWindow <= len(s); i++ {
		if v(i) == 0 {
			continue
		}
		var before int64
		from := max(0, i-surgeHistory)
		for j := from; j < i; j++ {
			before = satint.Sum(before, v(j))
		}
		var win int64
		for j := i; j < i+surgeWindow; j++ {
			win = satint.Sum(win, v(j))
		}
		usual := before / int64(i-from) * surgeWindow // as many rounds before
		if win < floor || win < surgeFactor*usual {
			continue
		}
		end, sum := i, int64(0)
		for j := i; j < i+surgeWindow; j++ {
			if v(j)*4*surgeWindow >= win {
				end = j
			}
		}
		for j := i; j <= end; j++ {
			sum = satint.Sum(sum, v(j))
		}
		a.Events = append(a.Events, Event{Turn: s[i].Turn, Kind: kind, UID: p.UID, Other: s[end].Turn, Value: sum})
		i = end
	}
}

// turningPoints adds the spending surges of every player and the big
// lead swings to the events: of the lead changes between two players,
// those whose new leader gained the most gold on the old one over the
// explainWindow rounds before (ExplainLeadChange says what each did) —
// the biggest, and the others that gained at least half as much, at most
// maxLeadSwings.
func (a *Analysis) turningPoints() {
	for _, p := range a.Players {
		a.surges(p, EventAttackSurge, surgeMinEnergy, func(r *Round) int64 { return r.AttackEnergy })
		a.surges(p, EventBuildSurge, surgeMinGold, func(r *Round) int64 { return r.GoldSpent })
	}
	var swings []Event
	for _, e := range a.Events {
		if e.Kind != EventLeadChange || e.Other == 0 {
			continue
		}
		n, o := a.Player(e.UID), a.Player(e.Other)
		from := max(1, e.Turn-explainWindow)
		gn, okn := goldAt(n, e.Turn)
		gO, oko := goldAt(o, e.Turn)
		fn, okfn := goldAt(n, from)
		fo, okfo := goldAt(o, from)
		if !okn || !oko || !okfn || !okfo {
			continue
		}
		if swing := satint.Sum(gn, -gO, -fn, fo); swing > 0 {
			swings = append(swings, Event{Turn: e.Turn, Kind: EventLeadSwing, UID: e.UID, Other: e.Other, Value: swing})
		}
	}
	sort.SliceStable(swings, func(i, j int) bool { return swings[i].Value > swings[j].Value })
	for i, e := range swings {
		if i == maxLeadSwings || e.Value < swings[0].Value/2 {
			break
		}
		a.Events = append(a.Events, e)
	}
}

// maxLeadSwings bounds the lead swings listed.
const maxLeadSwings = 3

// goldAt is p's gold at turn t, if p has a record of it.
func goldAt(p *Player, t int) (int64, bool) {
	if p == nil || t < p.FirstTurn || t-p.FirstTurn >= len(p.Series) {
		return 0, false
	}
	return p.Series[t-p.FirstTurn].Gold, true
}

// TurningPoints are the events a reader wants first — the spending
// surges, the big lead swings and the lead for good — in turn order. The
// viewer, the report and analyze's table list them above the full list,
// each lead swing with ExplainLeadChange's line.
func (a *Analysis) TurningPoints() []Event {
	var out []Event
	for _, e := range a.Events {
		if IsTurningPoint(e.Kind) {
			out = append(out, e)
		}
	}
	return out
}

// IsTurningPoint reports whether events of kind are turning points.
func IsTurningPoint(kind string) bool {
	switch kind {
	case EventAttackSurge, EventBuildSurge, EventLeadSwing, EventLeadForGood:
		return true
	}
	return false
}

// Explain is ExplainLeadChange's line for a lead swing ("" for any other
// event), naming players with name.
func (a *Analysis) Explain(e Event, name func(uid int) string) string {
	if e.Kind != EventLeadSwing {
		return ""
	}
	line, _ := a.ExplainLeadChange(e.Turn, name)
	return line
}

// explainWindow is how many rounds before a lead change ExplainLeadChange
// sums up.
const explainWindow = 10

// ExplainLeadChange says in one line why the gold lead changed at turn
// (the last lead change at or before it): the gold each of the two
// players held then, and what each did in the explainWindow rounds
// before — gold gained, cells captured and lost, gold spent on buildings
// and upgrades, energy spent on attacks, gold stolen — naming players
// with name (as Event.Text). ok is false when there is no lead change
// between two players at or before turn.
func (a *Analysis) ExplainLeadChange(turn int, name func(uid int) string) (line string, ok bool) {
	var ev *Event
	for i := range a.Events {
		e := &a.Events[i]
		if e.Kind == EventLeadChange && e.Turn <= turn && e.Other != 0 {
			ev = e
		}
	}
	if ev == nil {
		return "", false
	}
	t := ev.Turn
	from := max(1, t-explainWindow)
	did := func(uid int) (string, int64) {
		p := a.Player(uid)
		if p == nil || t < p.FirstTurn || t-1 >= len(p.Series)+p.FirstTurn-1 {
			return name(uid) + " (no record)", 0
		}
		at := func(turn int) *Round {
			i := min(max(turn-p.FirstTurn, 0), len(p.Series)-1)
			return &p.Series[i]
		}
		var cap, lost, spent, atk, stolen int64
		for r := max(from+1, p.FirstTurn); r <= t; r++ {
			x := at(r)
			cap, lost, spent, stolen = cap+x.Captured, lost+x.Lost, spent+x.GoldSpent, stolen+x.StolenIn
			atk += max(x.AttackEnergy, 0)
		}
		parts := []string{fmt.Sprintf("%+d gold", at(t).Gold-at(from).Gold),
			fmt.Sprintf("captured %d cells and lost %d", cap, lost)}
		if spent > 0 {
			parts = append(parts, fmt.Sprintf("spent %d gold on buildings and upgrades", spent))
		}
		if atk > 0 {
			parts = append(parts, fmt.Sprintf("%d energy on attacks", atk))
		}
		if stolen > 0 {
			parts = append(parts, fmt.Sprintf("stole %d gold", stolen))
		}
		return name(uid) + ": " + strings.Join(parts, ", "), at(t).Gold
	}
	newDid, newGold := did(ev.UID)
	oldDid, oldGold := did(ev.Other)
	return fmt.Sprintf("At turn %d %s (%d gold) takes the lead from %s (%d gold). Turns %d–%d: %s; %s.",
		t, name(ev.UID), newGold, name(ev.Other), oldGold, from+1, t, newDid, oldDid), true
}
