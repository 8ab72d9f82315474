package colorfight1

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
	"github.com/rewind-game/rewind/internal/clitest"
)

// TestViewThroughCLI is a ColorFight v1 player's path: `rewind play
// --game colorfight1` records a game of the four built-ins and `rewind
// view` shows it in Chromium, where board.js (rewind.boards.colorfight1)
// draws it: a 30×30 square board, every cell owned at a mid-game turn in
// its owner's colour (read back from the canvas); at a turn with attacks
// in flight, each attack's clock filled in its attacker's colour as far
// as the attack is (a pixel inside the part done is that colour, one in
// the part to go is not), one drawn per attack entity; the inspector of
// an attacked cell gives its progress, its finish and the tick with its
// game time; the legend the tick's length; the commands worded; a chart
// per metric, its axis in seconds of game time; the turn label and scrubber saying the tick and its game
// time; every game event listed at the turn (tick) whose frame
// holds it, and a click on one seeks that turn.
func TestViewThroughCLI(t *testing.T) {
	browsertest.Find(t) // skips before playing when there is no browser
	rwd := filepath.Join(t.TempDir(), "cf1.rwd")
	if out, code := clitest.Run(t, "play", "--game", "colorfight1", "--turns", "300", "--seed", "5", "-o", rwd); code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	b := browsertest.Start(t, 4*time.Minute)
	url := clitest.ViewPage(t, rwd)
	if err := chromedp.Run(b.Ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	b.Wait(t, `window.rewind && (window.rewind.ready || window.rewind.error)`, 2*time.Minute)
	var page struct {
		Error, Game, Topology, Legend string
		Width, Height                 int
		Painter                       bool
	}
	b.Eval(t, `(() => { const r = window.rewind, P = r.packed();
		return {Error: r.error || '', Game: P.game, Topology: P.board.topology, Width: P.board.width, Height: P.board.height,
			Painter: !!rewind.boards.colorfight1, Legend: document.getElementById('legend').textContent}; })()`, &page)
	if page.Error != "" || page.Game != "colorfight1" || !page.Painter {
		t.Fatalf("%s: error %q, game %q, colorfight1 painter registered: %v", url, page.Error, page.Game, page.Painter)
	}
	if page.Topology != "square" || page.Width != 30 || page.Height != 30 {
		t.Errorf("board %s %d×%d, want square 30×30", page.Topology, page.Width, page.Height)
	}
	for _, w := range []string{"gold cell", "energy cell", "a base framed in black", "an attack in flight", "a turn is a tick of 0.2 s of game time"} {
		if !strings.Contains(page.Legend, w) {
			t.Errorf("the legend does not say %q: %q", w, page.Legend)
		}
	}

	// The turn to look at: the first past 100 with an attack by a seat
	// between a fifth and four fifths done (its clock's part done and
	// part to go both hold a pixel on the diagonals the check reads).
	var turn int
	b.Eval(t, `(() => { const r = window.rewind, P = r.packed();
		for (let t = 100; t < P.frames.length; t++) {
			const ok = (P.frames[t].entities || []).some(e => { const left = r.cell(t, e.x, e.y).value, d = 1 - left / e.v;
				return e.k === 'attack' && e.p >= 0 && e.v > 0 && d > 0.2 && d < 0.8; });
			if (ok) return t;
		}
		return -1; })()`, &turn)
	if turn < 0 {
		t.Fatal("no turn past 100 with an attack a fifth to four fifths done")
	}
	b.Eval(t, fmt.Sprintf(`location.hash = '#turn=%d', true`, turn), nil)
	b.Wait(t, fmt.Sprintf(`window.rewind.turn() === %d`, turn), time.Minute)
	// The turn label and the scrubber say the tick and its game time.
	var label struct {
		Text, Scrubber string
		Last           int
	}
	b.Eval(t, `({Text: document.getElementById('turn').textContent, Scrubber: document.getElementById('scrubber').getAttribute('aria-valuetext') || '',
		Last: window.rewind.packed().frames.length - 1})`, &label)
	k := turn - 1
	want := fmt.Sprintf("turn %d / %d · tick %d · %s s", turn, label.Last, k, strconv.FormatFloat(math.Round(float64(k)*0.2*1000)/1000, 'f', -1, 64))
	if label.Text != want || label.Scrubber != want {
		t.Errorf("turn %d: the turn label %q, the scrubber's %q, want %q", turn, label.Text, label.Scrubber, want)
	}
	// The canvas's pixels: each owned cell without an attack at its
	// centre; each attack by a seat, a fifth to four fifths done, on its
	// clock's diagonals (up right: done; up left: to go).
	var board struct {
		Cells, Entities, WantEntities, Owned, OwnedRight, Attacks, AttacksRight int
		Wrong                                                                   []string
	}
	b.Eval(t, fmt.Sprintf(`(() => { const r = window.rewind, P = r.packed(), t = %d, f = P.frames[t];
		const ctx = document.getElementById('board').getContext('2d'), d = window.devicePixelRatio || 1, R = r.radius() * d;
		const hex = p => { const c = r.color(p); return [1, 3, 5].map(i => parseInt(c.substr(i, 2), 16)); };
		const px = (x, y) => Array.from(ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data.slice(0, 3));
		const near = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 3);
		const out = {Cells: r.drawn.cells, Entities: r.drawn.entities, WantEntities: (f.entities || []).length,
			Owned: 0, OwnedRight: 0, Attacks: 0, AttacksRight: 0, Wrong: []};
		const attacked = new Set((f.entities || []).map(e => e.y * 30 + e.x));
		for (let y = 0; y < 30; y++) for (let x = 0; x < 30; x++) {
			const c = r.cell(t, x, y);
			if (c.owner < 0 || attacked.has(y * 30 + x)) continue;
			out.Owned++;
			const [cx, cy] = r.center(x, y), got = px(cx, cy);
			if (near(got, hex(c.owner))) out.OwnedRight++; else out.Wrong.push('cell ' + x + ',' + y + ' of ' + c.owner + ': ' + got);
		}
		(f.entities || []).forEach(e => {
			const left = r.cell(t, e.x, e.y).value, done = 1 - left / e.v;
			if (e.k !== 'attack' || e.p < 0 || !(e.v > 0 && done > 0.2 && done < 0.8)) return;
			out.Attacks++;
			const [cx, cy] = r.center(e.x, e.y), k = 0.8 * 0.72 * R * Math.SQRT1_2, want = hex(e.p);
			const doneAt = px(cx + k, cy - k), toGo = px(cx - k, cy - k);
			if (near(doneAt, want) && !near(toGo, want)) out.AttacksRight++;
			else out.Wrong.push('attack on ' + e.x + ',' + e.y + ' by ' + e.p + ' ' + Math.round(done * 100) + '%%: done ' + doneAt + ', to go ' + toGo + ', want ' + want);
		});
		return out; })()`, turn), &board)
	if board.Cells != 900 || board.Entities != board.WantEntities || board.WantEntities == 0 {
		t.Errorf("turn %d: %d cells, %d entities drawn of %d", turn, board.Cells, board.Entities, board.WantEntities)
	}
	if board.Owned < 10 || board.OwnedRight != board.Owned || board.Attacks == 0 || board.AttacksRight != board.Attacks {
		t.Errorf("turn %d: %d of %d owned cells in their owner's colour, %d of %d attacks drawn as far as they are; wrong: %v",
			turn, board.OwnedRight, board.Owned, board.AttacksRight, board.Attacks, board.Wrong)
	}
	t.Logf("turn %d: %d owned cells, %d attacks checked", turn, board.Owned, board.Attacks)
	b.Screenshot(t, "colorfight1-view.png")

	// The inspector of an attacked cell (a click pins it).
	var insp struct{ Text, Want string }
	b.Eval(t, fmt.Sprintf(`(() => { const r = window.rewind, t = %d, f = r.packed().frames[t];
		const e = f.entities.find(e => e.k === 'attack' && e.p >= 0 && e.v > 0), cv = document.getElementById('board'), b = cv.getBoundingClientRect();
		const d = window.devicePixelRatio || 1, [cx, cy] = r.center(e.x, e.y);
		cv.dispatchEvent(new MouseEvent('click', {clientX: b.left + cx / d, clientY: b.top + cy / d, bubbles: true}));
		const left = r.cell(t, e.x, e.y).value, k = t - 1;
		return {Text: document.getElementById('inspector').textContent,
			Want: 'by ' + r.packed().players[e.p].name + ': ' + Math.round(100 * (1 - left / e.v)) + ' %% of ' + (+(e.v / 1000).toFixed(3)) + ' s, ' +
				(+(left / 1000).toFixed(3)) + ' s left, finishes at ' + (+(k * 0.2 + left / 1000).toFixed(3)) + ' s of game time (now tick ' + k + ' · ' + (+(k * 0.2).toFixed(3)) + ' s)'}; })()`, turn), &insp)
	if !strings.Contains(insp.Text, insp.Want) {
		t.Errorf("turn %d: the inspector says %q, want %q in it", turn, insp.Text, insp.Want)
	}

	// The commands panel words the requests: at the first turn with an
	// attack sent, "attack (x, y)" for `/attack {"cellx":x,"celly":y,...}`.
	var sent struct {
		Turn       int
		Want, Text string
	}
	b.Eval(t, `(() => { const P = window.rewind.packed();
		for (let t = 1; t < P.frames.length; t++) for (const cs of P.frames[t].commands || []) for (const c of cs || []) {
			const m = /^\/attack (\{.*\})$/.exec(c);
			if (m) { const j = JSON.parse(m[1]); return {Turn: t, Want: 'attack (' + j.cellx + ', ' + j.celly + ')', Text: ''}; }
		}
		return {Turn: -1, Want: '', Text: ''}; })()`, &sent)
	if sent.Turn < 0 {
		t.Fatal("no /attack sent in the game")
	}
	b.Eval(t, fmt.Sprintf(`location.hash = '#turn=%d', true`, sent.Turn), nil)
	b.Wait(t, fmt.Sprintf(`window.rewind.turn() === %d`, sent.Turn), time.Minute)
	b.Eval(t, `document.getElementById('commands').textContent`, &sent.Text)
	if !strings.Contains(sent.Text, sent.Want) {
		t.Errorf("turn %d: the commands panel does not say %q: %.400q", sent.Turn, sent.Want, sent.Text)
	}

	// Every game event listed is in the frame of its turn; a click on a
	// capture seeks its turn.
	var ev struct {
		Listed, Wrong, Clicked, Now int
		Bad                         []string
	}
	b.Eval(t, `(() => { const r = window.rewind, P = r.packed(), kinds = new Set(P.event_kinds.map(k => k.Name)), out = {Listed: 0, Wrong: 0, Bad: []};
		const lis = [...document.querySelectorAll('#events li.ev')].filter(l => kinds.has(l.dataset.kind));
		lis.forEach(li => { const t = +li.dataset.turn, f = P.frames[t];
			out.Listed++;
			if (!f || !(f.events || []).some(e => e.n === li.dataset.kind && li.textContent.endsWith(e.t))) { out.Wrong++; if (out.Bad.length < 5) out.Bad.push(li.textContent); } });
		const cap = lis.filter(l => l.dataset.kind === 'capture' && +l.dataset.turn !== r.turn()).pop();
		out.Clicked = cap ? +cap.dataset.turn : -1;
		if (cap) cap.click();
		out.Now = r.turn();
		return out; })()`, &ev)
	if ev.Listed < 10 || ev.Wrong != 0 || ev.Clicked <= 0 || ev.Now != ev.Clicked {
		t.Errorf("events: %d listed, %d not in their turn's frame (%q); clicked a capture of turn %d, now at %d", ev.Listed, ev.Wrong, ev.Bad, ev.Clicked, ev.Now)
	}

	// A chart per metric, 8 at most (the score's first, then in the
	// game's order).
	b.Wait(t, `window.rewind.chartsReady`, time.Minute)
	var charts, metrics []string
	b.Eval(t, `[...document.querySelectorAll('[data-testid=chart]')].filter(d => d.querySelector('canvas')).map(d => d.dataset.metric)`, &charts)
	b.Eval(t, `window.rewind.packed().metrics.map(m => m.name)`, &metrics)
	if len(metrics) < 7 || strings.Join(charts, ",") != strings.Join(metrics[:min(8, len(metrics))], ",") {
		t.Errorf("charts %v, metrics %v", charts, metrics)
	}
	// Each chart's axis is in seconds of game time: turn 101 is tick 100,
	// at 20 s.
	var axes []string
	b.Eval(t, `[...document.querySelectorAll('[data-testid=chart]')].filter(d => d.querySelector('canvas')).map(d => {
		const x = echarts.getInstanceByDom(d).getOption().xAxis[0];
		return x.name + ' ' + x.axisLabel.formatter(101); })`, &axes)
	for i, a := range axes {
		if a != "s 20" {
			t.Errorf("chart %s: axis %q at turn 101, want \"s 20\" (seconds of game time)", charts[i], a)
		}
	}
	base, _, _ := strings.Cut(url, "/replay/")
	b.CheckRequests(t, base+"/")
	b.CheckProblems(t)
}
