package viewer

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// textRecorder is a match.GameRecorder writing the generic text codec
// (replay.NewTextWriter), whatever codec the ruleset is recorded in by
// default: a file the replay page opens for any game.
type textRecorder struct {
	w  io.Writer
	tw *replay.TextWriter
}

func (r *textRecorder) Begin(s match.GameSetup) error {
	var names, bots []string
	for _, p := range s.Players {
		names, bots = append(names, p.Name), append(bots, p.Identity)
	}
	tw, err := replay.NewTextWriter(r.w, replay.TextHeader(s.Ruleset, s.Seed, s.Setup, s.MaxTurns, names, bots))
	r.tw = tw
	return err
}

func (r *textRecorder) Round(rd *match.GameRound, g engine.Game) error {
	return r.tw.WriteRound(&replay.TextRound{Active: rd.Active, Commands: rd.Commands, Faults: rd.Faults, FaultText: rd.FaultText}, g)
}

func (r *textRecorder) End(g engine.Game) error { return r.tw.Close(g) }

// strayPlayer plays a built-in and, every third round, adds commands
// ColorfightII rejects (as a rule: an attack with more energy than any
// player has, a building with no such letter) and an upgrade of (0, 0).
type strayPlayer struct {
	match.GamePlayer
	n int
}

func (s *strayPlayer) Commands(g engine.Game, p int) ([]string, error) {
	cmds, err := s.GamePlayer.Commands(g, p)
	if s.n++; err == nil && s.n%3 == 0 {
		cmds = append(cmds[:len(cmds):len(cmds)], "a 0 0 999999", "b 1 1 z", "u 0 0")
	}
	return cmds, err
}

// cf2Frame is what a re-simulated ColorfightII frame holds that its page
// must show.
type cf2Frame struct {
	cells    []engine.Cell
	badges   []string
	commands [][]string
	errors   []engine.CommandError
}

// cf2Building is the building on c by the board's badges ("" for none)
// and its level (1 without a level badge).
func (f *cf2Frame) building(c engine.Cell) (string, int) {
	name, level := "", 1
	for k, b := range f.badges {
		if c.Badges&(1<<k) == 0 {
			continue
		}
		switch b {
		case "level_2":
			level = max(level, 2)
		case "level_3":
			level = 3
		default:
			name = b
		}
	}
	return name, level
}

// cf2Said is how the ColorfightII page words command text of turn t
// (frames[t-1] the board before it), its buildings named by their
// protocol letters (docs/bot-protocol.md).
func cf2Said(frames []cf2Frame, t int, text string) string {
	var x, y int
	f := strings.Fields(text)
	if len(f) < 3 {
		return text
	}
	if _, err := fmt.Sscanf(f[1]+" "+f[2], "%d %d", &x, &y); err != nil {
		return text
	}
	at := fmt.Sprintf("(%d, %d)", x, y)
	switch {
	case f[0] == "a" && len(f) == 4:
		return "attack " + at + " with " + f[3] + " energy"
	case f[0] == "b" && len(f) == 4:
		if name, ok := map[string]string{"h": "home", "g": "gold mine", "e": "energy well", "f": "fortress"}[f[3]]; ok {
			return "build " + name + " at " + at
		}
		return `build "` + f[3] + `" (no such building) at ` + at
	case f[0] == "u" && len(f) == 3:
		before := &frames[t-1]
		if x < 0 || y < 0 || x >= 30 || y >= 30 {
			return "upgrade " + at
		}
		if name, level := before.building(before.cells[y*30+x]); name != "" {
			return fmt.Sprintf("upgrade %s to level %d", at, level+1)
		}
		return "upgrade " + at
	}
	return text
}

// TestColorfightPainter: a ColorfightII game (the built-ins, one
// of them sending commands the engine rejects, played by match.RunGame
// and recorded in the generic text codec) on the replay page is drawn
// by static/colorfight2.js as the ColorfightII page draws it. Against
// the frames the generic reader re-simulates: every owned cell is its
// owner's colour, the unowned ground darkens with its natural cost, each
// home is framed in black and each other building has its lettered disc
// where the frame has one, and nowhere else; the inspector names the
// building and its level; the turn's attacks, builds and upgrades are
// drawn, rejected ones as such, and the commands panel words them as
// the ColorfightII page does, a rejected one struck out; the legend says
// what the colours and letters mean. $REWIND_SCREENSHOTS gets
// generic-colorfight2.png.
func TestColorfightPainter(t *testing.T) {
	rs, err := engine.Get("colorfight2")
	if err != nil {
		t.Fatal(err)
	}
	seats := []match.GameSeat{cf2Seat(t, "economist", ""), cf2Seat(t, "raider", ""), cf2Seat(t, "turtle", "")}
	stray := cf2Seat(t, "random", "stray")
	stray.Bot = &strayPlayer{GamePlayer: stray.Bot}
	seats = append(seats, stray)
	const turns = 150
	path := filepath.Join(t.TempDir(), "cf2.rwd")
	file, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := match.RunGame(context.Background(), match.GameConfig{Ruleset: rs, Seed: 7, MaxTurns: turns, Seats: seats, Recorder: &textRecorder{w: file}}); err != nil {
		t.Fatal(err)
	}
	if err := file.Close(); err != nil {
		t.Fatal(err)
	}
	frames := cf2Frames(t, path)
	if len(frames) != turns+1 {
		t.Fatalf("re-simulated %d frames, want %d", len(frames), turns+1)
	}

	// The turns to look at: the first with a rejected command, with an
	// upgrade of a building, with a build; and the last.
	pick := map[string]int{}
	for n := 1; n < len(frames); n++ {
		f := &frames[n]
		first := func(k string) {
			if _, ok := pick[k]; !ok {
				pick[k] = n
			}
		}
		if len(f.errors) > 0 {
			first("rejected")
		}
		for _, list := range f.commands {
			for _, c := range list {
				if s := cf2Said(frames, n, c); strings.Contains(s, " to level ") {
					first("upgrade")
				} else if strings.HasPrefix(s, "build ") && !strings.Contains(s, "no such") {
					first("build")
				}
			}
		}
	}
	for _, k := range []string{"rejected", "upgrade", "build"} {
		if _, ok := pick[k]; !ok {
			t.Fatalf("no turn with a %s command (picked %v)", k, pick)
		}
	}
	pick["last"] = turns

	mux := http.NewServeMux()
	mux.Handle("/cf2", ReplayPage(func() (engine.Stream, error) { return source.OpenStream(path) }))
	mux.Handle("/static/", StaticHandler())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	b := browsertest.Start(t, 2*time.Minute)
	// Wide enough for the board's own column (and a readable screenshot).
	if err := chromedp.Run(b.Ctx, chromedp.EmulateViewport(1600, 1000)); err != nil {
		t.Fatal(err)
	}
	openReplay(t, b, srv.URL+fmt.Sprintf("/cf2#turn=%d", pick["upgrade"]))

	var page struct {
		Game, Topology, Legend, Scripts string
		Painter, Dark                   bool
		Colors                          []string
	}
	b.Eval(t, `(() => { const P = window.rewind.packed(); return {Game: P.game, Topology: P.board.topology,
		Painter: !!(window.rewind && rewind.boards.colorfight2), Dark: rewind.dom.dark,
		Legend: document.getElementById('legend').textContent,
		Scripts: [...document.scripts].map(s => s.getAttribute('src') || '').join(' '),
		Colors: P.players.map((_, p) => window.rewind.color(p))}; })()`, &page)
	if page.Game != "colorfight2" || !page.Painter || !strings.Contains(page.Scripts, "/static/games/colorfight2.js") || page.Topology != "square" {
		t.Fatalf("page: %+v", page)
	}
	for _, w := range []string{"H home", "G gold mine", "E energy well", "F fortress", "natural cost", "owner's colour", "attack", "rejected"} {
		if !strings.Contains(page.Legend, w) {
			t.Errorf("the legend does not say %q: %q", w, page.Legend)
		}
	}

	seek := func(t *testing.T, n int) {
		t.Helper()
		b.Eval(t, fmt.Sprintf(`location.hash = '#turn=%d', true`, n), nil)
		if err := b.WaitJS(fmt.Sprintf(`window.rewind.turn() === %d`, n), 10*time.Second); err != nil {
			t.Fatalf("#turn=%d: %v", n, err)
		}
	}

	// checkCells reads back, with the turn's commands hidden (E), each
	// cell's colour off its building, on a home's frame and on a
	// building's disc.
	checkCells := func(t *testing.T, n int) {
		t.Helper()
		seek(t, n)
		if err := chromedp.Run(b.Ctx, chromedp.KeyEvent("e")); err != nil {
			t.Fatal(err)
		}
		defer chromedp.Run(b.Ctx, chromedp.KeyEvent("e"))
		var got struct {
			Cells       int
			Fill        [][3]int
			Frame, Disc []float64
			Overlay     []string
		}
		b.Eval(t, `(() => { const r = window.rewind, P = r.packed(), d = devicePixelRatio || 1, R = r.radius(), fw = Math.max(2, Math.round(2 * R / 6)), dr = 0.48 * R;
			const ctx = document.getElementById('board').getContext('2d'), out = {Cells: r.drawn.cells, Overlay: r.drawn.overlay, Fill: [], Frame: [], Disc: []};
			// share is the share of the pixels of a box (CSS pixels from
			// a cell's centre) that pass test.
			const share = (c, x0, y0, w, h, test) => {
				const im = ctx.getImageData(c[0] + Math.round(x0 * d), c[1] + Math.round(y0 * d), Math.max(1, Math.round(w * d)), Math.max(1, Math.round(h * d))).data;
				let n = 0;
				for (let i = 0; i < im.length; i += 4) if (test(im[i], im[i + 1], im[i + 2])) n++;
				return n / (im.length / 4);
			};
			for (let y = 0; y < P.board.height; y++) for (let x = 0; x < P.board.width; x++) {
				const c = r.center(x, y), p = ctx.getImageData(c[0] + Math.round(-0.4 * R * d), c[1] + Math.round(0.45 * R * d), 1, 1).data;
				out.Fill.push([p[0], p[1], p[2]]);
				// The top of a home's frame; a building's disc, lower right.
				out.Frame.push(share(c, -R / 2, -R + 1, R, Math.max(1, fw - 2), (r, g, b) => r < 48 && g < 48 && b < 48));
				out.Disc.push(share(c, R - 2 * dr - 1, R - 2 * dr - 1, 2 * dr, 2 * dr, (r, g, b) => r > 220 && g > 220 && b > 220));
			}
			return out; })()`, &got)
		f := &frames[n]
		if got.Cells != len(f.cells) || len(got.Overlay) != 0 {
			t.Fatalf("turn %d: drew %d cells (frame: %d), commands %v with E", n, got.Cells, len(f.cells), got.Overlay)
		}
		hex := func(p [3]int) string { return fmt.Sprintf("#%02x%02x%02x", p[0], p[1], p[2]) }
		type ground struct {
			cost int64
			lum  int
		}
		var grounds []ground
		counts := map[string]int{}
		for i, c := range f.cells {
			at := fmt.Sprintf("turn %d, cell (%d, %d) (owner %d, badges %b)", n, i%30, i/30, c.Owner, c.Badges)
			name, _ := f.building(c)
			counts[name]++
			if c.Owner >= 0 {
				if got := hex(got.Fill[i]); got != page.Colors[c.Owner] {
					t.Errorf("%s: drawn %s, want its owner's %s", at, got, page.Colors[c.Owner])
				}
			} else if name == "" {
				p := got.Fill[i]
				grounds = append(grounds, ground{c.Terrain, 299*p[0] + 587*p[1] + 114*p[2]})
			}
			// A home's frame is dark all along; a building's disc fills
			// most of its box (but for its letter); an owned cell has
			// neither where it has no such building.
			if home := name == "home"; (got.Frame[i] > 0.9) != home || (!home && got.Frame[i] > 0) {
				t.Errorf("%s: %.0f%% of a home's frame drawn, %q there", at, 100*got.Frame[i], name)
			}
			if disc := name != "" && name != "home"; c.Owner >= 0 && ((got.Disc[i] > 0.25) != disc || (!disc && got.Disc[i] > 0)) {
				t.Errorf("%s: %.0f%% of a building's disc drawn, %q there", at, 100*got.Disc[i], name)
			}
		}
		if counts["home"] == 0 || counts["gold_mine"]+counts["energy_well"]+counts["fortress"] == 0 || len(grounds) < 10 {
			t.Errorf("turn %d: %v buildings, %d unowned cells: too few to check", n, counts, len(grounds))
		}
		// The dearer the ground, the darker (lighter in the dark scheme).
		sort.Slice(grounds, func(i, j int) bool { return grounds[i].cost < grounds[j].cost })
		for k := 1; k < len(grounds); k++ {
			a, z := grounds[k-1], grounds[k]
			if (!page.Dark && z.lum > a.lum) || (page.Dark && z.lum < a.lum) {
				t.Errorf("turn %d: ground of natural cost %d has luminance %d, of cost %d %d", n, z.cost, z.lum, a.cost, a.lum)
			}
		}
		if first, last := grounds[0], grounds[len(grounds)-1]; first.cost == last.cost || first.lum == last.lum {
			t.Errorf("turn %d: the ground is not shaded by its natural cost: %v .. %v", n, first, last)
		}
	}

	// checkCommands checks what the board drew of turn n's commands and
	// how the commands panel words them.
	checkCommands := func(t *testing.T, n int) {
		t.Helper()
		seek(t, n)
		var got struct {
			Overlay []string
			Said    [][2]string
			Failed  []string
		}
		b.Eval(t, `(() => ({Overlay: window.rewind.drawn.overlay,
			Said: [...document.querySelectorAll('#commands .cmd')].map(s => [s.textContent, s.dataset.raw || s.textContent]),
			Failed: [...document.querySelectorAll('#commands li.failed .cmd')].map(s => s.textContent)}))()`, &got)
		f := &frames[n]
		failed := map[[2]int]bool{}
		for _, e := range f.errors {
			failed[[2]int{e.Player, e.Index}] = true
		}
		drawn, wantDrawn := map[string]int{}, map[string]int{}
		for _, o := range got.Overlay {
			drawn[o]++
		}
		var said [][2]string
		var wantFailed []string
		for p, list := range f.commands {
			for i, text := range list {
				w := cf2Said(frames, n, text)
				said = append(said, [2]string{w, text})
				kind := map[byte]string{'a': "attack", 'b': "build", 'u': "upgrade"}[text[0]]
				if failed[[2]int{p, i}] {
					wantFailed = append(wantFailed, w)
					kind += "_rejected"
				}
				wantDrawn[kind]++
			}
		}
		if fmt.Sprint(drawn) != fmt.Sprint(wantDrawn) {
			t.Errorf("turn %d: drew %v, want %v", n, drawn, wantDrawn)
		}
		if fmt.Sprint(got.Said) != fmt.Sprint(said) {
			t.Errorf("turn %d: the commands panel says\n%q\nwant\n%q", n, got.Said, said)
		}
		if fmt.Sprint(got.Failed) != fmt.Sprint(wantFailed) {
			t.Errorf("turn %d: struck out %q, rejected %q", n, got.Failed, wantFailed)
		}
	}

	t.Run("cells", func(t *testing.T) {
		checkCells(t, pick["upgrade"])
		checkCells(t, pick["last"])
	})
	t.Run("commands", func(t *testing.T) {
		for _, k := range []string{"rejected", "upgrade", "build"} {
			checkCommands(t, pick[k])
		}
		// The stray bot's: an attack it has not the energy for, a
		// building that does not exist.
		var failed string
		b.Eval(t, fmt.Sprintf(`window.rewind.seek(%d), [...document.querySelectorAll('#commands li.failed')].map(l => l.textContent).join(' | ')`, pick["rejected"]), &failed)
		for _, w := range []string{"attack (0, 0) with 999999 energy", `build "z" (no such building) at (1, 1)`} {
			if !strings.Contains(failed, w) {
				t.Errorf("turn %d: no rejected %q among %q", pick["rejected"], w, failed)
			}
		}
	})
	t.Run("inspector", func(t *testing.T) {
		// The first building of level 2 or more at the last turn.
		n, at := pick["last"], -1
		f := &frames[n]
		var want string
		for i, c := range f.cells {
			if name, level := f.building(c); name != "" && level > 1 {
				at, want = i, strings.ReplaceAll(name, "_", " ")+fmt.Sprintf(" level %d", level)
				break
			}
		}
		if at < 0 {
			t.Fatalf("turn %d has no building above level 1", n)
		}
		seek(t, n)
		var text string
		b.Eval(t, fmt.Sprintf(`(() => { const r = window.rewind, cv = document.getElementById('board'), b = cv.getBoundingClientRect(), d = devicePixelRatio || 1, c = r.center(%d, %d);
			cv.dispatchEvent(new MouseEvent('click', {clientX: b.left + c[0] / d, clientY: b.top + c[1] / d, bubbles: true}));
			return document.getElementById('inspector').textContent; })()`, at%30, at/30), &text)
		c := f.cells[at]
		for _, w := range []string{fmt.Sprintf("cell (%d, %d)", at%30, at/30), "building" + want, fmt.Sprintf("natural cost%d", c.Terrain), fmt.Sprintf("attack cost%d", c.Value)} {
			if !strings.Contains(text, w) {
				t.Errorf("the inspector of (%d, %d) does not say %q: %q", at%30, at/30, w, text)
			}
		}
		// Unpinned again for the screenshot.
		if err := chromedp.Run(b.Ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
			t.Fatal(err)
		}
	})

	seek(t, pick["upgrade"])
	b.Screenshot(t, "generic-colorfight2.png")
	b.CheckRequests(t, srv.URL+"/")
	b.CheckProblems(t)
}

// cf2Frames reads every frame of the ColorfightII replay at path through
// the generic reader, as the page's server does.
func cf2Frames(t *testing.T, path string) []cf2Frame {
	t.Helper()
	s, err := source.OpenStream(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out []cf2Frame
	var f engine.Frame
	testutil.EachFrame(t, &f, s.Next, func(int) {
		if f.Board.Width != 30 || f.Board.Topology != engine.Square {
			t.Fatalf("frame %d: a %v board %d wide, want ColorfightII's 30×30 square", f.Turn, f.Board.Topology, f.Board.Width)
		}
		w := cf2Frame{cells: append([]engine.Cell(nil), f.Board.Cells...), badges: append([]string(nil), f.Board.Badges...), errors: append([]engine.CommandError(nil), f.Errors...)}
		for _, c := range f.Commands {
			w.commands = append(w.commands, append([]string(nil), c...))
		}
		out = append(out, w)
	})
	return out
}
