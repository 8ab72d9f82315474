package viewer

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
)

// TestChartLegendsNotPaged (issue 40, item 6): a chart's legend is never
// paged — with 8 players of long names, at 390 and 1280 px, every
// player's entry (the winner's among them) is laid out inside its chart,
// in rows above the plot, so none is hidden on a second page.
func TestChartLegendsNotPaged(t *testing.T) {
	base := serveFile(t, "eight.rwd", layoutReplay(t), Options{})
	b := browsertest.Start(t, 4*time.Minute)
	for _, w := range []int{390, 1280} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			if err := chromedp.Run(b.Ctx, chromedp.EmulateViewport(int64(w), 1000)); err != nil {
				t.Fatal(err)
			}
			openReplay(t, b, base+"/replay/eight.rwd#turn=400")
			b.Wait(t, `window.rewind.chartsReady`, time.Minute)
			type legend struct {
				Type                      string
				Names                     []string
				Left, Right, Bottom, Plot float64
				Width                     float64
			}
			var got []legend
			b.Eval(t, `[...document.querySelectorAll('[data-testid=chart]')].map(d => {
				const c = echarts.getInstanceByDom(d), lm = c.getModel().getComponent('legend'), v = c.getViewOfComponentModel(lm);
				const r = v.group.getBoundingRect(), g = c.getModel().getComponent('grid').coordinateSystem.getRect();
				return {Type: lm.get('type') || 'plain', Names: lm.getData().map(x => x.get('name')),
					Left: v.group.x + r.x, Right: v.group.x + r.x + r.width, Bottom: v.group.y + r.y + r.height, Plot: g.y, Width: c.getWidth()}; })`, &got)
			b.Screenshot(t, fmt.Sprintf("legend-%d.png", w))
			var players []string
			b.Eval(t, `echarts.getInstanceByDom(document.querySelector('[data-testid=chart]')).getOption().series.map(s => s.name)`, &players)
			if len(got) == 0 || len(players) != 8 {
				t.Fatalf("%d charts of %d players", len(got), len(players))
			}
			for k, l := range got {
				if l.Type == "scroll" || l.Left < 0 || l.Right > l.Width+1 || l.Bottom > l.Plot {
					t.Errorf("chart %d at %d px: a %s legend spans %.0f..%.0f of %.0f px, its bottom at %.0f, the plot's top at %.0f (paged or over the plot)", k, w, l.Type, l.Left, l.Right, l.Width, l.Bottom, l.Plot)
				}
				if fmt.Sprint(l.Names) != fmt.Sprint(players) {
					t.Errorf("chart %d's legend names %q, want every player %q", k, l.Names, players)
				}
			}
		})
	}
	b.CheckProblems(t)
}
