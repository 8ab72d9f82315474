package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
)

// TestReportInBrowser opens a report from disk in headless Chromium: it
// renders four charts with one series per player, shows the hostile names
// and every event as text (no element made of a name), logs no console
// error (a CSP violation included), and no request leaves the machine
// (only the file itself is loaded).
func TestReportInBrowser(t *testing.T) {
	a := hostileAnalysis(t)
	var page bytes.Buffer
	if err := WriteDocument(&page, a, "browser test"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b := browsertest.Start(t, 60*time.Second)
	var canvases, series []int
	var ranking string
	var events []string
	var imgs, scripts int
	err := chromedp.Run(b.Ctx,
		chromedp.Navigate("file://"+file),
		chromedp.WaitVisible(`#chart-tax canvas`, chromedp.ByQuery),
		chromedp.Evaluate(`["gold","energy","cells","tax"].map(id => document.querySelectorAll("#chart-"+id+" canvas").length)`, &canvases),
		chromedp.Evaluate(`["gold","energy","cells","tax"].map(id => echarts.getInstanceByDom(document.getElementById("chart-"+id)).getOption().series.length)`, &series),
		chromedp.Evaluate(`document.querySelector("[data-testid=ranking]").textContent`, &ranking),
		chromedp.Evaluate(`[...document.querySelectorAll("[data-testid=events] td.name")].map(td => td.textContent)`, &events),
		chromedp.Evaluate(`document.querySelectorAll("img").length`, &imgs),
		chromedp.Evaluate(`document.querySelectorAll("script:not([type])").length`, &scripts),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ranking, hostile) || !strings.Contains(ranking, "<img src=x onerror=alert(2)>") {
		t.Errorf("ranking %q lacks the names as text", ranking)
	}
	if imgs != 0 || scripts != 2 {
		t.Errorf("%d images and %d executable scripts, want 0 and 2 (ECharts, charts)", imgs, scripts)
	}
	if len(events) != len(a.Events) {
		t.Fatalf("%d events shown, want %d", len(events), len(a.Events))
	}
	for i, e := range a.Events {
		if want := a.EventText(e, a.Name); events[i] != want {
			t.Errorf("event %d: %q, want %q", i, events[i], want)
		}
	}
	for i, n := range canvases {
		if n < 1 {
			t.Errorf("chart %d has no canvas", i)
		}
	}
	for i, n := range series {
		if n != len(a.Players) {
			t.Errorf("chart %d has %d series, want %d", i, n, len(a.Players))
		}
	}
	b.CheckRequests(t, "file://", "data:")
	b.CheckProblems(t)
}
