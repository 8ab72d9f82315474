package viewer

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/browsertest"
)

// toyFileStream is a toy duel opened from a library file: the file says
// the topology ("hex-axial" or "square"); the stream owns the file.
type toyFileStream struct {
	*toyStream
	f *os.File
}

func (s *toyFileStream) Close() error { return s.f.Close() }

// openToyFile is an Options.OpenStream for toy files, which say
// "TOPOLOGY [SIZE [NAME...]]": a duel of 40 player-turns (60 with
// names) on SIZE×SIZE (5), by default with a hostile name for player 0.
func openToyFile(f *os.File) (engine.Stream, error) {
	b := make([]byte, 256)
	n, _ := f.Read(b)
	words := strings.Fields(string(b[:n]))
	if len(words) == 0 {
		return nil, fmt.Errorf("not a toy file")
	}
	topo := engine.Square
	switch words[0] {
	case "hex-axial":
		topo = engine.HexAxial
	case "square":
	default:
		return nil, fmt.Errorf("not a toy file")
	}
	size, turns, names := 5, 40, []string{hostileName, "bob"}
	if len(words) > 1 {
		fmt.Sscan(words[1], &size)
	}
	if len(words) > 3 {
		turns, names = 60, words[2:4]
	}
	return &toyFileStream{newToyStream(topo, size, size, turns, names...), f}, nil
}

// hostileName is a player name that would run script if it reached the
// page as HTML.
const hostileName = `<img src=x onerror="document.title='pwned'">`

// TestReplayPageBrowser drives the replay page in headless Chromium through
// the server's real routes: a file the library's own readers cannot read
// opens on it at /replay/ID (the diamond board) and at /game/ID (the
// square one). It checks the board draws every cell, every entity and
// the effects of the turn (an entity's disc in its owner's colour),
// #turn=N seeks, the keys step and hide the effects, a chart per metric
// with a line per player, every event listed and a click on one seeks,
// the player panel, the commands and the bot log of the turn, names stay
// text; no request leaves the server and no script error happens. The
// exported page (WriteReplayHTML) works from a file with no request.
func TestReplayPageBrowser(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "duel.rwd"), []byte("hex-axial\n"))
	write(t, filepath.Join(dir, "sq.rwd"), []byte("square\n"))
	write(t, filepath.Join(dir, "docs", "skirmish.rwd"), []byte("hex-axial 9 aurora basalt\n"))
	base := serveDir(t, dir, Options{OpenStream: openToyFile})
	b := browsertest.Start(t, 4*time.Minute)

	// frameState is what the packed frame holds and what the board drew.
	type frameState struct {
		Turn, Cells, Entities, WantEntities int
		Effects, WantEffects                []string
	}
	state := func() frameState {
		var s frameState
		b.Eval(t, `(() => { const r = window.rewind, f = r.packed().frames[r.turn()];
			return {Turn: r.turn(), Cells: r.drawn.cells, Entities: r.drawn.entities, WantEntities: (f.entities || []).length,
				Effects: r.drawn.effects, WantEffects: (f.effects || []).map(e => e.k + ':' + (e.n || ''))}; })()`, &s)
		return s
	}
	checkBoard := func(t *testing.T, want int) {
		t.Helper()
		s := state()
		if s.Cells != 25 || s.Entities != 2 || s.WantEntities != 2 || fmt.Sprint(s.Effects) != fmt.Sprint(s.WantEffects) || len(s.Effects) == 0 || s.Turn != want {
			t.Errorf("turn %d (want %d): drew %d cells, %d entities (frame: %d), effects %v (frame: %v)", s.Turn, want, s.Cells, s.Entities, s.WantEntities, s.Effects, s.WantEffects)
		}
	}

	t.Run("diamond", func(t *testing.T) {
		openReplay(t, b, base+"/replay/duel.rwd#turn=7")
		var topo, label string
		b.Eval(t, `window.rewind.packed().board.topology`, &topo)
		b.Eval(t, `document.getElementById('turn').textContent`, &label)
		if topo != "hex-axial" || label != "turn 7 / 40" {
			t.Fatalf("topology %q, label %q", topo, label)
		}
		checkBoard(t, 7)

		// (0, 0) is at the top of the diamond, X grows down-left, Y
		// down-right.
		var c00, c10, c01 []int
		b.Eval(t, `window.rewind.center(0, 0)`, &c00)
		b.Eval(t, `window.rewind.center(1, 0)`, &c10)
		b.Eval(t, `window.rewind.center(0, 1)`, &c01)
		if !(c10[0] < c00[0] && c10[1] > c00[1] && c01[0] > c00[0] && c01[1] > c00[1]) {
			t.Errorf("diamond: (0,0) at %v, (1,0) at %v, (0,1) at %v", c00, c10, c01)
		}

		// An entity's disc is its owner's colour (effects hidden with E,
		// so no shot crosses it).
		if err := chromedp.Run(b.Ctx, chromedp.KeyEvent("e")); err != nil {
			t.Fatal(err)
		}
		if s := state(); len(s.Effects) != 0 {
			t.Errorf("E: effects still drawn: %v", s.Effects)
		}
		var disc struct {
			Want string
			Got  []int
		}
		b.Eval(t, `(() => { const r = window.rewind, e = r.packed().frames[r.turn()].entities[1], c = r.center(e.x, e.y), d = devicePixelRatio || 1;
			const px = document.getElementById('board').getContext('2d').getImageData(c[0], c[1] + Math.round(r.radius() * 0.38 * d), 1, 1).data;
			return {Want: r.color(e.p), Got: [px[0], px[1], px[2]]}; })()`, &disc)
		if got := fmt.Sprintf("#%02x%02x%02x", disc.Got[0], disc.Got[1], disc.Got[2]); got != disc.Want {
			t.Errorf("entity disc %s, want %s", got, disc.Want)
		}
		if err := chromedp.Run(b.Ctx, chromedp.KeyEvent("e")); err != nil {
			t.Fatal(err)
		}

		// #turn=N seeks; the arrows step.
		b.Eval(t, `location.hash = '#turn=12', true`, nil)
		b.Wait(t, `window.rewind.turn() === 12`, 10*time.Second)
		checkBoard(t, 12)
		if err := chromedp.Run(b.Ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
		if got := turnNow(t, b); got != 13 {
			t.Errorf("→ from 12: turn %d", got)
		}
		if err := b.WaitJS(`location.hash === '#turn=13'`, 10*time.Second); err != nil {
			t.Error(err)
		}

		// The active player, the player panel, the commands and the log.
		var panel struct {
			Active, Rows, Players, Commands, Log string
			Failed                               int
		}
		b.Eval(t, `(() => ({Active: document.getElementById('active').textContent, Rows: String(document.querySelectorAll('#players tbody tr').length),
			Players: document.getElementById('players').textContent, Commands: document.getElementById('commands').textContent,
			Log: (document.querySelector('[data-testid=botlog]') || {}).textContent || '',
			Failed: document.querySelectorAll('#commands li.failed').length}))()`, &panel)
		var active int
		b.Eval(t, `window.rewind.packed().frames[13].active`, &active)
		who := []string{hostileName, "bob"}[active]
		if !strings.Contains(panel.Active, who+" acted this turn") || panel.Rows != "2" || !strings.Contains(panel.Players, hostileName) ||
			!strings.Contains(panel.Commands, "move ") || !strings.Contains(panel.Log, "turn 13: aiming at") {
			t.Errorf("turn 13 panels: %+v", panel)
		}
		// In a Sequential game the heading says who acted and to which
		// turn it replied.
		var head, hint string
		b.Eval(t, `[...document.querySelectorAll('#commands [data-testid=commands-head]')].map(e => e.textContent).join('|')`, &head)
		b.Eval(t, `(document.querySelector('#commands [data-testid=click-player]') || {}).textContent || ''`, &hint)
		var sent int
		b.Eval(t, `window.rewind.packed().frames[13].commands[window.rewind.packed().frames[13].active].length`, &sent)
		if want := fmt.Sprintf("%s acted this turn: %d command", who, sent); !strings.HasPrefix(head, want) || !strings.HasSuffix(head, " (its reply to turn 12)") ||
			hint != "Click a player to see only its commands and its bot log for this turn." {
			t.Errorf("turn 13: commands heading %q, want %q… (its reply to turn 12); hint %q", head, want, hint)
		}
		// Turn 6 has a command that fails (toyCommands: t%7 == 5 before it).
		b.Eval(t, `window.rewind.seek(6), true`, nil)
		b.Eval(t, `document.querySelectorAll('#commands li.failed').length`, &panel.Failed)
		b.Eval(t, `document.getElementById('commands').textContent`, &panel.Commands)
		if panel.Failed != 1 || !strings.Contains(panel.Commands, "unknown command") {
			t.Errorf("turn 6: %d failed commands, panel %q", panel.Failed, panel.Commands)
		}

		// Names are text.
		var imgs int
		var title string
		b.Eval(t, `document.querySelectorAll('img').length`, &imgs)
		b.Eval(t, `document.title`, &title)
		if imgs != 0 || title == "pwned" {
			t.Errorf("hostile name: %d img elements, title %q", imgs, title)
		}

		// Every event of the analysis is listed, the game's (those of the
		// frames) among them; a click seeks its turn.
		var ev struct{ Listed, Packed, Game, Turn int }
		b.Eval(t, `(() => { const P = window.rewind.packed(); let n = 0; P.frames.forEach(f => n += (f.events || []).length);
			const li = [...document.querySelectorAll('#events li.ev')].find(l => +l.dataset.turn > 20);
			li.click();
			return {Listed: document.querySelectorAll('#events li.ev').length, Packed: P.events.length, Game: n,
				Turn: +li.dataset.turn}; })()`, &ev)
		if ev.Listed != ev.Packed || ev.Game == 0 || ev.Packed <= ev.Game || turnNow(t, b) != ev.Turn {
			t.Errorf("events: %d listed of %d (the game's: %d); clicked turn %d, now %d", ev.Listed, ev.Packed, ev.Game, ev.Turn, turnNow(t, b))
		}
		// N goes to the next event.
		if err := chromedp.Run(b.Ctx, chromedp.KeyEvent("n")); err != nil {
			t.Fatal(err)
		}
		if got := turnNow(t, b); got <= ev.Turn {
			t.Errorf("N from %d: turn %d", ev.Turn, got)
		}

		// The events are marked under the scrubber: the turning points
		// and the events listed at first (one a kind and turn), in their
		// player's colour; a click on one seeks its turn, and a kind
		// unticked in the filter loses its marks.
		var marks struct {
			Marks, Want    []string
			Colors, Wanted []string
			X, Y           float64
			Turn           int
		}
		b.Eval(t, `(() => { const P = window.rewind.packed(), r = window.rewind, want = new Set(), wanted = [];
			P.events.forEach(e => { if ((e.turning || !e.later) && !want.has(e.kind + ' ' + e.turn)) { want.add(e.kind + ' ' + e.turn); wanted.push(e.p >= 0 ? r.color(e.p) : ''); } });
			const ms = [...document.querySelectorAll('[data-testid=marks] .mark')], m = ms.find(m => +m.dataset.turn > 2 && +m.dataset.turn !== r.turn()), b = m.getBoundingClientRect();
			const rgb = c => '#' + c.match(/\d+/g).slice(0, 3).map(n => (+n).toString(16).padStart(2, '0')).join('');
			return {Marks: ms.map(m => m.dataset.kind + ' ' + m.dataset.turn).sort(), Want: [...want].sort(),
				Colors: ms.filter(m => P.events.some(e => e.kind === m.dataset.kind && e.turn === +m.dataset.turn && e.p >= 0)).map(m => rgb(getComputedStyle(m).backgroundColor)).sort(),
				Wanted: wanted.filter(c => c).sort(), X: b.left + b.width / 2, Y: b.top + b.height / 2, Turn: +m.dataset.turn}; })()`, &marks)
		if len(marks.Marks) == 0 || fmt.Sprint(marks.Marks) != fmt.Sprint(marks.Want) || fmt.Sprint(marks.Colors) != fmt.Sprint(marks.Wanted) {
			t.Errorf("marks %v, want %v; colours %v, want %v", marks.Marks, marks.Want, marks.Colors, marks.Wanted)
		}
		if err := chromedp.Run(b.Ctx, chromedp.MouseClickXY(marks.X, marks.Y)); err != nil {
			t.Fatal(err)
		}
		if got := turnNow(t, b); got != marks.Turn {
			t.Errorf("click on the mark of turn %d: turn %d", marks.Turn, got)
		}
		var unticked struct {
			Kind         string
			Left, Others int
		}
		b.Eval(t, `(() => { const box = document.querySelector('#events .ev-filter input[data-kind=lead_change]') || document.querySelector('#events .ev-filter input'), k = box.dataset.kind;
			const others = document.querySelectorAll('[data-testid=marks] .mark:not([data-kind="' + k + '"])').length;
			box.checked = false; box.dispatchEvent(new Event('change'));
			const left = [...document.querySelectorAll('[data-testid=marks] .mark')].filter(m => m.dataset.kind === k && !window.rewind.packed().events.some(e => e.turning && e.kind === k && e.turn === +m.dataset.turn)).length;
			box.checked = true; box.dispatchEvent(new Event('change'));
			return {Kind: k, Left: left, Others: document.querySelectorAll('[data-testid=marks] .mark:not([data-kind="' + k + '"])').length - others}; })()`, &unticked)
		if unticked.Left != 0 || unticked.Others != 0 {
			t.Errorf("kind %s unticked: %d of its marks left (besides turning points), the others' changed by %d", unticked.Kind, unticked.Left, unticked.Others)
		}

		// X and Shift+X step to the turns with a rejected command, of
		// anyone, then of the selected player; E still hides the effects.
		var help string
		b.Eval(t, `document.getElementById('help').textContent`, &help)
		if !strings.Contains(help, "next / previous turn with a rejected command") {
			t.Errorf("help: %q", help)
		}
		key := func(t *testing.T, k string) int {
			t.Helper()
			if err := chromedp.Run(b.Ctx, chromedp.KeyEvent(k)); err != nil {
				t.Fatal(err)
			}
			return turnNow(t, b)
		}
		for _, pl := range []int{-1, 1} {
			var want []int
			b.Eval(t, fmt.Sprintf(`window.rewind.packed().frames.map((f, t) => (f.errors || []).some(e => e.i >= 0 && (%[1]d < 0 || e.p === %[1]d)) ? t : -1).filter(t => t >= 0)`, pl), &want)
			if len(want) < 3 {
				t.Fatalf("player %d: %d turns with a rejected command", pl, len(want))
			}
			b.Eval(t, fmt.Sprintf(`(window.rewind.seek(0), window.rewind.select(%d), true)`, pl), nil)
			for _, w := range want[:3] {
				if got := key(t, "x"); got != w {
					t.Errorf("player %d: X to turn %d, want %d", pl, got, w)
				}
			}
			if got := key(t, "X"); got != want[1] {
				t.Errorf("player %d: Shift+X to turn %d, want %d", pl, got, want[1])
			}
		}
		b.Eval(t, `(window.rewind.select(-1), true)`, nil)
		var on bool
		key(t, "e")
		b.Eval(t, `document.getElementById('show-effects').checked`, &on)
		key(t, "e")
		if on {
			t.Error("E no longer hides the effects")
		}

		// A chart per metric, a line per player.
		b.Wait(t, `window.rewind.chartsReady`, time.Minute)
		var charts []struct {
			Metric string
			Canvas bool
			Lines  int
		}
		b.Eval(t, `[...document.querySelectorAll('[data-testid=chart]')].map(d => ({Metric: d.dataset.metric, Canvas: !!d.querySelector('canvas'),
			Lines: echarts.getInstanceByDom(d).getOption().series.length}))`, &charts)
		if len(charts) != 2 || charts[0].Metric != "health" || charts[1].Metric != "shots" || !charts[0].Canvas || charts[0].Lines != 2 || charts[1].Lines != 2 {
			t.Errorf("charts: %+v", charts)
		}
		if os.Getenv("REWIND_SCREENSHOTS_DOCS") != "" {
			docsScreenshot(t, b, base+"/replay/docs/skirmish.rwd#turn=27", filepath.Join("..", "..", "docs", "viewer-replay.png"))
		}
	})

	t.Run("square", func(t *testing.T) {
		openReplay(t, b, base+"/game/sq.rwd#turn=5")
		var topo string
		b.Eval(t, `window.rewind.packed().board.topology`, &topo)
		if topo != "square" {
			t.Fatalf("topology %q", topo)
		}
		checkBoard(t, 5)
		if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/game/missing.rwd")); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("export", func(t *testing.T) {
		p, err := PackStream(newToyStream(engine.HexAxial, 5, 5, 40, "ann", "bob"), StreamLimits{})
		if err != nil {
			t.Fatal(err)
		}
		var page bytes.Buffer
		if err := WriteReplayHTML(context.Background(), &page, p, "duel.rwd"); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "duel.html")
		write(t, file, page.Bytes())
		openReplay(t, b, "file://"+file+"#turn=9")
		checkBoard(t, 9)
		b.Wait(t, `window.rewind.chartsReady`, time.Minute)
	})

	b.CheckRequests(t, base+"/", "file://")
	b.CheckProblems(t, base+"/game/missing.rwd")
}

// docsScreenshot saves the whole page at url, 1600 px wide with the
// charts drawn, as out (docs/viewer-replay.png; REWIND_SCREENSHOTS_DOCS=1).
func docsScreenshot(t *testing.T, b *browsertest.Browser, url, out string) {
	if err := chromedp.Run(b.Ctx, chromedp.EmulateViewport(1600, 1000), chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	openReplay(t, b, url)
	b.Wait(t, `window.rewind.chartsReady`, time.Minute)
	png := b.CaptureTop(t, true)
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes", out, len(png))
}
