package protocol

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// maxGames bounds the games Games lists and Recording serves (finished
// ones are on disk in Options.Dir in any case).
const maxGames = 100

// recFile is a recording's file: written by the recorder, read back by
// Recording. Tests replace os.Create to make a disk fill up.
type recFile interface {
	io.Writer
	io.ReaderAt
	io.Closer
}

func createFile(name string) (recFile, error) { return os.Create(name) }

// liveGame is one recorded game. Its bytes are on disk only: the recorder
// streams to the file, and Recording reads the file up to the last whole
// round, so a game costs O(1) memory however long it is and whether or
// not it is over.
type liveGame struct {
	mu        sync.Mutex
	info      GameInfo
	f         recFile // the .partial being written; nil once done
	written   int64   // bytes written to f
	committed int64   // bytes of whole rounds (a valid replay up to a truncation)
	changed   chan struct{}
}

// writer returns the writer the recorder writes through: the file,
// counting what it holds.
func (l *liveGame) writer(f recFile) io.Writer {
	l.mu.Lock()
	l.f = f
	l.mu.Unlock()
	return &liveWriter{l: l, f: f}
}

type liveWriter struct {
	l *liveGame
	f recFile
}

func (w *liveWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.l.mu.Lock()
	w.l.written += int64(n)
	w.l.mu.Unlock()
	return n, err
}

// commit marks everything written so far as whole rounds, up to turn.
func (l *liveGame) commit(turn int) {
	l.mu.Lock()
	l.committed = l.written
	l.info.Turn = turn
	close(l.changed)
	l.changed = make(chan struct{})
	l.mu.Unlock()
}

// finish closes the file after the footer and renames it into place.
func (l *liveGame) finish(f recFile, path string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	err := f.Close()
	if err == nil {
		err = os.Rename(path+".partial", path)
	}
	if err == nil {
		l.info.Path = path
	}
	l.f = nil
	l.committed = l.written
	l.info.Done = true
	close(l.changed)
	l.changed = nil
	if err != nil {
		return fmt.Errorf("server: recording: %w", err)
	}
	return nil
}

// fail marks a game whose recording broke off as done, as far as it got:
// the .partial keeps its whole rounds.
func (l *liveGame) fail(f recFile) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f.Close()
	l.f = nil
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

// state returns the game's info and the channel closed at the next
// change (nil once done).
func (l *liveGame) state() (GameInfo, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	info := l.info
	info.Players = append([]string(nil), l.info.Players...)
	var ch <-chan struct{}
	if l.changed != nil {
		ch = l.changed
	}
	return info, ch
}

// snapshot reads the whole rounds recorded so far from the file, with
// the game's info and the channel closed at the next change (nil once
// done). The bytes are the caller's; they cost what the recording weighs
// only while the caller holds them.
func (l *liveGame) snapshot() ([]byte, GameInfo, <-chan struct{}, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	info := l.info
	info.Players = append([]string(nil), l.info.Players...)
	var ch <-chan struct{}
	if l.changed != nil {
		ch = l.changed
	}
	data := make([]byte, l.committed)
	if l.f != nil {
		if _, err := l.f.ReadAt(data, 0); err != nil {
			return nil, info, ch, fmt.Errorf("server: recording: %w", err)
		}
		return data, info, ch, nil
	}
	f, err := os.Open(info.Path)
	if err != nil {
		return nil, info, ch, fmt.Errorf("server: recording: %w", err)
	}
	defer f.Close()
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, info, ch, fmt.Errorf("server: recording %s: %w", info.Path, err)
	}
	return data, info, ch, nil
}
