package viewer

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestBrowserWhyLost drives the "why did I lose" tools of issue 14 on
// the replay page, for ColorfightII's c03 (8 players, 500 rounds, a
// game with a document of its own) and for a toy duel (a game without):
// the keys after a control, the charts (linked legends, log scale, CSV
// as `rewind analyze --format csv` writes it, PNG, zoom, ticks at round
// turns), the event filter, the scrubber's marks following it and the
// list following the turn.
func TestBrowserWhyLost(t *testing.T) {
	dir, base := fixtureServer(t, Options{})
	b := browsertest.Start(t, 4*time.Minute)
	if err := chromedp.Run(b.Ctx, chromedp.EmulateViewport(1400, 1000)); err != nil {
		t.Fatal(err)
	}
	openReplay(t, b, base+"/replay/c03.rwd#turn=100")

	// c03 as rewind analyze reads it (its document, for the CSV), and
	// its generic analysis, the page's events (AnalyzeStream's: the
	// document's skips the commands' text, and their errors).
	c03 := testutil.ReadFile(t, filepath.Join(dir, "c03.rwd"))
	s, err := source.NewStream(bytes.NewReader(c03), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := analysis.AnalyzeDocument(s)
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if s, err = source.NewStream(bytes.NewReader(c03), nil); err != nil {
		t.Fatal(err)
	}
	g, err := analysis.AnalyzeStream(s, analysis.Options{})
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	var names, uids []string
	for _, p := range a.Players {
		names, uids = append(names, a.Name(p.UID)), append(uids, strconv.Itoa(p.UID))
	}

	t.Run("keys after a control", func(t *testing.T) {
		// A focused dropdown keeps its value: the arrows step the turn.
		for _, id := range []string{"#speed", "#control-overlay"} {
			before := turnNow(t, b)
			var value0, value1 string
			b.Eval(t, `document.querySelector('`+id+`').value`, &value0)
			if err := chromedp.Run(b.Ctx, chromedp.Focus(id, chromedp.ByQuery), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowDown)); err != nil {
				t.Fatal(err)
			}
			b.Eval(t, `document.querySelector('`+id+`').value`, &value1)
			if got := turnNow(t, b); got != before+1-10 {
				t.Errorf("%s focused: → ↓ moved to turn %d from %d, want %d", id, got, before, before-9)
			}
			if value1 != value0 {
				t.Errorf("%s focused: the keys changed its value %q to %q", id, value0, value1)
			}
		}
		// A change gives the focus back.
		b.Eval(t, `(() => { const s = document.getElementById('speed'); s.focus(); s.value = '4'; s.dispatchEvent(new Event('change')); return true; })()`, nil)
		var focused bool
		b.Eval(t, `document.activeElement === document.getElementById('speed')`, &focused)
		if focused {
			t.Error("the speed dropdown keeps the focus after a change")
		}
		before := turnNow(t, b)
		chromedp.Run(b.Ctx, chromedp.KeyEvent(kb.ArrowLeft))
		if got := turnNow(t, b); got != before-1 {
			t.Errorf("← after picking a speed: turn %d, want %d", got, before-1)
		}
	})
	t.Run("charts", func(t *testing.T) {
		var full bytes.Buffer
		if err := a.WriteCSV(&full, "series"); err != nil {
			t.Fatal(err)
		}
		chartChecks(t, b, names, uids, "captured", 8, full.String(), a.Rounds)
		b.Screenshot(t, "whylost-charts.png")
	})
	t.Run("events", func(t *testing.T) {
		eventChecks(t, b, g, analysis.EventLeadChange, "home_captured")
		// The lead for good is listed in the analysis's words, and the
		// header says the outcome.
		var forGood, outcome string
		b.Eval(t, `(document.querySelector('#events li.ev-lead_for_good') || {}).textContent || ''`, &forGood)
		b.Eval(t, `(document.querySelector('[data-testid=outcome]') || {}).textContent || ''`, &outcome)
		n := 0
		for _, e := range g.Events {
			if e.Kind == analysis.EventLeadForGood {
				n++
				if !strings.HasSuffix(forGood, g.EventText(e, g.Name)) {
					t.Errorf("lead for good listed as %q, want %q", forGood, g.EventText(e, g.Name))
				}
			}
		}
		if o := g.Outcome(g.Name); n != 1 || o == "" || outcome != o {
			t.Errorf("%d leads for good; header outcome %q, want %q", n, outcome, o)
		}
	})
	t.Run("dark mode", func(t *testing.T) {
		dark := emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}})
		if err := chromedp.Run(b.Ctx, dark, chromedp.Navigate("about:blank")); err != nil {
			t.Fatal(err)
		}
		defer chromedp.Run(b.Ctx, emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}))
		openReplay(t, b, base+"/replay/c03.rwd#turn=10")
		var bg string
		b.Eval(t, `getComputedStyle(document.body).backgroundColor`, &bg)
		if bg != "rgb(23, 24, 27)" {
			t.Errorf("dark mode: the page's background is %s", bg)
		}
	})

	// The same tools on a game without a document: the toy duel, a
	// hostile name (quoted in the CSV) against bob.
	t.Run("toy", func(t *testing.T) {
		tdir := t.TempDir()
		write(t, filepath.Join(tdir, "duel.rwd"), []byte("square\n"))
		tlib, err := OpenLibrary(tdir)
		if err != nil {
			t.Fatal(err)
		}
		defer tlib.Close()
		tbase := serve(t, tlib, Options{OpenStream: openToyFile})
		openReplay(t, b, tbase+"/replay/duel.rwd#turn=5")
		f, err := os.Open(filepath.Join(tdir, "duel.rwd"))
		if err != nil {
			t.Fatal(err)
		}
		ts, err := openToyFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g, err := analysis.AnalyzeStream(ts, analysis.Options{})
		ts.Close()
		if err != nil {
			t.Fatal(err)
		}
		var full bytes.Buffer
		if err := g.WriteSeriesCSV(&full); err != nil {
			t.Fatal(err)
		}
		var tnames, tids []string
		for p := range g.Players {
			tnames, tids = append(tnames, g.Players[p].Name), append(tids, strconv.Itoa(p))
		}
		chartChecks(t, b, tnames, tids, "health", min(8, len(g.Meta.Metrics)), full.String(), g.Turns)
		eventChecks(t, b, g, "", "hit")
	})
}

// chartState is what a chart shows (window.rewind.chartState()).
type chartState struct {
	Metric   string
	Selected map[string]bool
	YType    string
	Title    string
	Names    []string
}

// chartChecks drives the charts of the page open in b, of a game whose
// players are names (their number in analyze's CSV ids), with charts
// charts: the legends, chart 0 showing
// metric on a log scale, a player hidden in a legend hidden in every
// chart, the CSV of chart 0 (full is what `rewind analyze --format csv`
// writes for the replay, rounds its last turn), PNG, zoom and the ticks.
func chartChecks(t *testing.T, b *browsertest.Browser, names, ids []string, metric string, charts int, full string, rounds int) {
	b.Wait(t, `window.rewind.chartsReady`, 30*time.Second)
	var cs []chartState
	b.Eval(t, `window.rewind.chartState()`, &cs)
	if len(cs) != charts {
		t.Fatalf("%d charts, want %d: %+v", len(cs), charts, cs)
	}
	for k, c := range cs {
		if !slices.Equal(c.Names, names) {
			t.Errorf("chart %d: series %q, want the players' names %q", k, c.Names, names)
		}
	}
	// Chart 0 shows metric on a log scale: a value ≤ 0 is a gap, the
	// others drawn as they are.
	var picked bool
	b.Eval(t, `window.rewind.pickMetric(0, `+jsString(metric)+`)`, &picked)
	b.Eval(t, `window.rewind.logScale(0, true), true`, nil)
	b.Eval(t, `window.rewind.chartState()`, &cs)
	if !picked || cs[0].Metric != metric || cs[0].YType != "log" || !strings.HasPrefix(cs[0].Title, strings.ReplaceAll(metric, "_", " ")) {
		t.Errorf("after picking %s on a log scale: %+v", metric, cs[0])
	}
	var drawn struct{ Drawn, Positive, Wrong int }
	b.Eval(t, `(() => { const r = window.rewind, P = r.packed(), i = P.metrics.findIndex(m => m.name === `+jsString(metric)+`);
		const o = echarts.getInstanceByDom(document.querySelectorAll('[data-testid=chart]')[0]).getOption();
		let drawn = 0, positive = 0, wrong = 0;
		o.series.forEach((s, p) => s.data.forEach((v, k) => { const x = P.frames[k + 1].values[p][i];
			if (x > 0) positive++;
			if (v != null) { drawn++; if (v !== x) wrong++; } }));
		return {Drawn: drawn, Positive: positive, Wrong: wrong}; })()`, &drawn)
	if drawn.Drawn != drawn.Positive || drawn.Wrong != 0 || drawn.Positive == 0 {
		t.Errorf("log scale: %d values drawn, %d wrong, of %d positive ones", drawn.Drawn, drawn.Wrong, drawn.Positive)
	}
	// The log box is chart 0's: the others stay linear.
	for k, c := range cs[1:] {
		if c.YType != "value" {
			t.Errorf("chart %d: a %s scale", k+1, c.YType)
		}
	}
	// Hide a player in the last chart's legend: hidden in every chart.
	hidden := 1
	last := len(cs) - 1
	b.Eval(t, fmt.Sprintf(`window.rewind.legendSelect(%d, %s, false), true`, last, jsString(names[hidden])), nil)
	if err := b.WaitJS(`window.rewind.chartState().every(c => c.selected[`+jsString(names[hidden])+`] === false)`, 5*time.Second); err != nil {
		b.Eval(t, `window.rewind.chartState()`, &cs)
		t.Errorf("hiding %q in one legend: %v (%+v)", names[hidden], err, cs)
	}
	// The CSV and PNG buttons of chart 0: what they hand the browser to
	// save (the links they click are caught).
	var saved struct{ CSVName, CSV, PNGName, PNG string }
	err := chromedp.Run(b.Ctx, chromedp.Evaluate(`(async () => {
		const got = [], blobs = {}, click = HTMLAnchorElement.prototype.click, create = URL.createObjectURL;
		HTMLAnchorElement.prototype.click = function () { got.push([this.download, this.href]); };
		URL.createObjectURL = function (o) { const u = create.call(URL, o); blobs[u] = o; return u; };
		const bar = document.querySelectorAll('.chart-box')[0];
		try { bar.querySelector('[data-testid=chart-csv]').click(); bar.querySelector('[data-testid=chart-png]').click(); } finally { HTMLAnchorElement.prototype.click = click; URL.createObjectURL = create; }
		const csv = blobs[got[0][1]] ? await blobs[got[0][1]].text() : 'no blob for ' + got[0][1];
		return {CSVName: got[0][0], CSV: csv, PNGName: got[1][0], PNG: got[1][1]};
	})()`, &saved, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if err != nil {
		t.Fatal(err)
	}
	// CSV: analyze's, its columns before the metrics' and metric's,
	// without the hidden player's rows.
	want := csvColumn(t, full, metric, ids[hidden])
	if saved.CSVName != "rewind-"+metric+".csv" || saved.CSV != want {
		t.Errorf("CSV %q of %s: %d bytes, want %d\n%.300q…\nwant\n%.300q…", saved.CSVName, metric, len(saved.CSV), len(want), saved.CSV, want)
	}
	// PNG: the chart as an image.
	png, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(saved.PNG, "data:image/png;base64,"))
	if saved.PNGName != "rewind-"+metric+".png" || !strings.HasPrefix(saved.PNG, "data:image/png;base64,") || err != nil || len(png) < 1000 || string(png[1:4]) != "PNG" {
		t.Errorf("PNG %q: %.40q…, %d bytes (%v)", saved.PNGName, saved.PNG, len(png), err)
	}
	// Back to a linear scale.
	b.Eval(t, `window.rewind.logScale(0, false), window.rewind.chartState()`, &cs)
	if cs[0].YType != "value" {
		t.Errorf("log box unticked: a %s scale", cs[0].YType)
	}
	// Zoom: chart 0's slider at 50–100% shows the second half of the
	// turns (categories 0..rounds-1 are turns 1..rounds).
	var zoom []float64
	b.Eval(t, `(() => { const c = echarts.getInstanceByDom(document.querySelectorAll('[data-testid=chart]')[0]); c.dispatchAction({type: 'dataZoom', start: 50, end: 100}); return c.getModel().getComponent('xAxis').axis.scale.getExtent(); })()`, &zoom)
	if h := float64(rounds) / 2; len(zoom) != 2 || zoom[0] < h-0.05*float64(rounds) || zoom[0] > h+0.05*float64(rounds) || zoom[1] < float64(rounds)-1-0.01*float64(rounds) {
		t.Errorf("zoomed to 50–100%% of %d turns: categories %v shown", rounds, zoom)
	}
	b.Eval(t, `(() => { const c = echarts.getInstanceByDom(document.querySelectorAll('[data-testid=chart]')[0]); c.dispatchAction({type: 'dataZoom', start: 0, end: 100}); return true; })()`, nil)
	// Ticks at round turns: 1, then multiples of one step of 1, 2 or 5
	// times a power of ten, in every chart; labels are the turns alone.
	var ticks [][]string
	b.Eval(t, `[...document.querySelectorAll('[data-testid=chart]')].map(d => echarts.getInstanceByDom(d).getModel().getComponent('xAxis').axis.getViewLabels().map(l => String(l.formattedLabel)))`, &ticks)
	if len(ticks) != charts {
		t.Errorf("tick labels of %d charts", len(ticks))
	}
	for k, ls := range ticks {
		if len(ls) < 3 || ls[0] != "1" {
			t.Errorf("chart %d: tick labels %q", k, ls)
			continue
		}
		step, _ := strconv.Atoi(ls[1])
		for i, l := range ls[1:] {
			if n, err := strconv.Atoi(l); err != nil || n != step*(i+1) || !roundStep(step) {
				t.Errorf("chart %d: tick labels %q, not at round turns", k, ls)
				break
			}
		}
	}
	b.Eval(t, fmt.Sprintf(`window.rewind.legendSelect(0, %s, true), true`, jsString(names[hidden])), nil)
	if err := b.WaitJS(`window.rewind.chartState().every(c => c.selected[`+jsString(names[hidden])+`] === true)`, 5*time.Second); err != nil {
		t.Errorf("showing %q again: %v", names[hidden], err)
	}
}

// csvColumn is the series CSV full (analyze's, of either layout: turn,
// the player's number, maybe its name, then the metrics) cut to the
// fields before the metrics' and column name's, without the rows of the
// player numbered hidden. The metrics' values are the last fields of a
// row (a quoted name may hold commas).
func csvColumn(t *testing.T, full, name, hidden string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(full, "\n"), "\n")
	head := strings.Split(lines[0], ",")
	keys := 2 // turn, uid
	if slices.Contains(head, "name") {
		keys = 3 // turn, player, name
	}
	col := slices.Index(head, name)
	if col < keys {
		t.Fatalf("analyze's CSV has no column %q: %q", name, lines[0])
	}
	values := len(head) - keys
	var b strings.Builder
	b.WriteString(strings.Join(head[:keys], ",") + "," + name + "\n")
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if f[1] == hidden {
			continue
		}
		b.WriteString(strings.Join(f[:len(f)-values], ",") + "," + f[len(f)-values+col-keys] + "\n")
	}
	return b.String()
}

// roundStep: n is 1, 2 or 5 times a power of ten.
func roundStep(n int) bool {
	for n >= 10 && n%10 == 0 {
		n /= 10
	}
	return n == 1 || n == 2 || n == 5
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// eventChecks drives the events of the page open in b, whose analysis
// is g: at first the lead changes of the opening only (leads, "" for a
// game where the test does not count on them), the filter, the
// scrubber's marks following it, the arrows after a box was clicked
// (kind's, which it hides), the list following the turn.
func eventChecks(t *testing.T, b *browsertest.Browser, g *analysis.Analysis, leads, kind string) {
	count, later := map[string]int{}, map[string]int{}
	for _, e := range g.Events {
		count[e.Kind]++
		if !g.ShownAtFirst(e) {
			later[e.Kind]++
		}
	}
	if count[kind] == 0 || leads != "" && (later[leads] == 0 || later[leads] == count[leads]) {
		t.Fatalf("the events: %v, %v folded", count, later)
	}
	type listedRows struct{ Rows, Marks, Kind, KindMarks, Leads, Last int }
	listed := func() listedRows {
		var r listedRows
		b.Eval(t, `(() => { const shown = s => [...document.querySelectorAll(s)].filter(e => !e.hidden), l = shown('#events li.ev-`+leads+`');
			return {Rows: shown('#events li.ev').length, Marks: document.querySelectorAll('.marks .mark').length,
				Kind: shown('#events li.ev-`+kind+`').length, KindMarks: document.querySelectorAll('.marks .mk-`+kind+`').length,
				Leads: l.length, Last: Math.max(0, ...l.map(e => +e.dataset.turn))}; })()`, &r)
		return r
	}
	at := listed()
	folded := 0
	for _, n := range later {
		folded += n
	}
	if at.Rows != len(g.Events)-folded || at.Marks == 0 || at.Kind != count[kind] || at.KindMarks == 0 {
		t.Errorf("at first: %+v, want %d rows (%d folded), %d of %s", at, len(g.Events)-folded, folded, count[kind], kind)
	}
	if leads != "" {
		early := analysis.EarlyLeadTurns(g.Turns)
		if at.Leads != count[leads]-later[leads] || at.Last > early {
			t.Errorf("at first: %d lead changes listed (want the %d up to turn %d; the last at turn %d)", at.Leads, count[leads]-later[leads], early, at.Last)
		}
		// Its box is half-checked and says how many are folded.
		var box string
		b.Eval(t, `(() => { const c = document.querySelector('#events input[data-kind="`+leads+`"]'); return c.indeterminate && !c.checked ? c.parentNode.querySelector('[data-testid=ev-folded]').textContent : 'box ' + c.checked; })()`, &box)
		if !strings.Contains(box, strconv.Itoa(later[leads])+" later folded") {
			t.Errorf("the lead changes' box says %q, want %d folded", box, later[leads])
		}
		// Tick it: all listed, and marked.
		b.Eval(t, `document.querySelector('#events input[data-kind="`+leads+`"]').click(), true`, nil)
		all := listed()
		if all.Rows != len(g.Events) || all.Leads != count[leads] || all.Marks <= at.Marks {
			t.Errorf("with the lead changes: %+v, want %d rows, %d lead changes, more than %d marks", all, len(g.Events), count[leads], at.Marks)
		}
		at = all
	}
	// Untick kind with the mouse: its rows and marks go, and the arrows
	// still step the turn.
	if err := chromedp.Run(b.Ctx, chromedp.Click(`#events input[data-kind="`+kind+`"]`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	none := listed()
	if none.Kind != 0 || none.KindMarks != 0 || none.Rows != at.Rows-count[kind] {
		t.Errorf("%s unticked: %+v", kind, none)
	}
	before := turnNow(t, b)
	chromedp.Run(b.Ctx, chromedp.KeyEvent(kb.ArrowRight))
	if got := turnNow(t, b); got != before+1 {
		t.Errorf("→ after the filter: turn %d, want %d", got, before+1)
	}
	// After a seek, the list shows the last listed row at or before the
	// turn (the first row before any).
	lastTurn, firstTurn := 0, g.Turns
	for _, e := range g.Events {
		if e.Kind != kind {
			lastTurn, firstTurn = max(lastTurn, e.Turn), min(firstTurn, e.Turn)
		}
	}
	for _, turn := range []int{lastTurn, max(0, firstTurn-1), (firstTurn + lastTurn) / 2, lastTurn} {
		b.Eval(t, fmt.Sprintf(`window.rewind.seek(%d), true`, turn), nil)
		if err := b.WaitJS(fmt.Sprintf(`(() => { const l = document.querySelector('#events .event-list'), rows = [...document.querySelectorAll('#events li.ev')].filter(e => !e.hidden), r = document.querySelector('#events li.at') || rows[0];
			if (!r || r.hidden) return false;
			const best = Math.max(-1, ...rows.map(e => +e.dataset.turn).filter(x => x <= %d));
			if (best >= 0 ? +r.dataset.turn !== best : r.classList.contains('at')) return false;
			const a = l.getBoundingClientRect(), b = r.getBoundingClientRect(); return b.top >= a.top - 1 && b.bottom <= a.bottom + 1; })()`, turn), 5*time.Second); err != nil {
			t.Errorf("turn %d: the event list's row for it is not marked or stays out of view: %v", turn, err)
		}
	}
	// Tick kind again.
	b.Eval(t, `document.querySelector('#events input[data-kind="`+kind+`"]').click(), true`, nil)
	if again := listed(); again.Kind != count[kind] {
		t.Errorf("%s ticked again: %d rows", kind, again.Kind)
	}
}
