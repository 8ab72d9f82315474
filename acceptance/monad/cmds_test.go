package monad_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestMonadCommands: play --game monad records a .rwd that verify
// re-simulates and info describes; a cut copy is incomplete (exit 3) and
// still described; tournament --game monad plays, then resumes.
func TestMonadCommands(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "m.rwd")
	out, code := clitest.Run(t, "play", "--game", "monad", "--seed", "3", "--turns", "300", "-o", rwd)
	if code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	if !strings.Contains(out, "hives") || !strings.Contains(out, "2_miner") || !strings.Contains(out, "(monad, ") {
		t.Fatalf("play output:\n%s", out)
	}
	out, code = clitest.Run(t, "verify", rwd)
	if code != 0 || !strings.HasPrefix(out, "OK ") {
		t.Fatalf("verify: status %d\n%s", code, out)
	}
	out, code = clitest.Run(t, "info", rwd)
	if code != 0 {
		t.Fatalf("info: status %d\n%s", code, out)
	}
	for _, want := range []string{"ruleset:  monad v1", "20×20 hex", "drawn from seed 3", "complete", "final:", "bot rusher", "rank 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}
	if out, code := clitest.Run(t, "verify", rwd, "--against", rwd); code == 0 {
		t.Errorf("verify --against accepted a monad replay:\n%s", out)
	}

	data := testutil.ReadFile(t, rwd)
	cut := filepath.Join(dir, "cut.rwd")
	if err := os.WriteFile(cut, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = clitest.Run(t, "verify", cut)
	if code != 3 || !strings.HasPrefix(out, "INCOMPLETE") {
		t.Errorf("verify of a cut recording: status %d (want 3)\n%s", code, out)
	}
	out, code = clitest.Run(t, "info", cut)
	if code != 3 || !strings.Contains(out, "incomplete") {
		t.Errorf("info of a cut recording: status %d\n%s", code, out)
	}
	damaged := append([]byte(nil), data...)
	damaged[len(damaged)/2] ^= 0x10
	if err := os.WriteFile(cut, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := clitest.Run(t, "verify", cut); code == 0 {
		t.Errorf("verify of a damaged recording passed:\n%s", out)
	}

	tdir := filepath.Join(dir, "t")
	out, code = clitest.Run(t, "tournament", "--game", "monad", "--games", "2", "--turns", "120", "--parallel", "1", "--dir", tdir)
	if code != 0 || !strings.Contains(out, "miner") || !strings.Contains(out, "2 games (0 already played") || !strings.Contains(out, "mean hives") {
		t.Fatalf("tournament: status %d\n%s", code, out)
	}
	out, code = clitest.Run(t, "tournament", "--game", "monad", "--games", "2", "--turns", "120", "--parallel", "1", "--dir", tdir)
	if code != 0 || !strings.Contains(out, "2 games (2 already played") {
		t.Fatalf("tournament resumed: status %d\n%s", code, out)
	}
	out, code = clitest.Run(t, "verify", filepath.Join(tdir, "game-0001.rwd"))
	if code != 0 || !strings.HasPrefix(out, "OK ") {
		t.Fatalf("verify a tournament game: status %d\n%s", code, out)
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
		if said, code := clitest.Run(t, args...); code == 0 {
			t.Errorf("%v accepted:\n%s", args, said)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused command wrote its output")
	}
}

// playExternal plays a Monad match of turns turns, miner against the
// external Python bot monad.py run with args, and returns the replay's
// path and what play printed; a failed play fails t, and no python3
// skips it.
func playExternal(t *testing.T, args string, turns int) (rwd, out string) {
	t.Helper()
	py := testutil.NeedTool(t, "python3")
	rwd = filepath.Join(t.TempDir(), "x.rwd")
	bot := "'" + py + "' ../../internal/subprocess/testdata/monad.py" + args
	out, code := clitest.Run(t, "play", "--game", "monad", "--bot", "miner", "--bot", bot, "--turns", strconv.Itoa(turns), "--deadline", "1m", "-o", rwd)
	if code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	return rwd, out
}

// TestMonadExternalBot plays a Monad match against an external Python bot
// over the subprocess protocol; its rejected element is counted, the
// replay verifies.
func TestMonadExternalBot(t *testing.T) {
	rwd, out := playExternal(t, "", 30)
	if !strings.Contains(out, "monad.py") || !strings.Contains(out, "  30  ") {
		t.Errorf("output (want 30 rejected elements for the external bot):\n%s", out)
	}
	if out, code := clitest.Run(t, "verify", rwd); code != 0 {
		t.Fatalf("verify: status %d\n%s", code, out)
	}
}

// TestMonadCrashedBot: an external bot that exits at turn 5 is marked
// crashed in the state and in the recording; the match plays on and the
// replay verifies.
func TestMonadCrashedBot(t *testing.T) {
	rwd, out := playExternal(t, " crash", 40)
	if !strings.Contains(out, "crashed") || !strings.Contains(out, "(monad, 40 turns)") {
		t.Errorf("play output:\n%s", out)
	}
	if out, code := clitest.Run(t, "verify", rwd); code != 0 || !strings.HasPrefix(out, "OK ") {
		t.Fatalf("verify: status %d\n%s", code, out)
	}
	out, code := clitest.Run(t, "info", rwd)
	if code != 0 || !strings.Contains(out, "1 bot faults") {
		t.Errorf("info: status %d\n%s", code, out)
	}
}
