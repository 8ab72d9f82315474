package viewer

import (
	"bytes"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil/toyplay"
	"github.com/rewind-game/rewind/internal/toygame"
)

// TestStreamUpload: a replay only the generic reader reads (a game played
// through the seam) is taken as an upload, checked by packing it as its
// page would, kept under its name and shown on the replay page; a cut
// copy is refused saying why, and nothing of it is kept.
func TestStreamUpload(t *testing.T) {
	toy, _ := toyplay.Record(t, toygame.Ruleset, 4, 20)
	dir := t.TempDir()
	lib := openLib(t, dir)
	base := serveWith(t, lib, Options{MaxUpload: 4 << 20, OpenStream: func(f *os.File) (engine.Stream, error) { return source.NewStream(f, f) }}).base

	code, body := post(t, base+"/api/upload?name=toy.rwd", toy)
	if code != http.StatusOK || !strings.Contains(body, `"id":"toy.rwd"`) {
		t.Fatalf("upload: %d %s", code, body)
	}
	if b, err := os.ReadFile(dir + "/toy.rwd"); err != nil || !bytes.Equal(b, toy) {
		t.Fatalf("kept file: %v, %d bytes of %d", err, len(b), len(toy))
	}
	res, err := http.Get(base + "/replay/toy.rwd?data=1")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/gzip" {
		t.Fatalf("its page's data: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	code, body = post(t, base+"/api/upload?name=cut.rwd", toy[:len(toy)*2/3])
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "cut.rwd is not a replay rewind can open") {
		t.Fatalf("cut upload: %d %s", code, body)
	}
	if _, err := os.Stat(dir + "/cut.rwd"); err == nil {
		t.Fatal("the cut upload was kept")
	}
}
