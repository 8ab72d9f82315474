package testutil

import (
	"slices"
	"sync"
	"time"
)

// Clock is a clock that moves only when the test advances it (it is a
// rooms.Clock): no test that uses it depends on the wall clock. It is
// safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []clockTimer
	armed  sync.Cond // signalled whenever a timer is set
}

type clockTimer struct {
	at time.Time
	ch chan time.Time
}

// NewClock returns a Clock that reads now.
func NewClock(now time.Time) *Clock {
	c := &Clock{now: now}
	c.armed.L = &c.mu
	return c
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After returns a channel that receives once the clock has been advanced
// by d; at once for d <= 0.
func (c *Clock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.timers = append(c.timers, clockTimer{at: c.now.Add(d), ch: ch})
	c.armed.Broadcast()
	return ch
}

// Advance moves the clock by d and fires the timers then due.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.timers[:0]
	for _, t := range c.timers {
		if !t.at.After(c.now) {
			t.ch <- c.now
		} else {
			kept = append(kept, t)
		}
	}
	c.timers = kept
}

// AdvanceArmed is Advance once a timer due within d is set, so that a
// test advancing the clock to fire a timer its code sets later cannot
// advance it first, however loaded the machine is.
func (c *Clock) AdvanceArmed(d time.Duration) {
	c.mu.Lock()
	for !slices.ContainsFunc(c.timers, func(t clockTimer) bool { return !t.at.After(c.now.Add(d)) }) {
		c.armed.Wait()
	}
	c.mu.Unlock()
	c.Advance(d)
}

// Drop forgets every timer set.
func (c *Clock) Drop() {
	c.mu.Lock()
	c.timers = nil
	c.mu.Unlock()
}
