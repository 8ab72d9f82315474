package viewer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/skyport/formats/jsn"
	"github.com/rewind-game/rewind/games/skyport/formats/jsn/jsntest"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestStreamFormatLibrary: a file of a registered stream format (a
// Skyport .jsn) is listed with its game, format, players and turns, and
// its replay page is the replay page with the stream's label.
func TestStreamFormatLibrary(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "games", "synthetic.jsn"), jsntest.Recording())
	if !IsReplayName("x.JSN") || !ValidID("games/synthetic.jsn") {
		t.Fatal("a .jsn is not a replay name")
	}
	lib := openLib(t, dir)
	es, err := lib.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 {
		t.Fatalf("%d entries", len(es))
	}
	e := es[0]
	if e.Err != "" || e.Game != "Skyport" || e.Format != jsn.Name || e.Rounds != jsntest.Turns || !e.Complete ||
		len(e.Players) != 2 || e.Players[0].Name != "ann" || e.Players[0].Rank != 1 || e.Players[0].Score != 120 {
		t.Fatalf("entry %+v", e)
	}
	base := serve(t, lib, Options{OpenStream: func(f *os.File) (engine.Stream, error) { return source.NewStream(f, f) }})
	code, body := testutil.Get(t, base+"/replay/games/synthetic.jsn")
	if code != 200 || !strings.Contains(string(body), `id="generic"`) || !strings.Contains(string(body), jsn.Label) {
		t.Errorf("replay page: %d\n%.500s", code, body)
	}
}
