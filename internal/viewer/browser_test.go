package viewer

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
)

// boardHash is a JavaScript expression hashing the board's pixels.
const boardHash = `(() => { const c = document.getElementById('board'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let h = 2166136261; for (let i = 0; i < d.length; i += 4) { h = Math.imul(h ^ d[i] ^ (d[i+1] << 8) ^ (d[i+2] << 16), 16777619); } return h >>> 0; })()`

// openReplay navigates to a replay page and waits until its first frame
// is drawn.
func openReplay(t *testing.T, b *browsertest.Browser, url string) {
	t.Helper()
	if err := chromedp.Run(b.Ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	b.Wait(t, `window.rewind && (window.rewind.ready || window.rewind.error)`, 30*time.Second)
	var errText string
	if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`window.rewind.error || ""`, &errText)); err != nil {
		t.Fatal(err)
	}
	if errText != "" {
		t.Fatalf("%s: %s", url, errText)
	}
}

func turnNow(t *testing.T, b *browsertest.Browser) int {
	t.Helper()
	var n int
	b.Eval(t, `window.rewind.turn()`, &n)
	return n
}
