package skyport_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestSkyportViewThroughCLI is a Skyport bot author's path: `rewind play
// --game skyport` (the four built-in bots on a seeded map, then on the
// shared 4-players-tricky map) and `rewind view` in Chromium, where
// static/skyport.js draws the board (checkSkyportPage).
func TestSkyportViewThroughCLI(t *testing.T) {
	dir := t.TempDir()
	seeded := filepath.Join(dir, "sky.rwd")
	if out, code := clitest.Run(t, "play", "--game", "skyport", "--seed", "3", "--turns", "160", "-o", seeded); code != 0 {
		t.Fatalf("play --game skyport: status %d\n%s", code, out)
	}
	b := browsertest.Start(t, 4*time.Minute)
	// GenerateMap: D = max(10, players+9).
	url := clitest.ViewPage(t, seeded)
	bases := []string{checkSkyportPage(t, b, url, 13, 4)}
	if os.Getenv("REWIND_SCREENSHOTS_DOCS") != "" {
		root, err := testutil.ModuleRoot()
		if err != nil {
			t.Fatal(err)
		}
		skyportScreenshot(t, b, url+"#turn=70", filepath.Join(root, "docs", "viewer-skyport.png"))
	}

	t.Run("tricky map", func(t *testing.T) {
		m := filepath.Join(testutil.Shared(t, "skyport", "s01.input.json"), "maps", "4-players-tricky.skyportmap")
		tricky := filepath.Join(dir, "tricky.rwd")
		if out, code := clitest.Run(t, "play", "--game", "skyport", "--map", m, "--seed", "5", "--turns", "200", "-o", tricky); code != 0 {
			t.Fatalf("play --map: status %d\n%s", code, out)
		}
		bases = append(bases, checkSkyportPage(t, b, clitest.ViewPage(t, tricky), 20, 4))
	})
	// Nothing but the pages' own servers (the page, its data, /static/).
	b.CheckRequests(t, bases...)
	b.CheckProblems(t)
}

// skyportScreenshot saves the page at url (seed 3's turn 70: the
// hunter walks two steps and its droid hits the miner) as out, 1600×1000
// (docs/viewer-skyport.png; REWIND_SCREENSHOTS_DOCS=1).
func skyportScreenshot(t *testing.T, b *browsertest.Browser, url, out string) {
	t.Helper()
	if err := chromedp.Run(b.Ctx, chromedp.EmulateViewport(1600, 1000), chromedp.Navigate("about:blank"), chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	b.Wait(t, `window.rewind && window.rewind.ready && window.rewind.chartsReady`, time.Minute)
	png := b.CaptureTop(t, false)
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes", out, len(png))
}

// skyShown is what the packed frame of the turn shown holds and what
// the board drew.
type skyShown struct {
	Turn, Cells, Entities, WantEntities, Active int
	Effects, WantEffects, Overlay               []string
	ActiveText                                  string
}

func skyState(t *testing.T, b *browsertest.Browser) skyShown {
	t.Helper()
	var s skyShown
	b.Eval(t, `(() => { const r = window.rewind, f = r.packed().frames[r.turn()];
		return {Turn: r.turn(), Cells: r.drawn.cells, Entities: r.drawn.entities, WantEntities: (f.entities || []).length, Active: f.active,
			Effects: r.drawn.effects, WantEffects: (f.effects || []).map(e => e.k + ':' + (e.n || '')), Overlay: r.drawn.overlay || [],
			ActiveText: document.getElementById('active').textContent}; })()`, &s)
	return s
}

// skySeek seeks turn n through the address (#turn=N) and waits for it.
func skySeek(t *testing.T, b *browsertest.Browser, n int) skyShown {
	t.Helper()
	b.Eval(t, fmt.Sprintf(`location.hash = '#turn=%d', true`, n), nil)
	if err := b.WaitJS(fmt.Sprintf(`window.rewind.turn() === %d`, n), time.Minute); err != nil {
		t.Fatalf("#turn=%d: %v", n, err)
	}
	return skyState(t, b)
}

// checkSkyportPage opens url (a Skyport replay of players players on a
// D×D map) and checks, at the turns the packed frames pick: the page is
// ready without error and loaded skyport.js; every cell of the diamond
// is drawn ((0, 0) on top, (D-1, D-1) at the bottom) on a hex-axial
// board; one entity per player; at a turn where the active player fired
// a laser, a mortar, a droid, the board draws that turn's effects (the
// beam, the impact area, the droid's path and its blast, the damage
// marks) and names the player who acted; a kill turn draws the kill
// and the body, a respawn turn the respawn, a turn of moves the trail;
// #turn=N seeks; a chart per metric; every event listed and a click on
// one seeks. It returns the server's address ("http://host:port/").
func checkSkyportPage(t *testing.T, b *browsertest.Browser, url string, D, players int) string {
	t.Helper()
	// Open at a mid-game turn through the address.
	if err := chromedp.Run(b.Ctx, chromedp.Navigate(url+"#turn=20")); err != nil {
		t.Fatal(err)
	}
	b.Wait(t, `window.rewind && (window.rewind.ready || window.rewind.error)`, 2*time.Minute)
	var page struct {
		Error, Game, Topology, Legend string
		Width, Height, Frame0, Turn   int
		Painter                       bool
		Centers                       [][]int
	}
	b.Eval(t, fmt.Sprintf(`(() => { const r = window.rewind, P = r.packed(), D = %d;
		return {Error: r.error || '', Game: P.game, Topology: P.board.topology, Width: P.board.width, Height: P.board.height,
			Frame0: P.frames[0].cells.length / 4, Turn: r.turn(), Painter: !!(window.rewind && rewind.boards.skyport),
			Legend: document.getElementById('legend').textContent,
			Centers: [r.center(0, 0), r.center(D - 1, D - 1), r.center(D - 1, 0), r.center(0, D - 1)]}; })()`, D), &page)
	if page.Error != "" || page.Game != "skyport" || !page.Painter {
		t.Fatalf("%s: error %q, game %q, skyport painter registered: %v", url, page.Error, page.Game, page.Painter)
	}
	if page.Topology != "hex-axial" || page.Width != D || page.Height != D || page.Frame0 != D*D || page.Turn != 20 {
		t.Errorf("board %s %d×%d with %d cells at turn %d, want hex-axial %d×%d, turn 20", page.Topology, page.Width, page.Height, page.Frame0, page.Turn, D, D)
	}
	// A diamond: (0, 0) on top, (D-1, D-1) at the bottom, (D-1, 0) left,
	// (0, D-1) right, top and bottom on one vertical, left and right on
	// one horizontal.
	if c := page.Centers; len(c) != 4 || !(c[0][1] < c[2][1] && c[2][1] < c[1][1] && c[2][0] < c[0][0] && c[0][0] < c[3][0] &&
		max(c[0][0]-c[1][0], c[1][0]-c[0][0]) <= 1 && max(c[2][1]-c[3][1], c[3][1]-c[2][1]) <= 1) {
		t.Errorf("not a diamond: top %v, bottom %v, left %v, right %v", c[0], c[1], c[2], c[3])
	}
	for _, w := range []string{"grass", "void", "rock", "spawn", "rubidium", "explosium", "scrap", "laser", "mortar", "droid"} {
		if !strings.Contains(page.Legend, w) {
			t.Errorf("the legend does not say %q: %q", w, page.Legend)
		}
	}
	s := skyState(t, b)
	if s.Cells != D*D || s.Entities != players || s.WantEntities != players {
		t.Errorf("turn 20: %d cells, %d entities drawn (frame: %d), want %d and %d", s.Cells, s.Entities, s.WantEntities, D*D, players)
	}

	// The turns to look at, from the packed frames: the first turn where
	// the active player fired each weapon, killed, respawned, moved.
	var pick map[string]int
	b.Eval(t, `(() => { const P = window.rewind.packed(), out = {};
		const at = (f, p) => (f.entities || []).find(e => e.p === p);
		P.frames.forEach((f, t) => {
			const first = k => { if (!(k in out)) out[k] = t; };
			(f.effects || []).forEach(e => { if (e.p === f.active && ['laser', 'mortar', 'droid'].includes(e.n)) first(e.n); });
			(f.events || []).forEach(e => { if (e.n === 'kill' || e.n === 'respawn') first(e.n); });
			if (t > 0 && f.active >= 0) {
				const a = at(P.frames[t - 1], f.active), b = at(f, f.active);
				if (a && b && a.h > 0 && (a.x !== b.x || a.y !== b.y) && !(f.events || []).some(e => e.n === 'respawn')) first('move');
			}
			const ents = f.entities || [], ps = new Set(ents.map(e => e.p));
			if (ents.length !== P.players.length || ps.size !== P.players.length) out.bad = t;
		});
		return out; })()`, &pick)
	if bad, ok := pick["bad"]; ok {
		t.Errorf("frame %d has not one player entity per player", bad)
	}
	for _, k := range []string{"laser", "mortar", "droid", "kill", "respawn", "move"} {
		if _, ok := pick[k]; !ok {
			t.Errorf("no turn with a %s in %s (picked %v)", k, url, pick)
		}
	}
	var names []string
	b.Eval(t, `window.rewind.packed().players.map(p => p.name)`, &names)
	keys := make([]string, 0, len(pick))
	for k := range pick {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		n := pick[k]
		s := skySeek(t, b, n)
		effects := strings.Join(s.Effects, " ")
		if s.Cells != D*D || s.Entities != players || strings.Join(s.Effects, ",") != strings.Join(s.WantEffects, ",") {
			t.Errorf("%s turn %d: %d cells, %d entities, effects %v (frame: %v)", k, n, s.Cells, s.Entities, s.Effects, s.WantEffects)
		}
		if s.Active < 0 || s.Active >= len(names) || !strings.Contains(s.ActiveText, names[s.Active]+" acted this turn") {
			t.Errorf("%s turn %d: active %d, bar %q", k, n, s.Active, s.ActiveText)
		}
		var want []string
		switch k {
		case "laser":
			want = []string{"line:laser"}
		case "mortar":
			if !strings.Contains(effects, "area:mortar_dud") {
				want = []string{"area:mortar"}
			}
		case "droid":
			want = []string{"path:droid", "area:droid_blast"}
		}
		for _, w := range want {
			if !strings.Contains(effects, w) {
				t.Errorf("%s turn %d: %q not drawn (drew %v)", k, n, w, s.Effects)
			}
		}
		// A hit is a damage mark.
		var hits int
		b.Eval(t, fmt.Sprintf(`(window.rewind.packed().frames[%d].events || []).filter(e => e.n === 'hit').length`, n), &hits)
		if got := strings.Count(effects, "mark:damage"); got != hits {
			t.Errorf("%s turn %d: %d damage marks drawn for %d hits", k, n, got, hits)
		}
		overlay := strings.Join(s.Overlay, " ")
		switch k {
		case "kill":
			var bodies int
			b.Eval(t, fmt.Sprintf(`(() => { const f = window.rewind.packed().frames[%d];
				return (f.events || []).filter(e => e.n === 'kill').filter(e => (f.entities || []).some(x => x.p === e.o && x.h === 0 && / \(dead\)$/.test(x.l))).length; })()`, n), &bodies)
			if !strings.Contains(overlay, "kill") || bodies == 0 {
				t.Errorf("kill turn %d: overlay %v, %d dead bodies where the kills are", n, s.Overlay, bodies)
			}
		case "respawn", "move":
			if !strings.Contains(overlay, map[string]string{"respawn": "respawn", "move": "trail"}[k]) {
				t.Errorf("%s turn %d: overlay %v", k, n, s.Overlay)
			}
		}
	}

	// E hides the turn's actions.
	if err := chromedp.Run(b.Ctx, chromedp.KeyEvent("e")); err != nil {
		t.Fatal(err)
	}
	if s := skyState(t, b); len(s.Effects) != 0 || len(s.Overlay) != 0 {
		t.Errorf("E: still drawn %v %v", s.Effects, s.Overlay)
	}
	if err := chromedp.Run(b.Ctx, chromedp.KeyEvent("e")); err != nil {
		t.Fatal(err)
	}

	// Every event of the game is listed (among the analysis's); a click
	// on a kill seeks its turn.
	var ev struct{ Listed, Packed, Clicked int }
	b.Eval(t, `(() => { const P = window.rewind.packed(); let n = 0; P.frames.forEach(f => n += (f.events || []).length);
		const li = [...document.querySelectorAll('#events li.ev')].filter(l => /kills/.test(l.textContent)).pop();
		if (li) li.click();
		return {Listed: [...document.querySelectorAll('#events li.ev')].filter(l => new Set(window.rewind.packed().event_kinds.map(k => k.Name)).has(l.dataset.kind)).length, Packed: n, Clicked: li ? +li.dataset.turn : -1}; })()`, &ev)
	var now int
	b.Eval(t, `window.rewind.turn()`, &now)
	if ev.Packed == 0 || ev.Listed != ev.Packed || ev.Clicked <= 0 || now != ev.Clicked {
		t.Errorf("events: %d listed of %d; clicked a kill at turn %d, now at %d", ev.Listed, ev.Packed, ev.Clicked, now)
	}

	// A chart per key metric: the first 8 (TestSkyportPageShort).
	b.Wait(t, `window.rewind.chartsReady`, time.Minute)
	var charts, metrics []string
	b.Eval(t, `[...document.querySelectorAll('[data-testid=chart]')].filter(d => d.querySelector('canvas')).map(d => d.dataset.metric)`, &charts)
	b.Eval(t, `window.rewind.packed().metrics.map(m => m.name)`, &metrics)
	if len(metrics) < 10 || metrics[0] != "score" || len(metrics) < 8 || strings.Join(charts, ",") != strings.Join(metrics[:8], ",") {
		t.Errorf("charts %v, metrics %v", charts, metrics)
	}
	base, _, _ := strings.Cut(url, "/replay/")
	return base + "/"
}
