package rooms

import (
	"net"
	"net/http"
	"sync"
)

// Misses is how many of its rounds or turns in a row a connected player
// may let pass without a word before a protocol server stops waiting for
// it: its later ones are timeouts at once, until it sends anything again.
// A silent client thus costs a game at most Misses deadlines, not one
// per turn for ever.
const Misses = 3

// Refusal is a connection Take refused; its text is the reply a
// protocol sends the refused client.
type Refusal string

func (r Refusal) Error() string { return string(r) }

// Take's refusals.
const (
	ErrAddressFull Refusal = "Too many connections from this address"
	ErrServerFull  Refusal = "Too many connections to this server"
)

// Clients bounds the connections a protocol server holds open: per
// remote address (PerAddr) and in all (Total); 0 or negative is no bound.
// Its zero value bounds nothing; it is safe for concurrent use. Memory:
// one map entry per address with a connection open.
type Clients struct {
	PerAddr, Total int

	mu    sync.Mutex
	total int
	open  map[string]int
}

// Take counts a new connection from addr (a host, without port) if it
// is within the bounds; a refused one is not counted, and the error says
// which bound: ErrAddressFull (addr has PerAddr open) before
// ErrServerFull (Total are open). Every successful Take is followed by
// one Release.
func (c *Clients) Take(addr string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.PerAddr > 0 && c.open[addr] >= c.PerAddr:
		return ErrAddressFull
	case c.Total > 0 && c.total >= c.Total:
		return ErrServerFull
	}
	if c.open == nil {
		c.open = map[string]int{}
	}
	c.total++
	c.open[addr]++
	return nil
}

// Release uncounts a connection from addr that Take counted.
func (c *Clients) Release(addr string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total--
	if c.open[addr]--; c.open[addr] <= 0 {
		delete(c.open, addr)
	}
}

// Host is a network address's host, the key of every per-address limit:
// an IP address as text for a TCP address, else the address without its
// port.
func Host(a net.Addr) string {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP.String()
	}
	return hostOf(a.String())
}

// RequestHost is Host of an HTTP request's remote address.
func RequestHost(req *http.Request) string { return hostOf(req.RemoteAddr) }

func hostOf(addr string) string {
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return h
}
