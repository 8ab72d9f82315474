package recording_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	bot "github.com/rewind-game/rewind/games/colorfight2/bots"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/replay"
)

var created = time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)

// builtin makes a ColorfightII built-in of tr's games as play does.
func builtin(tr *match.Tournament) func(spec string, game, player int) (match.GamePlayer, error) {
	return func(spec string, game, player int) (match.GamePlayer, error) {
		b, ok := engine.Registration{Bots: bot.Builtins}.FindBot(spec)
		if !ok {
			return nil, fmt.Errorf("no built-in %q", spec)
		}
		return match.BuiltinPlayer(b), nil
	}
}

// seats seats ColorfightII's built-ins called names.
func seats(t testing.TB, names ...string) []match.GameSeat {
	t.Helper()
	var ss []match.GameSeat
	for _, n := range names {
		b, err := builtin(nil)(n, 0, len(ss))
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, match.GameSeat{Bot: b})
	}
	return ss
}

// TestRecorderWritesVerifiableReplay: a ColorfightII match recorded
// through Recorder re-simulates to the match's own final state, with
// the header the setup describes.
func TestRecorderWritesVerifiableReplay(t *testing.T) {
	var buf bytes.Buffer
	res, err := match.RunGame(context.Background(), match.GameConfig{Ruleset: colorfight2.Ruleset, Seed: 9,
		Seats: seats(t, "greedy", "economist", "raider"), Recorder: recording.NewRecorder(&buf, created, "rewind test")})
	if err != nil {
		t.Fatal(err)
	}
	v, err := replay.VerifySim(bytes.NewReader(buf.Bytes()), nil)
	if err != nil || v.Err != nil || !v.Complete || v.Rounds != res.Turn {
		t.Fatalf("verify: %v %+v", err, v)
	}
	g, err := replay.OpenSim(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for g.Next() == nil {
	}
	if g.Game().Hash() != res.Hash {
		t.Fatal("re-simulation ends at another state than the match")
	}
	h := g.Header()
	if h.Tool != "rewind test" || !h.Created.Equal(created) || h.Seed == nil || *h.Seed != 9 || len(h.Players) != 3 ||
		h.Players[1].Bot != "economist" || h.Players[1].Name != "2_economist" {
		t.Fatalf("header %+v", h)
	}
}

// TestRecorderOrder: calls out of order are errors, not panics.
func TestRecorderOrder(t *testing.T) {
	r := recording.NewRecorder(&bytes.Buffer{}, created, "t")
	if err := r.Round(nil, nil); err == nil {
		t.Error("Round before Begin accepted")
	}
	if err := r.End(nil); err == nil {
		t.Error("End before Begin accepted")
	}
}

// TestDirResume: a tournament archived in a folder resumes — a removed
// game and a truncated one are played again with the same outcome, the
// others are read back, and no partial file is left.
func TestDirResume(t *testing.T) {
	dir := t.TempDir()
	arch := &recording.Dir{Path: filepath.Join(dir, "games"), Tool: "rewind test"}
	tr := &match.Tournament{Bots: []string{"greedy", "random", "economist", "turtle"},
		Games: 6, Players: 2, Parallel: 2, Seed: 11, MaxTurn: 200, Archive: arch}
	tr.NewGameBot = builtin(tr)
	games, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range games {
		if g.Skipped || g.Path != arch.GamePath(i) {
			t.Fatalf("first run, game %d: %+v", i, g)
		}
		if _, err := os.Stat(g.Path); err != nil {
			t.Fatal(err)
		}
		if g.Seats[0].Measure+g.Seats[1].Measure == 0 {
			t.Fatalf("game %d: no cells recorded: %+v", i, g.Seats)
		}
	}
	os.Remove(games[3].Path)
	b, _ := os.ReadFile(games[5].Path)
	os.WriteFile(games[5].Path, b[:len(b)/2], 0o644)
	again, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range again {
		if want := i != 3 && i != 5; g.Skipped != want {
			t.Errorf("game %d: skipped %v, want %v", i, g.Skipped, want)
		}
		for k := range g.Seats {
			if g.Seats[k] != games[i].Seats[k] {
				t.Errorf("game %d seat %d: %+v, first run %+v", i, k, g.Seats[k], games[i].Seats[k])
			}
		}
	}
	if m, _ := filepath.Glob(filepath.Join(arch.Path, "*.partial")); len(m) != 0 {
		t.Errorf("partial files left: %v", m)
	}
	// Another seating under the same name is not taken for the game.
	other := *tr
	other.Bots = []string{"raider", "turtle"}
	if _, ok := arch.Finished(0, other.GameSpec(0)); ok {
		t.Error("a game with other entrants was taken as finished")
	}
	// A match stopped before its end (its recording verifies to a footer
	// at the turn it stopped) is not taken for the game.
	specs, seed := tr.Seating(1), match.GameSeed(tr.Seed, 1)
	var stopped []match.GameSeat
	for k, spec := range specs {
		b, err := tr.NewGameBot(spec, 1, k)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		stopped = append(stopped, match.GameSeat{Bot: b, Identity: spec})
	}
	rec, err := arch.Create(1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := match.RunGame(ctx, match.GameConfig{Ruleset: colorfight2.Ruleset, Seed: seed, MaxTurns: 200, Seats: stopped, Recorder: rec})
	if err != nil || !res.Interrupted {
		t.Fatalf("stopped match: %v, %+v", err, res)
	}
	if _, err := rec.Commit(); err != nil {
		t.Fatal(err)
	}
	if v, err := replay.VerifySim(mustOpen(t, arch.GamePath(1)), nil); err != nil || !v.Complete {
		t.Fatalf("the stopped match's recording: %v %+v", err, v)
	}
	if _, ok := arch.Finished(1, tr.GameSpec(1)); ok {
		t.Error("a match stopped before its end was taken as finished")
	}
}

// mustOpen opens path for reading until the test ends.
func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestDirAbortLeavesNothing: an interrupted game leaves no file behind.
func TestDirAbortLeavesNothing(t *testing.T) {
	arch := &recording.Dir{Path: t.TempDir()}
	rec, err := arch.Create(0)
	if err != nil {
		t.Fatal(err)
	}
	rec.Abort()
	if m, _ := filepath.Glob(filepath.Join(arch.Path, "*")); len(m) != 0 {
		t.Fatalf("files left: %v", m)
	}
}
