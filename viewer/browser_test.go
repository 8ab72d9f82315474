package viewer

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/testutil"
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
	if err := b.WaitJS(`window.rewind && (window.rewind.ready || window.rewind.error)`, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	var errText string
	if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`window.rewind.error || ""`, &errText)); err != nil {
		t.Fatal(err)
	}
	if errText != "" {
		t.Fatalf("%s: %s", url, errText)
	}
}

func evalJS(t *testing.T, b *browsertest.Browser, expr string, out any) {
	t.Helper()
	if err := chromedp.Run(b.Ctx, chromedp.Evaluate(expr, out)); err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
}

func turnNow(t *testing.T, b *browsertest.Browser) int {
	t.Helper()
	var n int
	evalJS(t, b, `window.rewind.turn()`, &n)
	return n
}

// TestBrowser drives the viewer in headless Chromium through the whole
// acceptance list: library, replay, slider, keys, #turn, charts, chart
// clicks, upload, hostile names, the real tournament replay, the exported
// page; with no console error and no request leaving 127.0.0.1.
func TestBrowser(t *testing.T) {
	dir := fixtureLibrary(t)
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{MaxUpload: 4 << 20})
	b := browsertest.Start(t, 4*time.Minute)

	t.Run("library", func(t *testing.T) {
		if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`#library-rows tr`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		var ids []string
		evalJS(t, b, `[...document.querySelectorAll('#library-rows tr')].map(r => r.dataset.id)`, &ids)
		for _, want := range []string{"c03.rwd", "hostile.rwd", "sub/c04.cfr", "cut.rwd", "junk.cfr"} {
			if !slices.Contains(ids, want) {
				t.Errorf("library lists %v, missing %s", ids, want)
			}
		}
		var row struct {
			Players, Winner, Rounds string
		}
		evalJS(t, b, `(() => { const r = document.querySelector('tr[data-id="sub/c04.cfr"]'); return {Players: r.cells[1].textContent, Winner: r.cells[2].textContent, Rounds: r.cells[3].textContent}; })()`, &row)
		if !strings.Contains(row.Winner, "bot4_greedy") || !strings.Contains(row.Winner, "591533") || row.Rounds != "500" {
			t.Errorf("official replay's row: %+v", row)
		}
		// Hostile names are text: shown verbatim, no element made of them.
		var players string
		var scripts, imgs int
		evalJS(t, b, `document.querySelector('tr[data-id="hostile.rwd"] td.players').textContent`, &players)
		evalJS(t, b, `document.querySelectorAll('#library-rows script').length`, &scripts)
		evalJS(t, b, `document.querySelectorAll('#library-rows img').length`, &imgs)
		if !strings.Contains(players, hostile) || !strings.Contains(players, hostile2) || scripts != 0 || imgs != 0 {
			t.Errorf("hostile names: text %q, %d scripts, %d imgs in the table", players, scripts, imgs)
		}
		var status string
		evalJS(t, b, `document.querySelector('tr[data-id="junk.cfr"] .status').textContent`, &status)
		if !strings.Contains(status, "cannot be opened") {
			t.Errorf("junk.cfr status %q", status)
		}
		// Filter and sort.
		var shown []string
		if err := chromedp.Run(b.Ctx, chromedp.SendKeys(`#filter`, "c04", chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		evalJS(t, b, `[...document.querySelectorAll('#library-rows tr')].filter(r => !r.hidden).map(r => r.dataset.id)`, &shown)
		if !slices.Equal(shown, []string{"sub/c04.cfr"}) {
			t.Errorf("filter 'c04' shows %v", shown)
		}
		if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`(() => { const f = document.getElementById('filter'); f.value = ''; f.dispatchEvent(new Event('input')); return true; })()`, nil),
			chromedp.Click(`th[data-sort="rounds"]`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		var rounds []string
		evalJS(t, b, `[...document.querySelectorAll('#library-rows tr')].filter(r => !r.hidden).map(r => r.dataset.rounds)`, &rounds)
		if len(rounds) != 5 || rounds[0] != "500" || rounds[4] != "0" {
			t.Errorf("sorted by rounds (descending): %v", rounds)
		}
		b.Screenshot(t, "library.png")
	})

	t.Run("replay", func(t *testing.T) {
		openReplay(t, b, base+"/replay/c03.rwd")
		var frames, players int
		evalJS(t, b, `window.rewind.frames()`, &frames)
		evalJS(t, b, `window.rewind.players().length`, &players)
		if frames != 501 || players != 8 {
			t.Fatalf("c03: %d frames, %d players", frames, players)
		}
		var h0, h250 uint32
		evalJS(t, b, boardHash, &h0)
		// Move the slider to 250 as a user does: value, then input event.
		evalJS(t, b, `(() => { const s = document.getElementById('scrubber'); s.value = 250; s.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, nil)
		evalJS(t, b, boardHash, &h250)
		if got := turnNow(t, b); got != 250 {
			t.Fatalf("slider to 250: turn %d", got)
		}
		if h0 == h250 {
			t.Error("the board did not change between turn 0 and 250")
		}
		var label string
		evalJS(t, b, `document.getElementById('turn').textContent`, &label)
		if label != "turn 250 / 500" {
			t.Errorf("turn label %q", label)
		}
		// The board shows owners: every owned cell without a building or
		// a capture highlight is drawn in its player's colour.
		var colours struct{ Checked, Bad int }
		evalJS(t, b, `(() => { const r = window.rewind, c = document.getElementById('board'), k = c.width / 30, g = c.getContext('2d'); let checked = 0, bad = 0;
			for (let y = 0; y < 30; y++) for (let x = 0; x < 30; x++) {
				const o = r.owner(250, x, y);
				if (!o || r.building(250, x, y) || r.owner(249, x, y) !== o) continue;
				const p = g.getImageData(Math.floor((x + 0.3) * k), Math.floor((y + 0.3) * k), 1, 1).data;
				const hex = '#' + [p[0], p[1], p[2]].map(v => v.toString(16).padStart(2, '0')).join('');
				checked++; if (hex !== r.color(o)) bad++;
			}
			return {Checked: checked, Bad: bad}; })()`, &colours)
		if colours.Checked < 50 || colours.Bad != 0 {
			t.Errorf("owner colours: %d cells checked, %d wrong", colours.Checked, colours.Bad)
		}
		if err := b.WaitJS(`location.hash === '#turn=250'`, 3*time.Second); err != nil {
			t.Error(err)
		}

		// Arrow keys step.
		keys := []struct {
			key  string
			mods []chromedp.KeyOption
			want int
		}{
			{kb.ArrowRight, nil, 251},
			{kb.ArrowRight, nil, 252},
			{kb.ArrowLeft, nil, 251},
			{kb.ArrowRight, []chromedp.KeyOption{chromedp.KeyModifiers(input.ModifierShift)}, 261},
			{kb.ArrowDown, nil, 251},
			{kb.End, nil, 500},
			{kb.Home, nil, 0},
		}
		evalJS(t, b, `document.activeElement && document.activeElement.blur(), true`, nil)
		for _, k := range keys {
			if err := chromedp.Run(b.Ctx, chromedp.KeyEvent(k.key, k.mods...)); err != nil {
				t.Fatal(err)
			}
			if got := turnNow(t, b); got != k.want {
				t.Errorf("after key %q: turn %d, want %d", k.key, got, k.want)
			}
		}
		// Next event jumps to the first home capture or death.
		var firstEvent int
		evalJS(t, b, `(() => { const s = [...document.querySelectorAll('.ev-home_captured, .ev-died')].map(e => +e.dataset.turn); return s.length ? Math.min(...s) : -1; })()`, &firstEvent)
		if firstEvent <= 0 {
			t.Fatalf("c03 lists no home capture or death (first %d)", firstEvent)
		}
		chromedp.Run(b.Ctx, chromedp.KeyEvent("n"))
		if got := turnNow(t, b); got != firstEvent {
			t.Errorf("n: turn %d, want the first event at %d", got, firstEvent)
		}
		// O cycles the overlays, which repaint the board; [ and ] change
		// the speed within 0.25× to 32×.
		var hPlain, hGold uint32
		var overlay string
		evalJS(t, b, boardHash, &hPlain)
		chromedp.Run(b.Ctx, chromedp.KeyEvent("o"))
		evalJS(t, b, `document.getElementById('overlay').value`, &overlay)
		evalJS(t, b, boardHash, &hGold)
		if overlay != "natural_gold" || hGold == hPlain {
			t.Errorf("o: overlay %q, board changed %v", overlay, hGold != hPlain)
		}
		for range 3 {
			chromedp.Run(b.Ctx, chromedp.KeyEvent("o"))
		}
		evalJS(t, b, `document.getElementById('overlay').value`, &overlay)
		if overlay != "" {
			t.Errorf("four o presses leave overlay %q", overlay)
		}
		var speeds []float64
		for _, k := range []string{"]", "]", "[", "[", "[", "[", "["} {
			chromedp.Run(b.Ctx, chromedp.KeyEvent(k))
			var v float64
			evalJS(t, b, `window.rewind.speed()`, &v)
			speeds = append(speeds, v)
		}
		if !slices.Equal(speeds, []float64{2, 4, 2, 1, 0.5, 0.25, 0.25}) {
			t.Errorf("speeds after ] ] [ [ [ [ [: %v", speeds)
		}
		// ? opens the help overlay, Escape closes it.
		var hidden bool
		chromedp.Run(b.Ctx, chromedp.KeyEvent("?"))
		evalJS(t, b, `document.getElementById('help').hidden`, &hidden)
		if hidden {
			t.Error("? did not open the help")
		}
		b.Screenshot(t, "help.png")
		chromedp.Run(b.Ctx, chromedp.KeyEvent(kb.Escape))
		evalJS(t, b, `document.getElementById('help').hidden`, &hidden)
		if !hidden {
			t.Error("Escape did not close the help")
		}

		// Inspector: hovering a cell shows it.
		evalJS(t, b, `window.rewind.seek(250), true`, nil)
		var box struct{ X, Y, K float64 }
		evalJS(t, b, `(() => { const r = document.getElementById('board').getBoundingClientRect(); return {X: r.left, Y: r.top, K: r.width / 30}; })()`, &box)
		if err := chromedp.Run(b.Ctx, chromedp.MouseEvent(input.MouseMoved, box.X+box.K*4.5, box.Y+box.K*7.5)); err != nil {
			t.Fatal(err)
		}
		var insp string
		evalJS(t, b, `document.getElementById('inspector').textContent`, &insp)
		for _, want := range []string{"(4, 7)", "building", "attack cost", "force field", "natural gold", "natural energy", "natural cost", "income"} {
			if !strings.Contains(insp, want) {
				t.Errorf("inspector lacks %q: %q", want, insp)
			}
		}
		// Building names and letters come from the manifest.
		var legend, head string
		evalJS(t, b, `document.getElementById('legend').textContent`, &legend)
		evalJS(t, b, `document.querySelector('#players thead').textContent`, &head)
		if !strings.Contains(legend, "H home · G gold mine · E energy well · F fortress") || !strings.Contains(head, "H G E F") {
			t.Errorf("legend %q, players header %q", legend, head)
		}
		// Selecting a player shows its commands for the round.
		if err := chromedp.Run(b.Ctx, chromedp.Click(`#players tbody tr td.name`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		var cmds string
		evalJS(t, b, `document.getElementById('commands').textContent`, &cmds)
		if !strings.Contains(cmds, "in round 249 → 250 (its reply to turn 249)") {
			t.Errorf("commands panel: %q", cmds)
		}
		b.Screenshot(t, "replay.png")
	})

	t.Run("hash", func(t *testing.T) {
		chromedp.Run(b.Ctx, chromedp.Navigate(base+"/"))
		openReplay(t, b, base+"/replay/c03.rwd#turn=123")
		if got := turnNow(t, b); got != 123 {
			t.Errorf("#turn=123 restored turn %d", got)
		}
		var v string
		evalJS(t, b, `document.getElementById('scrubber').value`, &v)
		if v != "123" {
			t.Errorf("scrubber at %s", v)
		}
	})

	t.Run("charts", func(t *testing.T) {
		if err := b.WaitJS(`window.rewind.chartsReady`, 20*time.Second); err != nil {
			t.Fatal(err)
		}
		var series []int
		evalJS(t, b, `[...document.querySelectorAll('[data-chart]')].map(d => echarts.getInstanceByDom(d).getOption().series.length)`, &series)
		if !slices.Equal(series, []int{8, 8, 8, 8}) {
			t.Errorf("series per chart %v, want four charts of 8", series)
		}
		var ids []string
		evalJS(t, b, `[...document.querySelectorAll('[data-chart]')].map(d => d.dataset.chart)`, &ids)
		if !slices.Equal(ids, []string{"gold", "energy", "cells", "tax"}) {
			t.Errorf("charts %v", ids)
		}
		// The cursor follows the turn.
		var cursor string
		evalJS(t, b, `document.querySelector('#chart-gold .cursor').style.display`, &cursor)
		if cursor != "block" {
			t.Errorf("cursor display %q at turn 123", cursor)
		}
		// Clicking the energy chart at turn 300 seeks there.
		var pt struct{ X, Y float64 }
		evalJS(t, b, `(() => { const d = document.getElementById('chart-energy'); d.scrollIntoView(); const c = echarts.getInstanceByDom(d); const r = d.getBoundingClientRect(); const x = c.convertToPixel({xAxisIndex: 0}, 299); return {X: r.left + d.clientLeft + x, Y: r.top + r.height / 2}; })()`, &pt) // ECharts' pixels start inside the chart's border
		if err := chromedp.Run(b.Ctx, chromedp.MouseClickXY(pt.X, pt.Y)); err != nil {
			t.Fatal(err)
		}
		if got := turnNow(t, b); got != 300 {
			t.Errorf("clicking the chart at turn 300 seeks to %d", got)
		}
	})

	t.Run("realworld", func(t *testing.T) {
		// The real tournament replay joins the library (which picks up
		// files as they appear) when it is where the real replays live.
		write(t, filepath.Join(dir, "sub", "RuntimeTerrorsVictory.cfr"), readFile(t, testutil.RealWorld(t, "RuntimeTerrorsVictory.cfr")))
		openReplay(t, b, base+"/replay/sub/RuntimeTerrorsVictory.cfr")
		var frames int
		evalJS(t, b, `window.rewind.frames()`, &frames)
		if frames != 501 {
			t.Errorf("%d frames", frames)
		}
		var h0, h1 uint32
		evalJS(t, b, boardHash, &h0)
		// Play at 1× (10 turns a second: the 500 turns last 50 s, so even
		// a loaded machine presses Space long before the end, where play
		// stops by itself): the turn advances by itself.
		if err := chromedp.Run(b.Ctx, chromedp.SetValue(`#speed`, "1", chromedp.ByQuery), chromedp.Evaluate(`document.getElementById('speed').dispatchEvent(new Event('change')), true`, nil),
			chromedp.Click(`#play`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		if err := b.WaitJS(`window.rewind.turn() >= 3`, 60*time.Second); err != nil {
			t.Fatal(err)
		}
		chromedp.Run(b.Ctx, chromedp.KeyEvent(" "))
		var playing bool
		evalJS(t, b, `window.rewind.playing()`, &playing)
		if playing {
			t.Error("Space did not pause")
		}
		evalJS(t, b, boardHash, &h1)
		if h0 == h1 {
			t.Error("the board did not change while playing")
		}
		evalJS(t, b, `window.rewind.seek(500), true`, nil)
		var top string
		evalJS(t, b, `document.querySelector('#players tbody tr td.name').textContent`, &top)
		if top != "RuntimeTerrors" {
			t.Errorf("top of the player panel at turn 500: %q", top)
		}
		// The commands of a .cfr are inferred, and marked so: select the
		// winner at turn 250 and its commands are listed.
		evalJS(t, b, `window.rewind.seek(250), true`, nil)
		// ECharts arrives after the first frame and its charts take their
		// size then: click only once the layout no longer moves.
		if err := b.WaitJS(`window.rewind.chartsReady`, 60*time.Second); err != nil {
			t.Fatal(err)
		}
		// The row's own click (a click at coordinates can land elsewhere
		// while the page's layout still settles on a loaded machine).
		var clicked bool
		evalJS(t, b, `(() => { const r = [...document.querySelectorAll('#players tbody tr')].find(tr => tr.querySelector('td.name')?.textContent === 'RuntimeTerrors'); if (r) r.click(); return !!r; })()`, &clicked)
		if !clicked {
			t.Fatal("no RuntimeTerrors row in the player panel")
		}
		if err := b.WaitJS(`document.querySelectorAll('#commands ol li .cmd').length > 0`, 10*time.Second); err != nil {
			var diag string
			evalJS(t, b, `'turn ' + window.rewind.turn() + ', selected ' + window.rewind.selected() + ', panel: ' + document.getElementById('commands').textContent.slice(0, 300)`, &diag)
			t.Fatal("no commands listed for RuntimeTerrors at turn 250: ", err, "; ", diag)
		}
		var panel struct {
			Head, Note string
			Inferred   bool
			Commands   []string
			Words      []string
		}
		evalJS(t, b, `(() => { const c = document.getElementById('commands'); const n = c.querySelector('[data-testid=inferred]');
			return {Head: c.querySelector('h3').textContent, Note: n ? n.textContent : '', Inferred: c.hasAttribute('data-inferred'),
				Commands: [...c.querySelectorAll('ol li .cmd')].map(e => e.getAttribute('data-raw')), Words: [...c.querySelectorAll('ol li .cmd')].map(e => e.textContent)}; })()`, &panel)
		if !strings.Contains(panel.Head, "RuntimeTerrors") || !strings.Contains(panel.Head, "in round 249 → 250 (its reply to turn 249)") || !panel.Inferred ||
			panel.Note != "commands inferred from the replay (docs/import.md)" {
			t.Errorf("commands panel: %+v", panel)
		}
		for i, c := range panel.Commands {
			if !strings.ContainsAny(c[:1], "abu") {
				t.Errorf("command %q is not an attack, build or upgrade", c)
			}
			f := strings.Fields(c)
			want := map[string]string{"a": "attack (", "b": "build ", "u": "upgrade ("}[f[0]]
			if w := panel.Words[i]; !strings.HasPrefix(w, want) || !strings.Contains(w, "("+f[1]+", "+f[2]+")") {
				t.Errorf("command %q is worded %q", c, w)
			}
		}
		b.Screenshot(t, "realworld.png")

		// The turning points come first in the events panel: Skynet's
		// surges at 360–363 and the lead swing at 367, with what each side
		// did, before any lead change.
		var tp struct {
			Texts          []string
			Explain        string
			BeforeAnyLead  bool
			FirstLeadBelow bool
		}
		evalJS(t, b, `(() => { const box = document.querySelector('#events [data-testid=turning-points]'); const lead = document.querySelector('#events li.ev-lead_change');
			const sw = box ? [...box.querySelectorAll('li.tp-lead_swing')].find(li => li.dataset.turn === '367') : null;
			return {Texts: box ? [...box.querySelectorAll('li.tp .ev-text')].map(e => e.textContent) : [], Explain: sw ? sw.querySelector('.tp-explain').textContent : '',
				BeforeAnyLead: !!box && (!lead || !!(box.compareDocumentPosition(lead) & Node.DOCUMENT_POSITION_FOLLOWING)),
				FirstLeadBelow: !!box && document.querySelector('#events ol.event-list').getBoundingClientRect().top >= box.getBoundingClientRect().bottom}; })()`, &tp)
		joined := strings.Join(tp.Texts, "\n")
		for _, w := range []string{"Skynet surges: 155095 energy on attacks in turns 360–361", "Skynet surges: 83200 gold on buildings and upgrades in turns 361–363",
			"lead swing: RuntimeTerrors gains 123424 gold on Skynet in 10 rounds"} {
			if !strings.Contains(joined, w) {
				t.Errorf("turning points lack %q:\n%s", w, joined)
			}
		}
		if !strings.Contains(tp.Explain, "At turn 367 RuntimeTerrors (202308 gold) takes the lead from Skynet") || !tp.BeforeAnyLead || !tp.FirstLeadBelow {
			t.Errorf("turning points: %+v", tp)
		}

		// Play on from turn 250: the new game opens, and its summary
		// names its parent.
		evalJS(t, b, `document.activeElement && document.activeElement.blur(), true`, nil)
		// The button's own click, as the row's above: a click at
		// coordinates can land elsewhere while the layout settles.
		var enabled bool
		evalJS(t, b, `(() => { const f = document.getElementById('fork'); const ok = !!f && !f.disabled; if (ok) f.click(); return ok; })()`, &enabled)
		if !enabled {
			t.Fatal("the play-on button is missing or disabled at turn 250")
		}
		// The seats come first, each with a choice of bot: a .cfr names
		// none, so the built-ins are offered in turn.
		if err := b.WaitJS(`document.querySelectorAll('[data-testid=fork-seats] select').length === 6`, 30*time.Second); err != nil {
			t.Fatalf("the seats to play on with: %v", err)
		}
		var picks []string
		evalJS(t, b, `[...document.querySelectorAll('[data-testid=fork-seats] select')].map(s => s.value)`, &picks)
		if strings.Join(picks, " ") != "economist greedy raider random runtimeterrors turtle" {
			t.Errorf("preselected bots %q", picks)
		}
		evalJS(t, b, `document.getElementById('fork-go').click(), true`, nil)
		if err := b.WaitJS(`location.pathname === '/replay/sub/RuntimeTerrorsVictory-fork-T250.rwd' && window.rewind && (window.rewind.ready || window.rewind.error)`, 60*time.Second); err != nil {
			var status string
			evalJS(t, b, `(document.getElementById('fork-status') || {}).textContent || ''`, &status)
			var dbg string
			evalJS(t, b, `JSON.stringify({href: location.href, ready: window.rewind && window.rewind.ready, err: window.rewind && window.rewind.error, res: performance.getEntriesByType('resource').map(e => [e.name, Math.round(e.startTime), Math.round(e.responseEnd), e.responseStatus])})`, &dbg)
			t.Logf("the page: %s", dbg)
			t.Fatalf("the fork did not open (status %q): %v", status, err)
		}
		var summary, errText string
		evalJS(t, b, `document.querySelector('[data-testid=summary]').textContent`, &summary)
		evalJS(t, b, `window.rewind.error || ''`, &errText)
		if errText != "" || !strings.Contains(summary, "played on from turn 250 of RuntimeTerrorsVictory.cfr") {
			t.Errorf("the fork's page: summary %q, error %q", summary, errText)
		}
		if got := turnNow(t, b); got != 250 {
			t.Errorf("the fork opens at turn %d, want 250", got)
		}
		if _, err := os.Stat(filepath.Join(dir, "sub", "RuntimeTerrorsVictory-fork-T250.rwd")); err != nil {
			t.Error(err)
		}
		b.Screenshot(t, "fork.png")
	})

	t.Run("hostile", func(t *testing.T) {
		openReplay(t, b, base+"/replay/hostile.rwd")
		var legend string
		var scripts, imgs int
		evalJS(t, b, `document.getElementById('legend').textContent`, &legend)
		evalJS(t, b, `document.querySelectorAll('body script:not([src]):not([type])').length`, &scripts)
		evalJS(t, b, `document.querySelectorAll('img').length`, &imgs)
		if !strings.Contains(legend, hostile) || !strings.Contains(legend, hostile2) {
			t.Errorf("legend %q lacks the names as text", legend)
		}
		if scripts != 0 || imgs != 0 {
			t.Errorf("%d inline scripts and %d images made from names", scripts, imgs)
		}
		// The events name the players as text, worded by the server.
		var events []string
		var want []string
		evalJS(t, b, `[...document.querySelectorAll('#events li.ev .ev-text')].map(e => e.textContent)`, &events)
		rep := loadFile(t, filepath.Join(dir, "hostile.rwd"))
		// At first every kind is listed, the lead changes of the opening
		// only.
		for _, e := range rep.Analysis.Events {
			if e.Kind != analysis.EventLeadChange || e.Turn <= analysis.EarlyLeadTurns(rep.Analysis.Rounds) {
				want = append(want, rep.Analysis.EventText(e, rep.Analysis.Name))
			}
		}
		if len(want) == 0 || !slices.Equal(events, want) {
			t.Errorf("events %q, want %q", events, want)
		}
		if !strings.Contains(strings.Join(events, "\n"), hostile) {
			t.Errorf("no event names %q as text: %q", hostile, events)
		}
		// The charts' tooltips list the names: as text too.
		if err := b.WaitJS(`window.rewind.chartsReady`, 20*time.Second); err != nil {
			t.Fatal(err)
		}
		var pt struct{ X, Y float64 }
		evalJS(t, b, `(() => { const d = document.getElementById('chart-gold'); d.scrollIntoView(); const c = echarts.getInstanceByDom(d); const r = d.getBoundingClientRect(); return {X: r.left + c.convertToPixel({xAxisIndex: 0}, 30), Y: r.top + r.height / 2}; })()`, &pt)
		if err := chromedp.Run(b.Ctx, chromedp.MouseEvent(input.MouseMoved, pt.X, pt.Y)); err != nil {
			t.Fatal(err)
		}
		if err := b.WaitJS(`[...document.querySelectorAll('#chart-gold div')].some(d => d.textContent.includes('alert(1)'))`, 5*time.Second); err != nil {
			t.Error("no tooltip with the names: ", err)
		}
		evalJS(t, b, `document.querySelectorAll('img').length`, &imgs)
		var tip string
		evalJS(t, b, `[...document.querySelectorAll('#chart-gold div')].map(d => d.textContent).find(s => s.includes('alert(1)')) || ''`, &tip)
		if imgs != 0 || !strings.Contains(tip, hostile) {
			t.Errorf("tooltip %q; %d images", tip, imgs)
		}
		b.Screenshot(t, "hostile.png")
		var summary string
		evalJS(t, b, `document.querySelector('[data-testid=summary]').textContent`, &summary)
		if !strings.Contains(summary, "winner") {
			t.Errorf("summary %q", summary)
		}
	})

	t.Run("upload", func(t *testing.T) {
		up := filepath.Join(t.TempDir(), "uploaded game.cfr")
		write(t, up, readFile(t, filepath.Join(testdata, "conformance", "c06.cfr")))
		bad := filepath.Join(t.TempDir(), "broken.cfr")
		write(t, bad, []byte(`[{"turn": 0, "cell`))
		if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`#library-rows tr`, chromedp.ByQuery),
			chromedp.SetUploadFiles(`#upload-input`, []string{bad}, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		if err := b.WaitJS(`document.getElementById('upload-status').className === 'bad'`, 20*time.Second); err != nil {
			t.Fatal(err)
		}
		var msg string
		evalJS(t, b, `document.getElementById('upload-status').textContent`, &msg)
		if !strings.Contains(msg, "broken.cfr is not a replay rewind can open") {
			t.Errorf("bad upload message %q", msg)
		}
		if err := chromedp.Run(b.Ctx, chromedp.SetUploadFiles(`#upload-input`, []string{up}, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		if err := b.WaitJS(`document.getElementById('upload-status').className === 'ok' && document.querySelector('#upload-status a')`, 20*time.Second); err != nil {
			t.Fatal(err)
		}
		if err := b.WaitJS(`document.querySelector('tr[data-id="uploaded_game.cfr"]')`, 10*time.Second); err != nil {
			t.Error("the uploaded replay is not listed: ", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "uploaded_game.cfr")); err != nil {
			t.Error(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "broken.cfr")); err == nil {
			t.Error("the broken upload was kept")
		}
		if err := chromedp.Run(b.Ctx, chromedp.Click(`#upload-status a`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		if err := b.WaitJS(`window.rewind && window.rewind.ready && window.rewind.frames() === 201`, 20*time.Second); err != nil {
			t.Error("the uploaded replay does not open: ", err)
		}
	})

	t.Run("export", func(t *testing.T) {
		rep, err := lib.Load("c03.rwd")
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "game.html")
		f, err := os.Create(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteHTML(context.Background(), f, rep, "c03.rwd"); err != nil {
			t.Fatal(err)
		}
		f.Close()
		// Off the previous page first: it may still be fetching ECharts,
		// which it loads after its first frame.
		if err := chromedp.Run(b.Ctx, chromedp.Navigate("about:blank")); err != nil {
			t.Fatal(err)
		}
		before := len(b.Requests())
		openReplay(t, b, "file://"+file+"#turn=250")
		if got := turnNow(t, b); got != 250 {
			t.Errorf("exported page at turn %d", got)
		}
		if err := b.WaitJS(`window.rewind.chartsReady && document.querySelectorAll('[data-chart] canvas').length >= 4`, 20*time.Second); err != nil {
			t.Error(err)
		}
		for _, u := range b.Requests()[before:] {
			if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
				t.Errorf("the exported page requested %s", u)
			}
		}
	})

	b.CheckRequests(t, base+"/", "file://", "data:")
	// The one error the test provokes: the deliberately broken upload's 422.
	b.CheckProblems(t, "422 (Unprocessable Entity) "+base+"/api/upload?name=broken.cfr")
}

// loadFile loads a replay file as the server does.
func loadFile(t *testing.T, path string) *Replay {
	t.Helper()
	rep, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestBrowserShortenedCommands: a round of more than MaxCommandsShown
// commands lists the first ones and says how many more there are and how
// many failed; the page's notice says why.
func TestBrowserShortenedCommands(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "flood.rwd"), flood(t, 5, 1000))
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{})
	b := browsertest.Start(t, 2*time.Minute)
	openReplay(t, b, base+"/replay/flood.rwd")
	evalJS(t, b, `window.rewind.seek(3), true`, nil)
	if err := chromedp.Run(b.Ctx, chromedp.Click(`#players tbody tr td.name`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	var panel struct {
		Head, More, Notice string
		Listed, Failed     int
	}
	evalJS(t, b, `(() => { const c = document.getElementById('commands'); const m = c.querySelector('[data-testid=shortened]'); const n = document.querySelector('[data-testid=notice]');
		return {Head: c.querySelector('h3').textContent, More: m ? m.textContent : '', Notice: n ? n.textContent : '',
			Listed: c.querySelectorAll('ol li').length, Failed: c.querySelectorAll('ol li.failed').length}; })()`, &panel)
	if !strings.Contains(panel.Head, "1000 commands in round 2 → 3") || panel.Listed != MaxCommandsShown || panel.Failed != MaxCommandsShown ||
		!strings.Contains(panel.More, "…and 800 more; 1000 of the 1000 failed") || !strings.Contains(panel.Notice, "lists the first 200") {
		t.Errorf("commands panel: %+v", panel)
	}
	b.Screenshot(t, "shortened.png")
	b.CheckProblems(t)
}
