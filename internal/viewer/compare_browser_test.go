package viewer

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rewind-game/rewind/internal/browsertest"
)

// TestCompareLayout: the compare page of two 8-player, 500-round games
// with long names at 390 and 1280 px: no element sticks out of its
// container; at 1280 the boards stand side by side, at 390 B's under
// A's, each inside the screen.
func TestCompareLayout(t *testing.T) {
	dir := t.TempDir()
	game := layoutReplay(t)
	write(t, filepath.Join(dir, "a.rwd"), game)
	write(t, filepath.Join(dir, "b.rwd"), game)
	base := serveDir(t, dir, Options{})
	b := browsertest.Start(t, 4*time.Minute)
	for _, w := range []int{390, 1280} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			if err := chromedp.Run(b.Ctx, chromedp.EmulateViewport(int64(w), 900), chromedp.Navigate(base+"/compare?a=a.rwd&b=b.rwd#turn=400")); err != nil {
				t.Fatal(err)
			}
			b.Wait(t, `window.rewind && (window.rewind.error || (window.rewind.chartsReady && window.rewind.compare.divergence() !== null))`, time.Minute)
			var bad []string
			b.Eval(t, overflowJS, &bad)
			if len(bad) > 0 {
				t.Errorf("compare page at %d px: elements outside their container:\n%q", w, bad)
			}
			var boards struct {
				ALeft, ARight, ABottom, BLeft, BTop, BRight, Screen float64
				Error, Note                                         string
			}
			b.Eval(t, `(() => { const a = document.getElementById('board-a').getBoundingClientRect(), b = document.getElementById('board-b').getBoundingClientRect();
				return {ALeft: a.left, ARight: a.right, ABottom: a.bottom, BLeft: b.left, BTop: b.top, BRight: b.right, Screen: document.documentElement.clientWidth,
					Error: window.rewind.error || '', Note: document.getElementById('divergence').textContent}; })()`, &boards)
			if boards.Error != "" {
				t.Fatal(boards.Error)
			}
			if boards.ARight > boards.Screen || boards.BRight > boards.Screen {
				t.Errorf("at %d px a board passes the screen's edge: %+v", w, boards)
			}
			if w == 1280 && !(boards.BLeft >= boards.ARight) {
				t.Errorf("at 1280 px the boards are not side by side: %+v", boards)
			}
			if w == 390 && !(boards.BTop >= boards.ABottom) {
				t.Errorf("at 390 px B's board is not under A's: %+v", boards)
			}
			if boards.Note != "The same game: the same commands and states at every turn." {
				t.Errorf("two copies of a game: the page says %q", boards.Note)
			}
		})
	}
	b.CheckProblems(t)
}

// TestCompareHTTP: /compare without both ids is 400, with an id that is
// no replay of the library 404; its diff answer is diff's JSON of the two.
func TestCompareHTTP(t *testing.T) {
	dir := t.TempDir()
	game := hostileRWD(t)
	write(t, filepath.Join(dir, "a.rwd"), game)
	write(t, filepath.Join(dir, "b.rwd"), game)
	base := serveDir(t, dir, Options{})
	get := func(path string) (int, string) {
		t.Helper()
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body)
	}
	for path, want := range map[string]int{
		"/compare": 400, "/compare?a=a.rwd": 400, "/compare?a=a.rwd&b=missing.rwd": 404, "/compare?a=../x.rwd&b=a.rwd": 404,
		"/compare?a=a.rwd&b=b.rwd": 200, "/compare?a=a.rwd&b=missing.rwd&data=b": 422, "/compare?a=a.rwd&b=missing.rwd&diff=1": 404,
	} {
		if code, body := get(path); code != want {
			t.Errorf("GET %s: %d, want %d\n%.300s", path, code, want, body)
		}
	}
	code, body := get("/compare?a=a.rwd&b=b.rwd&diff=1")
	var d struct {
		Verdict string `json:"verdict"`
		A       struct {
			File string `json:"file"`
		} `json:"a"`
	}
	if err := json.Unmarshal([]byte(body), &d); code != 200 || err != nil || d.Verdict != "same" || d.A.File != "a.rwd" {
		t.Errorf("diff answer: %d %v %+v\n%.300s", code, err, d, body)
	}
}
