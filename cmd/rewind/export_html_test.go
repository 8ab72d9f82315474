package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestExportColorfightHTML: export --html writes the replay page of a
// ColorfightII game — a match played by `rewind play` and the reference
// server's c03.cfr (commands inferred) — as one self-contained file;
// opened from disk in headless Chromium it opens at #turn=N with every
// frame, draws a board that changes with the turn, lists the commands of
// the turn and the events, draws the charts (4, the >24-metric layout,
// a line per player), requests nothing beyond the file and has no
// script error.
func TestExportColorfightHTML(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "game.rwd")
	mustRunCLI(t, "play", "--bot", "greedy", "--bot", "raider", "--bot", "turtle", "--turns", "200", "--seed", "3", "-o", rwd)
	type page struct {
		in, out string
		frames  int
		players int
	}
	var pages []page
	for _, in := range []string{rwd, filepath.Join("..", "..", "testdata", "conformance", "c03.cfr")} {
		out := filepath.Join(dir, filepath.Base(in)+".html")
		said, err := runCLIOut(t, "export", "--html", in, "-o", out)
		if err != nil {
			t.Fatalf("export --html %s: %v\n%s", in, err, said)
		}
		html := testutil.ReadFile(t, out)
		if !bytes.Contains(html, []byte(`id="rw-data"`)) || !bytes.Contains(html, []byte("Content-Security-Policy")) || !bytes.Contains(html, []byte("rewind.boards.colorfight2")) ||
			bytes.Contains(html, []byte("<script src")) || bytes.Contains(html, []byte("/static/")) {
			t.Errorf("%s is not a self-contained replay page with ColorfightII's painter (%d bytes)", out, len(html))
		}
		// What the page must show: the frames and events of the stream
		// the viewer reads.
		s, err := source.OpenStream(in)
		if err != nil {
			t.Fatal(err)
		}
		p := page{in: in, out: out, players: len(s.Meta().Players)}
		var f engine.Frame
		for {
			if err := s.Next(&f); err != nil {
				break
			}
			p.frames++
		}
		s.Close()
		pages = append(pages, p)
	}

	b := browsertest.Start(t, 4*time.Minute)
	for _, p := range pages {
		t.Run(filepath.Base(p.in), func(t *testing.T) {
			mid := p.frames / 2
			if err := chromedp.Run(b.Ctx, chromedp.Navigate(fmt.Sprintf("file://%s#turn=%d", p.out, mid))); err != nil {
				t.Fatal(err)
			}
			b.Wait(t, `window.rewind && (window.rewind.ready || window.rewind.error)`, time.Minute)
			var errText string
			var frames, turn int
			b.Eval(t, `window.rewind.error || ''`, &errText)
			if errText != "" {
				t.Fatalf("the page says: %s", errText)
			}
			b.Eval(t, `window.rewind.frames()`, &frames)
			b.Eval(t, `window.rewind.turn()`, &turn)
			if frames != p.frames || turn != mid {
				t.Errorf("%d frames (the stream has %d), at turn %d (want %d from #turn)", frames, p.frames, turn, mid)
			}
			const boardHash = `(() => { const c = document.getElementById('board'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let h = 2166136261; for (let i = 0; i < d.length; i += 4) h = Math.imul(h ^ d[i] ^ (d[i+1] << 8) ^ (d[i+2] << 16), 16777619); return h >>> 0; })()`
			var h1, h2 uint32
			b.Eval(t, boardHash, &h1)
			b.Eval(t, `window.rewind.seek(1), true`, nil)
			b.Eval(t, boardHash, &h2)
			if h1 == h2 {
				t.Errorf("the board at turn %d and at turn 1 draw the same pixels", mid)
			}
			b.Eval(t, fmt.Sprintf(`window.rewind.seek(%d), true`, mid), nil)
			var commands string
			b.Eval(t, `document.querySelector('[data-testid=commands]').textContent`, &commands)
			if !strings.Contains(commands, " in round ") {
				t.Errorf("the commands panel at turn %d: %.300q", mid, commands)
			}
			if strings.HasSuffix(p.in, ".cfr") && !strings.Contains(commands, "commands inferred from the replay") {
				t.Errorf("a .cfr's commands are not said to be inferred: %.300q", commands)
			}
			if err := b.WaitJS(`window.rewind.chartsReady`, time.Minute); err != nil {
				t.Fatalf("charts: %v", err)
			}
			var lines []int
			var events int
			b.Eval(t, `[...document.querySelectorAll('[data-testid=chart]')].map(d => echarts.getInstanceByDom(d).getOption().series.length)`, &lines)
			b.Eval(t, `document.querySelectorAll('#events li.ev').length`, &events)
			if len(lines) != 8 {
				t.Errorf("%d charts, want 8 (a page shows at most 8; ColorfightII has more metrics)", len(lines))
			}
			for i, n := range lines {
				if n != p.players {
					t.Errorf("chart %d has %d lines, want one per player (%d)", i, n, p.players)
				}
			}
			if events == 0 {
				t.Error("no event listed")
			}
		})
	}
	b.CheckRequests(t, "file://", "data:")
	b.CheckProblems(t)
}
