package viewer

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/replay/cfr"
	"github.com/rewind-game/rewind/replay/source"
)

// Memory defaults of a Server (Options.MemoryBudget, Options.CacheBytes).
const (
	// DefaultMemoryBudget bounds what the viewer holds at once: the
	// replays it keeps packed plus the estimated peak of every decode in
	// progress. A real 2000-round game of 8 players on 30×30 is packed in
	// a few tens of MB, so this takes several at once on a small machine.
	DefaultMemoryBudget = 1 << 30
	// DefaultCacheBytes bounds the packed replays kept for the next
	// request (least recently used go first): dozens of real games.
	DefaultCacheBytes = 256 << 20
	// RetryAfter is what a request refused for want of memory (503) or
	// past its client's rate (429) is told to wait.
	RetryAfter = 5 * time.Second
	// growingEvery is the least time between two decodes of a replay
	// still being recorded in the library (its size grows every round):
	// meanwhile the last decode is served.
	growingEvery = 5 * time.Second
)

// ErrBusy says a decode could not start because the memory budget
// (Options.MemoryBudget) is taken by other decodes and by replays in use;
// the request is answered 503 with Retry-After.
var ErrBusy = errors.New("the viewer's memory budget is in use by other replays; try again in a few seconds")

// LoadPeakBytes is the most memory Load may take for a replay of players
// players, cells cells and rounds rounds (the header's promise; a .cfr's
// players are unknown before its frames, give cfr.MaxUsers), worst case:
//
//	24 MiB + 1000·C + 8·M·min(P·(T+1), analysis.MaxGenericValues/M)
//	       + (T+1)·(150·C + 512·P) + 3·MaxCommandText
//
// The fixed part is the decoder (zstd window and buffers, header) and the
// charts; 1000·C the states, frames and a .cfr's inference; 8·M bytes a
// player's values of a frame in the analysis, M = analysisMetrics(P) of
// them (docs/limits.md); per frame, the collector's changes of
// the ten cell fields (a 32-bit value and a 16-bit cell index each: 60·C
// when every cell changes every frame) and players' values, and when
// packed the typed arrays and the blob (42·C each when every cell changes
// every frame and every field needs 32 bits: the seven sparse fields'
// values and 16-bit cell indexes; the players' 14 frame values and 14
// analysis columns, 2·(112+56)·P); the command
// text is held as strings, as the manifest's JSON and in the blob. Frames
// past MaxCellFrames or analysis.MaxGenericValues are refused, so they
// are not counted.
func LoadPeakBytes(players, cells, rounds int) int64 {
	p, c := int64(max(players, 1)), int64(max(cells, 1))
	m := analysisMetrics(p)
	frames := int64(max(rounds, 0)) + 1
	frames = min(frames, MaxCellFrames/c+1, analysis.MaxGenericValues/(p*m)+1)
	const fixed = 24 << 20
	return fixed + 1000*c + 8*m*p*frames + frames*(150*c+512*p) + 3*MaxCommandText
}

// loadPeak estimates Load's peak for src from what its header promises
// (a .rwd's players and max_turn). A .cfr says neither up front, so its
// summary (sum, one streaming read without re-simulation) gives its
// players and frames; without one, the most its frames may be.
func loadPeak(m *source.Meta, sum *source.Summary) int64 {
	cells := m.Config.Width * m.Config.Height
	if m.Format != source.CFR {
		return LoadPeakBytes(len(m.Players), cells, m.Config.MaxTurn)
	}
	if sum != nil && sum.Format == source.CFR {
		return LoadPeakBytes(len(sum.Players), cells, sum.Rounds)
	}
	return LoadPeakBytes(cfr.MaxUsers, cells, MaxCellFrames)
}

// replayBytes is what a packed Replay holds: its blob, gzip copy, charts
// and analysis rows.
func replayBytes(rep *Replay) int64 {
	n := int64(len(rep.Blob)+len(rep.Gzip)) + 4<<10
	for _, c := range rep.Charts {
		n += int64(len(c.Option) + len(c.Title) + len(c.ID))
	}
	if a := rep.Analysis; a != nil {
		n += 368*int64(len(a.Players))*int64(a.Rounds) + 128*int64(len(a.Events))
	}
	return n
}

// memBudget accounts the bytes the viewer holds: replays kept packed
// (charged) and decodes in progress (reserved at their estimated peak
// before they start). A reservation that does not fit asks reclaim to
// drop cached replays, then fails rather than wait.
type memBudget struct {
	// reclaim, when set, drops cached replays until need more bytes fit
	// (it is called without mu held).
	reclaim func(need int64)

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
// ErrBusy (or saying n is more than the whole budget).
func (b *memBudget) reserve(n int64) error {
	b.mu.Lock()
	limit := b.limit
	b.mu.Unlock()
	if n > limit {
		return fmt.Errorf("showing this replay may take %s, more than the viewer's whole memory budget of %s", sizeString(n), sizeString(limit))
	}
	if b.take(n) {
		return nil
	}
	if b.reclaim != nil {
		b.reclaim(n)
		if b.take(n) {
			return nil
		}
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

// fits reports whether need more bytes fit now.
func (b *memBudget) fits(need int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used+need <= b.limit
}

func (b *memBudget) stats() (used, peak int64, refused int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used, b.peak, b.refused
}
