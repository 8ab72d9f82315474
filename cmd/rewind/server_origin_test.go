package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

// Issue 37, finding 12: `rewind server`'s RPCs and websockets answer only
// to the server's own Host, as the viewer on the same address does (421
// otherwise: no page of another site reaches them through DNS
// rebinding), and its websockets refuse a browser's upgrade from another
// origin (403); the official clients, which send no Origin, still
// connect.
func TestServerChecksHostAndOrigin(t *testing.T) {
	base, _ := startServerCmd(t, &serverOptions{})
	u, _ := url.Parse(base)
	evil := "evil.example:" + u.Port()
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/get_gameroom_list", ""},
		{"POST", "/creategameroom", `{"gameroom_id":"rebound"}`},
	} {
		req, _ := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
		req.Host = evil
		req.Header.Set("Origin", "http://"+evil) // same-origin, for the browser
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("%s %s with Host %s: %d, want 421", c.method, c.path, evil, resp.StatusCode)
		}
	}
	ws := "ws://" + u.Host + "/gameroom/public/action_channel"
	dial := func(origin string) error {
		h := http.Header{}
		if origin != "" {
			h.Set("Origin", origin)
		}
		c, _, err := websocket.Dial(context.Background(), ws, &websocket.DialOptions{HTTPHeader: h})
		if err == nil {
			c.CloseNow()
		}
		return err
	}
	if err := dial("http://evil.example"); err == nil {
		t.Error("a websocket from another site's page was accepted")
	}
	for _, origin := range []string{"", base} {
		if err := dial(origin); err != nil {
			t.Errorf("a websocket with Origin %q was refused: %v", origin, err)
		}
	}
	// A websocket through a rebound name is refused by its Host.
	d := &net.Dialer{}
	c, _, err := websocket.Dial(context.Background(), "ws://"+evil+"/gameroom/public/action_channel", &websocket.DialOptions{
		HTTPClient: &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, u.Host)
		}}}})
	if err == nil {
		c.CloseNow()
		t.Error("a websocket with Host " + evil + " was accepted")
	}
}

// Issue 37, finding 12: one address creates at most 3 rooms that are
// open at once (/creategameroom without the master password), so nobody
// fills the 15 room slots alone; another address still creates its own.
func TestServerRoomQuotaPerAddress(t *testing.T) {
	base, _ := startServerCmd(t, &serverOptions{})
	create := func(ip, id string) (bool, string) {
		t.Helper()
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
		client := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
		defer client.CloseIdleConnections()
		b, _ := json.Marshal(map[string]any{"gameroom_id": id})
		resp, err := client.Post(base+"/creategameroom", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Skipf("cannot send from %s: %v", ip, err)
		}
		defer resp.Body.Close()
		var r struct {
			Success bool   `json:"success"`
			ErrMsg  string `json:"err_msg"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			t.Fatal(err)
		}
		return r.Success, r.ErrMsg
	}
	for _, id := range []string{"a1", "a2", "a3"} {
		if ok, msg := create("127.0.0.1", id); !ok {
			t.Fatalf("room %s: %s", id, msg)
		}
	}
	for _, id := range []string{"a4", "a5"} {
		if ok, msg := create("127.0.0.1", id); ok || !strings.Contains(msg, "3 rooms open") {
			t.Errorf("room %s from the same address: %v %q, want refused", id, ok, msg)
		}
	}
	if ok, msg := create("127.0.0.2", "b1"); !ok {
		t.Errorf("room b1 from another address: %s", msg)
	}
}
