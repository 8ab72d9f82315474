package protocol

import (
	"github.com/rewind-game/rewind/internal/rooms"
)

// guess wraps one check of a secret from the request's address about
// scope (a room id, or "" for the master password): a refused key
// answers rooms.RetryMessage without checking; a failure is counted and logged.
func (s *Server) guess(addr, scope, what string, check func() bool) error {
	keys := []string{"addr " + addr, "room " + scope}
	now := s.clk.Now()
	if w := s.guard.Wait(now, keys...); w > 0 {
		return errMsg(rooms.RetryMessage(w))
	}
	if check() {
		// A success forgets nothing: knowing one room's password must not
		// buy more guesses at another's.
		return nil
	}
	w := s.guard.Fail(now, keys...)
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
