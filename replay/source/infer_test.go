package source

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/cfr"
)

// readAll reads every frame of src with its Round: the frames (copied)
// and, per frame, the commands (nil when Round's ok is false).
func readAll(t *testing.T, src Source) ([]colorfight2.Frame, [][][]colorfight2.Command, []bool) {
	t.Helper()
	var frames []colorfight2.Frame
	var cmds [][][]colorfight2.Command
	var oks []bool
	for {
		var f colorfight2.Frame
		err := src.Next(&f)
		if errors.Is(err, io.EOF) {
			return frames, cmds, oks
		}
		if err != nil {
			t.Fatal(err)
		}
		r, _, ok := src.Round()
		var c [][]colorfight2.Command
		if ok {
			c = r.Commands
			if r.Turn != f.Turn-1 {
				t.Fatalf("frame %d: round %d", f.Turn, r.Turn)
			}
		}
		frames, cmds, oks = append(frames, f), append(cmds, c), append(oks, ok)
	}
}

// TestInferC06 reads conformance vector c06 with inferred commands: every
// round has them, and playing them from the start by the rules — one
// state, never reloaded from a frame — gives every frame of the replay.
func TestInferC06(t *testing.T) {
	raw, err := Open("../../testdata/conformance/c06.cfr")
	if err != nil {
		t.Fatal(err)
	}
	src := Infer(raw)
	defer src.Close()
	if !src.Meta().CommandsInferred || src.Meta().Format != CFR {
		t.Fatalf("meta: inferred %v, format %s", src.Meta().CommandsInferred, src.Meta().Format)
	}
	if Infer(src) != src {
		t.Error("Infer of an inferring source wraps it again")
	}
	frames, cmds, oks := readAll(t, src)
	if len(frames) < 100 {
		t.Fatalf("%d frames", len(frames))
	}
	if oks[0] {
		t.Error("frame 0 has a round")
	}
	players, err := colorfight2.PlayersFromFrame(&frames[1])
	if err != nil {
		t.Fatal(err)
	}
	cfg := src.Meta().Config
	cfg.MaxPlayer = max(cfg.MaxPlayer, len(players))
	st, err := colorfight2.New(cfg, colorfight2.MapFromFrame(&frames[0]), players)
	if err != nil {
		t.Fatal(err)
	}
	var got colorfight2.Frame
	total := 0
	for n := 1; n < len(frames); n++ {
		if !oks[n] {
			t.Fatalf("turn %d: no inferred commands", n)
		}
		for _, c := range cmds[n] {
			total += len(c)
		}
		st.Step(cmds[n])
		st.Frame(&got)
		got.CopyRatings(&frames[n])
		if d := colorfight2.Diff(&frames[n], &got); d != nil {
			t.Fatalf("replaying the inferred commands: %v", d)
		}
	}
	if total == 0 {
		t.Error("no commands inferred at all")
	}
}

// TestInferEveryReplay: every round of every reference replay (the
// vectors and the real ones, when present) gets inferred commands; a plain .cfr source
// does not claim any.
func TestInferEveryReplay(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/conformance/*.cfr")
	files = append(files, testutil.RealWorldOptional(t)...)
	if len(files) < 6 {
		t.Fatalf("found %v", files)
	}
	for _, p := range files {
		raw, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if raw.Meta().CommandsInferred {
			t.Errorf("%s: a plain .cfr source says its commands are inferred", p)
		}
		src := Infer(raw)
		_, _, oks := readAll(t, src)
		src.Close()
		for n := 1; n < len(oks); n++ {
			if !oks[n] {
				t.Errorf("%s: turn %d has no inferred commands", p, n)
				break
			}
		}
	}
}

// TestInferTampered: a frame tampered on its own has no commands; the
// rounds around it still have theirs.
func TestInferTampered(t *testing.T) {
	data, err := os.ReadFile("../../testdata/conformance/c06.cfr")
	if err != nil {
		t.Fatal(err)
	}
	const bad = 100
	d, err := cfr.NewDecoder(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	e, err := cfr.NewEncoder(&buf, d.Header())
	if err != nil {
		t.Fatal(err)
	}
	for {
		var f colorfight2.Frame
		err := d.Next(&f)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if f.Turn == bad {
			f.Users[0].Gold++
		}
		if err := e.WriteFrame(&f); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := New(bytes.NewReader(buf.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, oks := readAll(t, Infer(raw))
	for n := 1; n < len(oks); n++ {
		if oks[n] != (n != bad) {
			t.Errorf("turn %d: commands %v", n, oks[n])
		}
	}
}

// TestForkTurnBounds: NewFork refuses a turn out of range, whatever its
// size, before allocating for it.
func TestForkTurnBounds(t *testing.T) {
	data, err := os.ReadFile("../../testdata/conformance/c06.cfr")
	if err != nil {
		t.Fatal(err)
	}
	for _, turn := range []int{-3, 0, 200, math.MaxInt} {
		if _, err := NewFork("c06.cfr", data, turn); err == nil {
			t.Errorf("fork at turn %d accepted", turn)
		}
	}
	fk, err := NewFork("c06.cfr", data, 50)
	if err != nil {
		t.Fatal(err)
	}
	if len(fk.Prefix) != 50 || fk.Parent.Turn != 50 || fk.Parent.Source != "c06.cfr" {
		t.Errorf("fork at 50: %d rounds, parent %+v", len(fk.Prefix), fk.Parent)
	}
}

// TestForkKeepBounds: a fork refuses a parent whose rounds hold more
// command text, or more commands, than it keeps (docs/limits.md), with
// replay.ErrLimit naming the turn; within the bounds it keeps a copy.
func TestForkKeepBounds(t *testing.T) {
	var h heldRounds
	var r match.GameRound
	cmds := [][]string{{"a 1 2 3"}, nil}
	if err := h.keep(&r, 0, -1, cmds, []engine.Fault{0, engine.FaultTimeout}, []string{"", "late"}); err != nil {
		t.Fatal(err)
	}
	cmds[0][0] = "changed"
	if r.Commands[0][0] != "a 1 2 3" || r.Faults[1] != engine.FaultTimeout || r.FaultText[1] != "late" || r.Active != -1 {
		t.Fatalf("kept %+v", r)
	}
	long := strings.Repeat("x", MaxForkTextBytes/2)
	if err := h.keep(&r, 1, -1, [][]string{{long}}, nil, nil); err != nil {
		t.Fatalf("half the text bound: %v", err)
	}
	err := h.keep(&r, 2, -1, [][]string{{long}}, nil, nil)
	if !errors.Is(err, replay.ErrLimit) || !strings.Contains(err.Error(), "turn 3") {
		t.Fatalf("past the text bound: %v", err)
	}
	h = heldRounds{n: MaxForkCommands}
	if err := h.keep(&r, 4, -1, [][]string{{"a"}}, nil, nil); !errors.Is(err, replay.ErrLimit) {
		t.Fatalf("past the command bound: %v", err)
	}
}
