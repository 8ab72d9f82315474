package viewer

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// TestGameScript: a game whose registration has a painter
// (engine.Registration.BoardScript: Skyport's, Monad's) has its page load
// it after the modules and before page.js, served at
// /static/games/ID.js from the registration, and the self-contained page
// inlines it there; a game without one (the toy) and an id no game has
// load the modules and page.js only, and no painter is served for them.
func TestGameScript(t *testing.T) {
	srv := httptest.NewServer(StaticHandler())
	defer srv.Close()
	get := func(path string) (int, []byte) {
		t.Helper()
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(res.Body)
		return res.StatusCode, b.Bytes()
	}
	for _, id := range []string{"skyport", "monad"} {
		g, _ := engine.About(id)
		scripts := pageScripts(id)
		want := "/static/games/" + id + ".js"
		if i := slices.Index(scripts, want); i != len(scripts)-2 || scripts[len(scripts)-1] != "/static/page.js" {
			t.Errorf("pageScripts(%s) = %q, want %s just before page.js", id, scripts, want)
		}
		if code, body := get(want); code != 200 || !bytes.Equal(body, g.BoardScript) || len(body) == 0 {
			t.Errorf("GET %s: %d, %d bytes, want the registered %d", want, code, len(body), len(g.BoardScript))
		}
	}
	for _, id := range []string{"toyduel", "board", "page", "../../static/board", "Skyport", ""} {
		if s := pageScripts(id); len(s) != len(pageModules)+1 {
			t.Errorf("pageScripts(%q) = %q, want the modules and page.js", id, s)
		}
		if code, _ := get("/static/games/" + id + ".js"); code != 404 {
			t.Errorf("GET the painter of %q: %d, want 404", id, code)
		}
	}
	for _, m := range append(slices.Clone(pageModules), pageEntry) {
		if code, body := get("/static/" + m); code != 200 || len(body) == 0 {
			t.Errorf("GET /static/%s: %d, %d bytes", m, code, len(body))
		}
	}
	p, err := PackStream(newToyStream(engine.HexAxial, 5, 5, 10, "ann", "bob"), StreamLimits{})
	if err != nil {
		t.Fatal(err)
	}
	p.Game = "skyport"
	var page bytes.Buffer
	if err := WriteReplayHTML(context.Background(), &page, p, "sky.rwd"); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	sky, modules, entry := strings.Index(html, "rewind.boards.skyport = painter"), strings.Index(html, "rewind.panels = panels"), strings.Index(html, "rewind.decode.load(root)")
	if sky < 0 || modules < 0 || entry < 0 || modules > sky || sky > entry {
		t.Errorf("self-contained page: the modules at %d, skyport's painter at %d, page.js at %d", modules, sky, entry)
	}
}
