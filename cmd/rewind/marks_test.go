package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// markingBot returns the --bot command of the example Python bot that
// draws marks in game (examples/bots/python/marks_GAME.py).
func markingBot(t *testing.T, game string) string {
	t.Helper()
	py := testutil.NeedTool(t, "python3")
	p, err := filepath.Abs(filepath.Join("..", "..", "examples", "bots", "python", "marks_"+game+".py"))
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%q %q", py, p)
}

// markPixelsJS finds, at the page's turn, a dot mark of seat p that no
// text covers and returns [the canvas pixel at its centre as
// "r,g,b", its colour, how many marks the board drew, the canvas's
// pixels as one string] ("" when the turn has no such dot).
const markPixelsJS = `(() => {
	const r = window.rewind, P = r.packed(), t = r.turn(), f = P.frames[t + 1] || {}, ms = f.marks || [];
	const texts = new Set(ms.filter(m => m.k === 'text').map(m => m.x + ',' + m.y));
	const dot = ms.find(m => m.k === 'dot' && m.p === %d && !texts.has(m.x + ',' + m.y));
	const cv = document.getElementById('board'), ctx = cv.getContext('2d');
	const all = ctx.getImageData(0, 0, cv.width, cv.height).data;
	let sum = 0; for (let i = 0; i < all.length; i++) sum = (sum * 31 + all[i]) >>> 0;
	if (!dot) return ['', '', String(r.drawn.marks), String(sum)];
	const c = r.center(dot.x, dot.y), px = ctx.getImageData(c[0], c[1], 1, 1).data;
	return [px[0] + ',' + px[1] + ',' + px[2], dot.c || r.color(dot.p), String(r.drawn.marks), String(sum)];
})()`

// TestMarksThroughCLI is the acceptance of bot marks through the CLI: the
// example Python bot that draws marks plays ColorfightII, Monad and
// Skyport with `rewind play` beside a built-in; each replay is format
// version 5 and verifies (re-simulation: the marks change no hash);
// `rewind info` counts the seat's marks and the turns it drew in; the
// replay page in Chromium has them in its frames with their seat, draws
// them over the board (a dot's centre pixel is its colour) and not once
// the seat's marks checkbox is unticked, and again once ticked. With
// REWIND_SCREENSHOTS_DOCS=1 it saves the ColorfightII page as
// docs/viewer-marks.png.
func TestMarksThroughCLI(t *testing.T) {
	dir := t.TempDir()
	type played struct{ game, file string }
	var games []played
	for _, game := range []string{"colorfight2", "monad", "skyport"} {
		out := filepath.Join(dir, game+".rwd")
		turns := map[string]string{"colorfight2": "200", "monad": "60", "skyport": "60"}[game]
		builtin := map[string]string{"colorfight2": "greedy", "monad": "expander", "skyport": "hunter"}[game]
		if o, err := runCLIOut(t, "play", "--game", game, "--bot", builtin, "--bot", markingBot(t, game), "--turns", turns, "--deadline", "1m", "-o", out); err != nil {
			t.Fatalf("play %s: %v\n%s", game, err, o)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if v := binary.LittleEndian.Uint16(data[4:]); v != replay.VersionMarks {
			t.Fatalf("%s: version %d, want %d", game, v, replay.VersionMarks)
		}
		if o, err := runCLIOut(t, "verify", out); err != nil || !strings.HasPrefix(o, "OK ") {
			t.Fatalf("verify %s: %v\n%s", game, err, o)
		}
		info, err := runCLIOut(t, "info", out)
		m := regexp.MustCompile(`marks: +seat 2 drew (\d+) marks in (\d+) (rounds|turns), from its answer to turn \d+ on`).FindStringSubmatch(info)
		if err != nil || m == nil || strings.Contains(info, "seat 1 drew") {
			t.Fatalf("info %s: %v, want seat 2's marks:\n%s", game, err, info)
		}
		var n, turnsDrawn int
		fmt.Sscan(m[1], &n)
		fmt.Sscan(m[2], &turnsDrawn)
		if turnsDrawn < 20 || n < turnsDrawn {
			t.Fatalf("%s: %d marks in %d turns", game, n, turnsDrawn)
		}
		games = append(games, played{game, out})
	}

	b := browsertest.Start(t, 4*time.Minute)
	for _, g := range games {
		if err := chromedp.Run(b.Ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(viewPage(t, g.file)+"#turn=30")); err != nil {
			t.Fatal(err)
		}
		if err := b.WaitJS(`window.rewind && (window.rewind.ready || window.rewind.error)`, 2*time.Minute); err != nil {
			t.Fatalf("%s: %v", g.game, err)
		}
		// Turn 30 of ColorfightII and Monad, and Skyport's first turn of
		// the bot's from 30 on with a dot (a player to shoot at).
		var turn int
		if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`(() => {
			const r = window.rewind, P = r.packed();
			if (!P.has_marks) return -1;
			for (let t = 30; t + 1 < P.frames.length; t++) if ((P.frames[t + 1].marks || []).some(m => m.k === 'dot' && m.p === 1)) { r.seek(t); return t; }
			return -2;
		})()`, &turn)); err != nil || turn < 0 {
			t.Fatalf("%s: no turn with a dot of seat 2 (%d): %v", g.game, turn, err)
		}
		var on, off, again []string
		if err := chromedp.Run(b.Ctx,
			chromedp.Evaluate(fmt.Sprintf(markPixelsJS, 1), &on),
			chromedp.ActionFunc(func(ctx context.Context) error { b.Screenshot(t, "marks-"+g.game+".png"); return nil }),
			chromedp.Click(`[data-testid=marks-toggle][data-player="1"]`, chromedp.ByQuery),
			chromedp.Evaluate(fmt.Sprintf(markPixelsJS, 1), &off),
			chromedp.Click(`[data-testid=marks-toggle][data-player="1"]`, chromedp.ByQuery),
			chromedp.Evaluate(fmt.Sprintf(markPixelsJS, 1), &again),
		); err != nil {
			t.Fatal(err)
		}
		if on[0] == "" || !sameColor(on[0], on[1]) || on[2] == "0" {
			t.Errorf("%s, turn %d: the dot's centre is %s, want its colour %s (%s marks drawn)", g.game, turn, on[0], on[1], on[2])
		}
		if sameColor(off[0], on[1]) || off[2] != "0" || off[3] == on[3] {
			t.Errorf("%s, turn %d: with seat 2's marks off, the dot's centre is %s (its colour %s), %s marks drawn", g.game, turn, off[0], on[1], off[2])
		}
		if again[3] != on[3] || again[2] != on[2] {
			t.Errorf("%s, turn %d: the marks ticked on again drew %s marks, not the %s of before", g.game, turn, again[2], on[2])
		}
		var selected int
		if err := chromedp.Run(b.Ctx, chromedp.Evaluate(`document.querySelectorAll('#players tr.selected').length`, &selected)); err != nil || selected != 0 {
			t.Errorf("%s: a click on the marks checkbox selected a player (%d): %v", g.game, selected, err)
		}
		if g.game == "colorfight2" && os.Getenv("REWIND_SCREENSHOTS_DOCS") != "" {
			var png []byte
			// The turn whose answer drew the most marks, zoomed in on them.
			zoom := `(() => {
				const r = window.rewind, P = r.packed();
				let best = 30, most = 0;
				for (let t = 30; t + 1 < P.frames.length && t < 150; t++) {
					const n = (P.frames[t + 1].marks || []).length;
					if (n > most) { most = n; best = t; }
				}
				r.seek(best);
				const ms = P.frames[best + 1].marks, cs = ms.map(m => r.center(m.x, m.y));
				r.zoomBy(1.6, cs.reduce((a, c) => a + c[0], 0) / cs.length, cs.reduce((a, c) => a + c[1], 0) / cs.length);
				window.scrollTo(0, 0);
				return best;
			})()`
			if err := chromedp.Run(b.Ctx, chromedp.Evaluate(zoom, nil), chromedp.CaptureScreenshot(&png)); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join("..", "..", "docs", "viewer-marks.png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	b.CheckProblems(t)
}

// sameColor reports whether pixel "r,g,b" is colour "#rrggbb" (within a
// few levels: the canvas's antialiasing).
func sameColor(px, color string) bool {
	var r, g, b, cr, cg, cb int
	if _, err := fmt.Sscanf(px, "%d,%d,%d", &r, &g, &b); err != nil {
		return false
	}
	if _, err := fmt.Sscanf(color, "#%02x%02x%02x", &cr, &cg, &cb); err != nil {
		return false
	}
	d := func(a, b int) int { return max(a-b, b-a) }
	return d(r, cr) <= 6 && d(g, cg) <= 6 && d(b, cb) <= 6
}

// badMarksPy logs a line and draws three marks every turn: a dot on
// cell [0,0], one off the board and one that is not JSON.
const badMarksPy = `import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("type") != "turn":
        continue
    sys.stderr.write("thinking\n")
    sys.stderr.write('rewind:mark {"dot":[0,0]}\n')
    sys.stderr.write('rewind:mark {"dot":[99,99]}\n')
    sys.stderr.write("rewind:mark nope\n")
    sys.stderr.flush()
    sys.stdout.write(json.dumps({"cmd_list": [], "turn": msg["turn"]}) + "\n")
    sys.stdout.flush()
`

// TestMarksOldAndBadBots: a bot that draws nothing (logBotPy) plays as
// before — its replay verifies, holds its logs as it wrote them and no
// mark, and `rewind info` names no marks; a bot whose marks are off the
// board or not JSON plays on: those marks are dropped and named in its
// round's log (its own line kept), its good mark kept.
func TestMarksOldAndBadBots(t *testing.T) {
	dir := t.TempDir()
	py := testutil.NeedTool(t, "python3")
	bad := filepath.Join(dir, "bad.py")
	if err := os.WriteFile(bad, []byte(badMarksPy), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, game, bot, turns string
		want                   func(turn int) string
	}{
		{"old colorfight2", "colorfight2", logBot(t, dir), "200", func(turn int) string { return fmt.Sprintf("bot 2 thinking at turn %d\n", turn) }},
		{"old monad", "monad", logBot(t, dir), "60", func(turn int) string { return fmt.Sprintf("bot 1 thinking at turn %d\n", turn) }},
		{"bad colorfight2", "colorfight2", fmt.Sprintf("%q %q", py, bad), "200", func(int) string {
			return "rewind: mark 2 dropped: cell [99,99] off the 30×30 board\n" +
				"rewind: mark 3 dropped: not a mark's JSON: invalid character 'o' in literal null (expecting 'u')\nthinking\n"
		}},
	} {
		out := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".rwd")
		if o, err := runCLIOut(t, "play", "--game", c.game, "--bot", builtinOf(c.game), "--bot", c.bot, "--turns", c.turns, "--deadline", "1m", "-o", out); err != nil {
			t.Fatalf("%s: play: %v\n%s", c.name, err, o)
		}
		if o, err := runCLIOut(t, "verify", out); err != nil {
			t.Fatalf("%s: verify: %v\n%s", c.name, err, o)
		}
		info, err := runCLIOut(t, "info", out)
		if err != nil || strings.Contains(info, "marks:") != strings.HasPrefix(c.name, "bad") {
			t.Fatalf("%s: info: %v\n%s", c.name, err, info)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		r, err := replay.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		asked := 0
		for {
			rd, err := r.NextText()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if rd.Logs == nil || len(rd.Logs[1]) == 0 {
				continue // a round the bot was not asked for
			}
			asked++
			if got, want := string(rd.Logs[1]), c.want(rd.Turn); got != want {
				t.Fatalf("%s: round %d's log %q, want %q", c.name, rd.Turn, got, want)
			}
			wantMarks := "[]"
			if strings.HasPrefix(c.name, "bad") {
				wantMarks = "[{1 dot 0 0 0 0 -1 }]"
			}
			if got := fmt.Sprint(rd.Marks); got != wantMarks && !(wantMarks == "[]" && rd.Marks == nil) {
				t.Fatalf("%s: round %d's marks %s, want %s", c.name, rd.Turn, got, wantMarks)
			}
		}
		if asked < 50 {
			t.Fatalf("%s: %d rounds with the bot's log", c.name, asked)
		}
	}
}
