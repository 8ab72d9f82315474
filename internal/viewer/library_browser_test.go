package viewer

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestBrowserLibrary drives a library in headless Chromium as a user
// does: the list (every replay, the official one's winner and rounds,
// a file that is no replay said so), its filter and sort; an upload
// from the page (a broken file refused with the reason and not kept, a
// .cfr kept, listed and opened on its page); the real tournament replay
// (when present), played, paused and read: the ranking at its end, the
// winner's inferred commands of turn 250 in words, the turning points
// above the events. No console error, no request leaving the server.
func TestBrowserLibrary(t *testing.T) {
	dir, base := fixtureServer(t, Options{MaxUpload: 4 << 20})
	b := browsertest.Start(t, 4*time.Minute)

	t.Run("library", func(t *testing.T) {
		if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`#library-rows tr`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		var ids []string
		b.Eval(t, `[...document.querySelectorAll('#library-rows tr')].map(r => r.dataset.id)`, &ids)
		for _, want := range []string{"c03.rwd", "hostile.rwd", "sub/c04.cfr", "cut.rwd", "junk.cfr"} {
			if !slices.Contains(ids, want) {
				t.Errorf("library lists %v, missing %s", ids, want)
			}
		}
		var row struct{ Winner, Rounds string }
		b.Eval(t, `(() => { const r = document.querySelector('tr[data-id="sub/c04.cfr"]'); return {Winner: r.cells[2].textContent, Rounds: r.cells[3].textContent}; })()`, &row)
		if !strings.Contains(row.Winner, "bot4_greedy") || !strings.Contains(row.Winner, "591533") || row.Rounds != "500" {
			t.Errorf("official replay's row: %+v", row)
		}
		var status string
		b.Eval(t, `document.querySelector('tr[data-id="junk.cfr"] .status').textContent`, &status)
		if !strings.Contains(status, "cannot be opened") {
			t.Errorf("junk.cfr status %q", status)
		}
		var shown []string
		if err := chromedp.Run(b.Ctx, chromedp.SendKeys(`#filter`, "c04", chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		b.Eval(t, `[...document.querySelectorAll('#library-rows tr')].filter(r => !r.hidden).map(r => r.dataset.id)`, &shown)
		if !slices.Equal(shown, []string{"sub/c04.cfr"}) {
			t.Errorf("filter 'c04' shows %v", shown)
		}
		if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`(() => { const f = document.getElementById('filter'); f.value = ''; f.dispatchEvent(new Event('input')); return true; })()`, nil),
			chromedp.Click(`th[data-sort="rounds"]`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		var rounds []string
		b.Eval(t, `[...document.querySelectorAll('#library-rows tr')].filter(r => !r.hidden).map(r => r.dataset.rounds)`, &rounds)
		if len(rounds) != 5 || rounds[0] != "500" || rounds[4] != "0" {
			t.Errorf("sorted by rounds (descending): %v", rounds)
		}
	})

	t.Run("upload", func(t *testing.T) {
		up := filepath.Join(t.TempDir(), "uploaded game.cfr")
		write(t, up, testutil.ReadFile(t, filepath.Join(testdata, "conformance", "c06.cfr")))
		bad := filepath.Join(t.TempDir(), "broken.cfr")
		write(t, bad, []byte(`[{"turn": 0, "cell`))
		if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`#library-rows tr`, chromedp.ByQuery),
			chromedp.SetUploadFiles(`#upload-input`, []string{bad}, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		b.Wait(t, `document.getElementById('upload-status').className === 'bad'`, 20*time.Second)
		var msg string
		b.Eval(t, `document.getElementById('upload-status').textContent`, &msg)
		if !strings.Contains(msg, "broken.cfr is not a replay rewind can open: cfr: frame 0: unexpected EOF") {
			t.Errorf("bad upload message %q", msg)
		}
		if err := chromedp.Run(b.Ctx, chromedp.SetUploadFiles(`#upload-input`, []string{up}, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		b.Wait(t, `document.getElementById('upload-status').className === 'ok' && document.querySelector('#upload-status a')`, 30*time.Second)
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
		if err := b.WaitJS(`window.rewind && window.rewind.ready && window.rewind.frames() === 201`, 30*time.Second); err != nil {
			t.Error("the uploaded replay does not open: ", err)
		}
	})

	t.Run("realworld", func(t *testing.T) {
		write(t, filepath.Join(dir, "sub", "RuntimeTerrorsVictory.cfr"), testutil.ReadFile(t, testutil.RealWorld(t, "RuntimeTerrorsVictory.cfr")))
		openReplay(t, b, base+"/replay/sub/RuntimeTerrorsVictory.cfr")
		var frames int
		b.Eval(t, `window.rewind.frames()`, &frames)
		if frames != 501 {
			t.Errorf("%d frames", frames)
		}
		var h0, h1 uint32
		b.Eval(t, boardHash, &h0)
		// Play at 1× (10 turns a second: the 500 turns last 50 s, so even
		// a loaded machine presses Space long before the end).
		if err := chromedp.Run(b.Ctx, chromedp.SetValue(`#speed`, "1", chromedp.ByQuery), chromedp.Evaluate(`document.getElementById('speed').dispatchEvent(new Event('change')), true`, nil),
			chromedp.Click(`#play`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		b.Wait(t, `window.rewind.turn() >= 3`, 60*time.Second)
		chromedp.Run(b.Ctx, chromedp.KeyEvent(" "))
		t1 := turnNow(t, b)
		b.Eval(t, boardHash, &h1)
		if h0 == h1 {
			t.Error("the board did not change while playing")
		}
		// Paused: the turn stays.
		if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`new Promise(r => setTimeout(() => r(true), 500))`, nil, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) })); err != nil {
			t.Fatal(err)
		}
		if t2 := turnNow(t, b); t2 != t1 {
			t.Errorf("Space did not pause: turn %d, then %d", t1, t2)
		}
		b.Eval(t, `window.rewind.seek(500), true`, nil)
		var first string
		b.Eval(t, `[...document.querySelectorAll('#players tbody tr')].find(tr => tr.cells[0].textContent === '1').querySelector('td.name').textContent`, &first)
		if !strings.Contains(first, "RuntimeTerrors") {
			t.Errorf("ranked first at turn 500: %q", first)
		}

		// The winner's commands of turn 250: inferred, said so, in words.
		b.Eval(t, `window.rewind.seek(250), true`, nil)
		var clicked bool
		b.Eval(t, `(() => { const r = [...document.querySelectorAll('#players tbody tr')].find(tr => tr.querySelector('td.name').textContent.includes('RuntimeTerrors')); if (r) r.click(); return !!r; })()`, &clicked)
		if !clicked {
			t.Fatal("no RuntimeTerrors row in the player table")
		}
		var panel struct {
			Head, Note string
			Commands   []string
			Words      []string
		}
		b.Eval(t, `(() => { const c = document.getElementById('commands'); const n = c.querySelector('[data-testid=inferred]'), h = c.querySelector('[data-testid=commands-head]');
			return {Head: h ? h.textContent : '', Note: n ? n.textContent : '',
				Commands: [...c.querySelectorAll('ol li .cmd')].map(e => e.getAttribute('data-raw') || e.textContent), Words: [...c.querySelectorAll('ol li .cmd')].map(e => e.textContent)}; })()`, &panel)
		if !strings.Contains(panel.Head, "RuntimeTerrors") || !strings.Contains(panel.Head, "in round 249 → 250 (its reply to turn 249)") ||
			panel.Note != "commands inferred from the replay (docs/import.md)" || len(panel.Commands) == 0 {
			t.Errorf("commands panel: %+v", panel)
		}
		for i, c := range panel.Commands {
			f := strings.Fields(c)
			want := map[string]string{"a": "attack (", "b": "build ", "u": "upgrade ("}[f[0]]
			if w := panel.Words[i]; want == "" || !strings.HasPrefix(w, want) || !strings.Contains(w, "("+f[1]+", "+f[2]+")") {
				t.Errorf("command %q is worded %q", c, w)
			}
		}

		// The turning points come first in the events panel: Skynet's
		// surges at 360–363 and the lead swing at 367, with what each
		// side did, before any lead change.
		var tp struct {
			Texts         []string
			Explain       string
			BeforeAnyLead bool
		}
		b.Eval(t, `(() => { const box = document.querySelector('#events [data-testid=turning-points]'); const lead = document.querySelector('#events li.ev-lead_change');
			const sw = box ? [...box.querySelectorAll('li.tp-lead_swing')].find(li => li.dataset.turn === '367') : null;
			return {Texts: box ? [...box.querySelectorAll('li.tp .ev-text')].map(e => e.textContent) : [], Explain: sw && sw.querySelector('.tp-explain') ? sw.querySelector('.tp-explain').textContent : '',
				BeforeAnyLead: !!box && (!lead || !!(box.compareDocumentPosition(lead) & Node.DOCUMENT_POSITION_FOLLOWING))}; })()`, &tp)
		joined := strings.Join(tp.Texts, "\n")
		for _, w := range []string{"Skynet surges: 155095 energy on attacks in turns 360–361", "Skynet surges: 83200 gold on buildings and upgrades in turns 361–363",
			"lead swing: RuntimeTerrors gains 123424 gold on Skynet in 10 rounds"} {
			if !strings.Contains(joined, w) {
				t.Errorf("turning points lack %q:\n%s", w, joined)
			}
		}
		if !strings.Contains(tp.Explain, "At turn 367 RuntimeTerrors (202308 gold) takes the lead from Skynet") || !tp.BeforeAnyLead {
			t.Errorf("turning points: %+v", tp)
		}
	})
	b.CheckRequests(t, base)
	b.CheckProblems(t, "422 (Unprocessable Entity) "+base+"/api/upload?name=broken.cfr")
}
