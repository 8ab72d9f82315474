package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/testutil"
)

// TestMonadCommands: play --game monad records a .rwd that verify
// re-simulates and info describes; a cut copy is incomplete (exit 2) and
// still described; tournament --game monad plays, then resumes.
func TestMonadCommands(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "m.rwd")
	out, err := runCLIOut(t, "play", "--game", "monad", "--seed", "3", "--turns", "300", "-o", rwd)
	if err != nil {
		t.Fatalf("play: %v\n%s", err, out)
	}
	if !strings.Contains(out, "hives") || !strings.Contains(out, "2_miner") || !strings.Contains(out, "(monad, ") {
		t.Fatalf("play output:\n%s", out)
	}
	out, err = runCLIOut(t, "verify", rwd)
	if err != nil || !strings.HasPrefix(out, "OK ") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	out, err = runCLIOut(t, "info", rwd)
	if err != nil {
		t.Fatalf("info: %v\n%s", err, out)
	}
	for _, want := range []string{"ruleset:  monad v1", "20x20 hex", "drawn from seed 3", "complete", "final:", "bot rusher", "rank 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}
	if _, err := runCLIOut(t, "verify", rwd, "--against", rwd); err == nil {
		t.Error("verify --against accepted a monad replay")
	}

	data, err := os.ReadFile(rwd)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.rwd")
	if err := os.WriteFile(cut, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = runCLIOut(t, "verify", cut)
	if ee, ok := err.(*exitError); !ok || ee.code != 2 || !strings.HasPrefix(out, "INCOMPLETE") {
		t.Errorf("verify of a cut recording: %v\n%s", err, out)
	}
	out, err = runCLIOut(t, "info", cut)
	if err != nil || !strings.Contains(out, "incomplete") {
		t.Errorf("info of a cut recording: %v\n%s", err, out)
	}
	damaged := append([]byte(nil), data...)
	damaged[len(damaged)/2] ^= 0x10
	if err := os.WriteFile(cut, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := runCLIOut(t, "verify", cut); err == nil {
		t.Errorf("verify of a damaged recording passed:\n%s", out)
	}

	tdir := filepath.Join(dir, "t")
	out, err = runCLIOut(t, "tournament", "--game", "monad", "--games", "2", "--turns", "120", "--parallel", "1", "--dir", tdir)
	if err != nil || !strings.Contains(out, "miner") || !strings.Contains(out, "2 games (0 already played") || !strings.Contains(out, "mean resources") {
		t.Fatalf("tournament: %v\n%s", err, out)
	}
	out, err = runCLIOut(t, "tournament", "--game", "monad", "--games", "2", "--turns", "120", "--parallel", "1", "--dir", tdir)
	if err != nil || !strings.Contains(out, "2 games (2 already played") {
		t.Fatalf("tournament resumed: %v\n%s", err, out)
	}
	out, err = runCLIOut(t, "verify", filepath.Join(tdir, "game-0001.rwd"))
	if err != nil || !strings.HasPrefix(out, "OK ") {
		t.Fatalf("verify a tournament game: %v\n%s", err, out)
	}
}

// TestMonadFlags: the Monad ranges and names are enforced before anything
// is played.
func TestMonadFlags(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.rwd")
	for _, args := range [][]string{
		{"play", "--game", "chess", "-o", out},
		{"play", "--game", "monad", "--bot", "miner", "-o", out},
		{"play", "--game", "monad", "--bot", "a", "--bot", "b", "--bot", "c", "--bot", "d", "--bot", "e", "-o", out},
		{"play", "--game", "monad", "--bot", "greedy", "--bot", "miner", "-o", out},
		{"play", "--game", "monad", "--turns", "0", "-o", out},
		{"play", "--uniform", "-o", out},
		{"tournament", "--game", "monad", "--players", "5", "--dir", dir},
	} {
		if _, err := runCLIOut(t, args...); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused command wrote its output")
	}
}

// TestMonadExternalBot plays a Monad match against an external Python bot
// over the subprocess protocol; its rejected element is counted, the
// replay verifies.
func TestMonadExternalBot(t *testing.T) {
	py := testutil.NeedTool(t, "python3")
	dir := t.TempDir()
	rwd := filepath.Join(dir, "x.rwd")
	bot := "'" + py + "' ../../engine/bot/subprocess/testdata/monad.py"
	out, err := runCLIOut(t, "play", "--game", "monad", "--bot", "miner", "--bot", bot, "--turns", "30", "--deadline", "1m", "-o", rwd)
	if err != nil {
		t.Fatalf("play: %v\n%s", err, out)
	}
	if !strings.Contains(out, "monad.py") || !strings.Contains(out, "  30  ") {
		t.Errorf("output (want 30 rejected elements for the external bot):\n%s", out)
	}
	if out, err := runCLIOut(t, "verify", rwd); err != nil {
		t.Fatalf("verify: %v\n%s", err, out)
	}
}

// TestMonadCrashedBot: an external bot that exits at turn 5 is marked
// crashed in the state and in the recording; the match plays on and the
// replay verifies.
func TestMonadCrashedBot(t *testing.T) {
	py := testutil.NeedTool(t, "python3")
	dir := t.TempDir()
	rwd := filepath.Join(dir, "c.rwd")
	bot := "'" + py + "' ../../engine/bot/subprocess/testdata/monad.py crash"
	out, err := runCLIOut(t, "play", "--game", "monad", "--bot", "miner", "--bot", bot, "--turns", "40", "--deadline", "1m", "-o", rwd)
	if err != nil {
		t.Fatalf("play: %v\n%s", err, out)
	}
	if !strings.Contains(out, "crashed") || !strings.Contains(out, "(monad, 40 turns)") {
		t.Errorf("play output:\n%s", out)
	}
	if out, err := runCLIOut(t, "verify", rwd); err != nil || !strings.HasPrefix(out, "OK ") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	out, err = runCLIOut(t, "info", rwd)
	if err != nil || !strings.Contains(out, "players timed out or crashed: 1") {
		t.Errorf("info: %v\n%s", err, out)
	}
}
