// Package connlimit bounds the connections one remote address may hold
// open on a listener, so that one host cannot take every file descriptor
// and goroutine of a server (rewind serve, view and server).
package connlimit

import (
	"net"
	"sync"
	"time"
)

// DefaultPerIP is the default bound of the serving commands'
// --max-conns-per-ip: 32 official bots (two websockets each) from one
// host, or a browser's handful of connections many times over.
const DefaultPerIP = 64

// refusal is written to a connection over the bound before it is closed.
const refusal = "HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nContent-Length: 40\r\n\r\ntoo many connections from this address\r\n"

// Listener returns ln accepting at most perIP open connections from one
// remote IP address; perIP <= 0 means no bound. A connection over the
// bound is answered 429 (best effort, within a second) and closed; it
// never reaches Accept's caller. A connection counts until it is closed,
// also after an HTTP server hijacks it (websockets). Memory: one map
// entry per address with a connection open.
func Listener(ln net.Listener, perIP int) net.Listener {
	if perIP <= 0 {
		return ln
	}
	return &listener{Listener: ln, perIP: perIP, open: map[string]int{}}
}

type listener struct {
	net.Listener
	perIP int
	mu    sync.Mutex
	open  map[string]int
}

func (l *listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := host(c.RemoteAddr())
		l.mu.Lock()
		over := l.open[ip] >= l.perIP
		if !over {
			l.open[ip]++
		}
		l.mu.Unlock()
		if over {
			go refuse(c)
			continue
		}
		return &conn{Conn: c, l: l, ip: ip}, nil
	}
}

func refuse(c net.Conn) {
	c.SetWriteDeadline(time.Now().Add(time.Second))
	c.Write([]byte(refusal))
	c.Close()
}

func host(a net.Addr) string {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP.String()
	}
	h, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return h
}

type conn struct {
	net.Conn
	l    *listener
	ip   string
	once sync.Once
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.mu.Lock()
		defer c.l.mu.Unlock()
		if c.l.open[c.ip]--; c.l.open[c.ip] <= 0 {
			delete(c.l.open, c.ip)
		}
	})
	return err
}
