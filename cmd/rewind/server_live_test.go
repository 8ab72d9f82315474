package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"github.com/rewind-game/rewind/internal/testutil"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServerHTTPFollowsProtocolGames runs `rewind server --game ID
// --http` with a game of the first protocol of internal/rooms that
// waits on a player the test seats and holds: while the game is on, the
// viewer's live list shows it with its players and turn, its live page is
// the replay page following it, its frames are the rounds recorded so
// far, and the library lists it; once the player leaves the game plays
// out, is recorded, and the command ends.
func TestServerHTTPFollowsProtocolGames(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready, httpReady := make(chan string, 1), make(chan string, 1)
	var out testutil.SyncBuffer
	cmd := serverCommand(&serverOptions{ready: ready, httpReady: httpReady})
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs([]string{"--game", "skyport", "--addr", "127.0.0.1:0", "--http", "127.0.0.1:0", "--dir", dir,
		"--bot", "hunter", "--bot", "artillery", "--max-player", "3", "--max-turn", "63",
		"--round-time", "0", "--lockstep-deadline", "1h", "--games", "1", "--seed", "7"})
	exit := make(chan error, 1)
	go func() { exit <- cmd.ExecuteContext(ctx) }()
	var addr, base string
	for addr == "" || base == "" {
		select {
		case addr = <-ready:
		case base = <-httpReady:
		case err := <-exit:
			t.Fatalf("server did not start: %v\n%s", err, out.String())
		case <-time.After(2 * time.Minute): // a safety net, not a verdict
			t.Fatalf("server did not start\n%s", out.String())
		}
	}
	if !strings.Contains(out.String(), "viewer at "+base+"/") {
		t.Errorf("the viewer's URL is not printed:\n%s", out.String())
	}

	// A player that joins, chooses its loadout and then holds its turns.
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "%s\n%s\n", `{"message":"connect","revision":1,"name":"tester"}`, `{"message":"loadout","primary-weapon":"laser","secondary-weapon":"droid"}`)
	go io.Copy(io.Discard, bufio.NewReader(conn))

	type liveGame struct {
		ID      string   `json:"id"`
		Turn    int      `json:"turn"`
		MaxTurn int      `json:"max_turn"`
		Players []string `json:"players"`
		Done    bool     `json:"done"`
		URL     string   `json:"url"`
	}
	get := func(path string) (int, []byte) {
		t.Helper()
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, b
	}
	var g liveGame
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		var list []liveGame
		_, b := get("/api/live")
		if err := json.Unmarshal(b, &list); err != nil {
			t.Fatalf("/api/live: %s: %v", b, err)
		}
		if len(list) == 1 && list[0].Turn >= 3 {
			g = list[0]
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no game past its loadout in /api/live: %s\n%s", b, out.String())
		}
	}
	if g.Done || g.MaxTurn != 63 || strings.Join(g.Players, ",") != "tester,hunter,artillery" || g.URL != "/live/"+g.ID || !strings.HasPrefix(g.ID, "skyport-") {
		t.Errorf("live game %+v", g)
	}
	code, page := get(g.URL)
	for _, want := range []string{`id="generic"`, `data-events="/live/` + g.ID + `/events"`, ">LIVE<", "/static/games/skyport.js", "tester"} {
		if code != 200 || !strings.Contains(string(page), want) {
			t.Errorf("live page (%d) lacks %s", code, want)
		}
	}
	code, body := get(g.URL + "/data")
	if code != 200 {
		t.Fatalf("live data: %d %s", code, body)
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var packed struct {
		Game   string            `json:"game"`
		Frames []json.RawMessage `json:"frames"`
	}
	if err := json.NewDecoder(zr).Decode(&packed); err != nil {
		t.Fatal(err)
	}
	// The player holds its turn: the game stays where the list said.
	if packed.Game != "skyport" || len(packed.Frames) != g.Turn+1 {
		t.Errorf("live frames: game %q, %d frames at turn %d", packed.Game, len(packed.Frames), g.Turn)
	}
	if _, lib := get("/"); !strings.Contains(string(lib), g.URL) || !strings.Contains(string(lib), "tester, hunter, artillery") {
		t.Errorf("the library does not list the live game")
	}

	// The player leaves: the game plays out without it and the command ends.
	conn.Close()
	select {
	case err := <-exit:
		if err != nil {
			t.Fatalf("server: %v\n%s", err, out.String())
		}
	case <-time.After(2 * time.Minute): // a safety net, not a verdict
		t.Fatalf("the game did not end\n%s", out.String())
	}
	if rwds, _ := filepath.Glob(filepath.Join(dir, g.ID+".rwd")); len(rwds) != 1 {
		t.Errorf("no recording %s.rwd in %s", g.ID, dir)
	}
}

// TestServerHTTPIsNotColorfightII: --http names the viewer of another
// game's server; ColorfightII's viewer is on --addr.
func TestServerHTTPIsNotColorfightII(t *testing.T) {
	cmd := serverCommand(&serverOptions{})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SetArgs([]string{"--http", "127.0.0.1:0", "--dir", t.TempDir()})
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), "--http") {
		t.Fatalf("err %v", err)
	}
}
