package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
)

// TestReportInBrowser opens a report from disk in headless Chromium: it
// renders four charts with one series per player, logs no console error,
// and no request leaves the machine (only the file itself is loaded).
func TestReportInBrowser(t *testing.T) {
	a := hostileAnalysis(t)
	var page bytes.Buffer
	if err := Write(&page, a, "browser test"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b := browsertest.Start(t, 60*time.Second)
	var canvases, series []int
	err := chromedp.Run(b.Ctx,
		chromedp.Navigate("file://"+file),
		chromedp.WaitVisible(`#chart-tax canvas`, chromedp.ByQuery),
		chromedp.Evaluate(`["gold","energy","cells","tax"].map(id => document.querySelectorAll("#chart-"+id+" canvas").length)`, &canvases),
		chromedp.Evaluate(`["gold","energy","cells","tax"].map(id => echarts.getInstanceByDom(document.getElementById("chart-"+id)).getOption().series.length)`, &series),
	)
	if err != nil {
		t.Fatal(err)
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
