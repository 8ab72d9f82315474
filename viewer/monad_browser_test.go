package viewer

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/replay/source"
)

// monadHostile is a player name that would run script if it reached the
// page as HTML.
const monadHostile = `<img src=x onerror="document.title='pwned'">`

// TestMonadBrowser drives the Monad page in headless Chromium: the
// library lists the game as Monad; #turn=N opens on turn N; the hex
// board's pixels change when seeking and a hive is drawn in its owner's
// colour; the chart has one series per player for every series of the
// analysis; the arrow keys step after the chart picker was used; Space
// plays and pauses; the address follows the turn; names stay text; no
// request leaves the server and no script error happens.
func TestMonadBrowser(t *testing.T) {
	dir := t.TempDir()
	names := []string{monadHostile, "miner", "rusher"}
	data := monadRecording(t, 7, 80, names, monadBots)
	if err := os.WriteFile(filepath.Join(dir, "m.rwd"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{})
	b := browsertest.Start(t, 4*time.Minute)

	t.Run("library", func(t *testing.T) {
		if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`#library-rows tr`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		var game, rounds, players string
		evalJS(t, b, `document.querySelector('tr[data-id="m.rwd"] [data-testid=game]').textContent`, &game)
		evalJS(t, b, `document.querySelector('tr[data-id="m.rwd"]').dataset.rounds`, &rounds)
		evalJS(t, b, `document.querySelector('tr[data-id="m.rwd"] td.players').textContent`, &players)
		if game != "Monad" || rounds != "80" || !strings.Contains(players, monadHostile) {
			t.Errorf("library row: game %q, rounds %q, players %q", game, rounds, players)
		}
	})

	t.Run("replay", func(t *testing.T) {
		openReplay(t, b, base+"/replay/m.rwd#turn=40")
		var label string
		var frames, scrub int
		evalJS(t, b, `window.rewind.frames()`, &frames)
		evalJS(t, b, `document.getElementById('turn').textContent`, &label)
		evalJS(t, b, `+document.getElementById('scrubber').value`, &scrub)
		if got := turnNow(t, b); got != 40 || label != "turn 40 / 80" || scrub != 40 || frames != 81 {
			t.Fatalf("#turn=40: turn %d, label %q, slider %d, %d frames", got, label, scrub, frames)
		}
		var h40, h1, again uint32
		evalJS(t, b, boardHash, &h40)
		evalJS(t, b, `(() => { const s = document.getElementById('scrubber'); s.value = 1; s.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, nil)
		evalJS(t, b, boardHash, &h1)
		if turnNow(t, b) != 1 || h1 == h40 {
			t.Errorf("slider to 1: turn %d, board hash %x (turn 40: %x)", turnNow(t, b), h1, h40)
		}
		evalJS(t, b, `window.rewind.seek(40), true`, nil)
		evalJS(t, b, boardHash, &again)
		if again != h40 {
			t.Errorf("back at turn 40 the board differs: %x, first %x", again, h40)
		}
		if err := b.WaitJS(`location.hash === '#turn=40'`, 30*time.Second); err != nil {
			t.Errorf("address after seeking to 40: %v", err)
		}

		// A hive's mark is its owner's colour (moves hidden, so no arrow
		// crosses it).
		var hive struct {
			X, Y, Owner int
			Want        string
			Got         []int
		}
		evalJS(t, b, `(() => {
			const r = window.rewind; document.getElementById('show-moves').click();
			for (let y = 0; y < 20; y++) for (let x = 0; x < 20; x++) {
				const h = r.hive(40, x, y);
				if (h < 0) continue;
				const p = r.hivePoint(x, y), d = document.getElementById('board').getContext('2d').getImageData(p[0], p[1], 1, 1).data;
				document.getElementById('show-moves').click();
				return {X: x, Y: y, Owner: h, Want: r.color(h), Got: [d[0], d[1], d[2]]};
			}
			return {X: -1};
		})()`, &hive)
		if hive.X < 0 {
			t.Fatal("no hive at turn 40")
		}
		if got := fmt.Sprintf("#%02x%02x%02x", hive.Got[0], hive.Got[1], hive.Got[2]); got != hive.Want {
			t.Errorf("hive of player %d at (%d, %d): pixel %s, want %s", hive.Owner, hive.X, hive.Y, got, hive.Want)
		}

		// Names are text.
		var imgs int
		var names, title string
		evalJS(t, b, `document.querySelectorAll('#monad img').length`, &imgs)
		evalJS(t, b, `document.getElementById('players').textContent`, &names)
		evalJS(t, b, `document.title`, &title)
		if imgs != 0 || !strings.Contains(names, monadHostile) || title == "pwned" {
			t.Errorf("hostile name: %d img elements, panel %q, title %q", imgs, names, title)
		}
		var moves int
		evalJS(t, b, `document.querySelectorAll('#moves li').length`, &moves)
		if moves == 0 {
			t.Error("turn 40 lists no moves")
		}
		// Moves are worded, their short protocol form on hover.
		var words []struct{ Text, Title string }
		evalJS(t, b, `[...document.querySelectorAll('#moves li .cmd')].map(e => ({Text: e.textContent, Title: e.title}))`, &words)
		wordRe := regexp.MustCompile(`^(move \d+ units? from \(\d+, \d+\) to \(-?\d+, -?\d+\)|build a hive at \(\d+, \d+\)|mine \(\d+, \d+\) with \d+ units?|unknown command at \(\d+, \d+\))$`)
		for _, w := range words {
			if !wordRe.MatchString(w.Text) || !regexp.MustCompile(`^(MOVE|BUILD|MINE|\?) \(`).MatchString(w.Title) {
				t.Errorf("move worded %q, hover %q", w.Text, w.Title)
			}
		}

		// The events are the analysis's, in its words; lead changes are
		// filtered out at first; a click goes to the event's turn.
		src, err := source.NewMonad(bytes.NewReader(data), nil)
		if err != nil {
			t.Fatal(err)
		}
		a, err := analysis.AnalyzeMonad(src)
		src.Close()
		if err != nil {
			t.Fatal(err)
		}
		var ev struct {
			All, Lead, Turn int
			Text, Kind      string
		}
		evalJS(t, b, `(() => {
			const li = [...document.querySelectorAll('#events li.ev')], vis = li.filter(l => !l.hidden && l.dataset.kind !== 'lead_change');
			const first = vis[0];
			first.click();
			return {All: li.length, Lead: li.filter(l => l.dataset.kind === 'lead_change' && !l.hidden).length, Turn: +first.dataset.turn, Kind: first.dataset.kind, Text: first.textContent};
		})()`, &ev)
		var want *analysis.MonadEvent
		for i := range a.Events {
			if a.Events[i].Kind != analysis.EventLeadChange {
				want = &a.Events[i]
				break
			}
		}
		if ev.All != len(a.Events) || ev.Lead != 0 || want == nil || ev.Kind != want.Kind || ev.Text != fmt.Sprint(want.Turn)+want.Text(a.Name) || turnNow(t, b) != want.Turn {
			t.Errorf("events: page %+v at turn %d; analysis has %d events, first shown %+v", ev, turnNow(t, b), len(a.Events), want)
		}
	})

	t.Run("charts", func(t *testing.T) {
		if err := b.WaitJS(`window.rewind.chartsReady`, 60*time.Second); err != nil {
			t.Fatal(err)
		}
		var series []string
		evalJS(t, b, `window.rewind.seriesNames()`, &series)
		if len(series) == 0 {
			t.Fatal("no series to chart")
		}
		for _, s := range series {
			var st struct {
				Names   []string
				Lengths []int
			}
			evalJS(t, b, fmt.Sprintf(`window.rewind.pickSeries(%q), window.rewind.chartState()`, s), &st)
			if len(st.Names) != 3 || len(slices.Compact(slices.Sorted(slices.Values(st.Names)))) != 3 {
				t.Errorf("series %s: chart lines %v, want one per player", s, st.Names)
			}
			for _, n := range st.Lengths {
				if n != 80 {
					t.Errorf("series %s: a line of %d points, want 80", s, n)
				}
			}
		}
	})

	t.Run("keys", func(t *testing.T) {
		evalJS(t, b, `window.rewind.seek(10), true`, nil)
		// The chart picker used from the keyboard keeps its focus; the
		// arrows still step the turn, not the picker.
		var before, after string
		if err := chromedp.Run(b.Ctx, chromedp.Focus(`#stat`, chromedp.ByID)); err != nil {
			t.Fatal(err)
		}
		evalJS(t, b, `document.getElementById('stat').value`, &before)
		for i, k := range []struct {
			key  string
			want int
		}{{kb.ArrowRight, 11}, {kb.ArrowRight, 12}, {kb.ArrowLeft, 11}, {kb.End, 80}, {kb.Home, 0}, {kb.ArrowUp, 10}} {
			if err := chromedp.Run(b.Ctx, chromedp.KeyEvent(k.key)); err != nil {
				t.Fatal(err)
			}
			if got := turnNow(t, b); got != k.want {
				t.Fatalf("key %d (%q): turn %d, want %d", i, k.key, got, k.want)
			}
		}
		evalJS(t, b, `document.getElementById('stat').value`, &after)
		if after != before {
			t.Errorf("the arrows changed the picker from %q to %q", before, after)
		}
		var playing bool
		chromedp.Run(b.Ctx, chromedp.KeyEvent(" "))
		evalJS(t, b, `window.rewind.playing()`, &playing)
		if !playing {
			t.Error("Space did not start playing")
		}
		chromedp.Run(b.Ctx, chromedp.KeyEvent(" "))
		evalJS(t, b, `window.rewind.playing()`, &playing)
		if playing {
			t.Error("Space did not pause")
		}
		now := turnNow(t, b)
		if err := b.WaitJS(fmt.Sprintf(`location.hash === '#turn=%d'`, now), 30*time.Second); err != nil {
			t.Errorf("address after playing to %d: %v", now, err)
		}
		b.Screenshot(t, "monad.png")
	})

	b.CheckRequests(t, base)
	b.CheckProblems(t)
}
