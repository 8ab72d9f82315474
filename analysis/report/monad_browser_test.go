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

// TestMonadReportInBrowser opens a Monad report from disk in headless
// Chromium: every series is drawn with one line per player, the ranking
// and events show the hostile names as text, the outcome is shown, nothing
// is requested from the network and no console error is logged.
func TestMonadReportInBrowser(t *testing.T) {
	a := hostileMonad(t)
	var page bytes.Buffer
	if err := WriteMonad(&page, a, "monad browser test"); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "monad.html")
	if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(a.Series))
	for i, s := range a.Series {
		ids[i] = s.Metric.Name
	}
	idsJS := `["` + strings.Join(ids, `","`) + `"]`
	b := browsertest.Start(t, 60*time.Second)
	var canvases, series []int
	var ranking, summary string
	var events []string
	var imgs int
	err := chromedp.Run(b.Ctx,
		chromedp.Navigate("file://"+file),
		chromedp.WaitVisible(`#chart-`+ids[len(ids)-1]+` canvas`, chromedp.ByQuery),
		chromedp.Evaluate(idsJS+`.map(id => document.querySelectorAll("#chart-"+id+" canvas").length)`, &canvases),
		chromedp.Evaluate(idsJS+`.map(id => echarts.getInstanceByDom(document.getElementById("chart-"+id)).getOption().series.length)`, &series),
		chromedp.Evaluate(`document.querySelector("[data-testid=ranking]").textContent`, &ranking),
		chromedp.Evaluate(`document.querySelector("[data-testid=summary]").textContent`, &summary),
		chromedp.Evaluate(`[...document.querySelectorAll("[data-testid=events] td.name")].map(td => td.textContent)`, &events),
		chromedp.Evaluate(`document.querySelectorAll("img").length`, &imgs),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ranking, hostile) || !strings.Contains(ranking, "<img src=x onerror=alert(2)>") || imgs != 0 {
		t.Errorf("ranking %q lacks the names as text (%d images)", ranking, imgs)
	}
	if !strings.Contains(summary, a.Outcome(a.Name)) {
		t.Errorf("summary %q lacks %q", summary, a.Outcome(a.Name))
	}
	if len(events) != len(a.Events) {
		t.Fatalf("%d events shown, want %d", len(events), len(a.Events))
	}
	for i, e := range a.Events {
		if want := e.Text(a.Name); events[i] != want {
			t.Errorf("event %d: %q, want %q", i, events[i], want)
		}
	}
	if len(canvases) != len(ids) || len(series) != len(ids) {
		t.Fatalf("charts %v / %v for %d series", canvases, series, len(ids))
	}
	for i := range ids {
		if canvases[i] < 1 || series[i] != a.Players() {
			t.Errorf("chart %s: %d canvases, %d lines, want a canvas and %d", ids[i], canvases[i], series[i], a.Players())
		}
	}
	b.CheckRequests(t, "file://", "data:")
	b.CheckProblems(t)
}
