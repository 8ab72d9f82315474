package skyport_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// referenceEnv names a checkout of the Skyport reference
// (pilsprog/skyport-logic at cf40a95) holding its example bots
// (ais/randomwalker.js, ais/simplewalker.py) and their API (api/nodejs,
// api/python). They are other people's code, never part of this project:
// a developer who wants this test fetches them into a folder outside the
// tree and points the variable at it. TestSkyportServerLockstep covers
// the protocol without them.
const referenceEnv = "REWIND_SKYPORT_REFERENCE"

// python2 is a Python 2 that runs (the one the reference's
// simplewalker.py is written for): $REWIND_PYTHON2, or python2 or
// python2.7 on the PATH (a pyenv shim that cannot run is passed over).
func python2(t *testing.T) string {
	t.Helper()
	cands := []string{os.Getenv("REWIND_PYTHON2")}
	for _, p := range []string{"python2", "python2.7"} {
		if path, err := exec.LookPath(p); err == nil {
			cands = append(cands, path)
		}
	}
	for _, p := range cands {
		if p != "" && exec.Command(p, "-c", "import sys; assert sys.version_info[0] == 2").Run() == nil {
			return p
		}
	}
	t.Skip("no Python 2 for the reference's simplewalker.py (set $REWIND_PYTHON2)")
	return ""
}

// TestSkyportExampleBotsPlay: the reference's two example bots, unchanged
// (Node's randomwalker.js and Python 2's simplewalker.py, which connect to
// the reference's fixed address 127.0.0.1:54321), play a lock-step game
// of `rewind server --game skyport` against a built-in hunter to its turn
// limit; the recording verifies and names the three players. It is the
// recipe of docs/skyport.md ("Server") run as a test; it skips, also
// under CI=true, when the reference's bots are absent.
func TestSkyportExampleBotsPlay(t *testing.T) {
	ref := os.Getenv(referenceEnv)
	if ref == "" {
		t.Skip("the Skyport reference's example bots are absent: $" + referenceEnv + " is not set (TestSkyportServerLockstep covers the protocol)")
	}
	for _, p := range []string{"ais/randomwalker.js", "ais/simplewalker.py", "api/nodejs/skyport.js", "api/python/skyport.py"} {
		if _, err := os.Stat(filepath.Join(ref, p)); err != nil {
			t.Fatalf("$%s=%s: %v", referenceEnv, ref, err)
		}
	}
	node := testutil.NeedTool(t, "node")
	py := python2(t)

	dir := t.TempDir()
	const rounds = 63 // 3 loadout rounds + 60 player-turns
	server := clitest.StartProcess(t, serverListening, "server", "--game", "skyport", "--addr", "127.0.0.1:54321", "--dir", dir,
		"--bot", "hunter", "--max-player", "3", "--max-turn", strconv.Itoa(rounds), "--round-time", "0", "--lockstep-deadline", "1h",
		"--games", "1", "--seed", "3")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ais := filepath.Join(ref, "ais")
	bots := []*exec.Cmd{
		exec.CommandContext(ctx, node, "randomwalker.js", "alice"),
		exec.CommandContext(ctx, py, "simplewalker.py", "bob"),
	}
	logs := make([]strings.Builder, len(bots))
	for i, b := range bots {
		b.Dir, b.Stdout, b.Stderr = ais, &logs[i], &logs[i]
		if err := b.Start(); err != nil {
			t.Fatal(err)
		}
	}
	// The server ends by itself after its one game (Wait's safety net).
	if code := server.Wait(t); code != 0 {
		t.Fatalf("server: status %d\n%s", code, server.Output())
	}
	cancel()
	for _, b := range bots {
		b.Wait() // they end when the server closes their connections, or are stopped
	}
	rwd, out := theRecording(t, dir, server.Output())
	for _, n := range []string{`"alice"`, `"bob"`, `"hunter"`, "turns: " + strconv.Itoa(rounds) + ", complete"} {
		if !strings.Contains(out, n) {
			t.Fatalf("info does not say %s:\n%s\nrandomwalker:\n%s\nsimplewalker:\n%s", n, out, logs[0].String(), logs[1].String())
		}
	}
	// Each example bot acted on its turns: a lock-step turn waits for its
	// lines, so a bot that sent none would be recorded as timing out.
	js, code := clitest.Run(t, "analyze", "--format", "json", rwd)
	if code != 0 {
		t.Fatalf("analyze: status %d\n%s", code, js)
	}
	var a struct {
		Summary []struct {
			Name             string
			OwnTurns         int `json:"own_turns"`
			Commands, Faults int
		}
	}
	if err := json.Unmarshal([]byte(js), &a); err != nil {
		t.Fatalf("analyze: %v", err)
	}
	if len(a.Summary) != 3 {
		t.Fatalf("analyze: %d players", len(a.Summary))
	}
	for _, p := range a.Summary {
		if p.OwnTurns == 0 || p.Commands == 0 || p.Faults != 0 {
			t.Errorf("%s: %d own turns, %d commands, %d faults", p.Name, p.OwnTurns, p.Commands, p.Faults)
		}
	}
}
