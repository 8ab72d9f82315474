package viewer

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// TestGameScript: a ruleset with a board script of its own (Skyport's
// static/skyport.js, Monad's static/monad.js) has its page load it before
// board.js, embedded, and the self-contained page inlines it; other ids
// have none.
func TestGameScript(t *testing.T) {
	for _, id := range []string{"skyport", "monad"} {
		if g := gameScript(id); g != "/static/"+id+".js" {
			t.Errorf("gameScript(%s) = %q", id, g)
		}
	}
	for _, id := range []string{"toyduel", "board", "shell", "viewer", "../../static/board", "Skyport", ""} {
		if g := gameScript(id); g != "" {
			t.Errorf("gameScript(%q) = %q, want none", id, g)
		}
	}
	p, err := PackStream(newToyStream(engine.HexAxial, 5, 5, 10, "ann", "bob"), StreamLimits{})
	if err != nil {
		t.Fatal(err)
	}
	p.Game = "skyport"
	var page bytes.Buffer
	if err := WriteGenericHTML(context.Background(), &page, p, "sky.rwd"); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	sky, board := strings.Index(html, "Rewind.boards.skyport = painter"), strings.Index(html, "document.getElementById('generic')")
	if sky < 0 || board < 0 || sky > board {
		t.Errorf("self-contained page: skyport.js at %d, board.js at %d", sky, board)
	}
}
