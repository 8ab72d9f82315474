package viewer

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// cfrBomb is conformance vector c03's .cfr with pad bytes of white space
// after its opening bracket (valid JSON: the decoder reads through it), in
// one gzip stream: a few hundred KB that decompress to pad.
func cfrBomb(tb testing.TB, pad int) []byte {
	tb.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(testutil.ReadFile(tb, testdata+"/conformance/c03.cfr")))
	if err != nil {
		tb.Fatal(err)
	}
	doc, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	i := bytes.IndexByte(doc, '[')
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(doc[:i+1])
	space := bytes.Repeat([]byte{' '}, 1<<20)
	for n := 0; n < pad; n += len(space) {
		zw.Write(space)
	}
	zw.Write(doc[i+1:])
	zw.Close()
	return buf.Bytes()
}

// Issue 25, "upload bombs on serve": a gzip'd .cfr that decompresses far
// beyond what a replay does, and a .rwd recording millions of commands in
// a few hundred KB, are refused (422, saying why) and not kept; a real
// .cfr still goes in.
func TestUploadBombsRefused(t *testing.T) {
	dir := t.TempDir()
	lib := openLib(t, dir)
	base := serve(t, lib, Options{ClientRate: -1})
	cfr := cfrBomb(t, 96<<20)
	rwd := flood(t, 205, replay.MaxCommandsPerRound) // 4.08M commands, a 42 MB body
	t.Logf("bombs: .cfr %d bytes, .rwd %d bytes", len(cfr), len(rwd))
	for _, c := range []struct {
		name string
		body []byte
		want string
	}{
		{"bomb.cfr", cfr, "decompresses to more than"},
		{"flood.rwd", rwd, "its body decompresses to more than"},
	} {
		code, body := post(t, base+"/api/upload?name="+c.name, c.body)
		if code != 422 || !strings.Contains(body, c.want) {
			t.Errorf("upload %s: %d %s", c.name, code, body)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("kept: %s", e.Name())
	}
	if code, body := post(t, base+"/api/upload?name=c03.cfr", testutil.ReadFile(t, testdata+"/conformance/c03.cfr")); code != 200 {
		t.Errorf("a real .cfr: %d %s", code, body)
	}
}

// A .rwd header promising more cell-rounds than an upload may re-simulate
// is refused from its header; a client that leaves stops the check.
func TestUploadWorkBounds(t *testing.T) {
	seed := uint64(1)
	var buf bytes.Buffer
	h := replay.Header{Ruleset: "colorfight2", RulesetVersion: 2,
		Config: replay.Config{Width: 100, Height: 100, MaxTurn: 2000, MaxPlayer: 2}, Seed: &seed,
		Players: []replay.Player{{UID: 1, Name: "a", Home: engine.Point{X: 3, Y: 3}}, {UID: 2, Name: "b", Home: engine.Point{X: 96, Y: 96}}}}
	if _, err := replay.NewGameWriter(&buf, h); err != nil {
		t.Fatal(err)
	}
	err := checkUploadWork(context.Background(), bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if !errors.Is(err, errUploadWork) || !strings.Contains(err.Error(), "100×100 map for 2000 rounds") {
		t.Errorf("20M cell-rounds: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	bomb := cfrBomb(t, 1<<20)
	if err := checkUploadWork(ctx, bytes.NewReader(bomb), int64(len(bomb))); !errors.Is(err, context.Canceled) {
		t.Errorf("after the client left: %v", err)
	}
	for _, p := range []string{"c03.cfr", "c06.cfr"} {
		real := testutil.ReadFile(t, filepath.Join(testdata, "conformance", p))
		if err := checkUploadWork(context.Background(), bytes.NewReader(real), int64(len(real))); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	if err := checkUploadWork(context.Background(), bytes.NewReader(vectorRWD(t, "c03")), 1); err != nil {
		t.Errorf("c03.rwd: %v", err)
	}
}

// BenchmarkUploadBombCheck measures what refusing each bomb costs.
func BenchmarkUploadBombCheck(b *testing.B) {
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"cfr-96MiB-of-space", cfrBomb(b, 96<<20)},
		{"rwd-4.08M-commands", flood(b, 205, replay.MaxCommandsPerRound)},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := checkUploadWork(context.Background(), bytes.NewReader(c.data), int64(len(c.data))); !errors.Is(err, errUploadWork) {
					b.Fatal(err)
				}
			}
		})
	}
}

// The decode of an upload stops when its client has left: validate under
// a cancelled context fails at its first read, with no replay decoded
// (it used to decode the whole file and only then see the context).
func TestUploadValidateStopsWhenClientLeaves(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "c03.cfr"), testutil.ReadFile(t, testdata+"/conformance/c03.cfr"))
	lib := openLib(t, dir)
	s := NewServer(lib, Options{})
	if err := s.validateStream(context.Background(), "c03.cfr"); err != nil {
		t.Fatalf("validate: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.validateStream(ctx, "c03.cfr"); err == nil {
		t.Errorf("validate after the client left packed the file")
	}
}
