package rules_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrtest"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

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
	fs := cfrtest.Frames(t, "../../../testdata/conformance/c03.cfr")
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

// TestLoadFrameReusesState: one State loaded with every frame of three
// reference replays in turn (2, 8 and 3 players), and played one round
// after each load, is each time the state FromFrameUnchecked rebuilds
// from that frame alone: the same hash, frame and round after it. The
// load reuses what the state held (the frame before, or the round
// played from it).
func TestLoadFrameReusesState(t *testing.T) {
	var s colorfight2.State
	var got, want colorfight2.Frame
	for _, name := range []string{"c01", "c03", "c06"} {
		fs := cfrtest.Frames(t, "../../../testdata/conformance/"+name+".cfr")
		cfg := configOf(&fs[0], len(fs)-1)
		for turn := 1; turn < len(fs); turn++ {
			f := &fs[turn]
			if err := s.LoadFrameUnchecked(cfg, f); err != nil {
				t.Fatalf("%s turn %d: %v", name, turn, err)
			}
			fresh, err := colorfight2.FromFrameUnchecked(cfg, f)
			if err != nil {
				t.Fatalf("%s turn %d: %v", name, turn, err)
			}
			s.Frame(&got)
			fresh.Frame(&want)
			if g, w := s.Hash(), fresh.Hash(); g != w {
				t.Fatalf("%s turn %d: hash %016x, fresh %016x", name, turn, g, w)
			}
			if !reflect.DeepEqual(&got, &want) {
				t.Fatalf("%s turn %d: frame differs from a fresh load's: %v", name, turn, colorfight2.Diff(&want, &got))
			}
			s.Step(nil)
			fresh.Step(nil)
			if g, w := s.Hash(), fresh.Hash(); g != w {
				t.Fatalf("%s turn %d: after a round, hash %016x, fresh %016x", name, turn, g, w)
			}
		}
	}
}

// TestLoadFrameTerrainFirst: a frame whose terrain is out of range is
// refused for its terrain, even when an earlier cell is also wrong in
// another way, whatever the state held before.
func TestLoadFrameTerrainFirst(t *testing.T) {
	fs := cfrtest.Frames(t, "../../../testdata/conformance/c03.cfr")
	cfg := configOf(&fs[0], len(fs)-1)
	var s colorfight2.State
	if err := s.LoadFrameUnchecked(cfg, &fs[10]); err != nil {
		t.Fatal(err)
	}
	var f colorfight2.Frame
	f.CopyFrom(&fs[11])
	f.Cells[3].Owner = 99
	f.Cells[500].NaturalCost = colorfight2.MaxNatural + 1
	err := s.LoadFrameUnchecked(cfg, &f)
	if err == nil || !strings.Contains(err.Error(), "natural gold/energy/cost") {
		t.Fatalf("got %v, want the terrain of cell 500 refused", err)
	}
	f.Cells[500].NaturalCost = fs[11].Cells[500].NaturalCost
	var d *colorfight2.Divergence
	if err := s.LoadFrameUnchecked(cfg, &f); !errors.As(err, &d) || d.Field != "owner" {
		t.Fatalf("got %v, want the owner of cell 3 refused", err)
	}
}
