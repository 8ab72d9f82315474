// Package connlimit bounds the connections one remote address may hold
// open on a listener, and all of them together, so that neither one host
// nor many can take every file descriptor and goroutine of a server
// (rewind serve, view and server).
package connlimit

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// DefaultPerIP is the default bound of the serving commands'
// --max-conns-per-ip: 32 official bots (two websockets each) from one
// host, or a browser's handful of connections many times over.
const DefaultPerIP = 64

// DefaultTotal is the default bound of the serving commands'
// --max-conns: every connection a server holds open at once, well under
// the usual file limits (the recordings and the library need files too)
// and far above 15 rooms of 8 official bots.
const DefaultTotal = 1024

// refusal is written to a connection over the bound before it is closed.
const refusal = "HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nContent-Length: 40\r\n\r\ntoo many connections from this address\r\n"

// busyRefusal is written to a connection over the total bound when every
// connection open is serving a request.
const busyRefusal = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 5\r\nConnection: close\r\nContent-Length: 36\r\n\r\nthe server has too many connections\r\n"

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

// Serve bounds hs's connections on ln: at most perIP from one remote
// address (as Listener; <= 0: no bound) and at most total in all (<= 0:
// no bound), and returns the listener to serve. At the total, a new
// connection closes the oldest one that is not serving a request — idle
// between requests, or still sending its request's header — so that a
// flood of half-open connections, from however many addresses, never
// takes the server to its file limit and a client that sends its request
// whole is still answered; when every connection open is serving one
// (websockets, live streams), the new one is answered 503 and closed. It
// sets hs.ConnContext and wraps hs.Handler: call it once hs.Handler is
// final.
func Serve(hs *http.Server, ln net.Listener, perIP, total int) net.Listener {
	if perIP <= 0 && total <= 0 {
		return ln
	}
	l := &listener{Listener: ln, perIP: perIP, total: total, open: map[string]int{}}
	if total > 0 {
		next := hs.ConnContext
		hs.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
			if next != nil {
				ctx = next(ctx, c)
			}
			if cc, ok := c.(*conn); ok && cc.l == l {
				ctx = context.WithValue(ctx, connKey{}, cc)
			}
			return ctx
		}
		h := hs.Handler
		if h == nil {
			h = http.DefaultServeMux
		}
		hs.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c, _ := r.Context().Value(connKey{}).(*conn)
			if c != nil && !l.serving(c, 1) {
				return // closed for a newer connection
			}
			defer func() {
				if c != nil {
					l.serving(c, -1)
				}
			}()
			h.ServeHTTP(w, r)
		})
	}
	return l
}

type connKey struct{}

type listener struct {
	net.Listener
	perIP, total int
	mu           sync.Mutex
	open         map[string]int
	conns        []*conn // open, oldest first (with a total bound)
}

func (l *listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := host(c.RemoteAddr())
		l.mu.Lock()
		if l.perIP > 0 && l.open[ip] >= l.perIP {
			l.mu.Unlock()
			go refuse(c, refusal)
			continue
		}
		var evict *conn
		if l.total > 0 && len(l.conns) >= l.total {
			for _, o := range l.conns {
				if o.busy == 0 && !o.evicted {
					evict = o
					break
				}
			}
			if evict == nil {
				l.mu.Unlock()
				go refuse(c, busyRefusal)
				continue
			}
			evict.evicted = true
		}
		l.open[ip]++
		cc := &conn{Conn: c, l: l, ip: ip}
		if l.total > 0 {
			l.conns = append(l.conns, cc)
		}
		l.mu.Unlock()
		if evict != nil {
			evict.Close()
		}
		return cc, nil
	}
}

// serving counts a request starting (+1) or ending (-1) on c; a request
// cannot start on a connection chosen for closing (false).
func (l *listener) serving(c *conn, d int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if d > 0 && c.evicted {
		return false
	}
	c.busy += d
	return true
}

func refuse(c net.Conn, answer string) {
	c.SetWriteDeadline(time.Now().Add(time.Second))
	c.Write([]byte(answer))
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
	// busy counts the requests being served on it, evicted that it is
	// being closed for a newer connection (under l.mu).
	busy    int
	evicted bool
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.mu.Lock()
		defer c.l.mu.Unlock()
		if c.l.open[c.ip]--; c.l.open[c.ip] <= 0 {
			delete(c.l.open, c.ip)
		}
		for i, o := range c.l.conns {
			if o == c {
				c.l.conns = append(c.l.conns[:i], c.l.conns[i+1:]...)
				break
			}
		}
	})
	return err
}
