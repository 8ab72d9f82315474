package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/analysis/internal/toy"
	"github.com/rewind-game/rewind/internal/browsertest"
)

// TestAnalysisReportInBrowser opens a toy game's generic report from disk
// in headless Chromium: a chart per metric with a series per player, the
// events as text, no console error and no request beyond the file.
func TestAnalysisReportInBrowser(t *testing.T) {
	g := toyAnalysis(t, toy.Ruleset{}, []string{hostile, "bob"})
	var page bytes.Buffer
	if err := Write(&page, g, "generic browser test"); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b := browsertest.Start(t, 60*time.Second)
	var series []int
	var events []string
	err := chromedp.Run(b.Ctx,
		chromedp.Navigate("file://"+file),
		chromedp.WaitVisible(`#chart-cells canvas`, chromedp.ByQuery),
		chromedp.Evaluate(`["claims","cells"].map(id => echarts.getInstanceByDom(document.getElementById("chart-"+id)).getOption().series.length)`, &series),
		chromedp.Evaluate(`[...document.querySelectorAll("[data-testid=events] td.name")].map(td => td.textContent)`, &events),
	)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range series {
		if n != 2 {
			t.Errorf("chart %d has %d series, want 2", i, n)
		}
	}
	if len(events) != len(g.Events) {
		t.Fatalf("%d events shown, want %d", len(events), len(g.Events))
	}
	for i, e := range g.Events {
		if want := g.EventText(e, g.Name); events[i] != want {
			t.Errorf("event %d: %q, want %q", i, events[i], want)
		}
	}
	b.CheckRequests(t, "file://", "data:")
	b.CheckProblems(t)
}
