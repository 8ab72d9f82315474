package monad_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rewind-game/rewind/engine"
	monad "github.com/rewind-game/rewind/games/monad/rules"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
)

// frameWant is what a re-simulated frame holds that the page must show.
type frameWant struct {
	cells    []engine.Cell
	commands [][]string
	errors   []engine.CommandError
	events   int
	players  int
}

// streamFrames reads every frame of the replay at path through the
// generic reader (source.OpenStream), as the page's server does.
func streamFrames(t *testing.T, path string) []frameWant {
	t.Helper()
	s, err := source.OpenStream(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out []frameWant
	var f engine.Frame
	testutil.EachFrame(t, &f, s.Next, func(int) {
		w := frameWant{cells: append([]engine.Cell(nil), f.Board.Cells...), errors: append([]engine.CommandError(nil), f.Errors...), events: len(f.Events), players: len(s.Meta().Players)}
		for _, c := range f.Commands {
			w.commands = append(w.commands, append([]string(nil), c...))
		}
		out = append(out, w)
	})
	return out
}

// openPage opens url and waits for the page to be ready, failing on the
// page's error.
func openPage(t *testing.T, b *browsertest.Browser, url string) {
	t.Helper()
	if err := chromedp.Run(b.Ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	b.Wait(t, `window.rewind && (window.rewind.ready || window.rewind.error)`, 2*time.Minute)
	var msg string
	b.Eval(t, `window.rewind.error || ''`, &msg)
	if msg != "" {
		t.Fatalf("%s: the page says %s", url, msg)
	}
}

// TestMonadViewThroughCLI is a Monad player's path: `rewind play --game
// monad` (the three built-ins and, with python3, a bot whose stray moves
// the engine rejects), then `rewind view` in Chromium, where the generic
// page draws the board with static/monad.js. Against the frames the
// generic reader re-simulates it checks: every hive's mark is in its
// owner's colour, every other cell with units is filled with its owner's,
// the empty ground is the resource's shade; the turn's moves, builds and
// mines are drawn (rejected ones as such); the commands panel words every
// command, each move's target the engine's neighbour (monad.Neighbor), a
// rejected one struck out; the events panel lists every event of the
// game (hives built…) and a click on one seeks its turn; a chart per
// Monad metric with a line per player (and, with python3, the reply
// times of its bot); the scrubber and the arrow keys
// move the turn and the board follows. No request leaves the server and
// no script error happens.
func TestMonadViewThroughCLI(t *testing.T) {
	const turns = 120
	dir := t.TempDir()
	rwd := filepath.Join(dir, "monad.rwd")
	args := []string{"play", "--game", "monad", "--seed", "5", "--turns", fmt.Sprint(turns), "--bot", "expander", "--bot", "miner", "--bot", "rusher"}
	py, pyErr := exec.LookPath("python3")
	if pyErr == nil {
		args = append(args, "--bot", "'"+py+"' testdata/stray.py", "--deadline", "1m")
	}
	if out, code := clitest.Run(t, append(args, "-o", rwd)...); code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	want := streamFrames(t, rwd)
	if len(want) != turns+1 {
		t.Fatalf("re-simulated %d frames, want %d", len(want), turns+1)
	}
	players := 3
	if pyErr == nil {
		players = 4
	}
	// The turns to look at: one with a rejected command (with the stray
	// bot), a few spread over the game.
	rejected := -1
	for n, f := range want {
		if len(f.errors) > 0 && rejected < 0 && n > 10 {
			rejected = n
		}
	}
	if pyErr == nil && rejected < 0 {
		t.Fatal("the stray bot's moves were not rejected")
	}
	events := 0
	for _, f := range want {
		events += f.events
	}
	if events == 0 {
		t.Fatal("the game has no events")
	}

	url := clitest.ViewPage(t, rwd)
	base, _, _ := strings.Cut(url, "/replay/")
	b := browsertest.Start(t, 4*time.Minute)

	seek := func(t *testing.T, n int) {
		t.Helper()
		b.Eval(t, fmt.Sprintf(`location.hash = '#turn=%d', true`, n), nil)
		if err := b.WaitJS(fmt.Sprintf(`window.rewind.turn() === %d`, n), time.Minute); err != nil {
			t.Fatalf("#turn=%d: %v", n, err)
		}
	}
	// checkCells reads back, with the turn's commands hidden (E), the
	// colour of each cell where the board says what is there: a hive's
	// mark, a held cell's fill above its number, the empty ground's
	// middle.
	checkCells := func(t *testing.T, n int) {
		t.Helper()
		var now int
		b.Eval(t, `window.rewind.turn()`, &now)
		if now != n {
			t.Fatalf("turn %d, want %d", now, n)
		}
		if err := chromedp.Run(b.Ctx, chromedp.KeyEvent("e")); err != nil {
			t.Fatal(err)
		}
		defer chromedp.Run(b.Ctx, chromedp.KeyEvent("e"))
		var got struct {
			Cells  int
			Shown  bool
			Pixels [][3]int
			Ground []string
			Colors []string
		}
		b.Eval(t, `(() => { const r = window.rewind, P = r.packed(), m = rewind.boards.monad, d = devicePixelRatio || 1, R = r.radius();
			const ctx = document.getElementById('board').getContext('2d'), hive = 1 << P.board.badges.indexOf('hive');
			const out = {Cells: r.drawn.cells, Shown: document.getElementById('show-effects').checked, Pixels: [], Ground: [], Colors: []};
			for (let y = 0; y < P.board.height; y++) for (let x = 0; x < P.board.width; x++) {
				const c = r.cell(r.turn(), x, y), at = r.center(x, y);
				let dy = 0;
				if (c.badges & hive) dy = m.hiveMark(R)[1]; else if (c.value > 0) dy = -0.6 * R;
				const px = ctx.getImageData(at[0], at[1] + Math.round(dy * d), 1, 1).data;
				out.Pixels.push([px[0], px[1], px[2]]);
				out.Ground.push(m.terrainColor(c.terrain, c, rewind.dom.dark));
			}
			for (let p = 0; p < P.players.length; p++) out.Colors.push(r.color(p));
			return out; })()`, &got)
		if got.Cells != monad.NumCells || got.Shown {
			t.Fatalf("turn %d: drew %d cells, commands shown %v", n, got.Cells, got.Shown)
		}
		hives, held := 0, 0
		for i, c := range want[n].cells {
			px := got.Pixels[i]
			var wantColor string
			switch {
			case c.Badges&1 != 0:
				hives++
				wantColor = got.Colors[c.Owner]
			case c.Value > 0:
				held++
				wantColor = got.Colors[c.Owner]
			default:
				wantColor = got.Ground[i]
			}
			if hex, rgb := fmt.Sprintf("#%02x%02x%02x", px[0], px[1], px[2]), fmt.Sprintf("rgb(%d,%d,%d)", px[0], px[1], px[2]); hex != wantColor && rgb != wantColor {
				t.Errorf("turn %d, cell (%d, %d) (owner %d, units %d, resource %d, badges %d): drawn %s, want %s",
					n, i%monad.Width, i/monad.Width, c.Owner, c.Value, c.Terrain, c.Badges, rgb, wantColor)
			}
		}
		if hives == 0 || held == 0 {
			t.Errorf("turn %d: %d hives and %d other held cells: nothing to check", n, hives, held)
		}
	}
	// checkCommands checks what the board drew of turn n's commands and
	// how the commands panel words them.
	directions := map[monad.Dir]bool{}
	checkCommands := func(t *testing.T, n int) {
		t.Helper()
		drawn := map[string]int{}
		wantDrawn := map[string]int{}
		var got struct {
			Overlay []string
			Said    [][2]string
			Failed  []string
		}
		b.Eval(t, `(() => ({Overlay: window.rewind.drawn.overlay,
			Said: [...document.querySelectorAll('#commands .cmd')].map(s => [s.textContent, s.dataset.raw || '']),
			Failed: [...document.querySelectorAll('#commands li.failed')].map(li => li.textContent)}))()`, &got)
		for _, o := range got.Overlay {
			drawn[o]++
		}
		failed := map[[2]int]bool{}
		for _, e := range want[n].errors {
			if e.Index >= 0 {
				failed[[2]int{e.Player, e.Index}] = true
			}
		}
		var said [][2]string
		for p, cmds := range want[n].commands {
			for i, text := range cmds {
				c := monad.ParseCommand([]byte(text))
				if c.Err != 0 {
					continue
				}
				name := strings.ToLower(c.Kind.String())
				if failed[[2]int{p, i}] {
					name += "_rejected"
				}
				wantDrawn[name]++
				x, y := c.X, c.Y
				var w string
				plural := map[bool]string{true: "", false: "s"}[c.Count == 1]
				switch c.Kind {
				case monad.KindMove:
					tx, ty := monad.Neighbor(x, y, c.Dir)
					w = fmt.Sprintf("move %d unit%s from (%d, %d) to (%d, %d)", c.Count, plural, x, y, tx, ty)
					directions[c.Dir] = true
				case monad.KindBuild:
					w = fmt.Sprintf("build a hive at (%d, %d)", x, y)
				case monad.KindMine:
					w = fmt.Sprintf("mine (%d, %d) with %d unit%s", x, y, c.Count, plural)
				}
				said = append(said, [2]string{w, text})
			}
		}
		if fmt.Sprint(drawn) != fmt.Sprint(wantDrawn) || len(drawn) == 0 {
			t.Errorf("turn %d: drew %v, want %v", n, drawn, wantDrawn)
		}
		if len(got.Said) != len(said) {
			t.Errorf("turn %d: the commands panel lists %d commands, the frame has %d", n, len(got.Said), len(said))
		}
		for i := range min(len(got.Said), len(said)) {
			if got.Said[i] != said[i] {
				t.Errorf("turn %d: the commands panel says %q for %s, want %q", n, got.Said[i][0], got.Said[i][1], said[i][0])
			}
		}
		if len(got.Failed) != len(failed) {
			t.Errorf("turn %d: %d commands struck out (%q), %d rejected", n, len(got.Failed), got.Failed, len(failed))
		}
	}

	t.Run("page", func(t *testing.T) {
		openPage(t, b, url+"#turn=64")
		var page struct {
			Game, Topology, Legend, Script string
			Width, Height, Players         int
			Painter                        bool
		}
		b.Eval(t, `(() => { const P = window.rewind.packed(); return {Game: P.game, Topology: P.board.topology, Width: P.board.width, Height: P.board.height,
			Players: P.players.length, Painter: !!(window.rewind && rewind.boards.monad), Legend: document.getElementById('legend').textContent,
			Script: [...document.scripts].map(s => s.getAttribute('src') || '').join(' ')}; })()`, &page)
		if page.Game != "monad" || !page.Painter || !strings.Contains(page.Script, "/static/games/monad.js") || page.Topology != "hex" ||
			page.Width != monad.Width || page.Height != monad.Height || page.Players != players || !strings.Contains(page.Legend, "a hive") {
			t.Fatalf("page: %+v", page)
		}
		checkCells(t, 64)
		checkCommands(t, 64)
		turns := []int{1, 30, 100}
		if rejected >= 0 {
			turns = append(turns, rejected)
		}
		for _, n := range turns {
			seek(t, n)
			checkCommands(t, n)
		}
		if rejected >= 0 {
			var failed string
			b.Eval(t, `(document.querySelector('#commands li.failed') || {}).textContent || ''`, &failed)
			if !strings.Contains(failed, "move 3 units from (0, 0) to (1, 0)") {
				t.Errorf("turn %d: the rejected command reads %q", rejected, failed)
			}
		} else {
			t.Logf("no python3 (%v): no rejected command to check", pyErr)
		}
		if len(directions) < 4 {
			t.Errorf("the turns checked moved in %d directions only: %v", len(directions), directions)
		}
	})

	t.Run("events", func(t *testing.T) {
		var ev struct {
			Listed, Packed, Clicked int
			Built                   bool
		}
		b.Eval(t, `(() => { const P = window.rewind.packed(); let n = 0; P.frames.forEach(f => n += (f.events || []).length);
			const li = [...document.querySelectorAll('#events li.ev')], built = li.filter(l => /builds a hive at/.test(l.textContent)).pop();
			if (built) built.click();
			return {Listed: [...document.querySelectorAll('#events li.ev')].filter(l => new Set(window.rewind.packed().event_kinds.map(k => k.Name)).has(l.dataset.kind)).length, Packed: n, Built: !!built, Clicked: built ? +built.dataset.turn : -1}; })()`, &ev)
		var now int
		b.Eval(t, `window.rewind.turn()`, &now)
		if ev.Packed != events || ev.Listed != events || !ev.Built || ev.Clicked <= 0 || now != ev.Clicked {
			t.Errorf("events: %d listed, %d packed of the game's %d; a hive built listed %v, clicked at turn %d, now at %d",
				ev.Listed, ev.Packed, events, ev.Built, ev.Clicked, now)
		}
	})

	t.Run("charts", func(t *testing.T) {
		b.Wait(t, `window.rewind.chartsReady`, time.Minute)
		var charts []struct {
			Metric string
			Lines  int
		}
		b.Eval(t, `[...document.querySelectorAll('[data-testid=chart]')].map(d => ({Metric: d.dataset.metric,
			Lines: echarts.getInstanceByDom(d).getOption().series.length}))`, &charts)
		var names []string
		for _, m := range monad.Ruleset.Metrics() {
			names = append(names, m.Name)
		}
		if pyErr == nil { // the Python bot is timed: its reply times are charted last
			names = append(names, "reply_time")
		}
		var got []string
		for _, c := range charts {
			got = append(got, c.Metric)
			if c.Lines != players {
				t.Errorf("chart %s: %d lines, want %d", c.Metric, c.Lines, players)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(names) {
			t.Errorf("charts %v, want Monad's metrics %v", got, names)
		}
	})

	t.Run("scrubber", func(t *testing.T) {
		b.Eval(t, `(() => { const s = document.getElementById('scrubber'); s.value = '90'; s.dispatchEvent(new Event('input')); return true; })()`, nil)
		var label string
		b.Eval(t, `document.getElementById('turn').textContent`, &label)
		if label != fmt.Sprintf("turn 90 / %d", turns) {
			t.Errorf("after the scrubber: %q", label)
		}
		checkCells(t, 90)
		if err := chromedp.Run(b.Ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
		checkCells(t, 91)
		checkCommands(t, 91)
	})

	b.CheckRequests(t, base+"/")
	b.CheckProblems(t)
}

// TestMonadViewOtherFiles: `rewind view` shows a Monad .rwd of the old
// layout (testdata/legacy-4p.rwd) and the reference engine's own logs
// (replay.json, .mp.gz) on the replay page: Monad's board, every frame
// of the file, the cells drawn, a chart per metric; a recording's events
// are listed (a log reports none).
func TestMonadViewOtherFiles(t *testing.T) {
	files := []string{filepath.Join("testdata", "legacy-4p.rwd")}
	logs := filepath.Join("..", "..", "testdata", "monad", "official")
	for _, name := range []string{"m05.replay.json", "m06.mp.gz"} {
		if _, err := os.Stat(filepath.Join(logs, name)); err == nil {
			files = append(files, filepath.Join(logs, name))
		} else {
			t.Logf("%s absent: the reference logs are not checked", name)
		}
	}
	b := browsertest.Start(t, 4*time.Minute)
	var bases []string
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			want := streamFrames(t, file)
			events := 0
			for _, f := range want {
				events += f.events
			}
			url := clitest.ViewPage(t, file)
			base, _, _ := strings.Cut(url, "/replay/")
			bases = append(bases, base+"/")
			openPage(t, b, url+"#turn=20")
			var page struct {
				Game                                 string
				Frames, Turn, Cells, Listed, Metrics int
				Painter, Generic                     bool
			}
			b.Eval(t, `(() => { const r = window.rewind, P = r.packed(); return {Game: P.game, Frames: P.frames.length, Turn: r.turn(),
				Cells: r.drawn.cells, Listed: [...document.querySelectorAll('#events li.ev')].filter(l => new Set(window.rewind.packed().event_kinds.map(k => k.Name)).has(l.dataset.kind)).length, Painter: !!(window.rewind && rewind.boards.monad),
				Generic: !!document.getElementById('generic'), Metrics: P.metrics.length}; })()`, &page)
			if page.Game != "monad" || !page.Painter || !page.Generic || page.Frames != len(want) || page.Turn != 20 || page.Cells != monad.NumCells {
				t.Errorf("%s: %+v (want %d frames)", file, page, len(want))
			}
			if page.Listed != events {
				t.Errorf("%s: %d events listed, the file has %d", file, page.Listed, events)
			}
			if strings.HasSuffix(file, ".rwd") && events == 0 {
				t.Errorf("%s: a recording with no events", file)
			}
			b.Wait(t, `window.rewind.chartsReady`, time.Minute)
			var charts int
			b.Eval(t, `document.querySelectorAll('[data-testid=chart]').length`, &charts)
			if charts != page.Metrics || charts != len(monad.Ruleset.Metrics()) {
				t.Errorf("%s: %d charts for %d metrics", file, charts, page.Metrics)
			}
		})
	}
	b.CheckRequests(t, bases...)
	b.CheckProblems(t)
}
