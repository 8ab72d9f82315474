package analysis

import (
	"slices"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"

	"github.com/rewind-game/rewind/internal/testutil"
)

// TestTurningPointsRuntimeTerrors: in RuntimeTerrorsVictory.cfr Skynet
// spends about 155k energy on attacks (turns 360–361) and 83k gold on
// buildings (361–363), then loses the lead to RuntimeTerrors at 367: the
// turning points say all three, with the amounts, and explain the lead
// change; the table lists them before the events and folds the later lead
// changes.
func TestTurningPointsRuntimeTerrors(t *testing.T) {
	a := analyzeFile(t, testutil.RealWorld(t, "RuntimeTerrorsVictory.cfr"))
	skynet, rt := 0, 0
	for _, p := range a.Players {
		switch p.Username {
		case "Skynet":
			skynet = p.UID
		case "RuntimeTerrors":
			rt = p.UID
		}
	}
	want := []DocumentEvent{
		{Turn: 360, Kind: "attack_surge", UID: skynet, Other: 361, Value: 155095},
		{Turn: 361, Kind: "build_surge", UID: skynet, Other: 363, Value: 83200},
		{Turn: 367, Kind: EventLeadSwing, UID: rt, Other: skynet, Value: 123424},
	}
	tp := a.TurningPoints()
	for _, w := range want {
		found := false
		for _, e := range tp {
			e.g = 0
			found = found || e == w
		}
		if !found {
			t.Errorf("turning points lack %+v:\n%+v", w, tp)
		}
	}
	for _, e := range tp {
		if !a.G.IsTurningPoint(e.Kind) || e.Kind == EventLeadChange {
			t.Errorf("%+v is not a turning point", e)
		}
	}
	if len(tp) > 12 {
		t.Errorf("%d turning points: a reader wants a handful", len(tp))
	}
	line, ok := a.ExplainLeadChange(367, a.Name)
	for _, w := range []string{"At turn 367 RuntimeTerrors (202308 gold) takes the lead from Skynet (200040 gold)", "Turns 358–367",
		"Skynet: -75235 gold", "spent 90400 gold on buildings and upgrades", "163584 energy on attacks"} {
		if !ok || !strings.Contains(line, w) {
			t.Errorf("explain 367: %q lacks %q", line, w)
		}
	}
	if _, ok := a.ExplainLeadChange(3, a.Name); ok {
		t.Error("a lead change explained before the first")
	}
	var buf strings.Builder
	if err := a.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	tpAt, evAt := strings.Index(out, "turning points:"), strings.Index(out, "events (")
	if tpAt < 0 || evAt < tpAt || !strings.Contains(out[tpAt:evAt], `"Skynet" surges: 155095 energy on attacks in turns 360–361`) ||
		!strings.Contains(out[tpAt:evAt], `lead swing: "RuntimeTerrors" gains 123424 gold on "Skynet"`) {
		t.Errorf("the table's turning points:\n%s", out)
	}
	if !strings.Contains(out, "lead changes after turn 50 folded") {
		t.Errorf("the table does not fold the later lead changes:\n%s", out[evAt:])
	}
}

// TestSurgeNeedsAHabit: steady spending is no surge, whatever its size;
// a jump far above a player's own level is one (ColorfightII's surges of
// attack_energy and gold_spent, on an analysis's series).
func TestSurgeNeedsAHabit(t *testing.T) {
	g := &Analysis{}
	for _, name := range []string{"attack_energy", "gold_spent"} {
		i := slices.IndexFunc(colorfight2.AccountMetrics, func(m engine.Metric) bool { return m.Name == name })
		m := colorfight2.AccountMetrics[i]
		if m.Surge.Event == "" {
			t.Fatalf("%s asks for no surges", name)
		}
		v := make([]int64, 61) // frames 0..60
		for turn := 1; turn <= 60; turn++ {
			switch {
			case name == "attack_energy":
				v[turn] = 50000
			case turn == 40 || turn == 41:
				v[turn] = 30000
			}
		}
		g.Meta.Metrics = append(g.Meta.Metrics, m)
		g.Series = append(g.Series, Series{Metric: m, Values: [][]int64{v}})
	}
	az := &analyzerState{g: g, n: 1, m: 2, maxEvents: MaxEvents}
	az.surges()
	want := Event{Turn: 40, Kind: "build_surge", Player: 0, Other: 41, X: -1, Y: -1, Value: 60000, Shell: true}
	if len(az.events) != 1 || az.events[0].Event != want {
		t.Errorf("events %+v, want one building surge at 40–41 and no attack surge", az.events)
	}
}
