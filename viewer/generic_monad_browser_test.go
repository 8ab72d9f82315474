package viewer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/bot/monadbot"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/replay/recording"
	"github.com/rewind-game/rewind/replay/source"
)

// monadSeat plays a built-in Monad bot through the seam. A bad seat
// also sends, on every turn t with t%5 == 3, a move out of (0, 0), where
// it has no units: the engine rejects it.
type monadSeat struct {
	b   monadbot.Bot
	bad bool
}

func (s *monadSeat) Name() string                   { return s.b.Name() }
func (s *monadSeat) Start(p int, seed uint64) error { return s.b.Start(p, seed) }
func (s *monadSeat) Close() error                   { return s.b.Close() }
func (s *monadSeat) Commands(g engine.Game, p int) ([]string, error) {
	cmds, err := s.b.Commands(g.(*monad.Game).State)
	if s.bad && g.Turn()%5 == 3 {
		cmds = append(cmds, monadStray)
	}
	return cmds, err
}

// monadStray is the bad seat's rejected move: 3 units east from (0, 0).
const monadStray = `{"l":[0,0],"c":"MOVE","d":1,"n":3}`

// recordMonadGeneric plays a Monad game of turns turns (seed 5: the
// expander, which strays, the miner and the rusher) through the seam
// and returns its generic (text codec) recording.
func recordMonadGeneric(t *testing.T, turns int) []byte {
	t.Helper()
	var buf bytes.Buffer
	var seats []match.GameSeat
	for i, name := range []string{"expander", "miner", "rusher"} {
		b, err := monadbot.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, match.GameSeat{Bot: &monadSeat{b: b, bad: i == 0}})
	}
	if _, err := match.RunGame(context.Background(), match.GameConfig{Ruleset: monad.Ruleset, Seed: 5, MaxTurns: turns, Seats: seats,
		Recorder: recording.NewSeam(&buf, time.Unix(0, 0), "rewind test")}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// monadFrames re-simulates a generic recording through source.NewStream
// and keeps every frame's cells, commands and errors (by turn).
type monadFrameWant struct {
	cells    []engine.Cell
	commands [][]string
	errors   []engine.CommandError
}

func monadFrames(t *testing.T, rec []byte) []monadFrameWant {
	t.Helper()
	s, err := source.NewStream(bytes.NewReader(rec), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out []monadFrameWant
	var f source.Frame
	for {
		err := s.Next(&f)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		w := monadFrameWant{cells: append([]engine.Cell(nil), f.Board.Cells...), errors: append([]engine.CommandError(nil), f.Errors...)}
		for _, c := range f.Commands {
			w.commands = append(w.commands, append([]string(nil), c...))
		}
		out = append(out, w)
	}
}

// TestGenericMonadBrowser opens a Monad game, recorded through the seam
// (the text codec), on the generic page in headless Chromium, where
// static/monad.js draws the board. It checks, against the frames the Go
// side re-simulates: every hive's mark is in its owner's colour, every
// other cell with units is filled with its owner's, the empty ground is
// the resource's shade; the turn's moves, builds and mines are drawn
// (the rejected move apart); the commands panel words every command,
// each move's target the engine's neighbour (monad.Neighbor), the
// rejected one struck out with its error; a chart per Monad metric with
// a line per player; the scrubber and the arrow keys move the turn and
// the board follows. The self-contained page draws it too, from a file.
// No request leaves the server and no script error happens.
func TestGenericMonadBrowser(t *testing.T) {
	const turns = 120
	rec := recordMonadGeneric(t, turns)
	want := monadFrames(t, rec)
	if len(want) != turns+1 {
		t.Fatalf("re-simulated %d frames, want %d", len(want), turns+1)
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "monad.rwd"), rec)
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{OpenStream: func(f *os.File) (source.Stream, error) { return source.NewStream(f, f) }})
	b := browsertest.Start(t, 4*time.Minute)

	seek := func(t *testing.T, n int) {
		t.Helper()
		evalJS(t, b, fmt.Sprintf(`location.hash = '#turn=%d', true`, n), nil)
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
		if got := turnNow(t, b); got != n {
			t.Fatalf("turn %d, want %d", got, n)
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
		evalJS(t, b, `(() => { const r = window.rewind, P = r.packed(), m = Rewind.boards.monad, d = devicePixelRatio || 1, R = r.radius();
			const ctx = document.getElementById('board').getContext('2d'), hive = 1 << P.board.badges.indexOf('hive');
			const out = {Cells: r.drawn.cells, Shown: document.getElementById('show-effects').checked, Pixels: [], Ground: [], Colors: []};
			for (let y = 0; y < P.board.height; y++) for (let x = 0; x < P.board.width; x++) {
				const c = r.cell(r.turn(), x, y), at = r.center(x, y);
				let dy = 0;
				if (c.badges & hive) dy = m.hiveMark(R)[1]; else if (c.value > 0) dy = -0.6 * R;
				const px = ctx.getImageData(at[0], at[1] + Math.round(dy * d), 1, 1).data;
				out.Pixels.push([px[0], px[1], px[2]]);
				out.Ground.push(m.terrainColor(c.terrain, c, RewindShell.dark));
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
		evalJS(t, b, `(() => ({Overlay: window.rewind.drawn.overlay,
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
				switch c.Kind {
				case monad.KindMove:
					tx, ty := monad.Neighbor(x, y, c.Dir)
					w = fmt.Sprintf("move %d unit%s from (%d, %d) to (%d, %d)", c.Count, map[bool]string{true: "", false: "s"}[c.Count == 1], x, y, tx, ty)
					directions[c.Dir] = true
				case monad.KindBuild:
					w = fmt.Sprintf("build a hive at (%d, %d)", x, y)
				case monad.KindMine:
					w = fmt.Sprintf("mine (%d, %d) with %d unit%s", x, y, c.Count, map[bool]string{true: "", false: "s"}[c.Count == 1])
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
		openReplay(t, b, base+"/game/monad.rwd#turn=64")
		var page struct {
			Game, Topology, Legend, Script string
			Width, Height                  int
			Painter                        bool
		}
		evalJS(t, b, `(() => { const P = window.rewind.packed(); return {Game: P.game, Topology: P.board.topology, Width: P.board.width, Height: P.board.height,
			Painter: !!(window.Rewind && Rewind.boards.monad), Legend: document.getElementById('legend').textContent,
			Script: [...document.scripts].map(s => s.getAttribute('src') || '').join(' ')}; })()`, &page)
		if page.Game != "monad" || !page.Painter || !strings.Contains(page.Script, "/static/monad.js") || page.Topology != "hex" ||
			page.Width != monad.Width || page.Height != monad.Height || !strings.Contains(page.Legend, "a hive") {
			t.Fatalf("page: %+v", page)
		}
		// Turn 64: the expander's stray move, rejected, among the others.
		checkCells(t, 64)
		checkCommands(t, 64)
		var failed string
		evalJS(t, b, `(document.querySelector('#commands li.failed') || {}).textContent || ''`, &failed)
		if !strings.Contains(failed, "move 3 units from (0, 0) to (1, 0)") {
			t.Errorf("turn 64: the rejected command reads %q", failed)
		}
		for _, n := range []int{1, 30, 100} {
			seek(t, n)
			checkCommands(t, n)
		}
		if len(directions) < 4 {
			t.Errorf("the turns checked moved in %d directions only: %v", len(directions), directions)
		}
	})

	t.Run("charts", func(t *testing.T) {
		if err := b.WaitJS(`window.rewind.chartsReady`, time.Minute); err != nil {
			t.Fatal(err)
		}
		var charts []struct {
			Metric string
			Lines  int
		}
		evalJS(t, b, `[...document.querySelectorAll('[data-testid=chart]')].map(d => ({Metric: d.dataset.metric,
			Lines: echarts.getInstanceByDom(d).getOption().series.length}))`, &charts)
		var names []string
		for _, m := range monad.Ruleset.Metrics() {
			names = append(names, m.Name)
		}
		var got []string
		for _, c := range charts {
			got = append(got, c.Metric)
			if c.Lines != 3 {
				t.Errorf("chart %s: %d lines, want 3", c.Metric, c.Lines)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(names) {
			t.Errorf("charts %v, want Monad's metrics %v", got, names)
		}
	})

	t.Run("scrubber", func(t *testing.T) {
		evalJS(t, b, `(() => { const s = document.getElementById('scrubber'); s.value = '90'; s.dispatchEvent(new Event('input')); return true; })()`, nil)
		var label string
		evalJS(t, b, `document.getElementById('turn').textContent`, &label)
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

	t.Run("export", func(t *testing.T) {
		s, err := source.NewStream(bytes.NewReader(rec), nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := PackStream(s, StreamLimits{})
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		var page bytes.Buffer
		if err := WriteGenericHTML(context.Background(), &page, p, "monad.rwd"); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "monad.html")
		write(t, file, page.Bytes())
		openReplay(t, b, "file://"+file+"#turn=64")
		checkCells(t, 64)
		checkCommands(t, 64)
	})

	b.CheckRequests(t, base+"/", "file://")
	b.CheckProblems(t)
}
