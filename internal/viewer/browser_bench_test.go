package viewer

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
)

// busiestJS is a script's function of a turn (-1: every turn) giving the
// player of the page (window.rewind) who sent the most commands then.
const busiestJS = `(t) => {
	const P = window.rewind.packed();
	let best = 0, most = -1;
	for (let p = 0; p < P.players.length; p++) {
		let n = 0;
		P.frames.forEach((f, k) => { if (t < 0 || k === t) n += ((f.commands || [])[p] || []).length; });
		if (n > most) { most = n; best = p; }
	}
	return best;
}`

// BenchmarkBrowserViewer opens the 500-round, 8-player c03 replay in
// headless Chromium and reads the page's own performance entries:
//
//   - first-frame-ms: the "rw-first-frame" mark, milliseconds after
//     navigation start until the board of the first turn is drawn. The
//     file is touched before every load, so the server decodes and
//     re-simulates it each time (a cold open).
//   - html-ms: of which the page's HTML (the server decoding the replay
//     and rendering the page) took this long, and after-html-ms the rest:
//     the blob's transfer, its inflating and parse and the first draw
//     (the page's own part). With REWIND_BENCH_TIMELINE=1 it logs each
//     load's timeline: resources, and the marks rw-script (the script
//     ran and asked for the blob), rw-data (the blob inflated and handed
//     to the script), rw-parsed and rw-first-frame.
//   - seek-ms (median) and seek-p95-ms: the "rw-seek" measures of 50 seeks
//     to random turns with a player selected (the one with the most
//     commands), so each covers the board with that player's actions
//     drawn and the others dimmed, the player panel, the inspector, the
//     commands panel, the event list and the chart cursors. The page
//     paints between seeks, as it does between a user's.
//
// Issue 14's budget: first frame ≤ 300 ms, seek ≤ 8 ms median.
//
// It reports; it asserts nothing about time. Run it with
// go test -run '^$' -bench BrowserViewer -benchtime 10x ./viewer
func BenchmarkBrowserViewer(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "c03.rwd")
	write(b, path, vectorRWD(b, "c03"))
	base := serveDir(b, dir, Options{})
	br := browsertest.Start(b, 10*time.Minute)
	var first, html, after, seeks []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now := time.Now()
		os.Chtimes(path, now, now.Add(time.Duration(i+1)*time.Second))
		var ff, hr float64
		var ms []float64
		err := chromedp.Run(br.Ctx, chromedp.Navigate(base+"/"), chromedp.Navigate(base+"/replay/c03.rwd"))
		if err != nil {
			b.Fatal(err)
		}
		if err := br.WaitJS(`window.rewind && window.rewind.ready && window.rewind.chartsReady`, time.Minute); err != nil {
			b.Fatal(err)
		}
		err = chromedp.Run(br.Ctx,
			chromedp.Evaluate(`performance.getEntriesByName('rw-first-frame')[0].startTime`, &ff),
			chromedp.Evaluate(`performance.getEntriesByType('navigation')[0].responseEnd`, &hr),
			chromedp.Evaluate(`(async () => {
				// Select the player with the most commands: its actions are
				// drawn on the board at every seek.
				window.rewind.select((`+busiestJS+`)(-1));
				performance.clearMeasures('rw-seek');
				let s = 12345;
				for (let k = 0; k < 50; k++) {
					s = (Math.imul(s, 1103515245) + 12345) >>> 0;
					window.rewind.seek(s % window.rewind.frames());
					// Let the page paint, as between a user's seeks.
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
				nav: (({responseStart, responseEnd, domInteractive, domContentLoadedEventEnd, loadEventEnd, transferSize, decodedBodySize}) => ({responseStart, responseEnd, domInteractive, domContentLoadedEventEnd, loadEventEnd, transferSize, decodedBodySize}))(performance.getEntriesByType('navigation')[0]),
				res: performance.getEntriesByType('resource').map(e => [e.name.replace(location.origin, ''), Math.round(e.startTime), Math.round(e.responseEnd), e.transferSize, e.decodedBodySize]),
				marks: performance.getEntriesByType('mark').map(e => [e.name, Math.round(e.startTime)]),
			})`, &tl))
			b.Logf("timeline: %s", tl)
		}
		first, html = append(first, ff), append(html, hr)
		after = append(after, ff-hr)
		seeks = append(seeks, ms...)
	}
	b.StopTimer()
	b.ReportMetric(median(first), "first-frame-ms")
	b.ReportMetric(median(html), "html-ms")
	b.ReportMetric(median(after), "after-html-ms")
	b.ReportMetric(median(seeks), "seek-ms")
	b.ReportMetric(percentile(seeks, 0.95), "seek-p95-ms")
	br.CheckProblems(b)
}

func median(v []float64) float64 { return percentile(v, 0.5) }

func percentile(v []float64, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[int(p*float64(len(s)-1)+0.5)]
}
