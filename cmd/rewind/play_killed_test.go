//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/testutil"
)

// TestKilledPlayLeavesReadableFile: `rewind play -o k.rwd` killed with
// SIGKILL mid-game leaves k.rwd itself, cut after its last whole round —
// verify says INCOMPLETE (exit 3), info says incomplete — and nothing
// hidden beside it; a second play to the same name is refused naming the
// file, and --force replaces it.
func TestKilledPlayLeavesReadableFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "k.rwd")
	const answered = 30
	killPlayMidGame(t, out, answered)

	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if name := e.Name(); name != "k.rwd" && name != "stalled" && name != "k.rwd.bot-2.stderr.log" {
			t.Errorf("a killed play left %s beside its recording", name)
		}
	}
	got, code := runRewind(t, "verify", out)
	if code != exitIncomplete || !strings.HasPrefix(got, "INCOMPLETE ") {
		t.Fatalf("verify of the killed game: status %d, want 3\n%s", code, got)
	}
	var rounds int
	if _, err := fmt.Sscanf(strings.SplitN(got, ": ", 2)[1], "%d whole rounds verify", &rounds); err != nil || rounds < answered-1 {
		t.Errorf("verify of the killed game: %d whole rounds (%v), want at least %d\n%s", rounds, err, answered-1, got)
	}
	if got, code := runRewind(t, "info", out); code != exitIncomplete || !strings.Contains(got, "incomplete") {
		t.Errorf("info of the killed game: status %d\n%s", code, got)
	}
	if got, code := runRewind(t, "play", "--seed", "5", "--turns", "200", "-o", out); code == 0 || !strings.Contains(got, "k.rwd exists; use --force") {
		t.Errorf("a second play over the killed game: status %d\n%s", code, got)
	}
	if got, code := runRewind(t, "play", "--seed", "5", "--turns", "200", "--force", "-o", out); code != 0 {
		t.Fatalf("play --force over the killed game: status %d\n%s", code, got)
	}
	if got, code := runRewind(t, "verify", out); code != 0 || !strings.HasPrefix(got, "OK ") {
		t.Errorf("verify after play --force: status %d\n%s", code, got)
	}
	whole := testutil.ReadFile(t, out)

	// Killed while it replaced a game (--force): the old game is kept
	// whole, the new one is the visible k.rwd.partial, and the next run
	// says so instead of writing over it.
	killPlayMidGame(t, out, answered, "--force")
	if !bytes.Equal(testutil.ReadFile(t, out), whole) {
		t.Errorf("a play --force killed mid-game changed the game it was replacing")
	}
	if got, code := runRewind(t, "verify", out+".partial"); code != exitIncomplete {
		t.Errorf("verify of the replacement left by the kill: status %d, want 3\n%s", code, got)
	}
	got, code = runRewind(t, "play", "--seed", "5", "--turns", "200", "--force", "-o", out)
	if code == 0 || !strings.Contains(got, "k.rwd.partial is left from a run killed while it replaced k.rwd") {
		t.Errorf("play --force beside a killed replacement: status %d\n%s", code, got)
	}
}

// killPlayMidGame starts `rewind play ... -o out` against a bot that
// answers its first answered turns and then stalls, waits until the bot
// is asked the turn after those (the rounds it answered are recorded by
// then) and kills play's process group with SIGKILL.
func killPlayMidGame(t *testing.T, out string, answered int, flags ...string) {
	t.Helper()
	marker := filepath.Join(filepath.Dir(out), "stalled")
	os.Remove(marker)
	bot := fmt.Sprintf("%s %s %d %s", os.Args[0], stallBotArg, answered, marker)
	args := append([]string{"play", "--seed", "5", "--turns", "500", "--deadline", "10m",
		"--bot", "greedy", "--bot", bot, "-o", out}, flags...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-ended
	}()
	// The safety net is not a verdict: a hung play fails here naming
	// what it printed.
	for safety := time.Now().Add(5 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(marker); err == nil {
			return
		}
		select {
		case err := <-ended:
			ended <- err
			t.Fatalf("play ended (%v) before the bot stalled; it printed:\n%s", err, log.String())
		default:
		}
		if time.Now().After(safety) {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			ended <- <-ended
			t.Fatalf("the bot was never asked past turn %d; play printed:\n%s", answered, log.String())
		}
	}
}
