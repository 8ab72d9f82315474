package viewer

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/replay/source"
)

// monadBenchGame is a 500-turn 4-player Monad game of the built-ins.
func monadBenchGame(tb testing.TB) []byte {
	return monadRecording(tb, 42, 500, nil, []string{"expander", "miner", "expander", "miner"})
}

// BenchmarkMonadLoad re-simulates, analyses and packs a 500-turn 4-player
// Monad game (LoadMonad: what the server does on a cold open), and
// reports the blob's size and its gzip'd size.
//
// go test -run '^$' -bench MonadLoad -count 5 ./viewer
func BenchmarkMonadLoad(b *testing.B) {
	data := monadBenchGame(b)
	var rep *Replay
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		src, err := source.NewMonad(bytes.NewReader(data), nil)
		if err != nil {
			b.Fatal(err)
		}
		rep, err = LoadMonad(src)
		src.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if rep.Frames != 501 {
		b.Fatalf("%d frames, want 501", rep.Frames)
	}
	b.ReportMetric(float64(len(rep.Blob)), "blob-bytes")
	b.ReportMetric(float64(len(rep.Gzip)), "gzip-bytes")
}

// BenchmarkMonadBrowser opens the 500-turn 4-player game's page in
// headless Chromium (the file touched first, so each open decodes it
// again) and reports, as medians: first-frame-ms (navigation start to
// the "rw-first-frame" mark: the board of the first turn drawn), html-ms
// (of which the server's page) and seek-ms (the "rw-seek" measures of 50
// seeks to random turns, the page painting between them). It asserts
// nothing about time.
//
// go test -run '^$' -bench MonadBrowser -benchtime 10x ./viewer
func BenchmarkMonadBrowser(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "m500.rwd")
	if err := os.WriteFile(path, monadBenchGame(b), 0o644); err != nil {
		b.Fatal(err)
	}
	lib, err := OpenLibrary(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer lib.Close()
	base := serve(b, lib, Options{})
	br := browsertest.Start(b, 10*time.Minute)
	var first, html, seeks []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now := time.Now()
		os.Chtimes(path, now, now.Add(time.Duration(i+1)*time.Second))
		var ff, hr float64
		var ms []float64
		if err := chromedp.Run(br.Ctx, chromedp.Navigate(base+"/"), chromedp.Navigate(base+"/replay/m500.rwd")); err != nil {
			b.Fatal(err)
		}
		if err := br.WaitJS(`window.rewind && window.rewind.ready && window.rewind.chartsReady`, time.Minute); err != nil {
			b.Fatal(err)
		}
		err := chromedp.Run(br.Ctx,
			chromedp.Evaluate(`performance.getEntriesByName('rw-first-frame')[0].startTime`, &ff),
			chromedp.Evaluate(`performance.getEntriesByType('navigation')[0].responseEnd`, &hr),
			chromedp.Evaluate(`(async () => {
				performance.clearMeasures('rw-seek');
				let s = 12345;
				for (let k = 0; k < 50; k++) {
					s = (Math.imul(s, 1103515245) + 12345) >>> 0;
					window.rewind.seek(s % window.rewind.frames());
					await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
				}
				return performance.getEntriesByName('rw-seek').map(e => e.duration);
			})()`, &ms, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
		)
		if err != nil {
			b.Fatal(err)
		}
		if len(ms) != 50 {
			b.Fatalf("%d seek measures", len(ms))
		}
		if os.Getenv("REWIND_BENCH_TIMELINE") != "" { // where the first frame's time goes
			var tl string
			chromedp.Run(br.Ctx, chromedp.Evaluate(`JSON.stringify({
				res: performance.getEntriesByType('resource').map(e => [e.name.replace(location.origin, ''), Math.round(e.startTime), Math.round(e.responseEnd), e.transferSize]),
				marks: performance.getEntriesByType('mark').map(e => [e.name, Math.round(e.startTime)]),
			})`, &tl))
			b.Logf("timeline: %s", tl)
		}
		first, html, seeks = append(first, ff), append(html, hr), append(seeks, ms...)
	}
	b.StopTimer()
	b.ReportMetric(median(first), "first-frame-ms")
	b.ReportMetric(median(html), "html-ms")
	b.ReportMetric(median(seeks), "seek-ms")
	b.ReportMetric(percentile(seeks, 0.95), "seek-p95-ms")
	br.CheckProblems(b)
}
