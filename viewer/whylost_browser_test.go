package viewer

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rewind-game/rewind/internal/browsertest"
)

// TestBrowserWhyLost drives what issue 14 added to the replay page: keys
// after a control was used, the stats chart (picker, linked legends, log
// scale, CSV), the event filter and the scrubber's marks.
func TestBrowserWhyLost(t *testing.T) {
	dir := fixtureLibrary(t)
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{})
	b := browsertest.Start(t, 3*time.Minute)
	openReplay(t, b, base+"/replay/c03.rwd#turn=100")

	t.Run("keys after a control", func(t *testing.T) {
		// Pick a speed and an overlay with the mouse's events: the
		// dropdown keeps no focus, and the arrows step the turn even when
		// it has it.
		for _, id := range []string{"#speed", "#overlay"} {
			before := turnNow(t, b)
			var value0, value1 string
			evalJS(t, b, `document.querySelector('`+id+`').value`, &value0)
			if err := chromedp.Run(b.Ctx, chromedp.Focus(id, chromedp.ByQuery), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowDown)); err != nil {
				t.Fatal(err)
			}
			evalJS(t, b, `document.querySelector('`+id+`').value`, &value1)
			if got := turnNow(t, b); got != before+1-10 {
				t.Errorf("%s focused: → ↓ moved to turn %d from %d, want %d", id, got, before, before-9)
			}
			if value1 != value0 {
				t.Errorf("%s focused: the keys changed its value %q to %q", id, value0, value1)
			}
		}
		evalJS(t, b, `(() => { const s = document.getElementById('speed'); s.focus(); s.value = '4'; s.dispatchEvent(new Event('change')); return true; })()`, nil)
		var focused bool
		evalJS(t, b, `document.activeElement === document.getElementById('speed')`, &focused)
		if focused {
			t.Error("the speed dropdown keeps the focus after a change")
		}
		before := turnNow(t, b)
		chromedp.Run(b.Ctx, chromedp.KeyEvent(kb.ArrowLeft))
		if got := turnNow(t, b); got != before-1 {
			t.Errorf("← after picking a speed: turn %d, want %d", got, before-1)
		}
	})
}
