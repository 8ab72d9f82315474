package connlimit

import (
	"bufio"
	"io"
	"net"
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
