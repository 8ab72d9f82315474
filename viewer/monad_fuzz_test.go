package viewer

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rewind-game/rewind/replay/source"
)

// FuzzLoadMonad feeds LoadMonad any bytes the Monad source accepts: it
// never panics, and what it packs reads back (manifest, frame count,
// arrays inside the blob).
//
// go test -run '^$' -fuzz FuzzLoadMonad -fuzztime 60s ./viewer
func FuzzLoadMonad(f *testing.F) {
	data := monadRecording(f, 9, 12, []string{"a", "<b>"}, monadBots[:2])
	f.Add(data)
	f.Add(data[:len(data)*2/3])
	f.Add(data[:60])
	if log, err := os.ReadFile(filepath.Join("..", "testdata", "monad", "official", "m05.replay.json")); err == nil {
		f.Add(log[:min(len(log), 40000)])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		src, err := source.NewMonad(bytes.NewReader(b), nil)
		if err != nil {
			return
		}
		defer src.Close()
		rep, err := loadMonad(src, 500)
		if err != nil {
			return
		}
		m, err := ReadMonadManifest(rep.Blob)
		if err != nil {
			t.Fatalf("packed blob unreadable: %v", err)
		}
		if m.Frames != rep.Frames || m.Frames < 1 || len(m.Players) < 1 {
			t.Fatalf("manifest: %d frames (replay %d), %d players", m.Frames, rep.Frames, len(m.Players))
		}
		for _, fl := range m.Fields {
			size := map[string]int{"u8": 1, "u16": 2, "i32": 4, "f64": 8}[fl.Type]
			if size == 0 || fl.Offset+size*fl.Length > len(rep.Blob) {
				t.Fatalf("field %+v outside the blob of %d bytes", fl, len(rep.Blob))
			}
		}
	})
}
