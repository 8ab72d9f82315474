package monad_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	monad "github.com/rewind-game/rewind/games/monad/rules"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// fileExists reports whether path names a file that can be stat'ed.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestExportMonadHTML: export --html writes the replay page of a played
// Monad recording and of a reference log as one self-contained file (the
// frames, styles, scripts with static/monad.js, ECharts inline, a CSP
// that allows no request); opened from disk in headless Chromium, the
// hex board is drawn and changes when seeking, #turn=N is honoured, there
// is a chart per metric with one line per player, the recording's events
// are listed, nothing is requested beyond the file and no script error
// happens. export to .cfr refuses a Monad replay.
func TestExportMonadHTML(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "m.rwd")
	if out, code := clitest.Run(t, "play", "--game", "monad", "--seed", "5", "--turns", "120", "-o", rwd); code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	ins := []string{rwd}
	if log := filepath.Join("..", "..", "testdata", "monad", "official", "m05.replay.json"); fileExists(log) {
		ins = append(ins, log)
	} else {
		t.Logf("%s absent: a reference log's export is not checked", log)
	}
	type exported struct {
		in, out string
		turns   int
		players int
		events  int
	}
	var pages []exported
	for _, in := range ins {
		out := filepath.Join(dir, filepath.Base(in)+".html")
		said, code := clitest.Run(t, "export", "--html", in, "-o", out)
		if code != 0 {
			t.Fatalf("export --html %s: status %d\n%s", in, code, said)
		}
		page := testutil.ReadFile(t, out)
		html := string(page)
		if !strings.Contains(html, `id="rw-data"`) || !strings.Contains(html, "Content-Security-Policy") || !strings.Contains(html, `id="generic"`) ||
			!strings.Contains(html, "rewind.boards.monad") ||
			strings.Contains(html, "<script src") || strings.Contains(html, "/static/") || strings.Contains(html, "rel=\"stylesheet\"") {
			t.Errorf("%s: the exported page is not a self-contained generic page with Monad's board (%d bytes)", out, len(page))
		}
		// What the page must show: the frames the generic reader reads.
		frames := streamFrames(t, in)
		events := 0
		for _, f := range frames {
			events += f.events
		}
		if !strings.Contains(said, "wrote "+out) || !strings.Contains(said, fmt.Sprintf(" %d turns,", len(frames)-1)) {
			t.Errorf("export --html %s said %q", in, said)
		}
		pages = append(pages, exported{in, out, len(frames) - 1, frames[0].players, events})
	}
	if out, code := clitest.Run(t, "export", rwd, "-o", filepath.Join(dir, "m.cfr")); code == 0 || !strings.Contains(out, "a .cfr holds ColorfightII games only") {
		t.Errorf("export to .cfr of a Monad replay: status %d\n%s", code, out)
	}

	const boardHash = `(() => { const c = document.getElementById('board'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let h = 2166136261, ink = 0; for (let i = 0; i < d.length; i += 4) { if (d[i+3]) ink++; h = Math.imul(h ^ d[i] ^ (d[i+1] << 8) ^ (d[i+2] << 16), 16777619); } return [h >>> 0, ink]; })()`
	b := browsertest.Start(t, 4*time.Minute)
	for _, p := range pages {
		t.Run(filepath.Base(p.in), func(t *testing.T) {
			mid := p.turns / 2
			if err := chromedp.Run(b.Ctx, chromedp.Navigate("file://"+p.out+"#turn="+strconv.Itoa(mid))); err != nil {
				t.Fatal(err)
			}
			b.Wait(t, `window.rewind && (window.rewind.ready || window.rewind.error)`, time.Minute)
			var errText string
			var frames, turn int
			var h1, h2 []uint32
			b.Eval(t, `window.rewind.error || ''`, &errText)
			if errText != "" {
				t.Fatalf("the page says: %s", errText)
			}
			b.Eval(t, `window.rewind.frames()`, &frames)
			b.Eval(t, `window.rewind.turn()`, &turn)
			if frames != p.turns+1 || turn != mid {
				t.Errorf("%d frames (want %d), at turn %d (want %d from #turn)", frames, p.turns+1, turn, mid)
			}
			b.Eval(t, boardHash, &h1)
			b.Eval(t, `window.rewind.seek(1), true`, nil)
			b.Eval(t, boardHash, &h2)
			if len(h1) != 2 || len(h2) != 2 || h1[1] == 0 || h1[0] == h2[0] {
				t.Errorf("board at turn %d %v, at turn 1 %v: want pixels drawn that change with the turn", mid, h1, h2)
			}
			if err := b.WaitJS(`window.rewind.chartsReady`, time.Minute); err != nil {
				t.Fatalf("charts: %v", err)
			}
			var lines []int
			var events int
			b.Eval(t, `[...document.querySelectorAll('[data-testid=chart]')].map(d => echarts.getInstanceByDom(d).getOption().series.length)`, &lines)
			b.Eval(t, `[...document.querySelectorAll('#events li.ev')].filter(l => new Set(window.rewind.packed().event_kinds.map(k => k.Name)).has(l.dataset.kind)).length`, &events)
			if len(lines) != len(monad.Ruleset.Metrics()) {
				t.Errorf("%d charts, want one per metric (%d)", len(lines), len(monad.Ruleset.Metrics()))
			}
			for i, n := range lines {
				if n != p.players {
					t.Errorf("chart %d has %d lines, want one per player (%d)", i, n, p.players)
				}
			}
			t.Logf("board %v then %v; %d charts; %d of %d events listed", h1, h2, len(lines), events, p.events)
			if events != p.events {
				t.Errorf("%d events listed, the replay has %d", events, p.events)
			}
		})
	}
	b.CheckRequests(t, "file://", "data:")
	b.CheckProblems(t)
}
