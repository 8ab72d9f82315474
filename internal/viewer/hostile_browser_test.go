package viewer

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
)

// TestBrowserHostileNames: players named <script>… and <img onerror>…
// are text everywhere the library and the page show them (the library's
// row, the legend, the player table, the events): shown verbatim, no
// element made of them, nothing of them run.
func TestBrowserHostileNames(t *testing.T) {
	base := serveFile(t, "hostile.rwd", hostileRWD(t), Options{})
	b := browsertest.Start(t, 2*time.Minute)
	// A name that ran would call alert, which then sets window.alerted.
	const trap = `window.alert = () => { window.alerted = true; }; true`

	if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`#library-rows tr`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	var players string
	var made int
	b.Eval(t, `document.querySelector('tr[data-id="hostile.rwd"] td.players').textContent`, &players)
	b.Eval(t, `document.querySelectorAll('#library-rows script, #library-rows img').length`, &made)
	if !strings.Contains(players, hostile) || !strings.Contains(players, hostile2) || made != 0 {
		t.Errorf("library row: text %q, %d elements made of the names", players, made)
	}

	openReplay(t, b, base+"/replay/hostile.rwd#turn=40")
	// Render again with the trap set: select each player (the commands'
	// headings name them).
	b.Eval(t, trap, nil)
	b.Eval(t, `window.rewind.select(0); window.rewind.select(1); window.rewind.select(-1); true`, nil)
	var got struct {
		Legend, Table, Events string
		Made                  int
		Alerted               bool
	}
	b.Eval(t, `(() => ({Legend: document.getElementById('legend').textContent,
		Table: document.getElementById('players').textContent,
		Events: [...document.querySelectorAll('#events .ev-text')].map(e => e.textContent).join('\n'),
		Made: document.querySelectorAll('body script:not([src]):not([type]), img').length,
		Alerted: !!window.alerted}))()`, &got)
	for what, text := range map[string]string{"legend": got.Legend, "player table": got.Table} {
		if !strings.Contains(text, hostile) || !strings.Contains(text, hostile2) {
			t.Errorf("the %s lacks the names as text: %q", what, text)
		}
	}
	if !strings.Contains(got.Events, hostile) && !strings.Contains(got.Events, hostile2) {
		t.Errorf("no event names a player as text: %q", got.Events)
	}
	if got.Made != 0 || got.Alerted {
		t.Errorf("%d inline scripts and images made from names; a name ran: %v", got.Made, got.Alerted)
	}
}
