package skyport_test

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/clitest"
)

// TestSkyportPageShort (issue 40, item 7): a Skyport replay page, whose
// game has 22 metrics, shows at most 8 charts — the score and then the
// metrics in the order the game registers them — each with a picker of
// every metric, and the page at 1280 px is short (it was 22 charts,
// 6,717 px tall). Through the binary: `rewind play`, `rewind view` in
// Chromium.
func TestSkyportPageShort(t *testing.T) {
	rwd := filepath.Join(t.TempDir(), "sky.rwd")
	if out, code := clitest.Run(t, "play", "--game", "skyport", "--seed", "3", "--turns", "60", "-o", rwd); code != 0 {
		t.Fatalf("play --game skyport: status %d\n%s", code, out)
	}
	b := browsertest.Start(t, 2*time.Minute)
	if err := chromedp.Run(b.Ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(clitest.ViewPage(t, rwd))); err != nil {
		t.Fatal(err)
	}
	b.Wait(t, `window.rewind && window.rewind.ready && window.rewind.chartsReady`, time.Minute)
	var got struct {
		Metrics, Charts []string
		Options         []int
		Height          int
	}
	b.Eval(t, `(() => ({Metrics: window.rewind.packed().metrics.map(m => m.name),
		Charts: [...document.querySelectorAll('[data-testid=chart]')].map(d => d.dataset.metric),
		Options: [...document.querySelectorAll('.metric-pick')].map(s => s.options.length),
		Height: document.documentElement.scrollHeight}))()`, &got)
	if len(got.Metrics) <= 8 || got.Metrics[0] != "score" {
		t.Fatalf("metrics %v: want the score first and more than 8", got.Metrics)
	}
	if !slices.Equal(got.Charts, got.Metrics[:8]) {
		t.Errorf("charts %v, want the first 8 metrics %v", got.Charts, got.Metrics[:8])
	}
	if len(got.Options) != len(got.Charts) || slices.ContainsFunc(got.Options, func(n int) bool { return n != len(got.Metrics) }) {
		t.Errorf("pickers offer %v metrics, want %d on each of %d charts", got.Options, len(got.Metrics), len(got.Charts))
	}
	const tallest = 2500
	if got.Height > tallest {
		t.Errorf("the page is %d px tall at 1280 px, want at most %d", got.Height, tallest)
	}
	t.Logf("%d charts of %d metrics, %d px", len(got.Charts), len(got.Metrics), got.Height)
	if len(got.Options) < 8 {
		t.FailNow()
	}
	// A metric behind the picker is shown when picked.
	last := got.Metrics[len(got.Metrics)-1]
	var shown string
	b.Eval(t, `(() => { const s = document.querySelectorAll('.metric-pick')[7]; s.value = String(window.rewind.packed().metrics.length - 1); s.dispatchEvent(new Event('change'));
		return document.querySelectorAll('[data-testid=chart]')[7].dataset.metric; })()`, &shown)
	if shown != last {
		t.Errorf("chart 8 picked %s shows %s", last, shown)
	}
	b.CheckProblems(t)
}
