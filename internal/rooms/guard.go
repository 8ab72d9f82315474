package rooms

import (
	"math"
	"strconv"
	"sync"
	"time"
)

// Back-off of failed secrets (admin passwords, join keys, player
// passwords): after GuardFree failures in a row, a key (a remote address
// and the secret it guesses) is refused for GuardBase, doubling at each
// further failure up to GuardMax, whatever it sends — the right secret
// included. A key is forgotten GuardForget after its last failure.
const (
	GuardFree = 5
	// GuardFreePerAddr is the free failures of one address over every
	// secret it guesses (Secrets).
	GuardFreePerAddr = 4 * GuardFree
	GuardBase        = time.Second
	GuardMax         = 5 * time.Minute
	GuardForget      = time.Hour
	// guardKeys bounds the keys remembered; beyond it, new keys are not
	// tracked.
	guardKeys = 1 << 16
)

// Guard rate-limits guessing of secrets by key (a remote address, a
// room). Its zero value is ready; it is safe for concurrent use.
type Guard struct {
	// Free is the failures in a row a key makes before it is refused
	// (0: GuardFree).
	Free int

	mu   sync.Mutex
	keys map[string]*strikes
}

type strikes struct {
	fails int
	last  time.Time // last failure
	until time.Time // refused before then
}

// RetryMessage is the reply to an attempt made while its key is refused
// for wait.
func RetryMessage(wait time.Duration) string {
	return "Too many failed attempts, try again in " + strconv.Itoa(int(math.Ceil(wait.Seconds()))) + " s"
}

// Wait returns how long the first of keys is still refused at now (0:
// the attempt may be checked).
func (g *Guard) Wait(now time.Time, keys ...string) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	var w time.Duration
	for _, k := range keys {
		if s := g.keys[k]; s != nil && now.Before(s.until) {
			w = max(w, s.until.Sub(now))
		}
	}
	return w
}

// Fail counts a failed attempt against every key and returns the longest
// refusal it starts (0 while the failures are free).
func (g *Guard) Fail(now time.Time, keys ...string) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.keys == nil {
		g.keys = map[string]*strikes{}
	}
	free := g.Free
	if free <= 0 {
		free = GuardFree
	}
	var w time.Duration
	for _, k := range keys {
		s := g.keys[k]
		if s != nil && now.Sub(s.last) > GuardForget {
			s = nil
		}
		if s == nil {
			if len(g.keys) >= guardKeys {
				g.pruneLocked(now)
				if len(g.keys) >= guardKeys {
					continue
				}
			}
			s = &strikes{}
			g.keys[k] = s
		}
		s.fails++
		s.last = now
		if s.fails > free {
			d := GuardBase << min(s.fails-free-1, 20)
			d = min(d, GuardMax)
			s.until = now.Add(d)
			w = max(w, d)
		}
	}
	return w
}

func (g *Guard) pruneLocked(now time.Time) {
	for k, s := range g.keys {
		if now.Sub(s.last) > GuardForget {
			delete(g.keys, k)
		}
	}
}
