package report

import (
	"bytes"
	"encoding/json"
	"html"
	"reflect"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/analysis/internal/toy"
)

// toyScript: alice (hostile name) and bob trade the lead; alice has
// a command rejected and times out once.
var toyScript = []toy.Turn{
	{Cmds: [][]string{{"claim 0 0", "claim 1 0"}, {"claim 3 3"}}},
	{Cmds: [][]string{{"claim 0 0"}, {"claim 0 0", "claim 1 0"}}},
	{Cmds: [][]string{{"claim 2 0"}, nil}, Faults: []engine.Fault{0, engine.FaultTimeout}},
	{Cmds: [][]string{{"claim 2 1", "claim 2 2", "claim 2 3", "claim 1 1"}, {"claim 3 2"}}},
}

func toyAnalysis(t *testing.T, r toy.Ruleset, names []string) *analysis.Analysis {
	t.Helper()
	s, err := toy.NewStream(r, names, 8, toyScript)
	if err != nil {
		t.Fatal(err)
	}
	g, err := analysis.AnalyzeStream(s, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// chartJSON is what the tests read of a chart in the page's JSON.
type chartJSON struct {
	ID     string `json:"id"`
	Option struct {
		XAxis []struct {
			Name string `json:"name"`
			Data []int  `json:"data"`
		} `json:"xAxis"`
		Series []struct {
			Name string `json:"name"`
			Data []struct {
				Value int64 `json:"value"`
			} `json:"data"`
		} `json:"series"`
	} `json:"option"`
}

// chartsOf returns the charts' options of a report page.
func chartsOf(t *testing.T, page string) []chartJSON {
	t.Helper()
	const open = `<script id="rw-charts" type="application/json">`
	i := strings.Index(page, open)
	if i < 0 {
		t.Fatal("no chart JSON")
	}
	rest := page[i+len(open):]
	rest = rest[:strings.Index(rest, "</script>")]
	var cs []chartJSON
	if err := json.Unmarshal([]byte(rest), &cs); err != nil {
		t.Fatalf("chart JSON: %v", err)
	}
	return cs
}

func TestAnalysisReport(t *testing.T) {
	g := toyAnalysis(t, toy.Ruleset{}, []string{hostile, "bob"})
	var out bytes.Buffer
	if err := Write(&out, g, "toy report"); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	// One chart per metric, drawing the series.
	if n := strings.Count(page, `data-testid="chart"`); n != 2 {
		t.Errorf("%d charts, want 2 (one per metric)", n)
	}
	for _, id := range []string{`id="chart-claims"`, `id="chart-cells"`} {
		if !strings.Contains(page, id) {
			t.Errorf("no %s", id)
		}
	}
	cs := chartsOf(t, page)
	if len(cs) != 2 || cs[1].ID != "cells" {
		t.Fatalf("charts %+v", cs)
	}
	if x := cs[1].Option.XAxis[0]; x.Name != "turn" || !reflect.DeepEqual(x.Data, []int{0, 1, 2, 3, 4}) {
		t.Errorf("x axis %+v", x)
	}
	for p, s := range cs[1].Option.Series {
		var got []int64
		for _, d := range s.Data {
			got = append(got, d.Value)
		}
		if !reflect.DeepEqual(got, g.SeriesNamed("cells").Values[p]) || s.Name != SeriesName(g, p) {
			t.Errorf("series %d %q: %v, want %v", p, s.Name, got, g.SeriesNamed("cells").Values[p])
		}
	}
	// The summary table, every event in its wording, the filter.
	if !strings.Contains(page, "<th>claims</th><th>cells</th><th>commands</th>") {
		t.Error("no metric columns in the summary table")
	}
	if len(g.Events) < 8 {
		t.Fatalf("%d events", len(g.Events))
	}
	if n := strings.Count(page, `<tr class="ev-`); n != len(g.Events) {
		t.Errorf("%d event rows, want %d", n, len(g.Events))
	}
	kinds := map[string]bool{}
	for _, e := range g.Events {
		kinds[e.Kind] = true
		if txt := html.EscapeString(g.EventText(e, g.Name)); !strings.Contains(page, txt) {
			t.Errorf("event %q is not in the page", txt)
		}
	}
	for _, k := range []string{"claim", analysis.EventLeadChange, analysis.EventBotFault, analysis.EventCommandErrors, analysis.EventLeadForGood} {
		if !kinds[k] {
			t.Errorf("the game has no %s event", k)
		}
		if !strings.Contains(page, `data-kind="`+k+`" checked`) {
			t.Errorf("no filter box for %s", k)
		}
	}
	if !strings.Contains(page, html.EscapeString(g.Outcome(g.Name))) {
		t.Error("no outcome sentence")
	}
	// Names escaped, scripts ours, offline.
	if strings.Contains(page, hostile) || !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the hostile name is not escaped")
	}
	if n := strings.Count(page, "<script"); n != 3 {
		t.Errorf("%d <script> tags, want 3", n)
	}
	if !strings.Contains(page, `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;`) {
		t.Error("no offline Content-Security-Policy")
	}
	for _, bad := range []string{`src="http`, `href="http`, "cdn.", `src="//`, `href="//`} {
		if strings.Contains(page, bad) {
			t.Errorf("page references a remote resource (%q)", bad)
		}
	}
	// Deterministic.
	var again bytes.Buffer
	if err := Write(&again, toyAnalysis(t, toy.Ruleset{}, []string{hostile, "bob"}), "toy report"); err != nil {
		t.Fatal(err)
	}
	if again.String() != page {
		t.Error("the report differs between runs")
	}
}

func TestAnalysisReportSequential(t *testing.T) {
	g := toyAnalysis(t, toy.Ruleset{Seq: true}, []string{"alice", "alice"})
	var out bytes.Buffer
	if err := Write(&out, g, "seq"); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	cs := chartsOf(t, page)
	frames := g.RoundFrames()
	if !reflect.DeepEqual(frames, []int{0, 2, 4}) {
		t.Fatalf("round frames %v", frames)
	}
	x := cs[1].Option.XAxis[0]
	if x.Name != "round" || !reflect.DeepEqual(x.Data, []int{0, 1, 2}) {
		t.Errorf("x axis %+v", x)
	}
	for p, s := range cs[1].Option.Series {
		if len(s.Data) != len(frames) || s.Data[2].Value != g.SeriesNamed("cells").Values[p][4] {
			t.Errorf("series %d: %+v", p, s.Data)
		}
	}
	// Two players of one name are told apart.
	if cs[0].Option.Series[0].Name != "alice #0" || cs[0].Option.Series[1].Name != "alice #1" {
		t.Errorf("legend names %q %q", cs[0].Option.Series[0].Name, cs[0].Option.Series[1].Name)
	}
	if !strings.Contains(page, "<th>own turns</th>") || !strings.Contains(page, "player-turns") {
		t.Error("no own turns / player-turns in a sequential report")
	}
}
