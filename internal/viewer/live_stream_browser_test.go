package viewer

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
)

// TestBrowserLiveToy follows a game played through the seam in
// Chromium: the library lists it, its live page (the replay page) opens
// on the newest turn and advances by itself, stays on a turn the user
// went back to while the range grows, and once the game is over says so
// and links the finished replay.
func TestBrowserLiveToy(t *testing.T) {
	l := newToyLive(t, "toy-1", 30)
	l.publish(4)
	base := serveToyLive(t, l)
	b := browsertest.Start(t, 3*time.Minute)
	const wait = 60 * time.Second
	waitJS := func(what, expr string) {
		t.Helper()
		if err := b.WaitJS(expr, wait); err != nil {
			var state string
			b.Eval(t, `JSON.stringify({turn: window.rewind && window.rewind.turn && window.rewind.turn(), frames: window.rewind && window.rewind.frames && window.rewind.frames(), live: window.rewind && window.rewind.live && window.rewind.live(), error: window.rewind && window.rewind.error, status: (document.getElementById('live-status') || {}).textContent})`, &state)
			t.Fatalf("%s: %v (page: %s)", what, err, state)
		}
	}

	if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`#live-rows tr[data-live-id="toy-1"]`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	var row string
	b.Eval(t, `document.querySelector('#live-rows tr[data-live-id="toy-1"]').textContent`, &row)
	if !strings.Contains(row, "1_painter, 2_painter") || !strings.Contains(row, "4 / 30") {
		t.Errorf("live row %q", row)
	}
	if err := chromedp.Run(b.Ctx, chromedp.Click(`#live-rows tr[data-live-id="toy-1"] a`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	waitJS("the live page", `window.rewind && window.rewind.game === 'generic' && window.rewind.ready`)
	if got := turnNow(t, b); got != 4 {
		t.Errorf("the live page opens on turn %d, want the newest, 4", got)
	}
	var badge string
	b.Eval(t, `document.getElementById('live-badge').textContent`, &badge)
	if badge != "LIVE" {
		t.Errorf("badge %q", badge)
	}
	var h4 uint32
	b.Eval(t, boardHash, &h4)

	// It advances by itself.
	l.publish(12)
	waitJS("the page to follow to turn 12", `window.rewind.frames() === 13 && window.rewind.turn() === 12 && document.getElementById('turn').textContent === 'turn 12 / 12'`)
	waitJS("the status to say turn 12", `document.getElementById('live-status').textContent.includes('turn 12 of 30')`)
	var h12 uint32
	b.Eval(t, boardHash, &h12)
	if h4 == h12 {
		t.Error("the board did not change from turn 4 to 12")
	}

	// Gone back to turn 5, the view stays there while the range grows.
	b.Eval(t, `(() => { const s = document.getElementById('scrubber'); s.value = 5; s.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, nil)
	l.publish(20)
	waitJS("the range to grow to turn 20", `window.rewind.frames() === 21 && document.getElementById('scrubber').max === '20'`)
	if got := turnNow(t, b); got != 5 {
		t.Errorf("after going back to turn 5 the view moved to %d", got)
	}

	// The end: the page says so and links the finished replay.
	l.finish(t)
	waitJS("the end of the game", `window.rewind.live().over && window.rewind.frames() === 31 && document.getElementById('live-badge').textContent === 'FINISHED'`)
	var status, href string
	b.Eval(t, `document.getElementById('live-status').textContent`, &status)
	b.Eval(t, `(document.querySelector('#live-status a') || {}).href || ''`, &href)
	if !strings.Contains(status, "The game is over after 30 turns") || href != base+"/replay/toy-1.rwd" {
		t.Errorf("end: status %q, link %q", status, href)
	}
	if got := turnNow(t, b); got != 5 {
		t.Errorf("the end moved the view from turn 5 to %d", got)
	}
	if err := chromedp.Run(b.Ctx, chromedp.Click(`#live-status a`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	waitJS("the finished replay", `location.pathname === '/replay/toy-1.rwd' && window.rewind && window.rewind.ready && window.rewind.frames() === 31`)
	b.CheckProblems(t)
}
