package rooms

import (
	"crypto/subtle"
	"errors"
	"sync"
	"time"
)

// AdminPasswordEnv names the environment variable holding a protocol
// server's master admin password. It is read from the environment, never
// from a flag, so that it does not show in process listings or shell
// history; unset, every master-admin action is refused.
const AdminPasswordEnv = "REWIND_ADMIN_PASSWORD"

// ErrWrongSecret is what Secrets.Check returns for a checked, wrong
// secret; the protocol replies in its own wording.
var ErrWrongSecret = errors.New("wrong secret")

// RetryError is what Secrets.Check returns for an attempt refused
// unchecked: its keys failed too often (Guard). Its text is
// RetryMessage's.
type RetryError struct{ Wait time.Duration }

func (e *RetryError) Error() string { return RetryMessage(e.Wait) }

// Secrets is the credential check of a protocol server: every check of
// a secret (the master password, a room's password or join key, a
// player's password) goes through Check, which backs off repeated
// failures by the address and the secret it guesses (GuardFree), and by
// the address over every secret (GuardFreePerAddr) — never by the room
// or the name alone, so that a guesser elsewhere cannot lock the owner
// of a secret out. Clock must be set; Logf may be.
type Secrets struct {
	Clock Clock
	// Logf, when set, is told of every failure (never of a secret).
	Logf func(format string, args ...any)

	once    sync.Once
	secrets Guard // by address and secret
	addrs   Guard // by address
}

// Check checks one attempt from addr at the secret what of room scope
// ("" for the master password; what names it for the log and, with
// scope, keys its back-off: "player password for \"bob\""). An attempt
// whose key is refused answers a *RetryError without checking; a failure
// is counted against the address and the secret, and logged. A success
// forgets nothing: knowing one secret must not buy more guesses at
// another.
func (s *Secrets) Check(addr, scope, what string, check func() bool) error {
	s.once.Do(func() { s.addrs.Free = GuardFreePerAddr })
	secret := []string{"addr " + addr + " room " + scope + " " + what}
	byAddr := []string{"addr " + addr}
	now := s.Clock.Now()
	if w := max(s.secrets.Wait(now, secret...), s.addrs.Wait(now, byAddr...)); w > 0 {
		return &RetryError{Wait: w}
	}
	if check() {
		return nil
	}
	w := max(s.secrets.Fail(now, secret...), s.addrs.Fail(now, byAddr...))
	if s.Logf != nil {
		where := "room " + scope
		if scope == "" {
			where = "the server"
		}
		if w > 0 {
			s.Logf("%s: wrong %s from %s; further attempts refused for %v", where, what, addr, w)
		} else {
			s.Logf("%s: wrong %s from %s", where, what, addr)
		}
	}
	return ErrWrongSecret
}

// CheckPassword compares a password in constant time; an empty want
// never matches: a server or room without a password has no password
// that works.
func CheckPassword(got, want string) bool {
	return want != "" && SameSecret(got, want)
}

// SameSecret compares in constant time, the empty string included (a
// player's password, a room's join key).
func SameSecret(got, want string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
