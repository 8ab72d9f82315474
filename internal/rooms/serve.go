package rooms

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

// ServeAlone is what a Mounted protocol's Serve does with the Mount m
// it opened from o: it listens on o.Addr (defaultAddr when empty),
// tells o.Ready the address as "players", and serves m with hs (whose
// Handler it sets; its timeouts are the protocol's) until ctx ends or
// stop is closed (nil: never); then it closes m, shuts hs down (at most
// 5 s, then closes it) and returns m's Close error. When the listener
// fails, m is closed and the error returned.
func ServeAlone(ctx context.Context, m Mount, o Options, defaultAddr string, hs *http.Server, stop <-chan struct{}) error {
	addr := o.Addr
	if addr == "" {
		addr = defaultAddr
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		m.Close()
		return fmt.Errorf("server: %w", err)
	}
	hs.Handler = m
	if o.Ready != nil {
		o.Ready(map[string]string{"players": ln.Addr().String()})
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		m.Close()
		return fmt.Errorf("server: %w", err)
	case <-ctx.Done():
	case <-stop:
	}
	cerr := m.Close()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	return cerr
}
