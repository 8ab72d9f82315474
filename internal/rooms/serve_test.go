package rooms_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/rewind-game/rewind/internal/testutil"
)

// countingMount answers every request "ok" and counts its Closes.
type countingMount struct{ closes atomic.Int32 }

func (m *countingMount) ServeHTTP(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }
func (m *countingMount) Owns(*http.Request) bool                          { return true }
func (m *countingMount) Banner(string) string                             { return "" }
func (m *countingMount) Close() error                                     { m.closes.Add(1); return nil }
func (m *countingMount) Done() <-chan struct{}                            { return nil }

// TestServeAlone: the Mount is served on the address Ready reports until
// ctx ends or stop is closed, then closed once; a listener that cannot
// open closes the Mount and says so.
func TestServeAlone(t *testing.T) {
	for _, end := range []string{"ctx", "stop"} {
		t.Run(end, func(t *testing.T) {
			m := &countingMount{}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stop := make(chan struct{})
			ready := make(chan string, 1)
			o := rooms.Options{Ready: func(a map[string]string) { ready <- a["players"] }}
			errc := make(chan error, 1)
			go func() { errc <- rooms.ServeAlone(ctx, m, o, "127.0.0.1:0", &http.Server{}, stop) }()
			_, body := testutil.Get(t, "http://"+<-ready+"/anything")
			if string(body) != "ok" {
				t.Fatalf("body %q", body)
			}
			if end == "ctx" {
				cancel()
			} else {
				close(stop)
			}
			if err := <-errc; err != nil {
				t.Fatal(err)
			}
			if n := m.closes.Load(); n != 1 {
				t.Fatalf("%d closes, want 1", n)
			}
		})
	}
	t.Run("address taken", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		m := &countingMount{}
		err = rooms.ServeAlone(context.Background(), m, rooms.Options{Addr: ln.Addr().String()}, "", &http.Server{}, nil)
		if err == nil || !strings.HasPrefix(err.Error(), "server: ") || m.closes.Load() != 1 {
			t.Fatalf("error %v, %d closes; want a server: error and 1 close", err, m.closes.Load())
		}
	})
}
