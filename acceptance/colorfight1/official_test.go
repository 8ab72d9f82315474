package colorfight1_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// clientEnv names the folder holding the official client library and its
// example (colorfight.py and exampleAI.py of gaogaotiantian/ColorFightAI),
// which the project never commits: fetch them into a scratch folder.
const clientEnv = "REWIND_COLORFIGHT1_CLIENT"

// TestOfficialExampleAI: the unmodified exampleAI.py on the unmodified
// colorfight.py, given only the host URL, plays a timed game against two
// built-ins on `rewind server --game colorfight1`; its attacks succeed,
// the recording verifies and info names every player, the official
// client by the name it joined with.
func TestOfficialExampleAI(t *testing.T) {
	dir := os.Getenv(clientEnv)
	if dir == "" {
		t.Skip("the official ColorFight v1 client is not here: set " + clientEnv + " to a folder with colorfight.py and exampleAI.py")
	}
	for _, f := range []string{"colorfight.py", "exampleAI.py"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Skipf("%s: %v", clientEnv, err)
		}
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to run the official client")
	}
	if out, err := exec.Command(py, "-c", "import requests").CombinedOutput(); err != nil {
		t.Skipf("python3 has no requests module (Debian: python3-requests): %s", bytes.TrimSpace(out))
	}
	rec := t.TempDir()
	srv := clitest.StartProcess(t, serverListening, "server", "--game", "colorfight1", "--addr", "127.0.0.1:0", "--dir", rec,
		"--bot", "expander", "--bot", "aggressor", "--last-time", "10", "--seed", "3")
	// exampleAI writes ./token: it runs in a folder of its own, and loops
	// for ever, so it is stopped once the game has ended (the server, a
	// next game started, still answers it till then).
	work := t.TempDir()
	for _, f := range []string{"colorfight.py", "exampleAI.py"} {
		b := testutil.ReadFile(t, filepath.Join(dir, f))
		if err := os.WriteFile(filepath.Join(work, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ai := exec.CommandContext(ctx, py, "-c", "import colorfight, runpy\ncolorfight.hostUrl = '"+srv.Match+"/'\nrunpy.run_path('exampleAI.py', run_name='__main__')")
	ai.Dir = work
	var out testutil.SyncBuffer
	ai.Stdout, ai.Stderr = &out, &out
	if err := ai.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- ai.Wait() }()
	// The server logs game 1's end (its file's name ends in -1) once
	// its recording is in place, and goes on with game 2.
	firstEnded := regexp.MustCompile(`game \S+-1 ended after `)
	for safety := time.Now().Add(2 * time.Minute); !firstEnded.MatchString(srv.Output()); time.Sleep(20 * time.Millisecond) {
		select {
		case err := <-ended:
			t.Fatalf("exampleAI.py ended (%v) before the game:\n%s", err, out.String())
		default:
		}
		if time.Now().After(safety) {
			t.Fatalf("the game did not end:\n%s", srv.Output())
		}
	}
	cancel()
	<-ended
	log := out.String()
	if !strings.Contains(log, "(True, None, None)") {
		t.Fatalf("no attack of exampleAI.py succeeded:\n%.2000s", log)
	}
	if strings.Contains(log, "Traceback") || strings.Contains(log, "did not return correctly") {
		t.Errorf("exampleAI.py met an error:\n%.2000s", log)
	}
	rwds, _ := filepath.Glob(filepath.Join(rec, "colorfight1-*-1.rwd")) // game 1's
	if len(rwds) != 1 {
		t.Fatalf("recordings %v", rwds)
	}
	if got, code := clitest.Run(t, "verify", rwds[0]); code != 0 || !strings.HasPrefix(got, "OK ") {
		t.Errorf("verify: status %d\n%s", code, got)
	}
	// exampleAI.py joins as "MyAI" (g.JoinGame('MyAI')): info names its
	// seat so, with its uid, not as the header's "seat 3".
	got, code := clitest.Run(t, "info", rwds[0])
	if code != 0 || !regexp.MustCompile(`1  "expander #\d" +bot expander`).MatchString(got) ||
		!regexp.MustCompile(`2  "aggressor #\d" +bot aggressor`).MatchString(got) ||
		!regexp.MustCompile(`3  "MyAI #\d" +bot official client`).MatchString(got) {
		t.Errorf("info: status %d\n%s", code, got)
	}
}
