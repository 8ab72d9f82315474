package viewer

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/internal/browsertest"
)

// TestBrowserWhyLost drives what issue 14 added to the replay page: keys
// after a control was used, the stats chart (picker, linked legends, log
// scale, CSV), the event filter and the scrubber's marks.
func TestBrowserWhyLost(t *testing.T) {
	dir := fixtureLibrary(t)
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{})
	b := browsertest.Start(t, 3*time.Minute)
	openReplay(t, b, base+"/replay/c03.rwd#turn=100")

	t.Run("keys after a control", func(t *testing.T) {
		// Pick a speed and an overlay with the mouse's events: the
		// dropdown keeps no focus, and the arrows step the turn even when
		// it has it.
		for _, id := range []string{"#speed", "#overlay"} {
			before := turnNow(t, b)
			var value0, value1 string
			evalJS(t, b, `document.querySelector('`+id+`').value`, &value0)
			if err := chromedp.Run(b.Ctx, chromedp.Focus(id, chromedp.ByQuery), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowDown)); err != nil {
				t.Fatal(err)
			}
			evalJS(t, b, `document.querySelector('`+id+`').value`, &value1)
			if got := turnNow(t, b); got != before+1-10 {
				t.Errorf("%s focused: → ↓ moved to turn %d from %d, want %d", id, got, before, before-9)
			}
			if value1 != value0 {
				t.Errorf("%s focused: the keys changed its value %q to %q", id, value0, value1)
			}
		}
		evalJS(t, b, `(() => { const s = document.getElementById('speed'); s.focus(); s.value = '4'; s.dispatchEvent(new Event('change')); return true; })()`, nil)
		var focused bool
		evalJS(t, b, `document.activeElement === document.getElementById('speed')`, &focused)
		if focused {
			t.Error("the speed dropdown keeps the focus after a change")
		}
		before := turnNow(t, b)
		chromedp.Run(b.Ctx, chromedp.KeyEvent(kb.ArrowLeft))
		if got := turnNow(t, b); got != before-1 {
			t.Errorf("← after picking a speed: turn %d, want %d", got, before-1)
		}
	})
	t.Run("stats chart", func(t *testing.T) {
		rep, err := LoadReader(bytes.NewReader(vectorRWD(t, "c03")))
		if err != nil {
			t.Fatal(err)
		}
		statsChecks(t, b, rep)
		eventChecks(t, b, rep)
		captureChecks(t, b, rep)
		boardChecks(t, b)
		actionChecks(t, b)
		b.Screenshot(t, "whylost-stats.png")
	})
	t.Run("widths", func(t *testing.T) { widthChecks(t, b, base+"/replay/c03.rwd#turn=300") })
	t.Run("dark mode", func(t *testing.T) {
		dark := emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}})
		if err := chromedp.Run(b.Ctx, dark, chromedp.Navigate("about:blank")); err != nil {
			t.Fatal(err)
		}
		defer chromedp.Run(b.Ctx, emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}))
		openReplay(t, b, base+"/replay/c03.rwd#turn=10")
		var bg string
		evalJS(t, b, `getComputedStyle(document.body).backgroundColor`, &bg)
		if bg != "rgb(23, 24, 27)" {
			t.Errorf("dark mode: the page's background is %s", bg)
		}
	})
}

// statsChecks drives the stats chart: the picker, the linked legends, the
// log scale and the CSV export.
func statsChecks(t *testing.T, b *browsertest.Browser, rep *Replay) {
	if err := b.WaitJS(`window.rewind.chartsReady`, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	type chartState struct {
		ID       string
		Selected map[string]bool
		YType    string
		Title    string
		Names    []string
	}
	var cs []chartState
	evalJS(t, b, `window.rewind.chartState()`, &cs)
	if len(cs) != 5 || cs[0].ID != "stat" {
		t.Fatalf("charts %+v", cs)
	}
	a := rep.Analysis
	for _, c := range cs {
		if len(c.Names) != len(a.Players) {
			t.Fatalf("chart %s: series %q", c.ID, c.Names)
		}
		for i, n := range c.Names {
			if n != a.Name(a.Players[i].UID) {
				t.Errorf("chart %s: series %d named %q, want the player's name %q once", c.ID, i, n, a.Name(a.Players[i].UID))
			}
		}
	}
	// Pick "cells captured" on a log scale.
	evalJS(t, b, `window.rewind.pickStat('captured', true), true`, nil)
	evalJS(t, b, `window.rewind.chartState()`, &cs)
	if cs[0].YType != "log" || cs[0].Title != "cells captured" {
		t.Errorf("after picking captured on a log scale: %+v", cs[0])
	}
	// Hide a player in the gold chart's legend: hidden in every chart.
	hide := a.Name(a.Players[1].UID)
	evalJS(t, b, `(() => { const c = document.querySelector('[data-chart="gold"]'); c.scrollIntoView(); return true; })()`, nil)
	evalJS(t, b, `window.rewind.legendSelect('gold', `+jsString(hide)+`, false), true`, nil)
	if err := b.WaitJS(`window.rewind.chartState().every(c => c.selected[`+jsString(hide)+`] === false)`, 5*time.Second); err != nil {
		evalJS(t, b, `window.rewind.chartState()`, &cs)
		t.Errorf("hiding %q in one legend: %v (%+v)", hide, err, cs)
	}
	// The CSV and PNG buttons: what they hand the browser to save (the
	// links they click are caught).
	var saved struct {
		CSVName, CSV, PNGName, PNG string
	}
	err := chromedp.Run(b.Ctx, chromedp.Evaluate(`(async () => {
		const got = [], blobs = {}, click = HTMLAnchorElement.prototype.click, create = URL.createObjectURL;
		HTMLAnchorElement.prototype.click = function () { got.push([this.download, this.href]); };
		URL.createObjectURL = function (o) { const u = create.call(URL, o); blobs[u] = o; return u; };
		try { document.getElementById('stat-csv').click(); document.getElementById('stat-png').click(); } finally { HTMLAnchorElement.prototype.click = click; URL.createObjectURL = create; }
		const csv = blobs[got[0][1]] ? await blobs[got[0][1]].text() : 'no blob for ' + got[0][1];
		return {CSVName: got[0][0], CSV: csv, PNGName: got[1][0], PNG: got[1][1]};
	})()`, &saved, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if err != nil {
		t.Fatal(err)
	}
	// CSV: what `rewind analyze --format csv` writes (WriteCSV "series"),
	// its turn, uid and captured columns, without the hidden player.
	var full bytes.Buffer
	if err := a.WriteCSV(&full, "series"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(full.String(), "\n"), "\n")
	col := slices.Index(strings.Split(lines[0], ","), "captured")
	hiddenUID := strconv.Itoa(a.Players[1].UID)
	var want strings.Builder
	want.WriteString("turn,uid,captured\n")
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if f[1] != hiddenUID {
			fmt.Fprintf(&want, "%s,%s,%s\n", f[0], f[1], f[col])
		}
	}
	if col < 0 || len(lines) != 1+a.Rounds*len(a.Players) {
		t.Fatalf("analyze's CSV: %d lines, captured column %d", len(lines), col)
	}
	if saved.CSVName != "rewind-captured.csv" || saved.CSV != want.String() {
		t.Errorf("CSV %q of captured: %d bytes, want %d (%.200q…)", saved.CSVName, len(saved.CSV), want.Len(), saved.CSV)
	}
	// PNG: the chart as an image.
	png, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(saved.PNG, "data:image/png;base64,"))
	if saved.PNGName != "rewind-captured.png" || !strings.HasPrefix(saved.PNG, "data:image/png;base64,") || err != nil || len(png) < 1000 || string(png[1:4]) != "PNG" {
		t.Errorf("PNG %q: %.40q…, %d bytes (%v)", saved.PNGName, saved.PNG, len(png), err)
	}
	// Zoom: the stats chart's slider shows turns 251–500 of c03's 500.
	var zoom []float64
	evalJS(t, b, `(() => { const c = echarts.getInstanceByDom(document.getElementById('chart-stat')); c.dispatchAction({type: 'dataZoom', start: 50, end: 100}); return c.getModel().getComponent('xAxis').axis.scale.getExtent(); })()`, &zoom)
	if len(zoom) != 2 || zoom[0] < 240 || zoom[0] > 260 || zoom[1] < 495 {
		t.Errorf("zoomed to 50–100%%: categories %v shown", zoom)
	}
	evalJS(t, b, `(() => { const c = echarts.getInstanceByDom(document.getElementById('chart-stat')); c.dispatchAction({type: 'dataZoom', start: 0, end: 100}); return true; })()`, nil)
	// Ticks at round turns: 1, then multiples of one step of 1, 2 or 5
	// times a power of ten, in every chart; labels are the turns alone.
	var ticks map[string][]string
	evalJS(t, b, `Object.fromEntries([...document.querySelectorAll('.charts .chart')].map(d => [d.id, echarts.getInstanceByDom(d).getModel().getComponent('xAxis').axis.getViewLabels().map(l => String(l.formattedLabel))]))`, &ticks)
	if len(ticks) != 5 {
		t.Errorf("tick labels of %d charts", len(ticks))
	}
	for id, ls := range ticks {
		if len(ls) < 3 || ls[0] != "1" {
			t.Errorf("chart %s: tick labels %q", id, ls)
			continue
		}
		step, _ := strconv.Atoi(ls[1])
		for k, l := range ls[1:] {
			if n, err := strconv.Atoi(l); err != nil || n != step*(k+1) || !roundStep(step) {
				t.Errorf("chart %s: tick labels %q, not at round turns", id, ls)
				break
			}
		}
	}
	evalJS(t, b, `window.rewind.legendSelect('stat', `+jsString(hide)+`, true), true`, nil)
	if err := b.WaitJS(`window.rewind.chartState().every(c => c.selected[`+jsString(hide)+`] === true)`, 5*time.Second); err != nil {
		t.Errorf("showing %q again: %v", hide, err)
	}
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

// eventChecks drives the events: at first the lead changes of the
// opening only (EarlyLeadTurns) and the lead for good, the filter, the
// scrubber's marks, the list following the turn.
func eventChecks(t *testing.T, b *browsertest.Browser, rep *Replay) {
	a := rep.Analysis
	early := analysis.EarlyLeadTurns(a.Rounds)
	count := map[string]int{}
	earlyLeads := 0
	for _, e := range a.Events {
		count[e.Kind]++
		if e.Kind == analysis.EventLeadChange && e.Turn <= early {
			earlyLeads++
		}
	}
	if earlyLeads == 0 || earlyLeads == count[analysis.EventLeadChange] || count[analysis.EventLeadForGood] != 1 {
		t.Fatalf("c03's events: %v, %d lead changes up to turn %d", count, earlyLeads, early)
	}
	listed := func() (rows, marks, leads, lastLead int) {
		var r struct{ Rows, Marks, Leads, Last int }
		evalJS(t, b, `(() => { const l = [...document.querySelectorAll('#events li.ev-lead_change')]; return {Rows: document.querySelectorAll('#events li.ev').length, Marks: document.querySelectorAll('.marks .mark').length, Leads: l.length, Last: Math.max(0, ...l.map(e => +e.dataset.turn))}; })()`, &r)
		return r.Rows, r.Marks, r.Leads, r.Last
	}
	rows, marks, leads, lastLead := listed()
	if want := len(a.Events) - count[analysis.EventLeadChange] + earlyLeads; rows != want || leads != earlyLeads || lastLead > early || marks == 0 {
		t.Errorf("at first: %d rows (want %d), %d lead changes (want the %d up to turn %d; the last at turn %d), %d marks", rows, want, leads, earlyLeads, early, lastLead, marks)
	}
	var until string
	evalJS(t, b, `(() => { const c = document.querySelector('#events input[data-kind="lead_change"]'); return c.indeterminate && !c.checked ? document.querySelector('[data-testid=ev-until]').textContent : 'box ' + c.checked; })()`, &until)
	if want := fmt.Sprintf(" to turn %d", early); until != want {
		t.Errorf("the lead changes' box says %q, want %q", until, want)
	}
	var forGood string
	evalJS(t, b, `(document.querySelector('#events li.ev-lead_for_good .ev-text') || {}).textContent || ''`, &forGood)
	for _, e := range a.Events {
		if e.Kind == analysis.EventLeadForGood && forGood != a.EventText(e, a.Name) {
			t.Errorf("lead for good listed as %q, want %q", forGood, a.EventText(e, a.Name))
		}
	}
	var summary string
	evalJS(t, b, `document.querySelector('[data-testid=summary]').textContent`, &summary)
	if o := a.Outcome(); o == "" || !strings.Contains(summary, o) {
		t.Errorf("header %q lacks the outcome %q", summary, o)
	}
	// Show the lead changes: listed and marked.
	evalJS(t, b, `(() => { const c = document.querySelector('#events input[data-kind="lead_change"]'); c.click(); return true; })()`, nil)
	rows2, marks2, leads2, _ := listed()
	if rows2 != len(a.Events) || leads2 != count[analysis.EventLeadChange] || marks2 <= marks {
		t.Errorf("with lead changes: %d rows (want %d), %d lead changes, %d marks (were %d)", rows2, len(a.Events), leads2, marks2, marks)
	}
	// Hide the homes captured.
	evalJS(t, b, `(() => { const c = document.querySelector('#events input[data-kind="home_captured"]'); c.click(); return true; })()`, nil)
	var homes int
	evalJS(t, b, `document.querySelectorAll('#events li.ev-home_captured').length + document.querySelectorAll('.marks .mk-home_captured').length`, &homes)
	if homes != 0 {
		t.Errorf("home captures hidden: %d rows and marks left", homes)
	}
	// The arrows still step after a box was clicked.
	before := turnNow(t, b)
	chromedp.Run(b.Ctx, chromedp.KeyEvent(kb.ArrowRight))
	if got := turnNow(t, b); got != before+1 {
		t.Errorf("→ after the filter: turn %d, want %d", got, before+1)
	}
	// After seeking, the list shows its row for the turn.
	last := a.Events[len(a.Events)-1]
	for _, turn := range []int{last.Turn, 2, last.Turn} {
		evalJS(t, b, fmt.Sprintf(`window.rewind.seek(%d), true`, turn), nil)
		if err := b.WaitJS(`(() => { const l = document.querySelector('#events .event-list'), r = document.querySelector('#events li.at') || document.querySelector('#events li.ev'); if (!r) return false; const a = l.getBoundingClientRect(), b = r.getBoundingClientRect(); return b.top >= a.top - 1 && b.bottom <= a.bottom + 1; })()`, 5*time.Second); err != nil {
			t.Errorf("turn %d: the event list's row for it stays out of view: %v", turn, err)
		}
	}
}

// captureChecks: for a round in which a player took cells from another
// and lost some, the commands panel of the selected player says how many
// and from and to whom, as the analysis counts them (captured_from_K,
// lost_to_K).
func captureChecks(t *testing.T, b *browsertest.Browser, rep *Replay) {
	a := rep.Analysis
	slot := map[int]int{}
	for i, p := range a.Players {
		slot[p.UID] = i + 1
	}
	turn, pl := 0, -1
	for tt := 1; tt <= a.Rounds && turn == 0; tt++ {
		for i, p := range a.Players {
			took, lost := false, false
			for k := 0; k <= a.MaxUID; k++ {
				took = took || (k != 0 && a.At(p.UID, tt, "captured_from_"+strconv.Itoa(k)) > 0)
				lost = lost || (k != 0 && a.At(p.UID, tt, "lost_to_"+strconv.Itoa(k)) > 0)
			}
			if took && lost {
				turn, pl = tt, i
				break
			}
		}
	}
	if turn == 0 {
		t.Fatal("c03 has no round in which a player took cells from another and lost some")
	}
	p := a.Players[pl]
	// What the panel should list: "took N from X", "lost N to Y", by the
	// analysis's own series.
	want := map[string]bool{}
	for _, q := range append([]*analysis.Player{{UID: 0}}, a.Players...) {
		if n := a.At(p.UID, turn, "captured_from_"+strconv.Itoa(q.UID)); n > 0 {
			want[fmt.Sprintf("took %d %d", slot[q.UID], n)] = true
		}
		if n := a.At(p.UID, turn, "lost_to_"+strconv.Itoa(q.UID)); n > 0 && q.UID != 0 {
			want[fmt.Sprintf("lost %d %d", slot[q.UID], n)] = true
		}
	}
	evalJS(t, b, fmt.Sprintf(`window.rewind.select(%d), window.rewind.seek(%d), true`, pl+1, turn), nil)
	var got struct {
		Text  string
		Parts []string
	}
	evalJS(t, b, `(() => { const p = document.querySelector('[data-testid=round-exchanges]'); if (!p) return {Text: '', Parts: []};
		let verb = 'took'; const parts = [];
		for (const n of p.childNodes) {
			if (n.nodeType === 3 && n.textContent.includes('lost')) verb = 'lost';
			if (n.nodeType === 1 && n.classList.contains('ex')) parts.push(verb + ' ' + n.dataset.other + ' ' + n.dataset.cells);
		}
		return {Text: p.textContent, Parts: parts}; })()`, &got)
	if len(got.Parts) != len(want) {
		t.Errorf("turn %d, %s: the panel lists %q (%q), want %v", turn, a.Name(p.UID), got.Parts, got.Text, want)
	}
	for _, g := range got.Parts {
		if !want[g] {
			t.Errorf("turn %d, %s: the panel lists %q, not in %v (%q)", turn, a.Name(p.UID), g, want, got.Text)
		}
	}
	// In words: the count and the other player's name.
	for _, q := range a.Players {
		if n := a.At(p.UID, turn, "captured_from_"+strconv.Itoa(q.UID)); n > 0 && !strings.Contains(got.Text, fmt.Sprintf("%d from %s", n, a.Name(q.UID))) {
			t.Errorf("turn %d: %q does not say it took %d from %s", turn, got.Text, n, a.Name(q.UID))
		}
		if n := a.At(p.UID, turn, "lost_to_"+strconv.Itoa(q.UID)); n > 0 && !strings.Contains(got.Text, fmt.Sprintf("%d to %s", n, a.Name(q.UID))) {
			t.Errorf("turn %d: %q does not say it lost %d to %s", turn, got.Text, n, a.Name(q.UID))
		}
	}
	evalJS(t, b, `window.rewind.select(0), true`, nil)
}

// boardChecks: a home is drawn in its owner's colour (read from the
// canvas), the buildings can be hidden, an overlay has its colour scale.
func boardChecks(t *testing.T, b *browsertest.Browser) {
	evalJS(t, b, `window.rewind.seek(300), true`, nil)
	var homes struct{ Checked, Bad int }
	evalJS(t, b, `(() => { const r = window.rewind, c = document.getElementById('board'), k = c.width / 30, g = c.getContext('2d'); let checked = 0, bad = 0;
		for (let y = 0; y < 30; y++) for (let x = 0; x < 30; x++) {
			const o = r.owner(300, x, y);
			if (!o || r.building(300, x, y) !== 1) continue;
			const p = g.getImageData(Math.floor((x + 0.25) * k), Math.floor((y + 0.75) * k), 1, 1).data;
			const hex = '#' + [p[0], p[1], p[2]].map(v => v.toString(16).padStart(2, '0')).join('');
			checked++; if (hex !== r.color(o)) bad++;
		}
		return {Checked: checked, Bad: bad}; })()`, &homes)
	if homes.Checked == 0 || homes.Bad != 0 {
		t.Errorf("homes in their owner's colour: %d checked, %d wrong", homes.Checked, homes.Bad)
	}
	var h0, h1, h2 uint32
	evalJS(t, b, boardHash, &h0)
	chromedp.Run(b.Ctx, chromedp.KeyEvent("b"))
	evalJS(t, b, boardHash, &h1)
	chromedp.Run(b.Ctx, chromedp.KeyEvent("b"))
	evalJS(t, b, boardHash, &h2)
	if h0 == h1 || h0 != h2 {
		t.Errorf("b b: board %x → %x → %x, want a change and back", h0, h1, h2)
	}
	var scale string
	chromedp.Run(b.Ctx, chromedp.KeyEvent("o"))
	evalJS(t, b, `(() => { const s = document.querySelector('[data-testid=overlay-scale]'); return s && !s.hidden ? s.textContent : ''; })()`, &scale)
	if !strings.Contains(scale, "natural gold") {
		t.Errorf("overlay scale %q", scale)
	}
	for range 3 {
		chromedp.Run(b.Ctx, chromedp.KeyEvent("o"))
	}
}

// actionChecks: the selected player's commands of the turn are drawn on
// their cells, a failed one differently; e steps to the next error.
func actionChecks(t *testing.T, b *browsertest.Browser) {
	var pick struct{ Turn, Slot, OkX, OkY, BadX, BadY int }
	evalJS(t, b, `(() => { const r = window.rewind;
		for (let t = 1; t < r.frames(); t++) for (let s = 1; s <= r.players().length; s++) {
			const a = r.actions(t, s), ok = a.find(x => x.kind === 'a' && !x.failed), bad = a.find(x => x.failed);
			if (ok && bad && !a.some(x => x !== ok && x.x === ok.x && x.y === ok.y) && !a.some(x => x !== bad && x.x === bad.x && x.y === bad.y)) return {Turn: t, Slot: s, OkX: ok.x, OkY: ok.y, BadX: bad.x, BadY: bad.y};
		}
		return {Turn: 0}; })()`, &pick)
	if pick.Turn == 0 {
		t.Fatal("c03 has no turn with an accepted attack and a failed command of one player")
	}
	pixel := func(x, y int, fx, fy float64) string {
		var hex string
		evalJS(t, b, fmt.Sprintf(`(() => { const c = document.getElementById('board'), k = c.width / 30, p = c.getContext('2d').getImageData(Math.floor((%d + %g) * k), Math.floor((%d + %g) * k), 1, 1).data; return '#' + [p[0], p[1], p[2]].map(v => v.toString(16).padStart(2, '0')).join(''); })()`, x, fx, y, fy), &hex)
		return hex
	}
	evalJS(t, b, fmt.Sprintf(`window.rewind.select(0), window.rewind.seek(%d), true`, pick.Turn), nil)
	// The ring of an attack passes through (0.5, 0.14) of its cell.
	okBefore, badBefore := pixel(pick.OkX, pick.OkY, 0.5, 0.14), pixel(pick.BadX, pick.BadY, 0.5, 0.5)
	evalJS(t, b, fmt.Sprintf(`window.rewind.select(%d), true`, pick.Slot), nil)
	okAfter, badAfter := pixel(pick.OkX, pick.OkY, 0.5, 0.14), pixel(pick.BadX, pick.BadY, 0.5, 0.5)
	if okAfter == okBefore || badAfter == badBefore {
		t.Errorf("turn %d slot %d: attack at (%d,%d) %s → %s, failed at (%d,%d) %s → %s: not drawn", pick.Turn, pick.Slot, pick.OkX, pick.OkY, okBefore, okAfter, pick.BadX, pick.BadY, badBefore, badAfter)
	}
	// A failed command is red (its cross passes through the cell's centre).
	if badAfter[1:3] < "a0" || badAfter[3:5] > "60" {
		t.Errorf("failed command at (%d,%d) drawn %s, want red", pick.BadX, pick.BadY, badAfter)
	}
	if okAfter == badAfter {
		t.Errorf("an accepted attack and a failed command look alike (%s)", okAfter)
	}
	// e: the next turn where this player has a failed command.
	evalJS(t, b, `window.rewind.seek(0), true`, nil)
	chromedp.Run(b.Ctx, chromedp.KeyEvent("e"))
	var first int
	evalJS(t, b, fmt.Sprintf(`(() => { const r = window.rewind; for (let t = 1; t < r.frames(); t++) if (r.actions(t, %d).some(a => a.failed)) return t; return -1; })()`, pick.Slot), &first)
	if got := turnNow(t, b); got != first {
		t.Errorf("e from turn 0: turn %d, want the first error at %d", got, first)
	}
	// Selecting a player dims everyone else's cells, not its own; the
	// panel says whom it took cells from over the game.
	evalJS(t, b, `window.rewind.select(0), window.rewind.seek(300), true`, nil)
	var cells struct{ OwnX, OwnY, OtherX, OtherY int }
	evalJS(t, b, fmt.Sprintf(`(() => { const r = window.rewind; let own = null, other = null;
		for (let y = 0; y < 30; y++) for (let x = 0; x < 30; x++) {
			if (r.building(300, x, y) || r.owner(299, x, y) !== r.owner(300, x, y) || r.actions(300, %d).some(a => a.x === x && a.y === y)) continue;
			const o = r.owner(300, x, y);
			if (o === %d && !own) own = [x, y];
			if (o && o !== %d && !other) other = [x, y];
		}
		return {OwnX: own[0], OwnY: own[1], OtherX: other[0], OtherY: other[1]}; })()`, pick.Slot, pick.Slot, pick.Slot), &cells)
	own0, other0 := pixel(cells.OwnX, cells.OwnY, 0.3, 0.7), pixel(cells.OtherX, cells.OtherY, 0.3, 0.7)
	evalJS(t, b, fmt.Sprintf(`window.rewind.select(%d), true`, pick.Slot), nil)
	own1, other1 := pixel(cells.OwnX, cells.OwnY, 0.3, 0.7), pixel(cells.OtherX, cells.OtherY, 0.3, 0.7)
	if own1 != own0 || other1 == other0 {
		t.Errorf("highlight: own cell %s → %s, another's %s → %s; want the same and dimmed", own0, own1, other0, other1)
	}
	// The board's legend selects too.
	evalJS(t, b, `window.rewind.select(0), true`, nil)
	if err := chromedp.Run(b.Ctx, chromedp.Click(fmt.Sprintf(`#legend .item.player[data-slot="%d"]`, pick.Slot), chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	var sel int
	evalJS(t, b, `window.rewind.selected()`, &sel)
	if sel != pick.Slot {
		t.Errorf("a click on the legend's player %d selects %d", pick.Slot, sel)
	}
	var took string
	evalJS(t, b, `(document.querySelector('[data-testid=exchanges]') || {}).textContent || ''`, &took)
	if !strings.HasPrefix(took, "Over the game it took ") || !strings.Contains(took, " from ") {
		t.Errorf("exchanges %q", took)
	}
	evalJS(t, b, `window.rewind.select(0), true`, nil)
}

// widthChecks: nothing overflows a 390 px phone, the board grows on a
// 2560 px screen and the charts stand beside it there.
func widthChecks(t *testing.T, b *browsertest.Browser, url string) {
	defer chromedp.Run(b.Ctx, chromedp.EmulateViewport(1400, 1000))
	for _, w := range []int64{390, 2560} {
		if err := chromedp.Run(b.Ctx, chromedp.EmulateViewport(w, 1300), chromedp.Navigate("about:blank")); err != nil {
			t.Fatal(err)
		}
		openReplay(t, b, url)
		if err := b.WaitJS(`window.rewind.chartsReady`, 30*time.Second); err != nil {
			t.Fatal(err)
		}
		var r struct {
			Scroll, Client int
			Board          float64
			ChartsBeside   bool
		}
		evalJS(t, b, `(() => { const d = document.documentElement, c = document.getElementById('board').getBoundingClientRect(), ch = document.querySelector('.charts').getBoundingClientRect();
			return {Scroll: d.scrollWidth, Client: d.clientWidth, Board: c.width, ChartsBeside: ch.left >= c.right && ch.top < c.bottom}; })()`, &r)
		if r.Scroll > r.Client {
			t.Errorf("%d px: the page is %d px wide, overflows its %d px", w, r.Scroll, r.Client)
		}
		switch w {
		case 390:
			if r.Board > 390 || r.Board < 300 {
				t.Errorf("390 px: board %.0f px wide", r.Board)
			}
		case 2560:
			if r.Board <= 760 || !r.ChartsBeside {
				t.Errorf("2560 px: board %.0f px wide, charts beside it %v", r.Board, r.ChartsBeside)
			}
			b.Screenshot(t, "whylost-2560.png")
		}
	}
}
