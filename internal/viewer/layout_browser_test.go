package viewer

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	bot "github.com/rewind-game/rewind/games/colorfight2/bots"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
)

// layoutReplay records an 8-player, 500-round game of built-ins with long
// names: the widest player table and the biggest numbers a page shows.
func layoutReplay(tb testing.TB) []byte {
	tb.Helper()
	names := bot.BuiltinNames()
	var seats []match.GameSeat
	for i := range 8 {
		seats = append(seats, cf2Seat(tb, names[i%len(names)], fmt.Sprintf("PLEASE_LEAVE_%d", 60+i)))
	}
	var buf bytes.Buffer
	playCF2(tb, 11, 500, recording.NewRecorder(&buf, time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC), "rewind test"), seats...)
	return buf.Bytes()
}

// overflowJS lists the elements that stick out of their container: an
// element whose box passes its parent's right edge (by more than a pixel),
// unless the parent scrolls it (overflow-x auto or scroll) or the element
// is positioned out of the flow (absolute, fixed: tooltips, cursors) or
// hidden; the charts' insides are ECharts' own. It also reports the page's
// horizontal overflow.
const overflowJS = `(() => {
	const out = [];
	const W = document.documentElement.clientWidth;
	if (document.documentElement.scrollWidth > W + 1) out.push('page: ' + document.documentElement.scrollWidth + ' px wide in ' + W);
	const scrolls = e => { const o = getComputedStyle(e).overflowX; return o === 'auto' || o === 'scroll'; };
	for (const e of document.querySelectorAll('body *')) {
		if (e.closest('.chart, script, style, head, [hidden], .help')) continue;
		const cs = getComputedStyle(e);
		if (cs.display === 'none' || cs.position === 'absolute' || cs.position === 'fixed') continue;
		const p = e.parentElement;
		if (!p || p === document.body) continue;
		let a = p, scrolled = false;
		for (; a && a !== document.body; a = a.parentElement) if (scrolls(a)) { scrolled = true; break; }
		if (scrolled) continue;
		const r = e.getBoundingClientRect(), pr = p.getBoundingClientRect();
		if (r.width === 0 || r.height === 0) continue;
		if (r.right > pr.right + 1 || r.left < pr.left - 1) out.push((e.id ? '#' + e.id : e.tagName.toLowerCase() + '.' + e.className) + ' in ' + (p.id ? '#' + p.id : p.tagName.toLowerCase() + '.' + p.className) + ': ' + Math.round(r.left) + '..' + Math.round(r.right) + ' outside ' + Math.round(pr.left) + '..' + Math.round(pr.right));
		if (out.length > 20) break;
	}
	return out;
})()`

// TestBrowserLayout: at 390, 1280, 1600 and 2560 px wide, no element of
// the replay page or the library sticks out of its container; from 1280
// px the player table shows all its columns unscrolled; from 1600 px the
// charts stand beside the board; at 390 the charts' axis labels are inside
// their charts. With $REWIND_DOCS_SCREENSHOTS set to a folder (docs/),
// the screenshots are written there as viewer-WIDTH.png.
func TestBrowserLayout(t *testing.T) {
	base := serveFile(t, "eight.rwd", layoutReplay(t), Options{})
	b := browsertest.Start(t, 4*time.Minute)
	for _, w := range []int{390, 1280, 1600, 2560} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			if err := chromedp.Run(b.Ctx, chromedp.EmulateViewport(int64(w), 1000)); err != nil {
				t.Fatal(err)
			}
			openReplay(t, b, base+"/replay/eight.rwd#turn=400")
			b.Wait(t, `window.rewind.chartsReady`, time.Minute)
			b.Eval(t, `window.rewind.seek(400), window.rewind.select(1), true`, nil)
			var bad []string
			b.Eval(t, overflowJS, &bad)
			if len(bad) > 0 {
				t.Errorf("replay page at %d px: elements outside their container:\n%q", w, bad)
			}
			var table struct {
				Cols, Shown     int
				Scroll, Visible float64
			}
			b.Eval(t, `(() => { const t = document.getElementById('players'); const box = t.parentElement.getBoundingClientRect(); const ths = [...t.querySelectorAll('thead th')];
				return {Cols: ths.length, Shown: ths.filter(th => { const r = th.getBoundingClientRect(); return r.width > 0 && r.right <= box.right + 1; }).length, Scroll: t.parentElement.scrollWidth, Visible: t.parentElement.clientWidth}; })()`, &table)
			if w >= 1280 && (table.Cols < 9 || table.Shown != table.Cols || table.Scroll > table.Visible+1) {
				t.Errorf("at %d px the player table shows %d of its %d columns (its box scrolls %v of %v px)", w, table.Shown, table.Cols, table.Scroll, table.Visible)
			}
			var beside bool
			b.Eval(t, `(() => { const s = document.querySelector('.stage').getBoundingClientRect(), c = document.querySelector('.charts').getBoundingClientRect(); return c.left >= s.right - 1 && c.top < s.bottom; })()`, &beside)
			if w >= 1600 && !beside {
				t.Errorf("at %d px the charts are not beside the board", w)
			}
			// Every chart keeps its axis labels inside its box.
			var clipped []string
			b.Eval(t, `[...document.querySelectorAll('.chart')].filter(d => { const c = echarts.getInstanceByDom(d); if (!c) return false; const g = c.getOption().grid; return !(g && g[0] && g[0].containLabel); }).map(d => d.id)`, &clipped)
			if len(clipped) > 0 {
				t.Errorf("at %d px charts %q may clip their axis labels (grid.containLabel)", w, clipped)
			}

			if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/")); err != nil {
				t.Fatal(err)
			}
			b.Wait(t, `document.querySelector('[data-testid=library], .library')`, 30*time.Second)
			b.Eval(t, overflowJS, &bad)
			if len(bad) > 0 {
				t.Errorf("library at %d px: elements outside their container:\n%q", w, bad)
			}
		})
	}
	b.CheckProblems(t)
}
