package colorfight2_test

import (
	"errors"
	"io"
	"os"
	"testing"

	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/replay/cfr"
)

// frames decodes every frame of a .cfr.
func frames(tb testing.TB, path string) []colorfight2.Frame {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	d, err := cfr.NewDecoder(f)
	if err != nil {
		tb.Fatal(err)
	}
	var out []colorfight2.Frame
	for {
		var fr colorfight2.Frame
		err := d.Next(&fr)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, fr)
	}
}

// byUID returns f with its users in uid order (the engine's), in storage
// of its own.
func byUID(f *colorfight2.Frame) *colorfight2.Frame {
	var buf []colorfight2.FrameUser
	return f.ByUID(&buf)
}

func configOf(f *colorfight2.Frame, maxTurn int) colorfight2.Config {
	c := colorfight2.DefaultConfig()
	c.Width, c.Height, c.MaxTurn = f.Width, f.Height, maxTurn
	c.MaxPlayer = 8
	return c
}

// TestFromFrameReproducesFrame: the state rebuilt from any frame of a
// reference replay gives back exactly that frame.
func TestFromFrameReproducesFrame(t *testing.T) {
	fs := frames(t, "../../testdata/conformance/c03.cfr")
	cfg := configOf(&fs[0], len(fs)-1)
	var got colorfight2.Frame
	for _, turn := range []int{1, 2, 57, 250, 499, 500} {
		want := byUID(&fs[turn])
		st, err := colorfight2.FromFrame(cfg, want)
		if err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		st.Frame(&got)
		if d := colorfight2.Diff(want, &got); d != nil {
			t.Fatalf("turn %d: %v", turn, d)
		}
	}
}
