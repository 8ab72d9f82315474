package rooms

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// LiveGame is a game a protocol server is playing, or has played, as a
// viewer lists it.
type LiveGame struct {
	// ID names the game: 1 to 128 of [0-9A-Za-z._-], unique in the Live.
	ID string
	// Room is the room it is played in ("" for a server of one room).
	Room string
	// Turn is the last whole round recorded; MaxTurn the turn limit.
	Turn, MaxTurn int
	Players       []string
	// Done: the recording is whole (footer written, file in place), or
	// broke off and keeps what it got.
	Done bool
	// File is the recording's file as the OS names it: the file being
	// written while the game is played (as Start was told), its final
	// name once Done ("" when it could not be kept).
	File string
	// Recovered marks a game cut by a crash and recovered when the
	// server started: its recording ends at its last whole round, with a
	// footer there (Turn < MaxTurn).
	Recovered bool
}

// Bounds of a Live.
const (
	// MaxLiveFinished is how many finished games a Live keeps listing
	// besides those in progress when its Finished is 0; the oldest go
	// first.
	MaxLiveFinished = 8
	// MaxLiveBytes bounds the recording Replay reads: a longer one is
	// refused (the viewer then shows the game as gone).
	MaxLiveBytes = 64 << 20
)

// Live collects a protocol server's games so that a viewer can follow
// them round by round (Options.Live). The protocol server calls Start
// when it begins recording a game, Round after each round is written
// and flushed, and Finish once the recording is whole (or List for a
// game already on disk); the viewer side calls Games and Replay. A Live
// is safe for concurrent use; its zero value is ready, and a nil *Live
// ignores every call.
type Live struct {
	// Finished is how many finished games it keeps listing (0:
	// MaxLiveFinished).
	Finished int
	// Ended, when set, is called once for every game Finish ends, with
	// the game as the Live then lists it (Done, its final Turn and
	// File), on the caller of Finish after the Live's lock is released.
	// It is the one place a server learns that any of its games ended.
	Ended func(LiveGame)

	mu    sync.Mutex
	games []*LiveRecord // in start order
	rooms func() []RoomState
}

// RoomState is what a room of a protocol server is doing, in words
// ("waiting for 2 more players …", "playing turn 51 of 500 …").
type RoomState struct {
	Room  string
	State string
}

// ShowRooms installs what the server says of its rooms: rooms lists
// each room's state, in the server's order, whenever Rooms is called.
func (l *Live) ShowRooms(rooms func() []RoomState) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.rooms = rooms
}

// Rooms says what each room of the server is doing (ShowRooms); nil
// for a server that shows none.
func (l *Live) Rooms() []RoomState {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	rooms := l.rooms
	l.mu.Unlock()
	if rooms == nil {
		return nil
	}
	return rooms()
}

// LiveRecord is one game of a Live, as its protocol server reports it.
type LiveRecord struct {
	l *Live
	g LiveGame
	// f reads the recording while it is written; nil once done (the
	// file is then read at g.File).
	f *os.File
	// committed is the size of f at the last Start or Round: the header
	// and whole rounds, what Replay reads.
	committed int64
	changed   chan struct{} // nil once done
}

// ErrNoLiveGame is what Replay answers for an id it does not know.
var ErrNoLiveGame = errors.New("no such live game")

// Start registers game g (its Turn the rounds recorded so far, Done
// false) whose recording is being written to the file rec reads: rec is
// opened for reading on the same file (a rename of the file does not
// matter) and from then on owned by the Live, which closes it at Finish
// or when it forgets the game. What rec holds now is taken as whole
// (the header). It returns the record the server reports the game's
// progress to (nil on a nil Live, whose methods do nothing).
func (l *Live) Start(g LiveGame, rec *os.File) *LiveRecord {
	if l == nil {
		if rec != nil {
			rec.Close()
		}
		return nil
	}
	g.Players = append([]string(nil), g.Players...)
	g.Done = false
	r := &LiveRecord{l: l, g: g, f: rec, changed: make(chan struct{})}
	r.committed = size(rec)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.games = append(l.games, r)
	l.pruneLocked()
	return r
}

// List registers a finished game whose whole recording lies at g.File
// (a game recovered after a crash, say).
func (l *Live) List(g LiveGame) {
	if l == nil {
		return
	}
	g.Players = append([]string(nil), g.Players...)
	g.Done = true
	l.mu.Lock()
	defer l.mu.Unlock()
	l.games = append(l.games, &LiveRecord{l: l, g: g})
	l.pruneLocked()
}

// size is the bytes f holds now (0 for nil or on an error: nothing is
// taken as whole).
func size(f *os.File) int64 {
	if f == nil {
		return 0
	}
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	return fi.Size()
}

// pruneLocked forgets the oldest finished games beyond Finished.
func (l *Live) pruneLocked() {
	keep := l.Finished
	if keep <= 0 {
		keep = MaxLiveFinished
	}
	done := 0
	for _, r := range l.games {
		if r.g.Done {
			done++
		}
	}
	kept := l.games[:0]
	for _, r := range l.games {
		if r.g.Done && done > keep {
			done--
			continue
		}
		kept = append(kept, r)
	}
	for i := len(kept); i < len(l.games); i++ {
		l.games[i] = nil
	}
	l.games = kept
}

// bumpLocked wakes whoever waits on the game's last state.
func (r *LiveRecord) bumpLocked() {
	if r.changed != nil {
		close(r.changed)
		r.changed = make(chan struct{})
	}
}

// Round says the game's recording now holds whole rounds up to turn
// (written and flushed): what its file holds now is whole.
func (r *LiveRecord) Round(turn int) {
	if r == nil {
		return
	}
	n := size(r.f)
	r.l.mu.Lock()
	defer r.l.mu.Unlock()
	if r.g.Done {
		return
	}
	r.committed = n
	r.g.Turn = turn
	r.bumpLocked()
}

// Finish says the game's recording is done after turn rounds — whole
// (its footer written), or broken off and kept as far as it got — and
// lies at file (its final name; "" when it could not be kept).
func (r *LiveRecord) Finish(turn int, file string) {
	if r == nil {
		return
	}
	r.l.mu.Lock()
	if r.g.Done {
		r.l.mu.Unlock()
		return
	}
	if r.f != nil {
		r.f.Close()
		r.f = nil
	}
	r.g.Turn, r.g.Done, r.g.File = turn, true, file
	close(r.changed)
	r.changed = nil
	r.l.pruneLocked()
	g := r.g
	g.Players = append([]string(nil), g.Players...)
	ended := r.l.Ended
	r.l.mu.Unlock()
	if ended != nil {
		ended(g)
	}
}

// Game returns the game as the Live lists it.
func (r *LiveRecord) Game() LiveGame {
	if r == nil {
		return LiveGame{}
	}
	r.l.mu.Lock()
	defer r.l.mu.Unlock()
	g := r.g
	g.Players = append([]string(nil), g.Players...)
	return g
}

// Games lists the games in start order: those in progress and the last
// Finished finished ones.
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

// Replay returns the bytes recorded so far of game id (LiveRecord.Replay).
// An unknown id is ErrNoLiveGame.
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
	l.mu.Unlock()
	if r == nil {
		return nil, LiveGame{}, nil, fmt.Errorf("%w: %q", ErrNoLiveGame, id)
	}
	return r.Replay()
}

// Replay returns the bytes recorded so far of the game (the header and
// whole rounds while it is played, a valid replay up to a truncation;
// the whole file once Done), the game's state when they were read, and
// a channel closed at the game's next round or at its end (nil once it
// is done). The bytes are read from the file at each call (the Live
// holds none) and are the caller's.
func (r *LiveRecord) Replay() ([]byte, LiveGame, <-chan struct{}, error) {
	r.l.mu.Lock()
	defer r.l.mu.Unlock()
	g := r.g
	g.Players = append([]string(nil), g.Players...)
	var changed <-chan struct{}
	if r.changed != nil {
		changed = r.changed
	}
	// Read under the lock: Finish closes f.
	var data []byte
	var err error
	switch {
	case r.f != nil:
		data, err = readAt(r.f, r.committed)
	case g.File != "":
		data, err = readFile(g.File)
	default:
		err = errors.New("no recording to read")
	}
	if err != nil {
		return nil, g, changed, fmt.Errorf("live game %q: %w", g.ID, err)
	}
	return data, g, changed, nil
}

// readAt reads the first n bytes of f (ReadAt: safe beside the writer
// and other readers), at most MaxLiveBytes.
func readAt(f *os.File, n int64) ([]byte, error) {
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

// readFile reads the finished recording at path, at most MaxLiveBytes.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAt(f, size(f))
}
