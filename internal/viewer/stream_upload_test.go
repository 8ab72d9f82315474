package viewer

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/toygame"
)

// TestStreamUpload: a replay only the generic reader reads (a game played
// through the seam) is taken as an upload, checked by packing it as its
// page would, kept under its name and shown on the replay page; a cut
// copy is refused saying why, and nothing of it is kept.
func TestStreamUpload(t *testing.T) {
	var buf bytes.Buffer
	seats := []match.GameSeat{{Bot: match.StrategyPlayer(toygame.NewPainter(1))}, {Bot: match.StrategyPlayer(toygame.NewPainter(2))}}
	if _, err := match.RunGame(context.Background(), match.GameConfig{Ruleset: toygame.Ruleset, Seed: 4, MaxTurns: 20, Seats: seats,
		Recorder: recording.NewRecorder(&buf, time.Unix(0, 0), "rewind test")}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serveWith(t, lib, Options{MaxUpload: 4 << 20, OpenStream: func(f *os.File) (engine.Stream, error) { return source.NewStream(f, f) }}).base

	code, body := post(t, base+"/api/upload?name=toy.rwd", buf.Bytes())
	if code != http.StatusOK || !strings.Contains(body, `"id":"toy.rwd"`) {
		t.Fatalf("upload: %d %s", code, body)
	}
	if b, err := os.ReadFile(dir + "/toy.rwd"); err != nil || !bytes.Equal(b, buf.Bytes()) {
		t.Fatalf("kept file: %v, %d bytes of %d", err, len(b), buf.Len())
	}
	res, err := http.Get(base + "/replay/toy.rwd?data=1")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/gzip" {
		t.Fatalf("its page's data: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	data := buf.Bytes()
	code, body = post(t, base+"/api/upload?name=cut.rwd", data[:len(data)*2/3])
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "cut.rwd is not a replay rewind can open") {
		t.Fatalf("cut upload: %d %s", code, body)
	}
	if _, err := os.Stat(dir + "/cut.rwd"); err == nil {
		t.Fatal("the cut upload was kept")
	}
}
