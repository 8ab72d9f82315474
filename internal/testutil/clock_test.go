package testutil

import (
	"testing"
	"time"
)

// TestClock: a timer fires once the clock has been advanced past it, not
// before; AdvanceArmed waits for a timer set later by another goroutine.
func TestClock(t *testing.T) {
	start := time.Unix(100, 0)
	c := NewClock(start)
	ch := c.After(2 * time.Second)
	c.Advance(time.Second)
	select {
	case <-ch:
		t.Fatal("the timer fired a second early")
	default:
	}
	c.Advance(time.Second)
	if at := <-ch; !at.Equal(start.Add(2*time.Second)) || !c.Now().Equal(at) {
		t.Fatalf("fired at %v, now %v", at, c.Now())
	}
	if at := <-c.After(0); !at.Equal(c.Now()) {
		t.Fatalf("After(0) fired at %v", at)
	}
	got := make(chan time.Time)
	go func() { got <- <-c.After(time.Minute) }()
	c.AdvanceArmed(time.Minute)
	if at := <-got; !at.Equal(start.Add(2*time.Second + time.Minute)) {
		t.Fatalf("the armed timer fired at %v", at)
	}
	c.After(time.Hour)
	c.Drop()
	c.Advance(time.Hour) // nothing to fire, nothing blocks
}
