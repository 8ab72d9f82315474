package report

import (
	"bytes"
	"context"
	"html"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/source"
)

const hostile = `<script>alert(1)</script>`

// hostileAnalysis analyzes a short match whose first player has a hostile
// name.
func hostileAnalysis(t testing.TB) *analysis.Document {
	t.Helper()
	info, _ := engine.About("colorfight2")
	g, _ := info.FindBot("greedy")
	r, _ := info.FindBot("random")
	var buf bytes.Buffer
	_, err := match.RunGame(context.Background(), match.GameConfig{Ruleset: colorfight2.Ruleset, MaxTurns: 60, Seed: 1,
		Seats:    []match.GameSeat{{Bot: match.BuiltinPlayer(g), Name: hostile}, {Bot: match.BuiltinPlayer(r), Name: "</script><img src=x onerror=alert(2)>"}},
		Recorder: recording.NewRecorder(&buf, time.Time{}, "rewind test")})
	if err != nil {
		t.Fatal(err)
	}
	src, err := source.NewStream(bytes.NewReader(buf.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := analysis.AnalyzeDocument(src)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestReportSelfContainedAndEscaped(t *testing.T) {
	a := hostileAnalysis(t)
	var out bytes.Buffer
	if err := WriteDocument(&out, a, "test report"); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	if n := strings.Count(page, `data-testid="chart"`); n != 4 {
		t.Errorf("%d charts, want 4", n)
	}
	for _, id := range []string{"chart-gold", "chart-energy", "chart-cells", "chart-tax"} {
		if !strings.Contains(page, id) {
			t.Errorf("no %s", id)
		}
	}
	// No name reaches the page unescaped.
	if strings.Contains(page, hostile) || strings.Contains(page, "<img src=x") {
		t.Error("a hostile player name is in the page raw")
	}
	if !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the hostile name is not shown as text in the ranking")
	}
	// Exactly the scripts we wrote: ECharts, the charts' options as
	// non-executable JSON, and the one that draws them.
	if n := strings.Count(page, "<script"); n != 3 {
		t.Errorf("%d <script> tags, want 3", n)
	}
	if n := strings.Count(page, `<script id="rw-charts" type="application/json">`); n != 1 {
		t.Errorf("%d chart JSON elements, want 1", n)
	}
	// Every event, in the wording analysis gives it, escaped.
	if len(a.Events) == 0 {
		t.Fatal("the match has no events")
	}
	if n := strings.Count(page, `<tr class="ev-`); n != len(a.Events) {
		t.Errorf("%d event rows, want %d", n, len(a.Events))
	}
	for _, e := range a.Events {
		if txt := html.EscapeString(a.EventText(e, a.Name)); !strings.Contains(page, txt) {
			t.Errorf("event %q is not in the page", txt)
		}
	}
	// It can make no request, whatever it holds.
	if !strings.Contains(page, `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;`) {
		t.Error("no offline Content-Security-Policy")
	}
	// Self-contained: no remote resources.
	for _, bad := range []string{`src="http`, `href="http`, "cdn.", `src="//`} {
		if strings.Contains(page, bad) {
			t.Errorf("page references a remote resource (%q)", bad)
		}
	}
}
