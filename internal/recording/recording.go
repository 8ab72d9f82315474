// Package recording connects the match runner to the .rwd format:
// recorders that write a replay as a match is played, and a
// match.Archive that keeps a tournament's games as .rwd files in a
// folder.
//
// It sits to the right of both internal/match and replay in the data flow
// (runners ← recorders): internal/match defines the interfaces and never
// imports replay; the command line and the server wire these in.
package recording

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"
)

// Dir is a match.Archive over a folder: game i is game-NNNN.rwd (four
// digits at least), written as game-NNNN.rwd.RANDOM.partial while it is
// played (a name of its own, so that two tournaments writing into one
// folder never share one) and, when it finished, synced to disk and
// renamed into place (the folder synced too), so the folder never holds a
// half game under a final name and a game reported done survives a power
// cut.
type Dir struct {
	// Path is the folder; Create makes it when missing.
	Path string
	// Tool goes into every replay header.
	Tool string
	// Now stamps each replay's creation time (default time.Now).
	Now func() time.Time
	// folder syncs the folder after renames, one sync for the games that
	// finish at once.
	folder dirSync
}

// syncer is what a finished game syncs the folder with.
func (d *Dir) syncer() *dirSync { return &d.folder }

// GamePath returns where game i is kept.
func (d *Dir) GamePath(i int) string {
	return filepath.Join(d.Path, fmt.Sprintf("game-%04d.rwd", i))
}

// create opens game i's partial file.
func (d *Dir) create(i int) (f *os.File, tmp, final string, created time.Time, err error) {
	if err := os.MkdirAll(d.Path, 0o755); err != nil {
		return nil, "", "", time.Time{}, fmt.Errorf("recording: %w", err)
	}
	final = d.GamePath(i)
	if f, err = os.CreateTemp(d.Path, filepath.Base(final)+".*.partial"); err != nil {
		return nil, "", "", time.Time{}, fmt.Errorf("recording: %w", err)
	}
	tmp = f.Name()
	now := time.Now
	if d.Now != nil {
		now = d.Now
	}
	return f, tmp, final, now(), nil
}

// commit syncs and closes a finished game's file, renames it into place
// and syncs the folder.
func commit(f *os.File, tmp, final string, folder *dirSync) (string, error) {
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, final)
	}
	if err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("recording: %w", err)
	}
	if err := folder.sync(filepath.Dir(final)); err != nil {
		return "", fmt.Errorf("recording: %w", err)
	}
	return final, nil
}

// dirSync syncs a folder so that every rename made before a call is on
// disk when it returns, one sync serving all the calls waiting at once
// (a group commit: a tournament finishing many games at a time pays a
// few syncs, not one a game).
type dirSync struct {
	mu            sync.Mutex
	started, done uint64
	running       bool
	wake          chan struct{} // closed when the running sync ends
	err           error         // the last sync's
}

func (s *dirSync) sync(dir string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	// A sync that started before this call may miss its rename: wait
	// for one that starts after it.
	ticket := s.started + 1
	for s.done < ticket {
		if s.running {
			w := s.wake
			s.mu.Unlock()
			<-w
			s.mu.Lock()
			continue
		}
		s.running = true
		s.started++
		n := s.started
		s.wake = make(chan struct{})
		s.mu.Unlock()
		err := syncDir(dir)
		s.mu.Lock()
		s.running, s.done, s.err = false, n, err
		close(s.wake)
	}
	return s.err
}

// syncDir flushes a folder's entries (a rename) to disk. Windows cannot
// open a folder for that and has nothing to do.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// Store keeps data, a finished game's replay played elsewhere, as game i,
// as Commit keeps a game recorded here: written under a name of its own,
// synced, renamed into place, the folder synced. It returns the path.
func (d *Dir) Store(i int, data []byte) (string, error) {
	f, tmp, final, _, err := d.create(i)
	if err != nil {
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return "", fmt.Errorf("recording: %w", err)
	}
	return commit(f, tmp, final, d.syncer())
}
