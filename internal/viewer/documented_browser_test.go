package viewer

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrstream"
	"github.com/rewind-game/rewind/internal/browsertest"
)

// fileStream is a Stream that closes the file it reads when it is closed.
type fileStream struct {
	engine.Stream
	f *os.File
}

func (s fileStream) Close() error {
	err := s.Stream.Close()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// openInferred opens the .cfr at path as a generic stream, its commands
// inferred (cfrstream.OpenInferred).
func openInferred(path string) (engine.Stream, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	s, err := cfrstream.OpenInferred(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return fileStream{s, f}, nil
}

// forgetRound is a Stream whose frame of turn Turn has no known
// commands, as a stream gives a round its inference does not explain.
type forgetRound struct {
	engine.Stream
	Turn int
}

func (s forgetRound) Next(f *engine.Frame) error {
	err := s.Stream.Next(f)
	if err == nil && f.Turn == s.Turn {
		f.CommandsKnown, f.Commands, f.Errors = false, f.Commands[:0], f.Errors[:0]
	}
	return err
}

// cf2Board is the board of turn n of the stream of the .cfr at path.
func cf2Board(t *testing.T, path string, n int) engine.Board {
	t.Helper()
	s, err := openInferred(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var f engine.Frame
	for {
		if err := s.Next(&f); err != nil {
			t.Fatal(err)
		}
		if f.Turn == n {
			b := f.Board
			b.Cells = append([]engine.Cell(nil), b.Cells...)
			b.Layers = nil
			for _, l := range f.Board.Layers {
				b.Layers = append(b.Layers, engine.Layer{Name: l.Name, Values: append([]int64(nil), l.Values...)})
			}
			return b
		}
	}
}

// TestReplayPageColorfight: a ColorfightII game on the replay page,
// as the ColorfightII page shows it: conformance vector c01 (a .cfr of
// the reference server, 2 players, 300 rounds), its commands inferred
// (cfrstream.OpenInferred), served by the replay page's handler and
// compared with what PackStream packs of the same stream.
func TestReplayPageColorfight(t *testing.T) {
	path := filepath.Join(testdata, "conformance", "c01.cfr")
	s, err := openInferred(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := PackStream(s, StreamLimits{})
	s.Close() // its Meta stays readable
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Players) != 2 || len(p.Metrics) <= 24 || len(p.Frames) < 300 {
		t.Fatalf("c01: %d players, %d metrics, %d frames", len(p.Players), len(p.Metrics), len(p.Frames))
	}

	mux := http.NewServeMux()
	mux.Handle("/c01", ReplayPage(func() (engine.Stream, error) { return openInferred(path) }))
	// c01 again, the commands of turn 7 unknown.
	const forgotten = 7
	mux.Handle("/c01-gap", ReplayPage(func() (engine.Stream, error) {
		s, err := openInferred(path)
		if err != nil {
			return nil, err
		}
		return forgetRound{s, forgotten}, nil
	}))
	mux.Handle("/static/", StaticHandler())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	b := browsertest.Start(t, 3*time.Minute)
	if err := chromedp.Run(b.Ctx, chromedp.EmulateViewport(1600, 1000)); err != nil {
		t.Fatal(err)
	}
	openReplay(t, b, srv.URL+"/c01#turn=120")
	b.Wait(t, `window.rewind.chartsReady`, time.Minute)

	// series reads what a chart draws: its title, the metric its picker
	// names and every player's line.
	type chart struct {
		Metric, Pick, Title string
		Lines               [][]float64
	}
	charts := func(t *testing.T) []chart {
		t.Helper()
		var got []chart
		b.Eval(t, `[...document.querySelectorAll('[data-testid=chart]')].map(d => { const o = echarts.getInstanceByDom(d).getOption(), s = d.parentNode.querySelector('.metric-pick');
			return {Metric: d.dataset.metric, Pick: s ? s.options[s.selectedIndex].value : '', Title: o.title[0].text, Lines: o.series.map(x => x.data.map(v => v == null ? NaN : +v))}; })`, &got)
		return got
	}
	// want is metric i's line of each player, turns 1.. as the charts.
	want := func(i int) [][]float64 {
		var out [][]float64
		for pl := range p.Players {
			var l []float64
			for _, f := range p.Frames[1:] {
				l = append(l, float64(f.Values[pl][i]))
			}
			out = append(out, l)
		}
		return out
	}
	index := func(name string) int {
		for i, m := range p.Metrics {
			if m.Name == name {
				return i
			}
		}
		t.Fatalf("no metric %q", name)
		return -1
	}

	t.Run("charts", func(t *testing.T) {
		// 8 charts, the score's first, each with a picker of every
		// metric.
		got := charts(t)
		if len(got) != 8 {
			t.Fatalf("%d charts for %d metrics, want 8", len(got), len(p.Metrics))
		}
		var options int
		b.Eval(t, `Math.min(...[...document.querySelectorAll('.metric-pick')].map(s => s.options.length))`, &options)
		if options != len(p.Metrics) {
			t.Errorf("a picker offers %d metrics, the game has %d", options, len(p.Metrics))
		}
		for k, c := range got {
			i := k
			if k == 0 {
				i = p.Score
			}
			if c.Metric != p.Metrics[i].Name || c.Pick != fmt.Sprint(i) || fmt.Sprint(c.Lines) != fmt.Sprint(want(i)) {
				t.Errorf("chart %d shows %q (picked %s), want %q and its values", k, c.Metric, c.Pick, p.Metrics[i].Name)
			}
		}
		// Picking an exchange shows its values, and the keys still step
		// the turn.
		for k, name := range map[int]string{1: "captured_from_0", 3: "lost_to_2"} {
			var ok bool
			b.Eval(t, fmt.Sprintf(`(() => { const s = document.querySelectorAll('.metric-pick')[%d]; s.value = '%d'; s.dispatchEvent(new Event('change')); return document.activeElement !== s; })()`, k, index(name)), &ok)
			c := charts(t)[k]
			if !ok || c.Metric != name || !strings.HasPrefix(c.Title, strings.ReplaceAll(name, "_", " ")+" (cells)") || fmt.Sprint(c.Lines) != fmt.Sprint(want(index(name))) {
				t.Errorf("chart %d picked %s: shows %q titled %q (focus given back: %v)", k, name, c.Metric, c.Title, ok)
			}
		}
		before := turnNow(t, b)
		if err := chromedp.Run(b.Ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
		if got := turnNow(t, b); got != before+1 {
			t.Errorf("→ after a pick: turn %d, want %d", got, before+1)
		}
	})

	t.Run("events", func(t *testing.T) {
		// The analysis's events: the turning points above, with their
		// explanations; the lead changes after the opening folded until
		// their box is checked; the outcome in the header.
		openReplay(t, b, srv.URL+"/c01#turn=1")
		type list struct {
			Turning, Explain, Shown []string
			All, Folded             int
			Outcome, FoldedNote     string
			Half                    bool
		}
		read := func(t *testing.T) list {
			t.Helper()
			var got list
			b.Eval(t, `(() => { const q = s => [...document.querySelectorAll(s)], box = document.querySelector('#events .ev-filter input[data-kind=lead_change]'), o = document.querySelector('[data-testid=outcome]'), f = document.querySelector('[data-testid=ev-folded]');
				return {Turning: q('#events .turning-points li .ev-text').map(e => e.textContent), Explain: q('#events .turning-points li').map(e => { const x = e.querySelector('.tp-explain'); return x ? x.textContent : ''; }),
					Shown: q('#events .event-list li').filter(e => !e.hidden).map(e => e.dataset.turn + ' ' + e.lastChild.textContent), All: q('#events .event-list li').length,
					Half: box ? box.indeterminate : false, Outcome: o ? o.textContent : '', FoldedNote: f ? f.textContent : ''}; })()`, &got)
			return got
		}
		var turning, explain, first, all []string
		for _, e := range p.Events {
			if e.Turning {
				turning, explain = append(turning, e.Text), append(explain, e.Explain)
			}
			if !e.Later {
				first = append(first, fmt.Sprint(e.Turn, " ", e.Text))
			}
			all = append(all, fmt.Sprint(e.Turn, " ", e.Text))
		}
		got := read(t)
		if fmt.Sprint(got.Turning) != fmt.Sprint(turning) || fmt.Sprint(got.Explain) != fmt.Sprint(explain) {
			t.Errorf("turning points %q (explained %q), want %q (%q)", got.Turning, got.Explain, turning, explain)
		}
		if got.All != len(p.Events) || fmt.Sprint(got.Shown) != fmt.Sprint(first) || !got.Half || !strings.Contains(got.FoldedNote, fmt.Sprint(len(all)-len(first), " later folded")) {
			t.Errorf("at first: %d of %d listed (half-checked %v, %q), want %d of %d", len(got.Shown), got.All, got.Half, got.FoldedNote, len(first), len(p.Events))
		}
		if got.Outcome != p.Outcome || !strings.Contains(got.Outcome, "in the lead for good since turn") {
			t.Errorf("outcome %q, want %q", got.Outcome, p.Outcome)
		}
		// N steps to the next listed event.
		next := -1
		for _, e := range p.Events {
			if !e.Later && e.Turn > 1 {
				next = e.Turn
				break
			}
		}
		if err := chromedp.Run(b.Ctx, chromedp.KeyEvent("n")); err != nil {
			t.Fatal(err)
		}
		if got := turnNow(t, b); got != next {
			t.Errorf("N from turn 1: turn %d, want %d", got, next)
		}
		b.Eval(t, `(() => { const box = document.querySelector('#events .ev-filter input[data-kind=lead_change]'); box.click(); return true; })()`, nil)
		if got := read(t); fmt.Sprint(got.Shown) != fmt.Sprint(all) || got.Half || got.FoldedNote != "" {
			t.Errorf("lead changes checked: %d of %d listed (half-checked %v, %q)", len(got.Shown), len(all), got.Half, got.FoldedNote)
		}
	})

	t.Run("table", func(t *testing.T) {
		// The headline columns of ColorfightII's document, as of the turn
		// (peaks so far); every metric behind a toggle, those a stream of
		// states cannot know as "–", and a gap in their charts.
		doc := s.Meta().Document
		if doc == nil || len(p.Table) != len(doc.Table) {
			t.Fatalf("%d headline columns, the document has %v", len(p.Table), doc)
		}
		unknown := map[string]bool{}
		for _, m := range p.Metrics {
			if m.Unknown {
				unknown[m.Name] = true
			}
		}
		if !unknown["commands"] || !unknown["wasted_energy"] || unknown["gold"] || len(unknown) != 5 {
			t.Errorf("unknown metrics %v", unknown)
		}
		const n = 120
		var heads []string
		var rows [][]string
		for _, c := range doc.Table {
			heads = append(heads, c[0])
		}
		for pl := range p.Players {
			row := []string{}
			for _, c := range p.Table {
				var peak int64
				at := 0
				for k := 1; k <= n; k++ {
					if v := p.Frames[k].Values[pl][c.Metric]; v > peak {
						peak, at = v, k
					}
				}
				v := p.Frames[n].Values[pl][c.Metric]
				switch c.Of {
				case "peak":
					v = peak
				case "peak_turn":
					v = int64(at)
				case "final":
				default:
					t.Fatalf("column %+v", c)
				}
				row = append(row, fmt.Sprint(v))
			}
			rows = append(rows, row)
		}
		type table struct {
			Heads  []string
			Rows   [][]string
			Toggle string
		}
		read := func(t *testing.T) table {
			t.Helper()
			var got table
			b.Eval(t, `(() => { const tb = document.getElementById('players'), b = tb.querySelector('[data-testid=all-metrics]');
				return {Heads: [...tb.querySelectorAll('thead th')].slice(2).map(e => e.textContent), Toggle: b ? b.textContent : '',
					Rows: [...tb.querySelectorAll('tbody tr')].map(r => [...r.children].slice(2).map(e => e.textContent.replace(/,/g, '')))}; })()`, &got)
			return got
		}
		b.Eval(t, fmt.Sprintf(`window.rewind.seek(%d), true`, n), nil)
		got := read(t)
		if fmt.Sprint(got.Heads) != fmt.Sprint(heads) || fmt.Sprint(got.Rows) != fmt.Sprint(rows) || got.Toggle != fmt.Sprintf("all %d metrics", len(p.Metrics)) {
			t.Errorf("turn %d: table %q %q (toggle %q), want %q %q", n, got.Heads, got.Rows, got.Toggle, heads, rows)
		}
		b.Eval(t, `document.querySelector('[data-testid=all-metrics]').click(), true`, nil)
		got = read(t)
		if len(got.Heads) != len(p.Metrics) || got.Toggle != "headline columns" {
			t.Fatalf("all metrics: %d columns (toggle %q), want %d", len(got.Heads), got.Toggle, len(p.Metrics))
		}
		for i, m := range p.Metrics {
			// A value of the round (an amount) says so; the headline
			// columns are totals and say that (issue 40, item 5).
			if wantHead := strings.ReplaceAll(m.Name, "_", " "); m.Kind == "amount" && got.Heads[i] != wantHead+" this round" {
				t.Errorf("all metrics: the heading of %s (an amount) is %q, want %q", m.Name, got.Heads[i], wantHead+" this round")
			}
			for pl := range p.Players {
				want := fmt.Sprint(p.Frames[n].Values[pl][i])
				if m.Unknown {
					want = "–"
				}
				if got.Rows[pl][i] != want {
					t.Errorf("all metrics: player %d's %s is %q, want %q", pl, m.Name, got.Rows[pl][i], want)
				}
			}
		}
		b.Eval(t, `document.querySelector('[data-testid=all-metrics]').click(), true`, nil)
		if got := read(t); len(got.Heads) != len(heads) {
			t.Errorf("toggled back: %d columns", len(got.Heads))
		}
		// An unknown metric's chart has no line: every value a gap.
		b.Eval(t, fmt.Sprintf(`(() => { const s = document.querySelectorAll('.metric-pick')[2]; s.value = '%d'; s.dispatchEvent(new Event('change')); return true; })()`, index("commands")), nil)
		c := charts(t)[2]
		var gaps int
		b.Eval(t, `echarts.getInstanceByDom(document.querySelectorAll('[data-testid=chart]')[2]).getOption().series.reduce((n, x) => n + x.data.filter(v => v == null).length, 0)`, &gaps)
		if c.Metric != "commands" || gaps != len(p.Players)*(len(p.Frames)-1) || !strings.Contains(c.Title, "not known") {
			t.Errorf("chart of commands: %q titled %q, %d gaps of %d values", c.Metric, c.Title, gaps, len(p.Players)*(len(p.Frames)-1))
		}
	})

	t.Run("inferred", func(t *testing.T) {
		// Every turn of c01 is explained: its commands are listed under
		// the line saying they are inferred.
		for n, f := range p.Frames {
			if f.NoCommands {
				t.Fatalf("c01: frame %d has no commands: %v", n, f.NoCommands)
			}
		}
		if !p.CommandsInferred || !p.HasCommands {
			t.Fatalf("c01: commands inferred %v, known %v", p.CommandsInferred, p.HasCommands)
		}
		type panel struct {
			Inferred, None string
			Listed         int
			Said           []string
		}
		read := func(t *testing.T, n int) panel {
			t.Helper()
			var got panel
			b.Eval(t, fmt.Sprintf(`(() => { window.rewind.seek(%d); const q = s => { const e = document.querySelector('#commands ' + s); return e ? e.textContent : ''; };
				return {Inferred: q('[data-testid=inferred]'), None: q('[data-testid=no-commands]'), Listed: document.querySelectorAll('#commands li').length,
					Said: [...document.querySelectorAll('#commands p.hint')].map(e => e.textContent)}; })()`, n), &got)
			return got
		}
		n, sent := 0, 0
		for k, f := range p.Frames {
			c := 0
			for _, l := range f.Commands {
				c += len(l)
			}
			if k > 100 && c > 0 {
				n, sent = k, c
				break
			}
		}
		if got := read(t, n); got.Inferred != inferredNote || got.None != "" || got.Listed != sent {
			t.Errorf("turn %d: %+v, want the inferred note and %d commands", n, got, sent)
		}
		openReplay(t, b, srv.URL+fmt.Sprintf("/c01-gap#turn=%d", forgotten))
		got := read(t, forgotten)
		if got.Inferred != inferredNote || got.None != unexplainedNote || got.Listed != 0 || strings.Contains(strings.Join(got.Said, "|"), "No commands.") {
			t.Errorf("turn %d, its commands unknown: %+v", forgotten, got)
		}
		if got := read(t, forgotten+1); got.None != "" || got.Listed == 0 {
			t.Errorf("turn %d, after it: %+v", forgotten+1, got)
		}
	})

	t.Run("overlay", func(t *testing.T) {
		openReplay(t, b, srv.URL+"/c01#turn=250")
		type state struct {
			Overlay, Legend, Help string
			Buildings             bool
			// Fill: each cell's pixel off its centre's text; Disc: the
			// share of white in its lower right corner (a building's disc).
			Fill [][3]int
			Disc []float64
		}
		read := func(t *testing.T) state {
			t.Helper()
			var got state
			b.Eval(t, `(() => { const r = window.rewind, P = r.packed(), d = devicePixelRatio || 1, R = r.radius(), dr = 0.48 * R, ctx = document.getElementById('board').getContext('2d');
				const c = r.controls(), out = {Overlay: c.overlay, Buildings: c.buildings, Legend: document.getElementById('legend').textContent, Help: document.getElementById('help').textContent, Fill: [], Disc: []};
				for (let y = 0; y < P.board.height; y++) for (let x = 0; x < P.board.width; x++) {
					const p = r.center(x, y), px = ctx.getImageData(p[0] + Math.round(-0.5 * R * d), p[1] + Math.round(0.5 * R * d), 1, 1).data;
					out.Fill.push([px[0], px[1], px[2]]);
					const im = ctx.getImageData(p[0] + Math.round((R - 2 * dr - 1) * d), p[1] + Math.round((R - 2 * dr - 1) * d), Math.round(2 * dr * d), Math.round(2 * dr * d)).data;
					let n = 0;
					for (let i = 0; i < im.length; i += 4) if (im[i] > 220 && im[i + 1] > 220 && im[i + 2] > 220) n++;
					out.Disc.push(n / (im.length / 4));
				}
				return out; })()`, &got)
			return got
		}
		key := func(t *testing.T, k string) {
			t.Helper()
			if err := chromedp.Run(b.Ctx, chromedp.KeyEvent(k)); err != nil {
				t.Fatal(err)
			}
		}
		board := cf2Board(t, path, 250)
		cells := board.Cells
		key(t, "e") // the turn's commands hidden: only the cells drawn
		defer key(t, "e")
		off := read(t)
		if off.Overlay != "" || !off.Buildings || !strings.Contains(off.Help, "next overlay") || !strings.Contains(off.Help, "show / hide the mines, wells and fortresses") {
			t.Fatalf("at first: overlay %q, buildings %v, help %q", off.Overlay, off.Buildings, off.Help)
		}
		key(t, "o")
		on := read(t)
		if on.Overlay != "natural_cost" || !strings.Contains(on.Legend, "natural cost") || !strings.Contains(on.Legend, "(high)") {
			t.Fatalf("O: overlay %q, legend %q", on.Overlay, on.Legend)
		}
		// Under the overlay the dearer the ground, the redder, owned or
		// not; an owned cell is no longer filled with its owner's colour.
		lum := func(p [3]int) int { return 299*p[0] + 587*p[1] + 114*p[2] }
		var cheap, dear = -1, -1
		owned := 0
		for i, c := range cells {
			if c.Badges != 0 {
				continue
			}
			if cheap < 0 || c.Terrain < cells[cheap].Terrain {
				cheap = i
			}
			if dear < 0 || c.Terrain > cells[dear].Terrain {
				dear = i
			}
			if c.Owner >= 0 && on.Fill[i] == off.Fill[i] {
				t.Errorf("cell %d (owner %d, cost %d): still its owner's colour %v under the overlay", i, c.Owner, c.Terrain, on.Fill[i])
			}
			if c.Owner >= 0 {
				owned++
			}
		}
		if owned == 0 || cells[cheap].Terrain == cells[dear].Terrain || lum(on.Fill[dear]) >= lum(on.Fill[cheap]) || on.Fill[dear][0] <= on.Fill[dear][2] {
			t.Errorf("overlay: cost %d drawn %v, cost %d drawn %v (%d owned)", cells[cheap].Terrain, on.Fill[cheap], cells[dear].Terrain, on.Fill[dear], owned)
		}
		// O again: natural gold, then natural energy (the board's
		// layers), each cell shaded by its value in its own colour; then
		// none.
		if len(board.Layers) != 2 {
			t.Fatalf("c01: layers %+v", board.Layers)
		}
		for k, name := range []string{"natural_gold", "natural_energy"} {
			key(t, "o")
			got := read(t)
			vals := board.Layers[k].Values
			if board.Layers[k].Name != name || got.Overlay != name || !strings.Contains(got.Legend, strings.ReplaceAll(name, "_", " ")+" ") {
				t.Fatalf("O: overlay %q (layer %q), legend %q", got.Overlay, board.Layers[k].Name, got.Legend)
			}
			poor, rich := -1, -1
			for i, c := range cells {
				if c.Badges != 0 {
					continue
				}
				if poor < 0 || vals[i] < vals[poor] {
					poor = i
				}
				if rich < 0 || vals[i] > vals[rich] {
					rich = i
				}
			}
			hue := got.Fill[rich][0] > got.Fill[rich][2] // gold: red over blue
			if name == "natural_energy" {
				hue = got.Fill[rich][2] > got.Fill[rich][0]
			}
			if vals[poor] == vals[rich] || lum(got.Fill[rich]) >= lum(got.Fill[poor]) || !hue {
				t.Errorf("%s overlay: %d drawn %v, %d drawn %v", name, vals[poor], got.Fill[poor], vals[rich], got.Fill[rich])
			}
			// g.layer reads the layer at any turn; the inspector lists it.
			var seen struct {
				Layer, Early []int64
				Inspector    string
			}
			x, y := rich%p.Board.Width, rich/p.Board.Width
			b.Eval(t, fmt.Sprintf(`(() => { const r = window.rewind, c = r.center(%d, %d), d = devicePixelRatio || 1, box = document.getElementById('board').getBoundingClientRect();
				document.getElementById('board').dispatchEvent(new MouseEvent('click', {clientX: box.left + c[0] / d, clientY: box.top + c[1] / d, bubbles: true}));
				const out = {Layer: [0, 1, 2].map(i => r.layer(%q, 250, i, 0)), Early: [0, 1, 2].map(i => r.layer(%q, 3, i, 0)), Inspector: document.getElementById('inspector').textContent};
				document.getElementById('board').dispatchEvent(new MouseEvent('click', {clientX: box.left + c[0] / d, clientY: box.top + c[1] / d, bubbles: true}));
				return out; })()`, x, y, name, name), &seen)
			if fmt.Sprint(seen.Layer) != fmt.Sprint(vals[:3]) || fmt.Sprint(seen.Early) != fmt.Sprint(vals[:3]) ||
				!strings.Contains(seen.Inspector, fmt.Sprintf("%s%d", strings.ReplaceAll(name, "_", " "), vals[rich])) {
				t.Errorf("%s: layer at turn 250 %v, at 3 %v, want %v; inspector of (%d, %d) %q, want %d", name, seen.Layer, seen.Early, vals[:3], x, y, seen.Inspector, vals[rich])
			}
		}
		key(t, "o")
		if got := read(t); got.Overlay != "" || fmt.Sprint(got.Fill) != fmt.Sprint(off.Fill) {
			t.Errorf("O again: overlay %q, the board not as before", got.Overlay)
		}
		// B hides the mines, wells and fortresses, not the homes.
		key(t, "b")
		hidden := read(t)
		mines := 0
		for i, c := range cells {
			if c.Badges&0b1110 != 0 && c.Owner >= 0 {
				mines++
				if off.Disc[i] < 0.25 || hidden.Disc[i] > 0 {
					t.Errorf("cell %d: a building's disc %.2f shown, %.2f with B", i, off.Disc[i], hidden.Disc[i])
				}
			}
		}
		if hidden.Buildings || mines == 0 {
			t.Errorf("B: buildings %v, %d mines, wells and fortresses", hidden.Buildings, mines)
		}
		key(t, "b")
		if got := read(t); !got.Buildings || fmt.Sprint(got.Disc) != fmt.Sprint(off.Disc) {
			t.Errorf("B again: buildings %v, the board not as before", got.Buildings)
		}
	})

	t.Run("captures", func(t *testing.T) {
		// Player 0 selected at a turn where it took cells from player 1:
		// what it took and lost this round and over the game, from the
		// exchange metrics.
		list := func(vals map[int]int64, prep string) string {
			var out []string
			for k := 0; k <= 2; k++ {
				if vals[k] > 0 {
					who := "unowned cells"
					if k > 0 {
						who = p.Players[k-1].Name
					}
					out = append(out, fmt.Sprintf("%d %s %s", vals[k], prep, who))
				}
			}
			if len(out) == 0 {
				return "no cell"
			}
			return strings.Join(out, ", ")
		}
		n := -1
		for k, f := range p.Frames {
			if f.Values[0][index("captured_from_2")] > 0 && f.Values[0][index("lost_to_2")] > 0 {
				n = k
				break
			}
		}
		if n < 0 {
			t.Fatal("c01: no round where player 0 took cells from player 1 and lost some to it")
		}
		took, lost, all := map[int]int64{}, map[int]int64{}, map[int]int64{}
		for k := 0; k <= 2; k++ {
			took[k] = p.Frames[n].Values[0][index(fmt.Sprintf("captured_from_%d", k))]
			if k > 0 {
				lost[k] = p.Frames[n].Values[0][index(fmt.Sprintf("lost_to_%d", k))]
			}
			for _, f := range p.Frames {
				all[k] += f.Values[0][index(fmt.Sprintf("captured_from_%d", k))]
			}
		}
		wantRound := "This round it took " + list(took, "from") + " and lost " + list(lost, "to") + "."
		wantGame := "Over the game it took " + list(all, "from") + "."
		var got [2]string
		b.Eval(t, fmt.Sprintf(`(() => { window.rewind.seek(%d); window.rewind.select(0); const q = s => { const e = document.querySelector('#commands [data-testid=' + s + ']'); return e ? e.textContent : ''; };
			const out = [q('round-exchanges'), q('exchanges')]; window.rewind.select(-1); return out; })()`, n), &got)
		if got[0] != wantRound || got[1] != wantGame {
			t.Errorf("turn %d, player 0 selected:\n%q\n%q\nwant\n%q\n%q", n, got[0], got[1], wantRound, wantGame)
		}
	})

	t.Run("commands", func(t *testing.T) {
		// Turn n's commands are the round n-1 → n, the players' replies
		// to turn n-1, as the ColorfightII page says; with nobody
		// selected, the hint to click a player, and a heading each.
		n := -1
		for k, f := range p.Frames {
			if k > 1 && len(f.Commands) == 2 && len(f.Commands[0]) > 1 && len(f.Commands[1]) > 0 {
				n = k
				break
			}
		}
		if n < 0 {
			t.Fatal("c01: no turn where both players sent commands")
		}
		var got struct {
			Hint, Selected string
			Heads          []string
		}
		b.Eval(t, fmt.Sprintf(`(() => { window.rewind.seek(%d); const q = s => [...document.querySelectorAll('#commands ' + s)].map(e => e.textContent);
			const out = {Hint: q('[data-testid=click-player]').join('|'), Heads: q('[data-testid=commands-head]')};
			window.rewind.select(1); out.Selected = q('[data-testid=commands-head]').join('|') + '|' + q('[data-testid=click-player]').join('|'); window.rewind.select(-1); return out; })()`, n), &got)
		want := func(pl int) string {
			return fmt.Sprintf("%s: %d commands in round %d → %d (its reply to turn %d)", p.Players[pl].Name, len(p.Frames[n].Commands[pl]), n-1, n, n-1)
		}
		if got.Hint != "Click a player to see only its commands and its bot log for this round." || fmt.Sprint(got.Heads) != fmt.Sprint([]string{want(0), want(1)}) ||
			got.Selected != want(1)+"|" {
			t.Errorf("turn %d: hint %q, headings %q, player 1 selected %q; want %q, %q", n, got.Hint, got.Heads, got.Selected, want(0), want(1))
		}
	})

	b.CheckRequests(t, srv.URL+"/")
	b.CheckProblems(t)
}
