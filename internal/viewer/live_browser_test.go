package viewer

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rewind-game/rewind/internal/browsertest"
)

// TestBrowserLive follows a ColorfightII game as the test plays it, in
// Chromium, on the replay page every game has: the
// library lists it, its page advances by itself, the charts gain points,
// the view stays on a turn the user went back to while the range grows,
// follows again from the live edge, and says when the game is over.
func TestBrowserLive(t *testing.T) {
	f := &fakeLive{}
	g := f.start(t, "g1", 40)
	g.Step(5)
	base, _ := serveLive(t, f, Options{})
	b := browsertest.Start(t, 4*time.Minute)
	const wait = 90 * time.Second
	waitJS := func(what, expr string) {
		t.Helper()
		if err := b.WaitJS(expr, wait); err != nil {
			var state string
			b.Eval(t, `JSON.stringify({turn: window.rewind && window.rewind.turn && window.rewind.turn(), frames: window.rewind && window.rewind.frames && window.rewind.frames(), live: window.rewind && window.rewind.live && window.rewind.live(), status: (document.getElementById('live-status') || {}).textContent})`, &state)
			t.Fatalf("%s: %v (page: %s)", what, err, state)
		}
	}
	// points is the number of points of the first chart's first series.
	const points = `(() => { const d = document.querySelector('[data-testid=chart]'); const c = d && window.echarts && echarts.getInstanceByDom(d); return c ? c.getOption().series[0].data.length : -1; })()`

	// The library lists the game and keeps its turn current.
	if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`#live-rows tr[data-live-id="g1"]`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	var row string
	b.Eval(t, `document.querySelector('#live-rows tr[data-live-id="g1"]').textContent`, &row)
	if !strings.Contains(row, "room g1") || !strings.Contains(row, "5 / 40") || !strings.Contains(row, "greedy <b>") {
		t.Errorf("live row %q", row)
	}
	g.Step(2)
	waitJS("the library's live list to show turn 7", `document.querySelector('#live-rows tr[data-live-id="g1"]').dataset.turn === '7'`)
	b.Screenshot(t, "live-library.png")

	// The live page opens on the newest round, with the LIVE badge.
	if err := chromedp.Run(b.Ctx, chromedp.Click(`#live-rows tr[data-live-id="g1"] a`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	waitJS("the live page", `window.rewind && window.rewind.ready && window.rewind.chartsReady`)
	if got := turnNow(t, b); got != 7 {
		t.Errorf("the live page opens on turn %d, want the newest, 7", got)
	}
	var badge string
	b.Eval(t, `document.getElementById('live-badge').textContent`, &badge)
	if badge != "LIVE" {
		t.Errorf("badge %q", badge)
	}
	waitJS("7 points per chart", points+` === 7`)
	var h7 uint32
	b.Eval(t, boardHash, &h7)

	// It advances by itself: board, panel, charts.
	g.Step(5)
	waitJS("the page to follow to turn 12", `window.rewind.frames() === 13 && window.rewind.turn() === 12 && document.getElementById('turn').textContent === 'turn 12 / 12'`)
	waitJS("the charts to gain points", points+` === 12`)
	waitJS("the status to say turn 12", `document.getElementById('live-status').textContent.includes('turn 12 of 40')`)
	var h12 uint32
	b.Eval(t, boardHash, &h12)
	if h7 == h12 {
		t.Error("the board did not change from turn 7 to 12")
	}
	var rows int
	b.Eval(t, `document.querySelectorAll('#players tbody tr[data-player]').length`, &rows)
	if rows != 3 {
		t.Errorf("player panel: %d rows", rows)
	}
	b.Screenshot(t, "live-following.png")

	// Seeking back while the game goes on: the view stays on turn 4 while
	// the scrubber's range grows.
	b.Eval(t, `(() => { const s = document.getElementById('scrubber'); s.value = 4; s.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, nil)
	var h4 uint32
	b.Eval(t, boardHash, &h4)
	updates := 0
	b.Eval(t, `window.rewind.live().updates`, &updates)
	g.Step(6)
	waitJS("the range to grow to turn 18", `window.rewind.frames() === 19 && document.getElementById('scrubber').max === '18'`)
	waitJS("the charts to reach 18 points", points+` === 18`)
	if got := turnNow(t, b); got != 4 {
		t.Errorf("after going back to turn 4 the view moved to %d", got)
	}
	var label string
	var h4again uint32
	b.Eval(t, `document.getElementById('turn').textContent`, &label)
	b.Eval(t, boardHash, &h4again)
	if label != "turn 4 / 18" || h4again != h4 {
		t.Errorf("label %q; board the same as before: %v", label, h4 == h4again)
	}
	waitJS("the address to keep #turn=4", `location.hash === '#turn=4'`)
	b.Eval(t, `window.rewind.live().updates`, &updates)
	if updates < 1 {
		t.Errorf("%d updates taken in", updates)
	}

	// Back at the live edge, it follows again.
	b.Eval(t, `document.activeElement && document.activeElement.blur(), true`, nil)
	if err := chromedp.Run(b.Ctx, chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	if got := turnNow(t, b); got != 18 {
		t.Fatalf("End: turn %d", got)
	}
	g.Step(2)
	waitJS("the page to follow to turn 20", `window.rewind.turn() === 20`)

	// The game ends: the page says so and offers the finished replay.
	g.Finish(t)
	waitJS("the end of the game", `window.rewind.live().over && window.rewind.frames() === 41 && document.getElementById('live-badge').textContent === 'FINISHED'`)
	waitJS("the final charts", points+` === 40`)
	var status, href string
	b.Eval(t, `document.getElementById('live-status').textContent`, &status)
	b.Eval(t, `(document.querySelector('#live-status a') || {}).href || ''`, &href)
	if !strings.Contains(status, "The game is over after 40 turns") || href != base+"/replay/g1.rwd" {
		t.Errorf("end: status %q, link %q", status, href)
	}
	if got := turnNow(t, b); got != 40 {
		t.Errorf("at the live edge the end shows turn %d, want 40", got)
	}
	b.Screenshot(t, "live-finished.png")
	b.CheckRequests(t, base+"/")
	b.CheckProblems(t)
}
