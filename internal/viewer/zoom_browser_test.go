package viewer

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/browsertest"
)

// TestBoardZooms (issue 40, item 15): the board of every game's page
// zooms — the + button, the wheel (around the pointer: the board's point
// under it stays there), a two-finger pinch — and the 1:1 button shows
// the whole board again, drawn as before; zoomed in, a click still pins
// the cell under the pointer and a drag moves the board. The zoom is the
// shared board's (board.js), so every painter draws through it.
func TestBoardZooms(t *testing.T) {
	b := browsertest.Start(t, 4*time.Minute)
	if err := chromedp.Run(b.Ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	for _, id := range engine.IDs() {
		if info, _ := engine.About(id); len(info.Bots) == 0 {
			continue // a test's game without built-ins to play it
		}
		t.Run(id, func(t *testing.T) {
			base := serveFile(t, id+".rwd", playedRWD(t, id, 12, false), Options{})
			openReplay(t, b, base+"/replay/"+id+".rwd#turn=10")
			type zoom struct{ Z, X, Y float64 }
			zoomNow := func() zoom {
				var z zoom
				b.Eval(t, `(() => { const z = window.rewind.zoom(); return {Z: z.z, X: z.x, Y: z.y}; })()`, &z)
				return z
			}
			// away moves the mouse off the board (no cell hovered).
			away := func() {
				if err := chromedp.Run(b.Ctx, chromedp.MouseEvent(input.MouseMoved, 1, 1)); err != nil {
					t.Fatal(err)
				}
			}
			picture := func() string {
				var s string
				b.Eval(t, `document.getElementById('board').toDataURL()`, &s)
				return s
			}
			// cell is the middle cell of the board and the page's (CSS)
			// pixel at its centre, through the zoom.
			type point struct{ X, Y, PX, PY float64 }
			cell := func() point {
				var p point
				b.Eval(t, `(() => { const P = window.rewind.packed(), x = Math.floor(P.board.width / 2), y = Math.floor(P.board.height / 2), c = window.rewind.center(x, y), d = devicePixelRatio || 1, r = document.getElementById('board').getBoundingClientRect();
					return {X: x, Y: y, PX: r.left + c[0] / d, PY: r.top + c[1] / d}; })()`, &p)
				return p
			}
			away()
			before := picture()
			if z := zoomNow(); z.Z != 1 {
				t.Fatalf("the page opens zoomed: %+v", z)
			}
			if err := chromedp.Run(b.Ctx, chromedp.Click(`#zoom-in`, chromedp.ByQuery)); err != nil {
				t.Fatal(err)
			}
			if z := zoomNow(); z.Z != 1.5 || picture() == before {
				t.Errorf("+ zooms to %+v (want 1.5), the board redrawn: %v", z, picture() != before)
			}
			// The wheel zooms around the pointer.
			p := cell()
			if err := chromedp.Run(b.Ctx, chromedp.ActionFunc(func(ctx context.Context) error {
				return input.DispatchMouseEvent(input.MouseWheel, p.PX, p.PY).WithDeltaY(-300).Do(ctx)
			})); err != nil {
				t.Fatal(err)
			}
			if err := b.WaitJS(`window.rewind.zoom().z > 2.9`, 10*time.Second); err != nil {
				t.Fatalf("the wheel: zoom %+v", zoomNow())
			}
			if q := cell(); math.Abs(q.PX-p.PX) > 1.5 || math.Abs(q.PY-p.PY) > 1.5 {
				t.Errorf("the wheel at (%.0f, %.0f) moved the cell under it to (%.0f, %.0f)", p.PX, p.PY, q.PX, q.PY)
			}
			// A pinch: two fingers moving apart zoom in.
			was := zoomNow().Z
			b.Eval(t, `(() => { const c = document.getElementById('board'), r = c.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
				const ev = (type, id, dx) => c.dispatchEvent(new PointerEvent(type, {pointerId: id, pointerType: 'touch', isPrimary: id === 21, clientX: x + dx, clientY: y, bubbles: true}));
				ev('pointerdown', 21, -20); ev('pointerdown', 22, 20); ev('pointermove', 21, -30); ev('pointermove', 22, 30); ev('pointerup', 21, -30); ev('pointerup', 22, 30);
				return true; })()`, nil)
			if z := zoomNow(); math.Abs(z.Z-math.Min(8, was*1.5)) > 0.01 {
				t.Errorf("a pinch from 40 to 60 px at zoom %.2f gives %.2f, want %.2f", was, z.Z, math.Min(8, was*1.5))
			}
			// 1:1 shows the whole board, as before.
			if err := chromedp.Run(b.Ctx, chromedp.Click(`#zoom-reset`, chromedp.ByQuery)); err != nil {
				t.Fatal(err)
			}
			away()
			if z := zoomNow(); z != (zoom{Z: 1}) || picture() != before {
				t.Errorf("1:1 gives %+v, the board as before: %v", z, picture() == before)
			}
			// At 1:1 the wheel down over the board scrolls the page.
			p = cell()
			if err := chromedp.Run(b.Ctx, chromedp.ActionFunc(func(ctx context.Context) error {
				return input.DispatchMouseEvent(input.MouseWheel, p.PX, p.PY).WithDeltaY(200).Do(ctx)
			})); err != nil {
				t.Fatal(err)
			}
			if err := b.WaitJS(`window.scrollY > 0`, 10*time.Second); err != nil || zoomNow().Z != 1 {
				t.Errorf("the wheel down at 1:1: the page did not scroll (%v), zoom %+v", err, zoomNow())
			}
			b.Eval(t, `window.scrollTo(0, 0), true`, nil)
			// Zoomed in, a click pins the cell under the pointer; a drag
			// moves the board and pins nothing.
			if err := chromedp.Run(b.Ctx, chromedp.Click(`#zoom-in`, chromedp.ByQuery), chromedp.Click(`#zoom-in`, chromedp.ByQuery)); err != nil {
				t.Fatal(err)
			}
			p = cell()
			if err := chromedp.Run(b.Ctx, chromedp.MouseClickXY(p.PX, p.PY)); err != nil {
				t.Fatal(err)
			}
			var head string
			b.Eval(t, `document.querySelector('#inspector h3') ? document.querySelector('#inspector h3').textContent : ''`, &head)
			if want := fmt.Sprintf("cell (%.0f, %.0f) · pinned", p.X, p.Y); !strings.HasPrefix(head, want) {
				t.Errorf("a click on cell (%.0f, %.0f) at zoom %.2f: the inspector says %q", p.X, p.Y, zoomNow().Z, head)
			}
			z0 := zoomNow()
			if err := chromedp.Run(b.Ctx,
				chromedp.MouseEvent(input.MousePressed, p.PX, p.PY, chromedp.ButtonLeft, chromedp.ClickCount(1)),
				chromedp.MouseEvent(input.MouseMoved, p.PX+30, p.PY+20, chromedp.ButtonLeft),
				chromedp.MouseEvent(input.MouseMoved, p.PX+60, p.PY+40, chromedp.ButtonLeft),
				chromedp.MouseEvent(input.MouseReleased, p.PX+60, p.PY+40, chromedp.ButtonLeft, chromedp.ClickCount(1))); err != nil {
				t.Fatal(err)
			}
			z1 := zoomNow()
			b.Eval(t, `document.querySelector('#inspector h3') ? document.querySelector('#inspector h3').textContent : ''`, &head)
			if z1.X == z0.X && z1.Y == z0.Y || !strings.HasPrefix(head, fmt.Sprintf("cell (%.0f, %.0f) · pinned", p.X, p.Y)) {
				t.Errorf("a drag from %+v leaves the zoom at %+v, the inspector at %q", z0, z1, head)
			}
		})
	}
	b.CheckProblems(t)
}
