package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/testutil"
)

// officialClientsEnv names the folder holding the official ColorfightII
// clients (python3/ and java/ as in the official client repository). They
// are other people's code, never part of this project: a developer who
// wants this test fetches them into a folder outside the tree and points
// the variable at it. TestProtocolClientPlays covers the protocol without
// them.
const officialClientsEnv = "REWIND_OFFICIAL_CLIENTS"

// needOfficialClients returns the clients folder, skipping the test with a
// one-line reason when it is not given, also under CI=true (CI has no
// official clients).
func needOfficialClients(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(officialClientsEnv)
	if dir == "" {
		t.Skip("official clients absent: $" + officialClientsEnv + " is not set (TestProtocolClientPlays covers the protocol)")
	}
	for _, p := range []string{"python3/example_ai.py", "python3/colorfight/colorfight.py", "java/example_ai.java", "java/ColorfightII.jar"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Fatalf("$%s=%s: %v", officialClientsEnv, dir, err)
		}
	}
	return dir
}

// pythonWithWebsockets returns a python3 that can import websockets (the
// official client's one dependency; Debian's python3-websockets installs
// it for /usr/bin/python3, which is not always the python3 on PATH).
func pythonWithWebsockets(t *testing.T) string {
	t.Helper()
	var cands []string
	if p, err := exec.LookPath("python3"); err == nil {
		cands = append(cands, p)
	}
	cands = append(cands, "/usr/bin/python3")
	for _, p := range cands {
		if exec.Command(p, "-c", "import websockets").Run() == nil {
			return p
		}
	}
	msg := "no python3 with the websockets module (Debian: apt-get install python3-websockets)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + " (CI=true: required)")
	}
	t.Skip(msg)
	return ""
}

// pyWrapper runs the official example bot unchanged; only the URL its
// client connects to is given, through the client's own connect(url=...).
//
// The client was written for Python 3.7, whose asyncio and websockets
// took a loop argument that Python 3.10 and websockets 10 dropped; the
// wrapper drops it again before the client's calls reach them, so that
// the unchanged client runs on today's Python.
const pyWrapper = `import sys, asyncio, functools
def _noloop(f):
    @functools.wraps(f)
    def g(*a, loop=None, **k):
        return f(*a, **k)
    return g
asyncio.sleep = _noloop(asyncio.sleep)
asyncio.gather = _noloop(asyncio.gather)
import websockets
websockets.connect = _noloop(websockets.connect)
sys.path.insert(0, sys.argv[1])
from colorfight import Colorfight
import example_ai
url = sys.argv[2]
connect = Colorfight.connect
Colorfight.connect = lambda self, room='public', url_=None: connect(self, room=room, url=url)
example_ai.play_game(game=Colorfight(), room='public', username='PyExample', password='py-secret')
`

// Both official example bots, built on the unmodified official clients,
// play a 200-round lock-step game in one room of rewind server with two
// built-in bots: they register, send commands every round (a lock-step
// round waits for every seated player, and the deadline is longer than
// this test may run, and a round without their message would be recorded
// as a fault), own cells at
// the end; the recording verifies, and the room's .cfr replay matches it
// frame for frame.
func TestOfficialClientsPlay(t *testing.T) {
	clients := needOfficialClients(t)
	java := testutil.NeedTool(t, "java")
	javac := testutil.NeedTool(t, "javac")
	python := pythonWithWebsockets(t)

	work := t.TempDir()
	dir := filepath.Join(work, "replays")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, done, logs := startServerCLI(t, ctx, "--addr", "127.0.0.1:0", "--dir", dir, "--preset", "official", "--lockstep-deadline", "1h",
		"--max-turn", "200", "--max-player", "4", "--round-time", "0", "--first-round-time", "full",
		"--replay", "always", "--bot", "greedy", "--bot", "raider")
	ws := "ws" + strings.TrimPrefix(base, "http") + "/gameroom/public"

	// The Java example, with its connect line pointed at rewind.
	jdir := filepath.Join(work, "java")
	if err := os.MkdirAll(jdir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := testutil.ReadFile(t, filepath.Join(clients, "java", "example_ai.java"))
	const connectLine = "game.connect( room );"
	if bytes.Count(src, []byte(connectLine)) != 1 {
		t.Fatalf("example_ai.java: want exactly one %q to point at rewind", connectLine)
	}
	src = bytes.Replace(src, []byte(connectLine), []byte(fmt.Sprintf("game.connect_url( %q );", ws)), 1)
	if err := os.WriteFile(filepath.Join(jdir, "example_ai.java"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	jar := filepath.Join(clients, "java", "ColorfightII.jar")
	cp := jdir + string(os.PathListSeparator) + jar
	if out, err := exec.Command(javac, "-cp", cp, "-d", jdir, filepath.Join(jdir, "example_ai.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	wrapper := filepath.Join(work, "run_example.py")
	if err := os.WriteFile(wrapper, []byte(pyWrapper), 0o644); err != nil {
		t.Fatal(err)
	}

	var jout, pout testutil.SyncBuffer
	jcmd := exec.Command(java, "-cp", cp, "example_ai")
	jcmd.Stdout, jcmd.Stderr = &jout, &jout
	pcmd := exec.Command(python, "-u", wrapper, filepath.Join(clients, "python3"), ws)
	pcmd.Stdout, pcmd.Stderr = &pout, &pout
	// Each bot is waited for by one goroutine only (a second Wait on the
	// same process would block forever); at the end the test kills them
	// and collects both exits.
	exited := make(chan string, 2)
	running := 0
	for _, b := range []struct {
		name string
		c    *exec.Cmd
	}{{"java", jcmd}, {"python", pcmd}} {
		if err := b.c.Start(); err != nil {
			t.Fatal(err)
		}
		running++
		go func() { b.c.Wait(); exited <- b.name }()
	}
	defer func() {
		jcmd.Process.Kill()
		pcmd.Process.Kill()
		for ; running > 0; running-- {
			<-exited
		}
	}()

	// Wait for the game to finish: the room's turn reaches max_turn.
	deadline := time.Now().Add(5 * time.Minute) // a safety net, not a verdict
	var lastRoom room
	for {
		rooms := roomList(t, base)
		if r, ok := rooms["public"]; ok && r.Turn == 200 {
			break
		}
		lastRoom = rooms["public"]
		select {
		case who := <-exited:
			running--
			t.Fatalf("the official %s bot exited before the game finished\njava:\n%s\npython:\n%s\nserver:\n%s", who, tail(jout.String()), tail(pout.String()), tail(logs.String()))
		case err := <-done:
			t.Fatalf("server stopped: %v\n%s", err, logs.String())
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("game did not finish: room %+v\njava:\n%s\npython:\n%s\nserver:\n%s", lastRoom, tail(jout.String()), tail(pout.String()), tail(logs.String()))
		}
	}

	// The room's official replay.
	resp, err := http.Get(base + "/gameroom/public/replay")
	if err != nil {
		t.Fatal(err)
	}
	cfrBytes, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("replay: %s", resp.Status)
	}
	cfrPath := filepath.Join(work, "game.cfr")
	if err := os.WriteFile(cfrPath, cfrBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("server: %v", err)
	}

	rec := readServerRecording(t, dir)
	for _, want := range []string{"exampleAI", "PyExample"} {
		if _, ok := rec.uids[want]; !ok {
			t.Errorf("official bot %s is not a player of the recording: %v", want, rec.uids)
		}
	}
	if len(rec.uids) != 4 {
		t.Errorf("%d players, want the 2 official bots and 2 built-ins", len(rec.uids))
	}
	// Every round each official bot sent at least one command, and at the
	// end they own cells.
	t.Logf("players %v; rounds with commands per uid %v; faults %v", rec.uids, rec.sent, rec.faults)
	if rec.rounds != 200 {
		t.Fatalf("recording has %d rounds, want 200", rec.rounds)
	}
	last := rec.last
	for _, want := range []string{"exampleAI", "PyExample"} {
		uid := rec.uids[want]
		// A lock-step round without a command message from a seated
		// player is recorded as a fault (docs/server.md): none means the
		// bot sent its commands every round.
		if rec.faults[uid] != 0 || rec.sent[uid] == 0 {
			t.Errorf("%s: %d rounds without a command message, %d rounds with commands", want, rec.faults[uid], rec.sent[uid])
		}
		owns := false
		for _, u := range last.Users {
			if int(u.UID) == uid && u.CellNumber > 0 {
				owns = true
			}
		}
		if !owns {
			t.Errorf("%s owns no cell at the end", want)
		}
	}
	if err := runCLI(t, "verify", rec.path); err != nil {
		t.Errorf("verify: %v", err)
	}
	if err := runCLI(t, "verify", "--against", cfrPath, rec.path); err != nil {
		t.Errorf("verify --against the room's .cfr: %v", err)
	}
}

type room struct {
	Name         string `json:"name"`
	PlayerNumber int    `json:"player_number"`
	Turn         int    `json:"turn"`
	MaxTurn      int    `json:"max_turn"`
}

func roomList(t *testing.T, base string) map[string]room {
	t.Helper()
	resp, err := http.Get(base + "/get_gameroom_list")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rooms []room
	if err := json.NewDecoder(resp.Body).Decode(&rooms); err != nil {
		t.Fatal(err)
	}
	out := map[string]room{}
	for _, r := range rooms {
		out[r.Name] = r
	}
	return out
}

// tail returns the last lines of s.
func tail(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	return strings.Join(lines, "\n")
}
