package viewer

import (
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// Memory defaults of a Server (Options.MemoryBudget).
const (
	// DefaultMemoryBudget bounds what the viewer holds at once: the live
	// games' versions it keeps packed plus the estimated peak of every
	// pack in progress (StreamPeakBytes), a few of which fit.
	DefaultMemoryBudget = 1 << 30
	// RetryAfter is what a request refused for want of memory (503) or
	// past its client's rate (429) is told to wait.
	RetryAfter = 5 * time.Second
)

// ErrOverBudget says a request needs more memory than the whole budget
// (Options.MemoryBudget) holds, so it cannot be served however long it
// waits: it is refused (422, or a fork's 503 without Retry-After), never
// told to come back.
var ErrOverBudget = errors.New("more than the viewer's whole memory budget")

// ErrBusy says a decode could not start because the memory budget
// (Options.MemoryBudget) is taken by other decodes and by replays in use;
// the request is answered 503 with Retry-After.
var ErrBusy = errors.New("the viewer's memory budget is in use by other replays; try again in a few seconds")

// memBudget accounts the bytes the viewer holds: live games' versions
// kept packed (charged) and packs in progress (reserved at their
// estimated peak before they start). A reservation that does not fit
// fails rather than wait.
type memBudget struct {
	mu      sync.Mutex
	limit   int64
	used    int64
	peak    int64 // the most used at once (for the tests)
	refused int   // reservations refused (for the tests)
	// freed, when set, is closed (and cleared) at the next release: it
	// wakes the reservations waiting for room (reserveWait).
	freed   chan struct{}
	waiting int // reservations waiting for room now (for the tests)
}

func newBudget(limit int64) *memBudget { return &memBudget{limit: limit} }

// reserve takes n bytes for a decode, or returns an error wrapping
// ErrBusy (the budget cannot take n now) or ErrOverBudget (it never
// can).
func (b *memBudget) reserve(n int64) error {
	b.mu.Lock()
	limit := b.limit
	b.mu.Unlock()
	if n > limit {
		return fmt.Errorf("showing this replay may take %s, %w of %s", sizeString(n), ErrOverBudget, sizeString(limit))
	}
	if b.take(n) {
		return nil
	}
	b.mu.Lock()
	b.refused++
	b.mu.Unlock()
	return fmt.Errorf("%w (%s needed)", ErrBusy, sizeString(n))
}

func (b *memBudget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.limit {
		return false
	}
	b.used += n
	b.peak = max(b.peak, b.used)
	return true
}

// charge counts n bytes now held (a decode's result, which replaces its
// larger reservation), whether or not they fit.
func (b *memBudget) charge(n int64) {
	b.mu.Lock()
	b.used += n
	b.peak = max(b.peak, b.used)
	b.mu.Unlock()
}

func (b *memBudget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	if b.freed != nil {
		close(b.freed)
		b.freed = nil
	}
	b.mu.Unlock()
}

// reserveWait is reserve for work that has no client to send away with
// 503 (a library listing's summaries): while the bytes are taken by others
// it waits for releases, up to wait in all, then returns reserve's error
// wrapping ErrBusy. Bytes that are more than the whole budget are refused
// at once.
func (b *memBudget) reserveWait(n int64, wait time.Duration) error {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		b.mu.Lock()
		if b.freed == nil {
			b.freed = make(chan struct{})
		}
		freed := b.freed // taken before trying, so no release is missed
		b.mu.Unlock()
		err := b.reserve(n)
		if !errors.Is(err, ErrBusy) {
			return err
		}
		b.mu.Lock()
		b.waiting++
		b.mu.Unlock()
		expired := false
		select {
		case <-freed:
		case <-timer.C:
			expired = true
		}
		b.mu.Lock()
		b.waiting--
		b.mu.Unlock()
		if expired {
			return err
		}
	}
}

func (b *memBudget) stats() (used, peak int64, refused int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used, b.peak, b.refused
}

// refuseReservation answers a request whose reservation failed with
// err (from reserve): 503 with Retry-After while the budget is busy,
// 422 when the request needs more than the whole budget.
func refuseReservation(w http.ResponseWriter, err error) {
	if errors.Is(err, ErrBusy) {
		busy(w, err.Error())
		return
	}
	http.Error(w, err.Error(), http.StatusUnprocessableEntity)
}
