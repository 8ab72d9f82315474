package server

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// maxGames bounds the games Games lists and Recording serves (finished
// ones are on disk in Options.Dir in any case).
const maxGames = 100

// liveGame is one recorded game: the .rwd bytes flushed so far, kept
// beside the file for live viewers.
type liveGame struct {
	mu        sync.Mutex
	info      GameInfo
	buf       []byte // every byte written; only buf[:committed] is whole rounds
	committed int
	changed   chan struct{}
}

// writer returns the writer the recorder writes through: the file and
// the in-memory copy.
func (l *liveGame) writer(f *os.File) io.Writer { return &liveWriter{l: l, f: f} }

type liveWriter struct {
	l *liveGame
	f *os.File
}

func (w *liveWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.l.mu.Lock()
	// Appending never touches buf[:committed], which readers may hold.
	w.l.buf = append(w.l.buf, p[:n]...)
	w.l.mu.Unlock()
	return n, err
}

// commit marks everything written so far as whole rounds, up to turn.
func (l *liveGame) commit(turn int) {
	l.mu.Lock()
	l.committed = len(l.buf)
	l.info.Turn = turn
	close(l.changed)
	l.changed = make(chan struct{})
	l.mu.Unlock()
}

// finish closes the file after the footer and renames it into place.
func (l *liveGame) finish(f *os.File, path string) error {
	err := f.Close()
	if err == nil {
		err = os.Rename(path+".partial", path)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err == nil {
		l.info.Path = path
	}
	l.committed = len(l.buf)
	l.info.Done = true
	close(l.changed)
	l.changed = nil
	if err != nil {
		return fmt.Errorf("server: recording: %w", err)
	}
	return nil
}

// fail marks a game whose recording broke off as done, as far as it got.
func (l *liveGame) fail() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.info.Done {
		return
	}
	l.info.Done = true
	close(l.changed)
	l.changed = nil
}

func (l *liveGame) isDone() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.info.Done
}

// snapshot returns the whole rounds recorded so far, the game's info and
// the channel closed at the next change (nil once done).
func (l *liveGame) snapshot() ([]byte, GameInfo, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	info := l.info
	info.Players = append([]string(nil), l.info.Players...)
	var ch <-chan struct{}
	if l.changed != nil {
		ch = l.changed
	}
	return l.buf[:l.committed:l.committed], info, ch
}
