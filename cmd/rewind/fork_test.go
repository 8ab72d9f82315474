package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/internal/viewer"
	"github.com/rewind-game/rewind/replay"
)

// frames reads every frame of a replay.
func allFrames(t *testing.T, path string) []colorfight2.Frame {
	t.Helper()
	data := testutil.ReadFile(t, path)
	s, err := cfrimport.OpenFrames(bytes.NewReader(data))
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
	opts := &forkOptions{in: parentPath, turn: 250, fill: "greedy"}
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
	v, err := replay.VerifySim(f, nil)
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
	fs, err := source.OpenStream(out)
	if err != nil {
		t.Fatal(err)
	}
	p := viewer.ReplayPageData(fs.Meta(), "fork.rwd")
	fs.Close()
	if !strings.Contains(p.Summary, "played on from turn 250 of "+name) {
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
	if _, err := runFork(context.Background(), bad); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d players", players)) || !strings.Contains(err.Error(), "UID=") {
		t.Fatalf("one bot: %v", err)
	}
}

// infoBots returns the "bot" column of `rewind info FILE`, seat by seat.
func infoBots(t *testing.T, file string) []string {
	t.Helper()
	out, err := runCLIOut(t, "info", file)
	if err != nil {
		t.Fatalf("info %s: %v\n%s", file, err, out)
	}
	var bots []string
	for _, line := range strings.Split(out, "\n") {
		if _, b, ok := strings.Cut(line, "  bot "); ok {
			bots = append(bots, strings.TrimSpace(b))
		}
	}
	return bots
}

// TestForkKeepsSeats: forking a tournament game at turn 120 seats every
// player's own built-in again, as `rewind info` shows, and refuses the
// seat of an external bot until --bot maps it (to the same command here);
// --bot UID=NAME replaces one seat; a .cfr, whose
// seats name no bot, asks for --bot per seat or takes --fill.
func TestForkKeepsSeats(t *testing.T) {
	dir := t.TempDir()
	cmd := logBot(t, dir)
	tdir := filepath.Join(dir, "t")
	if out, err := runCLIOut(t, "tournament", "--bot", "turtle", "--bot", "economist", "--bot", "raider", "--bot", cmd,
		"--players", "4", "--games", "1", "--turns", "200", "--deadline", "1m", "--dir", tdir); err != nil {
		t.Fatalf("tournament: %v\n%s", err, out)
	}
	game := filepath.Join(tdir, "game-0000.rwd")
	parent := infoBots(t, game)
	if len(parent) != 4 {
		t.Fatalf("info shows %d seats: %q", len(parent), parent)
	}

	// The external bot's seat is refused without a --bot: the replay's
	// command is never run; mapped to the same command, every seat is as
	// it was.
	forked := filepath.Join(dir, "forked.rwd")
	ext := 0
	for i, b := range parent {
		if b == cmd {
			ext = i + 1
		}
	}
	if ext == 0 {
		t.Fatalf("info shows no seat of %s: %q", cmd, parent)
	}
	out, err := runCLIOut(t, "fork", game, "--turn", "120", "--deadline", "1m", "-o", forked)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("seat %d (", ext)) || !strings.Contains(err.Error(), "--bot UID=COMMAND") {
		t.Fatalf("fork with no --bot for the external seat: %v\n%s", err, out)
	}
	out, err = runCLIOut(t, "fork", game, "--turn", "120", "--bot", strconv.Itoa(ext)+"="+cmd, "--deadline", "1m", "-o", forked)
	if err != nil {
		t.Fatalf("fork: %v\n%s", err, out)
	}
	if got := infoBots(t, forked); strings.Join(got, "|") != strings.Join(parent, "|") {
		t.Errorf("fork with --bot %d=%s seats %q, the parent was played by %q", ext, cmd, got, parent)
	}

	// One seat replaced, the others kept.
	seat := 1
	for i, b := range parent {
		if b == "turtle" {
			seat = i + 1
		}
	}
	if out, err := runCLIOut(t, "fork", game, "--turn", "120", "--bot", strconv.Itoa(seat)+"=greedy", "--bot", strconv.Itoa(ext)+"="+cmd, "--deadline", "1m", "-o", forked, "--force"); err != nil {
		t.Fatalf("fork --bot %d=greedy: %v\n%s", seat, err, out)
	}
	want := append([]string(nil), parent...)
	want[seat-1] = "greedy"
	if got := infoBots(t, forked); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("fork --bot %d=greedy seats %q, want %q", seat, got, want)
	}
	for _, bad := range [][]string{{"9=greedy"}, {"1=greedy", "1=raider"}, {"1=greedy", "raider"}, {"greedy"}} {
		args := []string{"fork", game, "--turn", "120", "-o", filepath.Join(dir, "bad.rwd")}
		for _, b := range bad {
			args = append(args, "--bot", b)
		}
		if _, err := runCLIOut(t, args...); err == nil || !strings.Contains(err.Error(), "--bot") && !strings.Contains(err.Error(), "players") {
			t.Errorf("fork --bot %q: %v", bad, err)
		}
	}

	// A .cfr names no bot: fork asks for them, seat by seat.
	cfrGame := c06 + ".cfr"
	cfrPlayers := len(infoBots(t, cfrGame))
	_, err = runCLIOut(t, "fork", cfrGame, "--turn", "120", "-o", filepath.Join(dir, "c.rwd"))
	if err == nil || !strings.Contains(err.Error(), "does not say which bot played seat 1 (") || !strings.Contains(err.Error(), "--fill") {
		t.Fatalf("fork of a .cfr with no --bot: %v", err)
	}
	if out, err := runCLIOut(t, "fork", cfrGame, "--turn", "120", "--bot", "1=raider", "--fill", "turtle", "-o", filepath.Join(dir, "c.rwd")); err != nil {
		t.Fatalf("fork of a .cfr with --fill: %v\n%s", err, out)
	}
	got := infoBots(t, filepath.Join(dir, "c.rwd"))
	if len(got) != cfrPlayers || got[0] != "raider" {
		t.Fatalf("fork of a .cfr seats %q", got)
	}
	for _, b := range got[1:] {
		if b != "turtle" {
			t.Errorf("fork of a .cfr with --fill turtle seats %q", got)
			break
		}
	}
}

// TestServeForkBots: `serve --bot COMMAND` offers that bot to "play on
// from here" beside the built-ins, and a fork the page asks for with it
// runs the command in the seat chosen (its stderr logs kept in the new
// replay); a built-in given with --bot is not listed twice.
func TestServeForkBots(t *testing.T) {
	dir := t.TempDir()
	cmd := logBot(t, t.TempDir())
	game := filepath.Join(dir, "g.rwd")
	mustRunCLI(t, "play", "--bot", "greedy", "--bot", "turtle", "--turns", "200", "-o", game)
	lib, err := viewer.OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	base := serveForTest(t, "serve "+dir, &serveOptions{bots: []string{"raider", cmd}}, func(ctx context.Context, opts *serveOptions) error {
		return serveLibrary(ctx, lib, opts, "/")
	})
	res, err := http.Get(base + "/api/fork/bots")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(body), `"id":"serve:1"`) || strings.Count(string(body), `"id":"raider"`) != 1 || strings.Contains(string(body), "serve:0") {
		t.Fatalf("choices: %s", body)
	}
	req, _ := http.NewRequest("POST", base+"/api/fork?id=g.rwd&turn=120&bot=greedy&bot=serve:1", nil)
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("fork: %d %s", res.StatusCode, body)
	}
	if got := infoBots(t, filepath.Join(dir, "g-fork-T120.rwd")); len(got) != 2 || got[0] != "greedy" || got[1] != cmd {
		t.Errorf("the fork seats %q", got)
	}
}
