package skyport_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/games/skyport/formats/jsn"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/clitest"
)

// TestJSNView opens observer recordings through `rewind view` in headless
// Chromium (the synthetic one always, the public ones when present): the
// generic page shows the label, draws the diamond board with every cell
// and a disc per player, lists every event of the recording, draws a
// chart per metric, and logs no console error.
func TestJSNView(t *testing.T) {
	b := browsertest.Start(t, 4*time.Minute)
	files := []struct {
		name  string
		file  func(t *testing.T) string
		turn  int
		cells int
	}{
		{"synthetic", syntheticJSN, 3, 25},
		{"test.jsn", func(t *testing.T) string { return skyportRecording(t, "test.jsn") }, 1, 256},
		{"lengthy-test.jsn", func(t *testing.T) string { return skyportRecording(t, "lengthy-test.jsn") }, 190, 256},
	}
	for _, c := range files {
		t.Run(c.name, func(t *testing.T) {
			url := clitest.ViewPage(t, c.file(t))
			if err := chromedp.Run(b.Ctx, chromedp.Navigate(fmt.Sprintf("%s#turn=%d", url, c.turn))); err != nil {
				t.Fatal(err)
			}
			b.Wait(t, `window.rewind && (window.rewind.ready || window.rewind.error)`, 2*time.Minute)
			var page struct {
				Error, Summary, Topology string
				Turn, Cells, Entities    int
				Players, Effects         int
				Listed, Events           int
			}
			if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`(() => { const r = window.rewind, P = r.packed(); let n = 0;
				(P ? P.frames : []).forEach(f => n += (f.events || []).length);
				return {Error: r.error || '', Summary: document.querySelector('[data-testid=summary]').textContent,
					Topology: P ? P.board.topology : '', Turn: r.turn(), Cells: r.drawn.cells, Entities: r.drawn.entities,
					Players: P ? P.players.length : 0, Effects: r.drawn.effects.length,
					Listed: [...document.querySelectorAll('#events li.ev')].filter(l => new Set(window.rewind.packed().event_kinds.map(k => k.Name)).has(l.dataset.kind)).length, Events: n}; })()`, &page)); err != nil {
				t.Fatal(err)
			}
			if page.Error != "" || !strings.Contains(page.Summary, jsn.Label) || page.Topology != "hex-axial" || page.Turn != c.turn ||
				page.Cells != c.cells || page.Entities != page.Players || page.Players < 2 || page.Effects == 0 ||
				page.Events == 0 || page.Listed != page.Events {
				t.Errorf("page %+v", page)
			}
			b.Wait(t, `window.rewind.chartsReady`, time.Minute)
			var charts []struct {
				Metric string
				Canvas bool
				Lines  int
			}
			if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`[...document.querySelectorAll('[data-testid=chart]')].map(d => ({Metric: d.dataset.metric,
				Canvas: !!d.querySelector('canvas'), Lines: echarts.getInstanceByDom(d).getOption().series.length}))`, &charts)); err != nil {
				t.Fatal(err)
			}
			health := false
			for _, ch := range charts {
				health = health || (ch.Metric == "health" && ch.Canvas && ch.Lines == page.Players)
			}
			if len(charts) == 0 || !health {
				t.Errorf("charts %+v", charts)
			}
			b.Screenshot(t, "jsn-"+c.name)
		})
	}
	b.CheckProblems(t)
}
