package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/viewer"
)

// awaitJS evaluates expr in b's page, waiting for the promise it gives
// (a value that is none is taken as it is), into out.
func awaitJS(t *testing.T, b *browsertest.Browser, expr string, out any) {
	t.Helper()
	if err := chromedp.Run(b.Ctx, chromedp.Evaluate(expr, out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) })); err != nil {
		t.Fatalf("%.200s: %v", expr, err)
	}
}

// comparePage runs `rewind view A B` until the test ends and returns its
// compare page's URL.
func comparePage(t *testing.T, a, b string) string {
	t.Helper()
	return serveForTest(t, "view "+a+" "+b, nil, func(ctx context.Context, opts *serveOptions) error { return runCompareView(ctx, a, b, opts) }) + "/compare"
}

// openCompare navigates b to a compare page (url; "": the page b is on)
// and waits until both boards
// are drawn and the divergence is known; it fails on the page's error.
func openCompare(t *testing.T, b *browsertest.Browser, url string) {
	t.Helper()
	if url != "" {
		if err := chromedp.Run(b.Ctx, chromedp.Navigate(url)); err != nil {
			t.Fatal(err)
		}
	}
	b.Wait(t, `window.rewind && window.rewind.compare && (window.rewind.error || (window.rewind.ready && window.rewind.compare.divergence() !== null))`, 2*time.Minute)
	var errText string
	awaitJS(t, b, `window.rewind.error || ''`, &errText)
	if errText != "" {
		t.Fatalf("%s: %s", url, errText)
	}
}

// compareAt is what the compare page shows at a turn.
type compareAt struct {
	TurnA, TurnB, CellsA, CellsB, WantA, WantB int
	Divergence, Mark                           int
	MarkHidden                                 bool
	Differing                                  []int
	MarkedCommands                             int
	Note                                       string
}

// compareState reads the compare page's state at turn (seeking it).
func compareState(t *testing.T, b *browsertest.Browser, turn int) compareAt {
	t.Helper()
	var s compareAt
	awaitJS(t, b, fmt.Sprintf(`(() => { const r = window.rewind, c = r.compare; r.seek(%d);
		const m = document.getElementById('divergence-mark'), d = c.drawn(), P = r.packed();
		const boards = ['a', 'b'].map(id => document.getElementById('board-' + id));
		return {TurnA: c.turns().a, TurnB: c.turns().b, CellsA: d.a.cells, CellsB: d.b.cells,
			WantA: P.board.width * P.board.height, WantB: d.b.cells ? d.b.cells : -1,
			Divergence: c.divergence(), Mark: +(m.getAttribute('data-turn') || -1), MarkHidden: m.hidden,
			Differing: c.differing(), MarkedCommands: document.querySelectorAll('[data-testid=command-differs]').length,
			Note: document.getElementById('divergence').textContent}; })()`, turn), &s)
	return s
}

// TestCompareViewThroughCLI: for each game, two games played through the
// CLI from the same seed with seat 2's bot changed are opened by `rewind
// view A B` in Chromium: both boards are drawn at the same turn, the
// first divergence marked on the scrubber is the turn a round-by-round
// reading of both files finds (firstCommandDifference, not diff), the
// seats whose commands differ there are marked with their commands, the
// charts overlay both games (A's and B's lines), #turn=N opens turn N,
// and unlocked, B's board keeps its own turn.
func TestCompareViewThroughCLI(t *testing.T) {
	browsertest.Find(t)
	dir := t.TempDir()
	b := browsertest.Start(t, 10*time.Minute)
	for _, tc := range []struct {
		game, turns, same, a, b string
	}{
		{"colorfight2", "200", "greedy", "random", "raider"},
		{"monad", "150", "miner", "idle", "rusher"},
		{"skyport", "40", "hunter", "miner", "random"},
		{"colorfight1", "150", "expander", "random", "aggressor"},
		{"toy", "30", "painter", "painter", "idler"},
		{"toyseq", "30", "painter", "painter", "idler"},
	} {
		t.Run(tc.game, func(t *testing.T) {
			a, bb := filepath.Join(dir, tc.game+"-a.rwd"), filepath.Join(dir, tc.game+"-b.rwd")
			for _, g := range [][2]string{{a, tc.a}, {bb, tc.b}} {
				mustRunRewind(t, "play", "--game", tc.game, "--seed", "5", "--turns", tc.turns, "--bot", tc.same, "--bot", g[1], "-o", g[0])
			}
			turn, ca, cb := firstCommandDifference(t, a, bb)
			if turn == 0 {
				t.Fatal("the two games never differ in their commands: choose other bots")
			}
			var want []int
			for p := range max(len(ca), len(cb)) {
				if !slices.Equal(at(ca, p), at(cb, p)) {
					want = append(want, p+1)
				}
			}
			url := comparePage(t, a, bb)
			openCompare(t, b, url+fmt.Sprintf("#turn=%d", turn+2))
			var opened int
			awaitJS(t, b, `window.rewind.turn()`, &opened)
			if opened != turn+2 {
				t.Errorf("#turn=%d opened turn %d", turn+2, opened)
			}
			s := compareState(t, b, turn)
			if s.TurnA != turn || s.TurnB != turn || s.CellsA != s.WantA || s.CellsA == 0 || s.CellsB == 0 {
				t.Errorf("at turn %d: A at %d drew %d cells (of %d), B at %d drew %d", turn, s.TurnA, s.CellsA, s.WantA, s.TurnB, s.CellsB)
			}
			if s.Divergence != turn || s.Mark != turn || s.MarkHidden || !strings.Contains(s.Note, fmt.Sprintf("round %d (to turn %d)", turn-1, turn)) {
				t.Errorf("divergence %d, marker at %d (hidden %v), note %q; want turn %d", s.Divergence, s.Mark, s.MarkHidden, s.Note, turn)
			}
			if !slices.Equal(s.Differing, want) || s.MarkedCommands == 0 {
				t.Errorf("at turn %d the seats marked differing are %v with %d commands marked; want %v (A %q, B %q)", turn, s.Differing, s.MarkedCommands, want, ca, cb)
			}
			if before := compareState(t, b, turn-1); len(before.Differing) != 0 || before.MarkedCommands != 0 {
				t.Errorf("turn %d, before the divergence, has seats %v marked", turn-1, before.Differing)
			}
			b.Wait(t, `window.rewind.chartsReady`, time.Minute)
			var names []string
			awaitJS(t, b, `window.rewind.chartState()[0].names`, &names)
			if !slices.ContainsFunc(names, func(n string) bool { return strings.HasSuffix(n, " (A)") }) || !slices.ContainsFunc(names, func(n string) bool { return strings.HasSuffix(n, " (B)") }) {
				t.Errorf("the first chart's lines %q: want A's and B's", names)
			}
			// Unlocked, B's own slider sets its turn; the scrubber then
			// moves both, keeping the gap.
			var turns struct{ A, B int }
			awaitJS(t, b, fmt.Sprintf(`(() => { const c = window.rewind.compare; c.lock(false); window.rewind.seek(%d); c.seekB(%d); window.rewind.seek(%d);
				const t = c.turns(); c.lock(true); return {A: t.a, B: t.b}; })()`, turn, turn+1, turn-1), &turns)
			if turns.A != turn-1 || turns.B != turn {
				t.Errorf("unlocked, B one turn ahead, then the scrubber back one: A at %d, B at %d; want %d and %d", turns.A, turns.B, turn-1, turn)
			}
		})
	}
	b.CheckProblems(t)
}

// at is s[i], nil past its end.
func at(s [][]string, i int) []string {
	if i < len(s) {
		return s[i]
	}
	return nil
}

// TestCompareViewFork: a replay and its own `fork --turn 50 --bot
// 2=raider` diverge, on the compare page, at round 50 (turn 51), and a
// clip of 50 turns with the charts exports from the page as a WebM that
// Chromium plays back.
func TestCompareViewFork(t *testing.T) {
	browsertest.Find(t)
	game, fork := gameAndFork(t, 200, 50)
	b := browsertest.Start(t, 4*time.Minute)
	base := comparePage(t, game, fork)
	openCompare(t, b, base)
	s := compareState(t, b, 51)
	if s.Divergence != 51 || s.Mark != 51 || !slices.Equal(s.Differing, []int{2}) || s.MarkedCommands == 0 || s.TurnA != 51 || s.TurnB != 51 {
		t.Errorf("at turn 51: %+v; want the divergence there, seat 2 marked", s)
	}
	b.Wait(t, `window.rewind.chartsReady`, time.Minute)
	v := exportClip(t, b, 10, 59, true)
	if v.Width < 600 || v.Height < 300 {
		t.Errorf("the compare page's clip is %d×%d: want both boards side by side and the charts", v.Width, v.Height)
	}
	b.CheckRequests(t, strings.TrimSuffix(base, "/compare")+"/", "blob:"+strings.TrimSuffix(base, "/compare")+"/")
	b.CheckProblems(t)
}

// clipVideo is what Chromium makes of an exported clip.
type clipVideo struct {
	Type, File, Error string
	Size              int
	Width, Height     int
	Duration          float64
	Turn              int
}

// exportClip exports turns from to to as a WebM through the page's clip
// controls (at 25 turns a second, with the charts or not) and plays it
// back in a <video>: it must be a non-empty WebM Chromium reads, and the
// page must show the turn it showed before.
func exportClip(t *testing.T, b *browsertest.Browser, from, to int, charts bool) clipVideo {
	t.Helper()
	var before int
	awaitJS(t, b, `window.rewind.turn()`, &before)
	awaitJS(t, b, fmt.Sprintf(`(() => { window.rewind.clipResult = undefined;
		document.getElementById('clip-link').click = () => {}; // no download
		const box = document.getElementById('clip'); box.open = true;
		document.getElementById('clip-from').value = '%d'; document.getElementById('clip-to').value = '%d';
		document.getElementById('clip-fps').value = '25'; document.getElementById('clip-charts').checked = %v;
		document.getElementById('clip-webm').click(); return true; })()`, from, to, charts), nil)
	b.Wait(t, `!!window.rewind.clipResult`, 2*time.Minute)
	var v clipVideo
	awaitJS(t, b, `new Promise(resolve => { const c = window.rewind.clipResult;
		if (c.error) { resolve({Error: c.error}); return; }
		const v = document.createElement('video'); v.muted = true;
		const done = () => resolve({Type: c.type, File: c.file, Size: c.size, Width: v.videoWidth, Height: v.videoHeight, Duration: isFinite(v.duration) ? v.duration : 1e9, Turn: window.rewind.turn()});
		v.addEventListener('loadeddata', done);
		v.addEventListener('error', () => resolve({Error: 'the video does not play: ' + (v.error ? v.error.code + ' ' + v.error.message : '?')}));
		v.src = c.url; v.load(); })`, &v)
	if v.Error != "" {
		t.Fatalf("clip of turns %d–%d: %s", from, to, v.Error)
	}
	if v.Type != "video/webm" || v.Size == 0 || v.Width == 0 || v.Height == 0 || !(v.Duration > 0) || !strings.HasSuffix(v.File, fmt.Sprintf("-turns-%d-%d.webm", from, to)) {
		t.Errorf("clip of turns %d–%d: %+v; want a non-empty WebM that plays", from, to, v)
	}
	if v.Turn != before {
		t.Errorf("after the clip the page shows turn %d, not the turn %d it showed", v.Turn, before)
	}
	t.Logf("clip of turns %d–%d: %d×%d, %d bytes", from, to, v.Width, v.Height, v.Size)
	return v
}

// TestClipExportReplayPage: on the replay page of `rewind view FILE`, the
// PNG of the turn shown is the board's size, and a clip of 50 turns is
// a non-empty WebM that Chromium plays back.
func TestClipExportReplayPage(t *testing.T) {
	browsertest.Find(t)
	rwd := filepath.Join(t.TempDir(), "game.rwd")
	mustRunRewind(t, "play", "--seed", "5", "--turns", "200", "--bot", "greedy", "--bot", "random", "-o", rwd)
	b := browsertest.Start(t, 4*time.Minute)
	url := viewPage(t, rwd)
	if err := chromedp.Run(b.Ctx, chromedp.Navigate(url+"#turn=30")); err != nil {
		t.Fatal(err)
	}
	b.Wait(t, `window.rewind && (window.rewind.ready || window.rewind.error)`, 2*time.Minute)
	var png struct {
		Type, File, Error   string
		Size, Width, Board  int
		Height, BoardHeight int
	}
	awaitJS(t, b, `new Promise(resolve => { window.rewind.clipResult = undefined;
		document.getElementById('clip-link').click = () => {};
		document.getElementById('clip-png').click();
		const wait = () => { const c = window.rewind.clipResult; if (!c) { setTimeout(wait, 20); return; }
			if (c.error) { resolve({Error: c.error}); return; }
			const img = new Image(), board = document.getElementById('board');
			img.onload = () => resolve({Type: c.type, File: c.file, Size: c.size, Width: img.width, Height: img.height, Board: board.width, BoardHeight: board.height});
			img.onerror = () => resolve({Error: 'the PNG does not load'});
			img.src = c.url; };
		wait(); })`, &png)
	if png.Error != "" || png.Type != "image/png" || png.Size == 0 || png.Width < png.Board || png.Height <= png.BoardHeight || !strings.HasSuffix(png.File, "-turn-30.png") {
		t.Errorf("PNG of turn 30: %+v; want the board (and a line of text above it)", png)
	}
	exportClip(t, b, 20, 69, false)
	b.CheckProblems(t)
}

// TestCompareViewUnreadable: `rewind view A B` with a missing file, a
// folder or a file that is no replay ends with status 2 and says which.
func TestCompareViewUnreadable(t *testing.T) {
	dir := t.TempDir()
	game, junk := filepath.Join(dir, "game.rwd"), filepath.Join(dir, "junk.rwd")
	mustRunRewind(t, "play", "--seed", "5", "--turns", "200", "--bot", "greedy", "--bot", "random", "-o", game)
	if err := os.WriteFile(junk, []byte("this is no replay\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ a, b, want string }{
		{game, filepath.Join(dir, "missing.rwd"), "view B: " + filepath.Join(dir, "missing.rwd")},
		{junk, game, "view A: " + junk},
		{game, dir, "view B: " + dir},
	} {
		out, code := runRewind(t, "view", tc.a, tc.b, "--addr", "127.0.0.1:0")
		if code != 2 || !strings.Contains(out, tc.want) || strings.Contains(out, "Serving") {
			t.Errorf("view %s %s: status %d, want 2 and %q\n%s", tc.a, tc.b, code, tc.want, out)
		}
	}
}

// TestCompareFromLibrary: on the library page of `rewind serve`, "compare
// with…" on one game then on another opens the compare page of the two
// (/compare?a=..&b=..), which draws both.
func TestCompareFromLibrary(t *testing.T) {
	browsertest.Find(t)
	dir := t.TempDir()
	for i, bot := range []string{"random", "raider"} {
		mustRunRewind(t, "play", "--seed", "5", "--turns", "200", "--bot", "greedy", "--bot", bot, "-o", filepath.Join(dir, fmt.Sprintf("g%d.rwd", i+1)))
	}
	lib, err := viewer.OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	base := serveForTest(t, "serve "+dir, nil, func(ctx context.Context, opts *serveOptions) error { return serveLibrary(ctx, lib, opts, "/") })
	b := browsertest.Start(t, 4*time.Minute)
	if err := chromedp.Run(b.Ctx, chromedp.Navigate(base+"/")); err != nil {
		t.Fatal(err)
	}
	b.Wait(t, `document.querySelectorAll('[data-testid=compare-with]').length === 2`, time.Minute)
	var picking string
	awaitJS(t, b, `(() => { document.querySelector('tr[data-id="g1.rwd"] [data-testid=compare-with]').click();
		return document.querySelector('[data-testid=compare-picking]').textContent; })()`, &picking)
	if !strings.Contains(picking, "g1.rwd") {
		t.Errorf("after the first click the page says %q", picking)
	}
	awaitJS(t, b, `(document.querySelector('tr[data-id="g2.rwd"] [data-testid=compare-with]').click(), true)`, nil)
	b.Wait(t, `location.pathname === '/compare'`, time.Minute)
	openCompare(t, b, "")
	var page struct {
		Search, Summary string
		CellsA, CellsB  int
		Divergence      int
	}
	awaitJS(t, b, `({Search: location.search, Summary: document.querySelector('[data-testid=summary]').textContent,
		CellsA: window.rewind.compare.drawn().a.cells, CellsB: window.rewind.compare.drawn().b.cells, Divergence: window.rewind.compare.divergence()})`, &page)
	if page.Search != "?a=g1.rwd&b=g2.rwd" || !strings.Contains(page.Summary, "A: g1.rwd") || !strings.Contains(page.Summary, "B: g2.rwd") || page.CellsA == 0 || page.CellsB == 0 || page.Divergence <= 0 {
		t.Errorf("the compare page from the library: %+v", page)
	}
	b.CheckRequests(t, base)
	b.CheckProblems(t)
}

// TestCompareScreenshots refreshes docs/compare-1280.png and
// docs/compare-390.png: two ColorfightII games of seed 5, seat 2's bot
// changed from turn 50 on (a fork), at turn 60, on a 1280×900 screen and
// on a 390×844 phone. It runs only with REWIND_SCREENSHOTS_DOCS=1:
//
//	REWIND_SCREENSHOTS_DOCS=1 go test -run TestCompareScreenshots ./cmd/rewind/
func TestCompareScreenshots(t *testing.T) {
	if os.Getenv("REWIND_SCREENSHOTS_DOCS") == "" {
		t.Skip("set REWIND_SCREENSHOTS_DOCS=1 to refresh docs/compare-*.png")
	}
	game, fork := gameAndFork(t, 200, 50)
	b := browsertest.Start(t, 4*time.Minute)
	url := comparePage(t, game, fork)
	for _, v := range []struct {
		file string
		w, h int64
	}{{"compare-1280.png", 1280, 900}, {"compare-390.png", 390, 844}} {
		if err := chromedp.Run(b.Ctx, chromedp.EmulateViewport(v.w, v.h), chromedp.Navigate("about:blank")); err != nil {
			t.Fatal(err)
		}
		openCompare(t, b, url+"#turn=60")
		b.Wait(t, `window.rewind.chartsReady`, time.Minute)
		png := b.CaptureTop(t, false)
		out := filepath.Join("..", "..", "docs", v.file)
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d×%d, %d bytes", out, v.w, v.h, len(png))
	}
	b.CheckProblems(t)
}
