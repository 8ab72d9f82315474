package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/rewind-game/rewind/internal/testutil"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/rewind-game/rewind/internal/rooms"
)

// startServerCmd runs `rewind server` with args (and --addr, --dir) on
// loopback until the test ends, and returns its base URL and replay
// folder.
func startServerCmd(t *testing.T, opts *serverOptions, args ...string) (base, dir string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "replays")
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	opts.ready = ready
	var logs testutil.SyncBuffer
	cmd := serverCommand(opts)
	cmd.SetOut(&logs)
	cmd.SetErr(&logs)
	cmd.SetArgs(append([]string{"--addr", "127.0.0.1:0", "--dir", dir}, args...))
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(2 * time.Minute): // a safety net, not a verdict
			t.Errorf("server did not stop\n%s", logs.String())
		}
	})
	select {
	case base = <-ready:
	case err := <-done:
		t.Fatalf("server did not start: %v\n%s", err, logs.String())
	case <-time.After(2 * time.Minute): // a safety net, not a verdict
		t.Fatalf("server did not start listening\n%s", logs.String())
	}
	return base, dir
}

// postJSON posts body as application/json and returns the reply's
// success.
func postJSON(t *testing.T, url string, body any) (ok bool, errMsg string) {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var r struct {
		Success bool   `json:"success"`
		ErrMsg  string `json:"err_msg"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("POST %s: %q: %v", url, data, err)
	}
	return r.Success, r.ErrMsg
}

// Issue 25, "admin without a password": `rewind server` with
// $REWIND_ADMIN_PASSWORD unset takes no admin action on its room, as its
// --help says, and a room a client creates without a password takes none
// either.
func TestServerAdminClosedWithoutPassword(t *testing.T) {
	t.Setenv(rooms.AdminPasswordEnv, "")
	os.Unsetenv(rooms.AdminPasswordEnv)
	base, _ := startServerCmd(t, &serverOptions{}, "--preset", "official", "--max-player", "2", "--bot", "greedy", "--bot", "raider")
	if ok, msg := postJSON(t, base+"/creategameroom", map[string]any{"gameroom_id": "atk"}); !ok {
		t.Fatalf("creategameroom: %s", msg)
	}
	for _, room := range []string{"public", "atk"} {
		for _, body := range []map[string]any{
			{"gameroom_id": room},
			{"gameroom_id": room, "admin_password": ""},
		} {
			if ok, _ := postJSON(t, base+"/start", body); ok {
				t.Errorf("/start %v succeeded", body)
			}
			restart := map[string]any{"config": map[string]any{"round_time": 0, "finish_time": 0.01, "first_round_time": "full", "bots": []string{"greedy", "greedy"}}}
			for k, v := range body {
				restart[k] = v
			}
			if ok, _ := postJSON(t, base+"/restart", restart); ok {
				t.Errorf("/restart %v succeeded", restart)
			}
		}
	}
	resp, err := http.Get(base + "/get_gameroom_list")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list []struct {
		Name string `json:"name"`
		Turn int    `json:"turn"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 {
		t.Fatalf("rooms %+v", list)
	}
	for _, r := range list {
		if r.Turn != 0 {
			t.Errorf("room %s was started: turn %d", r.Name, r.Turn)
		}
	}
}

// Issue 25, "slow body": connections that send an RPC body slowly (one
// byte every 50 ms, never the whole body) are closed by the read timeout
// — here a short one.
func TestServerClosesSlowBodies(t *testing.T) {
	base, _ := startServerCmd(t, &serverOptions{httpTimeout: 300 * time.Millisecond}, "--max-conns-per-ip", "100")
	addr := strings.TrimPrefix(base, "http://")
	const conns = 50
	paths := []string{"/restart", "/creategameroom", "/send_chat"}
	var wg sync.WaitGroup
	errs := make(chan error, conns)
	for i := 0; i < conns; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			errs <- slowBody(addr, paths[i%len(paths)])
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// slowBody sends a request whose body never completes, one byte at a
// time, and returns nil once the server closes the connection (an error
// if it is still open after the safety net).
func slowBody(addr, path string) error {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{", path, addr)
	closed := make(chan error, 1)
	go func() {
		c.SetReadDeadline(time.Now().Add(2 * time.Minute)) // a safety net, not a verdict
		_, err := io.Copy(io.Discard, c)
		closed <- err
	}()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-closed:
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return fmt.Errorf("POST %s: a slow body still holds its connection after 2 minutes", path)
			}
			return nil
		case <-tick.C:
			c.Write([]byte(" "))
		}
	}
}

// Issue 25, "spectators": --max-conns-per-ip sets how many connections
// one address may hold (here 100 websockets, 50 bots' worth, where 64
// was the fixed bound), and refuses the next with 429.
func TestServerMaxConnsPerIP(t *testing.T) {
	base, _ := startServerCmd(t, &serverOptions{}, "--max-conns-per-ip", "100")
	ws := "ws" + strings.TrimPrefix(base, "http") + "/gameroom/public/"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a safety net
	defer cancel()
	for i := 0; i < 100; i++ {
		ch := "game_channel"
		if i%2 == 0 {
			ch = "action_channel"
		}
		c, _, err := websocket.Dial(ctx, ws+ch, nil)
		if err != nil {
			t.Fatalf("connection %d: %v", i+1, err)
		}
		defer c.CloseNow()
	}
	resp, err := http.Get(base + "/get_gameroom_list")
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests {
			t.Errorf("connection 101: status %d, want 429", resp.StatusCode)
		}
	}
}
