package viewer

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestDocsScreenshots refreshes the screenshots of docs/viewer.md: the
// replay page of the real 6-player tournament replay
// (RuntimeTerrorsVictory.cfr, testutil.RealWorld) mid-game, with the
// player that sent the most commands that round selected, so its actions
// are drawn on the board, on a 390×844 phone (docs/viewer-390.png) and
// at 1280×900, 1600×1000 and 2560×1440 (docs/viewer-WIDTH.png: the whole
// player table from 1280, the charts beside the board from 1600;
// TestBrowserLayout checks both). It runs only with
// REWIND_SCREENSHOTS_DOCS=1:
//
//	REWIND_SCREENSHOTS_DOCS=1 go test -run TestDocsScreenshots ./internal/viewer/
func TestDocsScreenshots(t *testing.T) {
	if os.Getenv("REWIND_SCREENSHOTS_DOCS") == "" {
		t.Skip("set REWIND_SCREENSHOTS_DOCS=1 to refresh docs/viewer-*.png")
	}
	const name, turn = "RuntimeTerrorsVictory.cfr", 250
	base := serveFile(t, name, testutil.ReadFile(t, testutil.RealWorld(t, name)), Options{})
	b := browsertest.Start(t, 4*time.Minute)
	for _, v := range []struct {
		file string
		w, h int64
	}{{"viewer-390.png", 390, 844}, {"viewer-1280.png", 1280, 900}, {"viewer-1600.png", 1600, 1000}, {"viewer-2560.png", 2560, 1440}} {
		if err := chromedp.Run(b.Ctx, chromedp.EmulateViewport(v.w, v.h), chromedp.Navigate("about:blank")); err != nil {
			t.Fatal(err)
		}
		openReplay(t, b, fmt.Sprintf("%s/replay/%s#turn=%d", base, name, turn))
		b.Wait(t, `window.rewind.chartsReady`, time.Minute)
		var slot int
		b.Eval(t, fmt.Sprintf(`(() => {
			const best = (%s)(%d);
			window.rewind.select(best);
			window.rewind.seek(%d);
			window.scrollTo(0, 0);
			return best;
		})()`, busiestJS, turn, turn), &slot)
		var png []byte
		// Two frames, so the event list has scrolled to the turn.
		if err := chromedp.Run(b.Ctx,
			chromedp.Evaluate(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, nil, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
			chromedp.CaptureScreenshot(&png)); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join("..", "..", "docs", v.file)
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d×%d, player %d selected, %d bytes", out, v.w, v.h, slot, len(png))
	}
	b.CheckProblems(t)
}
