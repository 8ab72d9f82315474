package cfrstream_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrstream"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrtest"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/testutil"
)

// officialReplays lists every .cfr at hand: the conformance vectors here
// and in ../shared, and the real replays (those of ../shared logged as
// absent when it is).
func officialReplays(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("../../../../../testdata/conformance/*.cfr")
	if len(files) == 0 {
		t.Fatal("no testdata/conformance/*.cfr")
	}
	if root, err := testutil.ModuleRoot(); err == nil {
		shared, _ := filepath.Glob(filepath.Join(root, "..", "shared", "conformance", "*.cfr"))
		if len(shared) == 0 {
			t.Log("../shared/conformance absent: its vectors are not checked")
		}
		files = append(files, shared...)
	}
	return append(files, testutil.RealWorldOptional(t)...)
}

// mustOpen opens data with open, failing t.
func mustOpen(t *testing.T, open func(io.Reader) (engine.Stream, error), data []byte) engine.Stream {
	t.Helper()
	s, err := open(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// roundDiff compares a stream frame's commands and errors with those
// cfr.Inference.Round gives for the same frame (ok false: none); "" when
// they agree.
func roundDiff(f *engine.Frame, cmds [][]colorfight2.Command, errs []colorfight2.CommandError, ok bool) string {
	if f.CommandsKnown != ok {
		return fmt.Sprintf("commands known %v, the inference's round %v", f.CommandsKnown, ok)
	}
	if !ok {
		for p, c := range f.Commands {
			if len(c) > 0 {
				return fmt.Sprintf("player %d has commands %q in a round not explained", p, c)
			}
		}
		if len(f.Errors) > 0 {
			return fmt.Sprintf("errors %v in a round not explained", f.Errors)
		}
		return ""
	}
	for p := range f.Commands {
		var want []string
		if p < len(cmds) {
			for _, c := range cmds[p] {
				want = append(want, c.String())
			}
		}
		if !slices.Equal(f.Commands[p], want) {
			return fmt.Sprintf("player %d: commands %q, the inference's %q", p, f.Commands[p], want)
		}
		if f.Faults[p] != 0 {
			return fmt.Sprintf("player %d: fault %d in an inferred round", p, f.Faults[p])
		}
	}
	if len(cmds) > len(f.Commands) {
		return fmt.Sprintf("%d players' commands, the inference's %d", len(f.Commands), len(cmds))
	}
	if len(f.Errors) != len(errs) {
		return fmt.Sprintf("errors %v, the inference's %v", f.Errors, errs)
	}
	for i, e := range errs {
		g := f.Errors[i]
		if g.Player != e.UID-1 || g.Index != e.Index || g.Code != int(e.Code) || g.Text != e.Code.String() {
			return fmt.Sprintf("error %d: %+v, the inference's %+v", i, g, e)
		}
	}
	return ""
}

// frameDiff compares what two frames show of the game (turn, values,
// board, events, ranking); "" when they agree.
func frameDiff(got, want *engine.Frame) string {
	switch {
	case got.Turn != want.Turn:
		return fmt.Sprintf("turn %d, Open's %d", got.Turn, want.Turn)
	case !reflect.DeepEqual(got.Values, want.Values):
		return fmt.Sprintf("values %v, Open's %v", got.Values, want.Values)
	case !reflect.DeepEqual(got.Board, want.Board):
		return "the board differs from Open's"
	case !reflect.DeepEqual(got.Events, want.Events):
		return fmt.Sprintf("events %v, Open's %v", got.Events, want.Events)
	case !slices.Equal(got.Ranking, want.Ranking):
		return fmt.Sprintf("ranking %v, Open's %v", got.Ranking, want.Ranking)
	}
	return ""
}

// TestOpenInferredEqualsInfer: for every .cfr at hand, the inferring
// stream's commands and errors, frame by frame, are those one
// cfr.Inference gives over the decoder's frames, and its frames are
// Open's; every round after frame 0 has its commands (the reference
// replays are all explained), and Open's stream claims none.
func TestOpenInferredEqualsInfer(t *testing.T) {
	for _, path := range officialReplays(t) {
		dir := filepath.Dir(path)
		t.Run(filepath.Join(filepath.Base(filepath.Dir(dir)), filepath.Base(dir), filepath.Base(path)), func(t *testing.T) {
			data := testutil.ReadFile(t, path)
			src, err := cfr.NewDecoder(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			want := cfr.NewInference(src.Header().Config())
			plain, inf := mustOpen(t, cfrstream.Open, data), mustOpen(t, cfrstream.OpenInferred, data)
			defer plain.Close()
			defer inf.Close()
			if !inf.Meta().CommandsInferred || plain.Meta().CommandsInferred {
				t.Fatalf("commands inferred: OpenInferred %v, Open %v", inf.Meta().CommandsInferred, plain.Meta().CommandsInferred)
			}
			var cf colorfight2.Frame
			var pf, f engine.Frame
			commands, errs := 0, 0
			for n := 0; ; n++ {
				serr, perr, err := src.Next(&cf), plain.Next(&pf), inf.Next(&f)
				if errors.Is(serr, io.EOF) {
					if !errors.Is(perr, io.EOF) || !errors.Is(err, io.EOF) {
						t.Fatalf("frame %d: the decoder ends, Open gives %v, OpenInferred %v", n, perr, err)
					}
					if n < 10 {
						t.Fatalf("only %d frames", n)
					}
					break
				}
				if serr != nil || perr != nil || err != nil {
					t.Fatalf("frame %d: the decoder %v, Open %v, OpenInferred %v", n, serr, perr, err)
				}
				if d := frameDiff(&f, &pf); d != "" {
					t.Fatalf("frame %d: %s", n, d)
				}
				cmds, e, ok := want.Round(&cf)
				if d := roundDiff(&f, cmds, e, ok); d != "" {
					t.Fatalf("frame %d: %s", n, d)
				}
				// Every round of a reference replay is explained; Open
				// claims no commands.
				if f.CommandsKnown != (n > 0) || pf.CommandsKnown {
					t.Fatalf("frame %d: commands known %v by OpenInferred, %v by Open", n, f.CommandsKnown, pf.CommandsKnown)
				}
				for _, c := range f.Commands {
					commands += len(c)
				}
				errs += len(f.Errors)
			}
			if commands == 0 {
				t.Error("no commands inferred at all")
			}
			t.Logf("%d commands inferred, %d errors", commands, errs)
		})
	}
}

// TestOpenInferredPlaysC06: conformance vector c06's inferred commands,
// parsed and played from the start by the rules in one state — never
// reloaded from a frame — give every frame of the replay.
func TestOpenInferredPlaysC06(t *testing.T) {
	const path = "../../../../../testdata/conformance/c06.cfr"
	frames := cfrtest.Frames(t, path)
	d := cfrtest.Open(t, path)
	if len(frames) < 100 {
		t.Fatalf("%d frames", len(frames))
	}
	players, err := colorfight2.PlayersFromFrame(&frames[1])
	if err != nil {
		t.Fatal(err)
	}
	cfg := d.Header().Config()
	cfg.MaxPlayer = max(cfg.MaxPlayer, len(players))
	st, err := colorfight2.New(cfg, colorfight2.MapFromFrame(&frames[0]), players)
	if err != nil {
		t.Fatal(err)
	}
	data := testutil.ReadFile(t, path)
	s := mustOpen(t, cfrstream.OpenInferred, data)
	defer s.Close()
	var f engine.Frame
	var got colorfight2.Frame
	total := 0
	for n := range frames {
		if err := s.Next(&f); err != nil {
			t.Fatalf("frame %d: %v", n, err)
		}
		if n == 0 {
			if f.CommandsKnown {
				t.Error("frame 0 has commands")
			}
			continue
		}
		if !f.CommandsKnown {
			t.Fatalf("turn %d: no inferred commands", n)
		}
		cmds := make([][]colorfight2.Command, len(players))
		for p, l := range f.Commands {
			if p >= len(cmds) && len(l) > 0 {
				t.Fatalf("turn %d: commands of player %d of %d", n, p, len(players))
			}
			for _, c := range l {
				cmds[p] = append(cmds[p], colorfight2.ParseCommand(c))
			}
			total += len(l)
		}
		st.Step(cmds)
		st.Frame(&got)
		got.CopyRatings(&frames[n])
		if dv := colorfight2.Diff(&frames[n], &got); dv != nil {
			t.Fatalf("turn %d: playing the inferred commands: %v", n, dv)
		}
	}
	if err := s.Next(&f); !errors.Is(err, io.EOF) {
		t.Fatalf("after the decoder's %d frames: %v", len(frames), err)
	}
	if total == 0 {
		t.Error("no commands inferred at all")
	}
}

// TestOpenInferredTampered: a frame tampered on its own has no commands
// on the inferring stream; the round after it has its commands again,
// those of the untampered replay (the inference tries the rules' state
// first), and every other round has its own.
func TestOpenInferredTampered(t *testing.T) {
	const path, bad = "../../../../../testdata/conformance/c06.cfr", 100
	clean := testutil.ReadFile(t, path)
	tampered := cfrtest.Rewrite(t, path, func(f *colorfight2.Frame) {
		if f.Turn == bad {
			f.Users[0].Gold++
		}
	})
	want, got := mustOpen(t, cfrstream.OpenInferred, clean), mustOpen(t, cfrstream.OpenInferred, tampered)
	defer want.Close()
	defer got.Close()
	var wf, f engine.Frame
	n := 0
	for ; ; n++ {
		werr, err := want.Next(&wf), got.Next(&f)
		if errors.Is(werr, io.EOF) && errors.Is(err, io.EOF) {
			break
		}
		if werr != nil || err != nil {
			t.Fatalf("frame %d: untampered %v, tampered %v", n, werr, err)
		}
		switch {
		case n == 0:
			if f.CommandsKnown {
				t.Error("frame 0 has commands")
			}
		case n == bad:
			if f.CommandsKnown || len(f.Errors) > 0 || slices.ContainsFunc(f.Commands, func(c []string) bool { return len(c) > 0 }) {
				t.Errorf("tampered frame %d: commands known %v, %q, errors %v", n, f.CommandsKnown, f.Commands, f.Errors)
			}
		default:
			if !f.CommandsKnown || !reflect.DeepEqual(f.Commands, wf.Commands) || !reflect.DeepEqual(f.Errors, wf.Errors) {
				t.Errorf("frame %d: commands known %v, %q, errors %v; untampered %q, errors %v", n, f.CommandsKnown, f.Commands, f.Errors, wf.Commands, wf.Errors)
			}
		}
	}
	if n <= bad+1 {
		t.Fatalf("only %d frames", n)
	}
}
