package rooms

import "time"

// Clock is the time source of a room engine; tests pass a fake one so
// that no test depends on the wall clock.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

// WallClock is the Clock of the operating system.
type WallClock struct{}

// Now returns time.Now().
func (WallClock) Now() time.Time { return time.Now() }

// After returns time.After(d).
func (WallClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
