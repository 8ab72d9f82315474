package report

import (
	"bytes"
	"context"
	"html"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/engine/bot/monadbot"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/replay/recording"
	"github.com/rewind-game/rewind/replay/source"
)

// hostileMonad analyzes a short Monad match of built-in bots whose first
// two players have hostile names.
func hostileMonad(t testing.TB) *analysis.MonadAnalysis {
	t.Helper()
	var seats []match.MonadSeat
	for i, n := range []string{"miner", "rusher", "expander"} {
		b, err := monadbot.Builtin(n)
		if err != nil {
			t.Fatal(err)
		}
		name := ""
		switch i {
		case 0:
			name = hostile
		case 1:
			name = "</script><img src=x onerror=alert(2)>"
		}
		seats = append(seats, match.MonadSeat{Bot: b, Name: name})
	}
	var buf bytes.Buffer
	if _, err := match.RunMonad(context.Background(), match.MonadConfig{MaxTurns: 120, Seed: 9, Seats: seats,
		Recorder: recording.NewMonad(&buf, time.Time{}, "rewind test")}); err != nil {
		t.Fatal(err)
	}
	src, err := source.NewMonad(bytes.NewReader(buf.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := analysis.AnalyzeMonad(src)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestMonadReport: a Monad game's report has a chart per series of its
// analysis, the ranking with the final facts (best first), the outcome
// sentence and every event in the analysis' wording, all names escaped,
// and stays self-contained.
func TestMonadReport(t *testing.T) {
	a := hostileMonad(t)
	var out bytes.Buffer
	if err := WriteMonad(&out, a, "monad report"); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	if n := strings.Count(page, `data-testid="chart"`); n != len(a.Series) || n != len(analysis.MonadSeriesMetrics(true)) {
		t.Errorf("%d charts, want one per series (%d)", n, len(a.Series))
	}
	for _, s := range a.Series {
		if !strings.Contains(page, `id="chart-`+s.Metric.Name+`"`) {
			t.Errorf("no chart of %s", s.Metric.Name)
		}
	}
	if strings.Contains(page, hostile) || strings.Contains(page, "<img src=x") {
		t.Error("a hostile player name is in the page raw")
	}
	if !strings.Contains(page, html.EscapeString(a.Outcome(a.Name))) || a.Winner < 0 {
		t.Errorf("no outcome sentence %q", a.Outcome(a.Name))
	}
	if n := strings.Count(page, "<script"); n != 3 {
		t.Errorf("%d <script> tags, want 3", n)
	}
	if len(a.Events) == 0 {
		t.Fatal("the match has no events")
	}
	if n := strings.Count(page, `<tr class="ev-`); n != len(a.Events) {
		t.Errorf("%d event rows, want %d", n, len(a.Events))
	}
	for _, e := range a.Events {
		if txt := html.EscapeString(e.Text(a.Name)); !strings.Contains(page, txt) {
			t.Errorf("event %q is not in the page", txt)
		}
	}
	// The ranking: one row per player, best first, with its final facts.
	p, err := MonadPage(a, "x")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rows) != a.Players() || p.Columns[4].Title != "resources" || len(p.Columns) != 11 {
		t.Fatalf("ranking %v %v", p.Columns, p.Rows)
	}
	for i, row := range p.Rows {
		pl := a.Ranking[i]
		f := a.Final[pl]
		want := []string{strconv.Itoa(i + 1), strconv.Itoa(pl), a.Name(pl), a.Meta.Bots[pl], strconv.FormatInt(f.Resources, 10),
			strconv.FormatInt(f.Units, 10), strconv.Itoa(f.Hives), strconv.Itoa(f.Cells)}
		if strings.Join(row[:8], "|") != strings.Join(want, "|") {
			t.Errorf("row %d %q, want %q", i, row, want)
		}
	}
	if !strings.Contains(page, `<td class="name">&lt;script&gt;alert(1)&lt;/script&gt;</td>`) {
		t.Error("the hostile name is not shown as text in the ranking")
	}
	if !strings.Contains(page, `default-src &#39;none&#39;;`) {
		t.Error("no offline Content-Security-Policy")
	}
}

// TestMonadReportOfficialLog: a reference log's report leaves out the
// series a log cannot know and the counters' columns.
func TestMonadReportOfficialLog(t *testing.T) {
	a, err := analysis.AnalyzeMonadFile("../../testdata/monad/official/m05.replay.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := MonadPage(a, "m05")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Charts) != len(analysis.MonadSeriesMetrics(false)) || len(p.Columns) != 8 || len(p.Rows) != 2 {
		t.Fatalf("%d charts, %d columns, %d rows", len(p.Charts), len(p.Columns), len(p.Rows))
	}
	for _, c := range p.Charts {
		if c.ID == "units_produced" || c.ID == "rejected" {
			t.Errorf("chart %s of a log", c.ID)
		}
	}
	if !strings.Contains(p.Summary, "winner p1-chaos") || !strings.HasPrefix(p.Summary, "Monad replay (") {
		t.Errorf("summary %q", p.Summary)
	}
}

// TestMonadSeriesName: duplicate names are told apart by player number.
func TestMonadSeriesName(t *testing.T) {
	a := &analysis.MonadAnalysis{Names: []string{"bob", "amy", "bob"}, Final: make([]monad.PlayerStats, 3)}
	if got := []string{MonadSeriesName(a, 0), MonadSeriesName(a, 1), MonadSeriesName(a, 2)}; strings.Join(got, ",") != "bob #0,amy,bob #2" {
		t.Errorf("names %q", got)
	}
	if seriesTitle("units_produced") != "Units produced" {
		t.Errorf("title %q", seriesTitle("units_produced"))
	}
}
