package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/cfr"
	"github.com/rewind-game/rewind/replay/source"
	"github.com/rewind-game/rewind/viewer"
)

// frames reads every frame of a replay.
func allFrames(t *testing.T, path string) []colorfight2.Frame {
	t.Helper()
	s, err := source.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out []colorfight2.Frame
	for {
		var f colorfight2.Frame
		err := s.Next(&f)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
}

// TestForkRealReplay: playing on from turn 250 of an official replay (a
// conformance vector's, and each real tournament replay when present) with
// the built-in bots gives a replay whose frames 0..250 are the parent's,
// that verifies on its own, names its parent, and whose viewer page says
// so.
func TestForkRealReplay(t *testing.T) {
	for _, p := range append([]string{"../../testdata/conformance/c04.cfr"}, testutil.RealWorldOptional(t)...) {
		t.Run(filepath.Base(p), func(t *testing.T) { testForkOfficial(t, p) })
	}
}

func testForkOfficial(t *testing.T, parentPath string) {
	name := filepath.Base(parentPath)
	players := len(allFrames(t, parentPath)[500].Users)
	out := filepath.Join(t.TempDir(), "fork.rwd")
	var stdout bytes.Buffer
	opts := &forkOptions{in: parentPath, turn: 250}
	opts.play.out, opts.play.stdout, opts.play.seed = out, &stdout, 3
	res, err := runFork(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Turn != 500 || len(res.Players) != players {
		t.Fatalf("result %+v", res)
	}
	parent, fork := allFrames(t, parentPath), allFrames(t, out)
	if len(fork) != 501 {
		t.Fatalf("fork has %d frames", len(fork))
	}
	for turn := 0; turn <= 250; turn++ {
		if d := colorfight2.Diff(&parent[turn], &fork[turn]); d != nil {
			t.Fatalf("frame %d differs from the parent: %v", turn, d)
		}
	}
	if colorfight2.Diff(&parent[500], &fork[500]) == nil {
		t.Error("the fork ends exactly as the parent: the bots did not play")
	}
	f, _ := os.Open(out)
	v, err := replay.Verify(f, nil)
	f.Close()
	if err != nil || v.Err != nil || !v.Complete {
		t.Fatalf("verify: %v %+v", err, v)
	}
	f, _ = os.Open(out)
	h, err := replay.ReadHeader(f)
	f.Close()
	src, _ := os.ReadFile(parentPath)
	sum, _ := cfr.SHA256(bytes.NewReader(src))
	if err != nil || h.Parent == nil || h.Parent.Turn != 250 || h.Parent.SHA256 != sum || h.Parent.Source != name {
		t.Fatalf("parent %+v, %v", h.Parent, err)
	}
	s, err := source.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := viewer.Load(s)
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if p := viewer.PageData(rep, "fork.rwd"); !strings.Contains(p.Summary, "played on from turn 250 of "+name) {
		t.Fatalf("page summary %q", p.Summary)
	}

	// A fork of the fork, from a .rwd, keeps the first 300 turns.
	out2 := filepath.Join(t.TempDir(), "fork2.rwd")
	opts2 := &forkOptions{in: out, turn: 300}
	opts2.play.out, opts2.play.stdout, opts2.play.bots = out2, &stdout, slices.Repeat([]string{"greedy"}, players)
	if _, err := runFork(context.Background(), opts2); err != nil {
		t.Fatal(err)
	}
	again := allFrames(t, out2)
	for turn := 0; turn <= 300; turn++ {
		if d := colorfight2.Diff(&fork[turn], &again[turn]); d != nil {
			t.Fatalf("second fork, frame %d: %v", turn, d)
		}
	}

	// Refusals: a turn out of range, the wrong number of bots.
	bad := &forkOptions{in: parentPath, turn: 500}
	bad.play.out, bad.play.stdout = filepath.Join(t.TempDir(), "x.rwd"), &stdout
	if _, err := runFork(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "outside 1..499") {
		t.Fatalf("turn 500: %v", err)
	}
	bad.turn, bad.play.bots = 10, []string{"greedy"}
	if _, err := runFork(context.Background(), bad); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d players", players)) {
		t.Fatalf("one bot: %v", err)
	}
}
