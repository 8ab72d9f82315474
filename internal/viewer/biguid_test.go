package viewer

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/source"
)

// TestHugeUID: a .cfr whose player has uid 60000 is refused with a clear
// error instead of exhausting the server's memory (it did, before).
func TestHugeUID(t *testing.T) {
	d, err := cfr.NewDecoder(bytes.NewReader(readFile(t, filepath.Join(testdata, "conformance", "c06.cfr"))))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var buf bytes.Buffer
	enc, err := cfr.NewEncoder(&buf, cfr.Header{})
	if err != nil {
		t.Fatal(err)
	}
	var f colorfight2.Frame
	for {
		err := d.Next(&f)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := range f.Users {
			if f.Users[i].UID == 1 {
				f.Users[i].UID = 60000
			}
		}
		slices.SortFunc(f.Users, func(a, b colorfight2.FrameUser) int { return int(a.UID - b.UID) })
		for i := range f.Cells {
			if f.Cells[i].Owner == 1 {
				f.Cells[i].Owner = 60000
			}
		}
		if err := enc.WriteFrame(&f); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := source.NewInferredStream(bytes.NewReader(buf.Bytes()), nil)
	if err == nil {
		defer s.Close()
		_, err = PackStream(s, StreamLimits{})
	}
	if err == nil || !strings.Contains(err.Error(), "uid 60000 is out of range") {
		t.Fatalf("the viewer's reader and PackStream: %v", err)
	}
}
