package main

import (
	"context"
	"encoding/json"
	"github.com/rewind-game/rewind/internal/testutil"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// docsServerCommands returns the `rewind server` command lines of
// docs/server.md's "Running it" block, continuation lines joined, as
// argument lists (without "rewind server").
func docsServerCommands(t *testing.T) [][]string {
	t.Helper()
	doc := testutil.ReadFile(t, "../../docs/server.md")
	block := regexp.MustCompile("(?s)```sh\n(.*?)```").FindSubmatch(doc)
	if block == nil {
		t.Fatal("docs/server.md has no sh block")
	}
	var cmds [][]string
	text := strings.ReplaceAll(string(block[1]), "\\\n", " ")
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "rewind server") {
			cmds = append(cmds, strings.Fields(strings.TrimPrefix(line, "rewind server")))
		}
	}
	return cmds
}

// docsServer runs `rewind server ARGS --addr 127.0.0.1:0 --dir DIR` until
// the test ends; it returns the base URL and the server's output.
func docsServer(t *testing.T, args []string) (string, *testutil.SyncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	logs := &testutil.SyncBuffer{}
	cmd := serverCommand(&serverOptions{ready: ready})
	cmd.SetOut(logs)
	cmd.SetErr(logs)
	cmd.SetArgs(append(append([]string(nil), args...), "--addr", "127.0.0.1:0", "--dir", t.TempDir()))
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	var base string
	select {
	case base = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("rewind server %q did not start: %v\n%s", args, err, logs.String())
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("rewind server %q: %v", args, err)
		}
	})
	return base, logs
}

// officialBot is a client speaking the official protocol as the official
// Python client does: it registers on the action channel and, on every
// state message of the game channel past turn 0, sends a command list (an
// empty one), so a lock-step room never waits for it.
type officialBot struct {
	action, game *websocket.Conn
	registered   string // the register reply
}

func dialOfficial(t *testing.T, ctx context.Context, ws, name string, play bool) *officialBot {
	t.Helper()
	b := &officialBot{}
	var err error
	if b.game, _, err = websocket.Dial(ctx, ws+"/game_channel", nil); err != nil {
		t.Fatal(err)
	}
	b.game.SetReadLimit(16 << 20)
	if b.action, _, err = websocket.Dial(ctx, ws+"/action_channel", nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.action.CloseNow()
		b.game.CloseNow()
	})
	reg, _ := json.Marshal(map[string]string{"action": "register", "username": name, "password": "pw"})
	if err := b.action.Write(ctx, websocket.MessageText, reg); err != nil {
		t.Fatal(err)
	}
	_, rep, err := b.action.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b.registered = string(rep)
	if !play {
		return b
	}
	go func() {
		last := -1
		for {
			_, msg, err := b.game.Read(ctx)
			if err != nil {
				return
			}
			var st struct {
				Turn int `json:"turn"`
			}
			if json.Unmarshal(msg, &st) != nil || st.Turn == last || st.Turn == 0 {
				continue
			}
			last = st.Turn
			if b.action.Write(ctx, websocket.MessageText, []byte(`{"action":"command","cmd_list":[]}`)) != nil {
				return
			}
			if _, _, err := b.action.Read(ctx); err != nil {
				return
			}
		}
	}()
	return b
}

// liveList is the library's live list (what the page refreshes), as text.
func liveList(t *testing.T, base string) string {
	t.Helper()
	res, err := http.Get(base + "/library/live")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return regexp.MustCompile(`<[^>]*>`).ReplaceAllString(string(b), " ")
}

// waitFor polls cond every 50 ms until it holds, or fails after a
// generous safety net (never a verdict on speed).
func waitFor(t *testing.T, what string, cond func() bool, diag func() string) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("%s never happened: %s", what, diag())
}

// TestServerDocsExamples runs the `rewind server` examples of
// docs/server.md as written (only --addr and --dir added): the public room
// says it waits for a first player; "one official bot against two
// built-ins" starts when the official bot joins and plays to its end; a
// bot that comes after the start is refused with a message that says why,
// and the log and the viewer's live list say who waits for whom.
func TestServerDocsExamples(t *testing.T) {
	cmds := docsServerCommands(t)
	if len(cmds) != 2 {
		t.Fatalf("docs/server.md shows %d rewind server commands, want the 2 this test knows: %q", len(cmds), cmds)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// 1. `rewind server`: the public room counts down once someone joins.
	base, logs := docsServer(t, cmds[0])
	if list := liveList(t, base); !strings.Contains(list, "Room public : waiting for a first player") {
		t.Errorf("the live list of an empty room:\n%s", list)
	}
	ws := "ws" + strings.TrimPrefix(base, "http") + "/gameroom/public"
	dialOfficial(t, ctx, ws, "early", false)
	waitFor(t, "the countdown", func() bool { return strings.Contains(liveList(t, base), "starts in ") }, func() string { return liveList(t, base) })
	if !strings.Contains(logs.String(), `room public: "early" joined as uid 1; starts in `) {
		t.Errorf("the log does not say who joined and what the room waits for:\n%s", logs.String())
	}

	// 2. One official bot against two built-ins.
	base, logs = docsServer(t, cmds[1])
	if list := liveList(t, base); !strings.Contains(list, "waiting for 1 more official bot (starts when 1 have joined); 0 official bots joined, 2 built-ins to seat, 4 seats") {
		t.Errorf("the live list before the official bot:\n%s", list)
	}
	ws = "ws" + strings.TrimPrefix(base, "http") + "/gameroom/public"
	bot := dialOfficial(t, ctx, ws, "mybot", true)
	if !strings.Contains(bot.registered, `"success": true`) {
		t.Fatalf("register: %s", bot.registered)
	}
	waitFor(t, "the start", func() bool { return strings.Contains(liveList(t, base), "playing turn ") }, func() string { return liveList(t, base) + logs.String() })
	late := dialOfficial(t, ctx, ws, "latecomer", false)
	for _, want := range []string{`"success": false`, "You are not allowed to join after the game starts: game ", "rewind server seats players during turn 0 only", "join the next game"} {
		if !strings.Contains(late.registered, want) {
			t.Errorf("a late bot is told %s; want %q in it", late.registered, want)
		}
	}
	waitFor(t, "the end", func() bool { return strings.Contains(liveList(t, base), "game over at turn 500 of 500") }, func() string { return liveList(t, base) + logs.String() })
	log := logs.String()
	for _, want := range []string{
		"room public: new game ", "waiting for 1 more official bot",
		`room public: "mybot" joined as uid 1; starting; 1 official bot joined, 2 built-ins to seat, 4 seats`,
		"starts with 3 players (mybot, greedy, raider)",
		`room public: refused "latecomer", who came after the start: You are not allowed to join after the game starts`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
}
