package protocol

import (
	"errors"

	"github.com/rewind-game/rewind/internal/rooms"
)

// guess wraps one check of a secret from the request's address about
// scope (a room id, or "" for the master password) through the server's
// rooms.Secrets: a refused key answers rooms.RetryMessage without
// checking; a wrong secret is errWrongSecret, for the caller to word.
func (s *Server) guess(addr, scope, what string, check func() bool) error {
	err := s.secrets.Check(addr, scope, what, check)
	var retry *rooms.RetryError
	switch {
	case errors.As(err, &retry):
		return errMsg(retry.Error())
	case err != nil:
		return errWrongSecret
	}
	return nil
}

// errWrongSecret is what guess returns for a checked, wrong secret; the
// caller replies with its own wording.
var errWrongSecret = errMsg("wrong secret")
