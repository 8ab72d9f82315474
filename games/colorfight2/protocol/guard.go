package protocol

import (
	"math"
	"strconv"
	"sync"
	"time"
)

// Back-off of failed secrets (admin passwords, join keys, player
// passwords): after guardFree failures in a row, a key (a remote address,
// or a room) is refused for guardBase, doubling at each further failure
// up to guardMax, whatever it sends — the right secret included. A key
// is forgotten guardForget after its last failure.
const (
	guardFree   = 5
	guardBase   = time.Second
	guardMax    = 5 * time.Minute
	guardForget = time.Hour
	// guardKeys bounds the keys remembered; beyond it, new addresses are
	// not tracked (their rooms still are).
	guardKeys = 1 << 16
)

// guard rate-limits guessing, per remote address and per room.
type guard struct {
	mu   sync.Mutex
	keys map[string]*strikes
}

type strikes struct {
	fails int
	last  time.Time // last failure
	until time.Time // refused before then
}

// retryMsg is the reply to an attempt made while its key is refused.
func retryMsg(wait time.Duration) errMsg {
	return errMsg("Too many failed attempts, try again in " + strconv.Itoa(int(math.Ceil(wait.Seconds()))) + " s")
}

// wait returns how long the first of keys is still refused at now (0:
// the attempt may be checked).
func (g *guard) wait(now time.Time, keys ...string) time.Duration {
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

// fail counts a failed attempt against every key and returns the longest
// refusal it starts (0 while the failures are free).
func (g *guard) fail(now time.Time, keys ...string) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.keys == nil {
		g.keys = map[string]*strikes{}
	}
	var w time.Duration
	for _, k := range keys {
		s := g.keys[k]
		if s != nil && now.Sub(s.last) > guardForget {
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
		if s.fails > guardFree {
			d := guardBase << min(s.fails-guardFree-1, 20)
			d = min(d, guardMax)
			s.until = now.Add(d)
			w = max(w, d)
		}
	}
	return w
}

func (g *guard) pruneLocked(now time.Time) {
	for k, s := range g.keys {
		if now.Sub(s.last) > guardForget {
			delete(g.keys, k)
		}
	}
}

// guess wraps one check of a secret from the request's address about
// scope (a room id, or "" for the master password): a refused key
// answers retryMsg without checking; a failure is counted and logged.
func (s *Server) guess(addr, scope, what string, check func() bool) error {
	keys := []string{"addr " + addr, "room " + scope}
	now := s.clk.Now()
	if w := s.guard.wait(now, keys...); w > 0 {
		return retryMsg(w)
	}
	if check() {
		// A success forgets nothing: knowing one room's password must not
		// buy more guesses at another's.
		return nil
	}
	w := s.guard.fail(now, keys...)
	where := "room " + scope
	if scope == "" {
		where = "the server"
	}
	if w > 0 {
		s.logf("%s: wrong %s from %s; further attempts refused for %v", where, what, addr, w)
	} else {
		s.logf("%s: wrong %s from %s", where, what, addr)
	}
	return errWrongSecret
}

// errWrongSecret is what guess returns for a checked, wrong secret; the
// caller replies with its own wording.
var errWrongSecret = errMsg("wrong secret")
