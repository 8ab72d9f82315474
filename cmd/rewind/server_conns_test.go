package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"
)

// Issue 37, finding 6: `rewind server` holds at most --max-conns
// connections, from however many addresses: past it, a new connection
// closes the oldest that is not serving a request (idle between
// requests, or still sending its request's header), so a flood of
// half-open connections never takes the server to its file limit, and a
// normal GET is still answered.
func TestServerMaxConns(t *testing.T) {
	const total = 16
	base, _ := startServerCmd(t, &serverOptions{}, "--max-conns", fmt.Sprint(total), "--max-conns-per-ip", "1000")
	u, _ := url.Parse(base)
	get := "GET /get_gameroom_list HTTP/1.1\r\nHost: " + u.Host + "\r\n\r\n"
	// ask sends a whole request on c and reads its answer.
	ask := func(c net.Conn, r *bufio.Reader) error {
		if _, err := io.WriteString(c, get); err != nil {
			return err
		}
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}
	type held struct {
		c net.Conn
		r *bufio.Reader
	}
	var flood []held
	for i := range 3 * total {
		c, err := net.Dial("tcp", u.Host)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		h := held{c, bufio.NewReader(c)}
		if i%2 == 0 {
			// idle between requests: one answered, the connection kept
			if err := ask(h.c, h.r); err != nil {
				t.Fatalf("connection %d: %v", i, err)
			}
		} else {
			// half-open: a request's header begun, never ended
			io.WriteString(c, "GET /gameroom/public/game_channel HTTP/1.1\r\nHost: "+u.Host+"\r\nUpgrade: websocket\r\n")
		}
		flood = append(flood, h)
	}
	resp, err := http.Get(base + "/get_gameroom_list")
	if err != nil {
		t.Fatalf("a normal GET after the flood: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("a normal GET after the flood: %d", resp.StatusCode)
	}
	// The idle ones still open answer a second request; the closed ones
	// read the end of their connection.
	open := 0
	for i, h := range flood {
		if i%2 == 0 && ask(h.c, h.r) == nil {
			open++
		}
	}
	if open >= total {
		t.Errorf("%d of the flood's idle connections are still open, with --max-conns %d", open, total)
	}
}
