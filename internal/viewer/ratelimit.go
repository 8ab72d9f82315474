package viewer

import (
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Per-client limits of the expensive requests (Options.ClientRate,
// Options.ClientBurst): the replay and live pages and data, uploads and
// forks.
const (
	// DefaultClientRate is how many expensive requests a second one
	// client (remote address) may make in the long run: a person opening
	// replays and a live page fetching each new round stay far below.
	DefaultClientRate = 10
	// DefaultClientBurst is how many it may make at once.
	DefaultClientBurst = 40
	// maxClients bounds the buckets kept; full ones are forgotten first.
	maxClients = 4096
)

// rateLimiter is a token bucket per client: rate tokens a second, at most
// burst of them. (golang.org/x/time/rate would add a dependency for these
// few lines.)
type rateLimiter struct {
	rate  float64
	burst float64

	mu      sync.Mutex
	clients map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newRateLimiter(rate float64, burst int) *rateLimiter {
	if rate <= 0 {
		return nil
	}
	return &rateLimiter{rate: rate, burst: float64(max(burst, 1)), clients: map[string]*bucket{}}
}

// allow takes a token of client's bucket, or says how long until one is
// there.
func (l *rateLimiter) allow(client string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.clients[client]
	if !ok {
		if len(l.clients) >= maxClients {
			l.pruneLocked(now)
		}
		b = &bucket{tokens: l.burst, last: now}
		l.clients[client] = b
	}
	if dt := now.Sub(b.last).Seconds(); dt > 0 {
		b.tokens = math.Min(l.burst, b.tokens+dt*l.rate)
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}

// pruneLocked forgets the clients whose bucket has refilled (they lose
// nothing), or every client when none has.
func (l *rateLimiter) pruneLocked(now time.Time) {
	for c, b := range l.clients {
		if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
			delete(l.clients, c)
		}
	}
	if len(l.clients) >= maxClients {
		clear(l.clients)
	}
}

// clientOf names a request's client: its remote address without the port.
func clientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// limited wraps an expensive handler: past its client's rate the request
// is answered 429 with Retry-After.
func (s *Server) limited(h http.HandlerFunc) http.HandlerFunc {
	if s.rate == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) {
		if ok, wait := s.rate.allow(clientOf(r), time.Now()); !ok {
			secs := max(1, int(math.Ceil(wait.Seconds())))
			w.Header().Set("Retry-After", strconv.Itoa(secs))
			http.Error(w, "too many requests from your address: try again in "+strconv.Itoa(secs)+" s", http.StatusTooManyRequests)
			return
		}
		h(w, r)
	}
}

// busy answers a request whose decode the memory budget could not take:
// 503 with Retry-After.
func busy(w http.ResponseWriter, msg string) {
	w.Header().Set("Retry-After", strconv.Itoa(int(RetryAfter/time.Second)))
	http.Error(w, msg, http.StatusServiceUnavailable)
}
