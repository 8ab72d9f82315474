package viewer

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrtest"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/source"
)

// TestHugeUID: a .cfr whose player has uid 60000 is refused with a clear
// error instead of exhausting the server's memory (it did, before).
func TestHugeUID(t *testing.T) {
	data := cfrtest.Rewrite(t, filepath.Join(testdata, "conformance", "c06.cfr"), func(f *colorfight2.Frame) {
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
	})
	s, err := source.NewInferredStream(bytes.NewReader(data), nil)
	if err == nil {
		defer s.Close()
		_, err = PackStream(s, StreamLimits{})
	}
	if err == nil || !strings.Contains(err.Error(), "uid 60000 is out of range") {
		t.Fatalf("the viewer's reader and PackStream: %v", err)
	}
}
