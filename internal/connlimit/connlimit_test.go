package connlimit

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A listener bounded to 3 connections per address accepts 3, answers the
// 4th 429 and closes it, and accepts again once one is closed.
func TestListenerPerIP(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := Listener(raw, 3)
	defer ln.Close()
	accepted := make(chan net.Conn, 10)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()
	safety := time.After(2 * time.Minute) // a safety net, not a verdict
	next := func() net.Conn {
		select {
		case c := <-accepted:
			return c
		case <-safety:
			t.Fatal("no connection accepted")
		}
		return nil
	}
	var server []net.Conn
	for i := 0; i < 3; i++ {
		c, err := net.Dial("tcp", raw.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		server = append(server, next())
	}
	over, err := net.Dial("tcp", raw.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer over.Close()
	over.SetReadDeadline(time.Now().Add(2 * time.Minute))
	status, err := bufio.NewReader(over).ReadString('\n')
	if err != nil || !strings.Contains(status, "429") {
		t.Fatalf("4th connection: %q %v", status, err)
	}
	if _, err := io.ReadAll(over); err != nil {
		t.Fatalf("4th connection not closed: %v", err)
	}
	server[0].Close()
	server[0].Close() // a second Close counts once
	c, err := net.Dial("tcp", raw.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	next().Close()
	if len(accepted) != 0 {
		t.Error("a connection over the bound was accepted")
	}
}

// A server bounded to 4 connections in all, each serving a request that
// has not ended, answers a fifth 503 and closes it: nothing in progress
// is cut; once one request ends and its connection closes, a new one is
// served.
func TestServeTotalBusy(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	started := make(chan struct{}, 8)
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			started <- struct{}{}
			<-release
		}
		io.WriteString(w, "ok")
	})}
	ln := Serve(hs, raw, 0, 4)
	go hs.Serve(ln)
	defer hs.Close()
	addr := raw.Addr().String()
	var held []net.Conn
	for range 4 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, "GET /hold HTTP/1.1\r\nHost: x\r\n\r\n")
		<-started
		held = append(held, c)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	c.Close()
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("a fifth connection with four busy: %v %v", resp, err)
	}
	close(release)
	held[0].Close()
	for {
		resp, err := http.Get("http://" + addr + "/")
		if err == nil && resp.StatusCode == http.StatusOK {
			resp.Body.Close()
			break
		}
		if resp != nil {
			resp.Body.Close()
		}
	}
}
