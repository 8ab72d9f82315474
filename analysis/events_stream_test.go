package analysis

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// accountKinds are the game's event kinds the accounting reports on a
// stream (ColorfightII's AccountEventKinds), named here as the old
// analysis names them, and whether their Other is a player.
var accountKinds = map[string]bool{
	EventHomeCaptured:    true,
	EventDied:            true,
	EventTechUp:          false,
	EventTaxBracket:      false,
	EventBuildingBracket: false,
}

// oldEvent is a generic event as the old analysis numbers it: uid =
// player+1, and Other a uid (0: none) when it is a player.
func oldEvent(e GenericEvent, otherIsPlayer bool) Event {
	o := e.Other
	if otherIsPlayer {
		o++
	}
	return Event{Turn: e.Turn, Kind: e.Kind, UID: e.Player + 1, Other: o, Value: e.Value}
}

// accountEventDiff compares the game's events of the stream of data
// (accountKinds, in order) with Analyze's of those kinds, field by field;
// the stream declares each kind, and the generic analysis words each
// event as the old one does. It returns the first difference.
func accountEventDiff(tb testing.TB, data []byte, isCFR bool) string {
	tb.Helper()
	old, g := bothAnalyses(tb, data, isCFR)
	for k := range accountKinds {
		if !slices.ContainsFunc(g.Meta.EventKinds, func(d engine.EventKind) bool { return d.Name == k && d.Text != "" }) {
			return fmt.Sprintf("the stream does not declare %s", k)
		}
	}
	var want []Event
	for _, e := range old.Events {
		if _, ok := accountKinds[e.Kind]; ok {
			want = append(want, e)
		}
	}
	var got []Event
	for _, e := range g.Events {
		if isPlayer, ok := accountKinds[e.Kind]; ok && !e.Shell {
			got = append(got, oldEvent(e, isPlayer))
			oldName := func(uid int) string { return g.Name(uid - 1) }
			if a, b := g.EventText(e, g.Name), got[len(got)-1].Text(oldName); a != b {
				return fmt.Sprintf("turn %d: the generic analysis says %q, the old one %q", e.Turn, a, b)
			}
		}
	}
	if g.EventsDropped > 0 {
		return fmt.Sprintf("%d events dropped", g.EventsDropped)
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("event %d: stream %+v, analysis %+v", i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("the stream has %d events of the game's kinds, the analysis %d", len(got), len(want))
	}
	if len(want) == 0 {
		return "no event of the game's kinds at all"
	}
	return ""
}

// standingFigures are the old summary's figures of a player (Standing),
// by metric name: the gauges as of the last round, and the per-round
// figures' totals (-1, unknown, for those that need commands when the
// replay has none).
var standingFigures = map[string]func(*Standing) int64{
	"gold":           func(s *Standing) int64 { return s.Gold },
	"cells":          func(s *Standing) int64 { return s.Cells },
	"energy":         func(s *Standing) int64 { return s.Energy },
	"tech_level":     func(s *Standing) int64 { return s.TechLevel },
	"dead":           func(s *Standing) int64 { return b2i(s.Dead) },
	"captured":       func(s *Standing) int64 { return s.Captured },
	"lost":           func(s *Standing) int64 { return s.Lost },
	"gold_spent":     func(s *Standing) int64 { return s.GoldSpent },
	"stolen_in":      func(s *Standing) int64 { return s.StolenIn },
	"stolen_out":     func(s *Standing) int64 { return s.StolenOut },
	"refund":         func(s *Standing) int64 { return s.Refund },
	"mine_bonus":     func(s *Standing) int64 { return s.MineBonus },
	"attack_energy":  func(s *Standing) int64 { return s.AttackEnergy },
	"capture_energy": func(s *Standing) int64 { return s.CaptureEnergy },
	"wasted_energy":  func(s *Standing) int64 { return s.WastedEnergy },
	"commands":       func(s *Standing) int64 { return s.Commands },
	"errors":         func(s *Standing) int64 { return s.Errors },
}

// amountDiff checks the generic analysis's Final of every metric of the
// stream of data, for every player. An amount's (engine.Amount) is the
// sum of the old analysis's series of that figure, or -1 when the
// stream cannot know it (Generic.Unknown: the figures that need commands,
// without them), where the old series says -1 every round and the old
// summary -1; a gauge's is the old series' last value. Where the old
// summary has the figure (standingFigures), the Final is the summary's,
// unknowns included. The amounts are the 14 per-round figures and the
// exchanges, captured_from_0..n and lost_to_1..n for n players.
func amountDiff(tb testing.TB, data []byte, isCFR bool) string {
	tb.Helper()
	old, g := bothAnalyses(tb, data, isCFR)
	amounts, unknowns, compared := 0, 0, 0
	for i, m := range g.Meta.Metrics {
		get, ok := SeriesColumn(m.Name, old.MaxUID)
		if !ok {
			return fmt.Sprintf("the old analysis has no figure %s", m.Name)
		}
		if m.Kind == engine.Amount {
			amounts++
		}
		unknown := g.Unknown(i)
		if unknown {
			unknowns++
		}
		if want := m.FromCommands && !old.HasCommands; unknown != want {
			return fmt.Sprintf("%s: unknown %v, want %v (from commands %v, the old analysis has commands %v)", m.Name, unknown, want, m.FromCommands, old.HasCommands)
		}
		for p := range g.Players {
			op := old.Player(p + 1)
			if op == nil || len(op.Series) == 0 {
				return fmt.Sprintf("player %d has no series in the old analysis", p)
			}
			final := g.Players[p].Metrics[i].Final
			var want int64
			switch {
			case unknown:
				want = -1
				for t := range op.Series {
					if v := get(&op.Series[t]); t+1 >= op.FirstTurn && v != -1 {
						return fmt.Sprintf("%s of player %d is unknown, but the old series has %d at turn %d", m.Name, p, v, t+1)
					}
				}
			case m.Kind == engine.Amount:
				for t := range op.Series {
					want += get(&op.Series[t])
				}
			default:
				want = get(&op.Series[len(op.Series)-1])
			}
			if final != want {
				return fmt.Sprintf("%s of player %d: final %d, from the old series %d", m.Name, p, final, want)
			}
			st, ok := standingFigures[m.Name]
			if !ok {
				continue
			}
			k := slices.IndexFunc(old.Summary.Ranking, func(s Standing) bool { return s.UID == p+1 })
			if w := st(&old.Summary.Ranking[k]); final != w {
				return fmt.Sprintf("%s of player %d: final %d, the old standing %d", m.Name, p, final, w)
			}
			compared++
		}
	}
	if want := 14 + 2*len(g.Players) + 1; amounts != want {
		return fmt.Sprintf("%d amounts, want %d", amounts, want)
	}
	if want := len(standingFigures) * len(g.Players); compared != want {
		return fmt.Sprintf("%d finals compared with the old summary, want %d", compared, want)
	}
	want := 0
	if !old.HasCommands {
		want = 5 // capture_energy, wasted_energy, commands, errors, faults
	}
	if unknowns != want {
		return fmt.Sprintf("%d unknown figures (commands known: %v), want %d", unknowns, old.HasCommands, want)
	}
	return ""
}

// TestAccountEventsOnStream: the game's own events (home_captured,
// died, tech_up, tax_bracket, building_bracket) of a ColorfightII
// stream are the old analysis's, in order, worded alike; and the
// generic analysis totals each per-round figure as the old one does.
func TestAccountEventsOnStream(t *testing.T) {
	eachAccountedGame(t, func(tb testing.TB, data []byte, isCFR bool) string {
		if d := accountEventDiff(tb, data, isCFR); d != "" {
			return d
		}
		return amountDiff(tb, data, isCFR)
	})
}

// shellEventDiff compares the generic analysis's own lead_change,
// lead_for_good and bot_fault events on the stream of data with the old
// analysis's, in order: turn, kind, uid and value, and Other as a uid
// for lead_change (0: no previous leader). A generic bot_fault's Other
// is the fault (engine.Fault), which the old one does not say (0): it is
// not compared.
func shellEventDiff(tb testing.TB, data []byte, isCFR bool) string {
	tb.Helper()
	old, g := bothAnalyses(tb, data, isCFR)
	for _, k := range []string{EventLeadChange, EventLeadForGood, EventBotFault} {
		var want, got []Event
		for _, e := range old.Events {
			if e.Kind == k {
				if k != EventLeadChange {
					e.Other = 0
				}
				want = append(want, e)
			}
		}
		for _, e := range g.Events {
			if e.Kind == k && e.Shell {
				ev := oldEvent(e, true)
				if k != EventLeadChange {
					ev.Other = 0
				}
				got = append(got, ev)
			}
		}
		if !slices.Equal(got, want) {
			return fmt.Sprintf("%s: generic %+v, old %+v", k, got, want)
		}
	}
	return ""
}

// TestShellEventsOnStream: on every ColorfightII game at hand the
// generic analysis finds the lead changes, the lead for good and the
// bot faults the old analysis finds.
func TestShellEventsOnStream(t *testing.T) {
	eachAccountedGame(t, shellEventDiff)
}
