package rooms

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// LiveGame is a game a protocol server is playing, or has just played,
// as a viewer lists it.
type LiveGame struct {
	// ID names the game: 1 to 128 of [0-9A-Za-z._-], unique in the Live.
	ID string
	// Turn is the last whole round recorded; MaxTurn the turn limit.
	Turn, MaxTurn int
	Players       []string
	// Done: the recording is whole (footer written, file in place).
	Done bool
	// File is the recording's file as the OS names it: its final name
	// once Done, "" before.
	File string
}

// Bounds of a Live.
const (
	// MaxLiveFinished is how many finished games a Live keeps listing
	// (and keeps a file open for) besides those in progress; the oldest
	// go first.
	MaxLiveFinished = 8
	// MaxLiveBytes bounds the recording LiveReplay reads: a longer one
	// is refused (the viewer then shows the game as gone).
	MaxLiveBytes = 64 << 20
)

// Live collects a protocol server's games so that a viewer can follow
// them round by round (Options.Live). The protocol server calls Start
// when it begins recording a game, Round after each round is written
// and flushed, and Finish once the recording is whole; the viewer side
// calls Games and Replay. A Live is safe for concurrent use; its zero
// value is ready, and a nil *Live ignores every call.
type Live struct {
	mu    sync.Mutex
	games []*LiveRecord // in start order
}

// LiveRecord is one game of a Live, as its protocol server reports it.
type LiveRecord struct {
	l       *Live
	g       LiveGame
	f       *os.File
	changed chan struct{}
}

// ErrNoLiveGame is what Replay answers for an id it does not know.
var ErrNoLiveGame = errors.New("no such live game")

// Start registers game g (its Turn the rounds recorded so far, Done
// false) whose recording is being written to the file rec reads: rec is
// opened for reading on the same file (a rename of the file does not
// matter) and from then on owned by the Live, which closes it when it
// forgets the game. It returns the record the server reports the game's
// progress to (nil on a nil Live, whose methods do nothing).
func (l *Live) Start(g LiveGame, rec *os.File) *LiveRecord {
	if l == nil {
		if rec != nil {
			rec.Close()
		}
		return nil
	}
	g.Players = append([]string(nil), g.Players...)
	g.Done, g.File = false, ""
	r := &LiveRecord{l: l, g: g, f: rec, changed: make(chan struct{})}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.games = append(l.games, r)
	l.pruneLocked()
	return r
}

// pruneLocked forgets the oldest finished games beyond MaxLiveFinished.
func (l *Live) pruneLocked() {
	done := 0
	for _, r := range l.games {
		if r.g.Done {
			done++
		}
	}
	kept := l.games[:0]
	for _, r := range l.games {
		if r.g.Done && done > MaxLiveFinished {
			done--
			r.close()
			continue
		}
		kept = append(kept, r)
	}
	for i := len(kept); i < len(l.games); i++ {
		l.games[i] = nil
	}
	l.games = kept
}

func (r *LiveRecord) close() {
	if r.f != nil {
		r.f.Close()
	}
	close(r.changed)
	r.changed = make(chan struct{})
}

// bump wakes whoever waits on the game's last state.
func (r *LiveRecord) bumpLocked() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// Round says the game's recording now holds whole rounds up to turn
// (written and flushed).
func (r *LiveRecord) Round(turn int) {
	if r == nil {
		return
	}
	r.l.mu.Lock()
	defer r.l.mu.Unlock()
	if turn != r.g.Turn {
		r.g.Turn = turn
		r.bumpLocked()
	}
}

// Finish says the game's recording is whole (its footer written) and
// lies at file (its final name; "" when it could not be kept), after
// turn rounds.
func (r *LiveRecord) Finish(turn int, file string) {
	if r == nil {
		return
	}
	r.l.mu.Lock()
	defer r.l.mu.Unlock()
	r.g.Turn, r.g.Done, r.g.File = turn, true, file
	r.bumpLocked()
	r.l.pruneLocked()
}

// Games lists the games in start order: those in progress and the last
// MaxLiveFinished finished ones.
func (l *Live) Games() []LiveGame {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]LiveGame, 0, len(l.games))
	for _, r := range l.games {
		g := r.g
		g.Players = append([]string(nil), g.Players...)
		out = append(out, g)
	}
	return out
}

// Replay returns the bytes recorded so far of game id (header and whole
// rounds, maybe the start of the next one; the footer once Done), the
// game's state when they were read, and a channel closed at the game's
// next round, at its end or when the Live forgets it. An unknown id is
// ErrNoLiveGame.
func (l *Live) Replay(id string) ([]byte, LiveGame, <-chan struct{}, error) {
	if l == nil {
		return nil, LiveGame{}, nil, fmt.Errorf("%w: %q", ErrNoLiveGame, id)
	}
	l.mu.Lock()
	var r *LiveRecord
	for _, c := range l.games {
		if c.g.ID == id {
			r = c
		}
	}
	if r == nil {
		l.mu.Unlock()
		return nil, LiveGame{}, nil, fmt.Errorf("%w: %q", ErrNoLiveGame, id)
	}
	// The state is taken before the bytes: the bytes hold at least the
	// rounds it says.
	g, changed, f := r.g, r.changed, r.f
	g.Players = append([]string(nil), g.Players...)
	l.mu.Unlock()
	if f == nil {
		return nil, g, changed, fmt.Errorf("live game %q: no recording to read", id)
	}
	data, err := readAll(f)
	if err != nil {
		return nil, g, changed, fmt.Errorf("live game %q: %w", id, err)
	}
	return data, g, changed, nil
}

// readAll reads f's current bytes from its start (ReadAt: safe beside
// the writer and other readers), at most MaxLiveBytes.
func readAll(f *os.File) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	n := fi.Size()
	if n > MaxLiveBytes {
		return nil, fmt.Errorf("the recording is %d bytes, more than the %d a live view reads", n, MaxLiveBytes)
	}
	buf := make([]byte, n)
	m, err := f.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:m], nil
}
