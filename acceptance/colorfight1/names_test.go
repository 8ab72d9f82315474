package colorfight1_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestJoinedPlayerNamed: a player that joins a game of `rewind server
// --game colorfight1` in progress as "Zed" is "Zed #2" (its uid) in its recording
// for info, analyze and the viewer's page of it, though the recording's
// header, written before it joined, names its seat "seat 2".
func TestJoinedPlayerNamed(t *testing.T) {
	dir := t.TempDir()
	srv := clitest.StartProcess(t, serverListening, "server", "--game", "colorfight1", "--addr", "127.0.0.1:0", "--dir", dir,
		"--bot", "expander", "--max-player", "2", "--last-time", "2", "--tick", "0.2", "--games", "1", "--seed", "7")
	c := &cf1Client{t: t, base: srv.Match, http: &http.Client{Timeout: time.Minute}}
	if status, raw, join := c.post("/joingame", map[string]any{"name": "Zed"}); status != 200 || join["token"] == nil {
		t.Fatalf("join: %d %s", status, raw)
	}
	rwd := serverRecording(t, srv, dir) // --games 1: it ends after the game
	out, code := clitest.Run(t, "info", rwd)
	if code != 0 || !strings.Contains(out, `2  "Zed #2"`) || !strings.Contains(out, `1  "expander #1"`) || strings.Contains(out, "seat 2") {
		t.Errorf("info: status %d, want seats expander and Zed\n%s", code, out)
	}
	out, code = clitest.Run(t, "analyze", rwd, "--format", "json")
	var an struct {
		Players []struct {
			Name string `json:"name"`
		} `json:"players"`
	}
	if err := json.Unmarshal([]byte(out), &an); code != 0 || err != nil || len(an.Players) != 2 || an.Players[0].Name != "expander #1" || an.Players[1].Name != "Zed #2" {
		t.Errorf("analyze --format json: status %d, %v, players %+v\n%.500s", code, err, an.Players, out)
	}
	code, page := testutil.Get(t, clitest.ViewPage(t, rwd))
	if code != 200 || !strings.Contains(string(page), "2 players: expander #1, Zed #2") {
		t.Errorf("the viewer's page: %d\n%.2000s", code, page)
	}
}

// TestRejoinIsNewSeat: one client joining a game of `rewind server
// --game colorfight1` twice as "MyAI" gets two uids, and the recording
// has a seat for each join, in join order, named with its uid beside the
// built-in's; it verifies.
func TestRejoinIsNewSeat(t *testing.T) {
	dir := t.TempDir()
	srv := clitest.StartProcess(t, serverListening, "server", "--game", "colorfight1", "--addr", "127.0.0.1:0", "--dir", dir,
		"--bot", "expander", "--max-player", "3", "--last-time", "2", "--tick", "0.2", "--games", "1", "--seed", "7")
	c := &cf1Client{t: t, base: srv.Match, http: &http.Client{Timeout: time.Minute}}
	var uids []float64
	for range 2 {
		status, raw, join := c.post("/joingame", map[string]any{"name": "MyAI"})
		uid, _ := join["uid"].(float64)
		if status != 200 || join["token"] == nil || uid < 1 {
			t.Fatalf("join: %d %s", status, raw)
		}
		uids = append(uids, uid)
	}
	if uids[0] == uids[1] {
		t.Fatalf("two joins with one uid %v", uids)
	}
	out, code := clitest.Run(t, "info", verifiedRecording(t, srv, dir))
	want := []string{`1  "expander #1"`, fmt.Sprintf(`2  "MyAI #%d"`, int(uids[0])), fmt.Sprintf(`3  "MyAI #%d"`, int(uids[1]))}
	for _, w := range want {
		if code != 0 || !strings.Contains(out, w) || strings.Contains(out, "seat ") {
			t.Errorf("info: status %d, want the seats %q\n%s", code, want, out)
			break
		}
	}
}
