// Package recording connects the match runner to the .rwd format:
// recorders that write a replay as a match is played, and a
// match.SeamArchive that keeps a tournament's games as .rwd files in a
// folder.
//
// It sits to the right of both engine/match and replay in the data flow
// (runners ← recorders): engine/match defines the interfaces and never
// imports replay; the command line and the server wire these in.
package recording

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/replay"
)

// Recorder writes a match to an io.Writer as a .rwd replay, one flushed
// round at a time (see replay.Writer). It implements match.Recorder.
type Recorder struct {
	w       io.Writer
	created time.Time
	tool    string
	rw      *replay.Writer
	// Parent, when set, goes into the header: the game this one plays on
	// from.
	Parent *replay.Parent
	// CFRInfo, when set, goes into the header (a fork of an official game
	// keeps its info object).
	CFRInfo []byte
	// Verified and Ranking, when set, are the players' ratings (uid
	// order) for the header.
	Verified []bool
	Ranking  []string
}

var (
	_ match.Recorder    = (*Recorder)(nil)
	_ match.RoundLogger = (*Recorder)(nil)
)

// New returns a Recorder writing to w. created and tool go into the
// replay header (tool names the program: "rewind 0.1.0").
func New(w io.Writer, created time.Time, tool string) *Recorder {
	return &Recorder{w: w, created: created, tool: tool}
}

// Header returns the .rwd header a match with this setup is recorded
// under.
func Header(s match.Setup, created time.Time, tool string) replay.Header {
	h := replay.Header{Config: s.Game, Created: created, Tool: tool, Logs: s.Logs}
	if s.Map != nil {
		h.Map = s.Map
	} else {
		seed := s.Seed
		h.Seed = &seed
	}
	for _, p := range s.Players {
		h.Players = append(h.Players, replay.Player{UID: p.UID, Name: p.Name, Home: p.Home, Bot: p.Identity})
	}
	return h
}

// Begin writes the header.
func (r *Recorder) Begin(s match.Setup) error {
	if r.rw != nil {
		return errors.New("recording: Begin called twice")
	}
	h := Header(s, r.created, r.tool)
	h.Parent = r.Parent
	h.CFRInfo = r.CFRInfo
	for i := range h.Players {
		if i < len(r.Verified) {
			h.Players[i].Verified = r.Verified[i]
		}
		if i < len(r.Ranking) {
			h.Players[i].Ranking = r.Ranking[i]
		}
	}
	rw, err := replay.NewWriter(r.w, h)
	if err != nil {
		return err
	}
	r.rw = rw
	return nil
}

// Round writes one round record and flushes it.
func (r *Recorder) Round(cmds [][]colorfight2.Command, st *colorfight2.State) error {
	if r.rw == nil {
		return errors.New("recording: Round before Begin")
	}
	return r.rw.WriteRound(cmds, st)
}

// RoundLogs keeps the bots' logs of the next round (match.RoundLogger):
// they go into a log record before its round record.
func (r *Recorder) RoundLogs(logs [][]byte) error {
	if r.rw == nil {
		return errors.New("recording: RoundLogs before Begin")
	}
	return r.rw.WriteLogs(logs)
}

// End writes the footer. It does not close the underlying writer.
func (r *Recorder) End(st *colorfight2.State) error {
	if r.rw == nil {
		return errors.New("recording: End before Begin")
	}
	return r.rw.Close(st)
}

// Dir is a match.SeamArchive over a folder: game i is game-NNNN.rwd (four
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

// sameBots reports whether a recording's players are the entrants, seat
// by seat (the caller has checked the counts).
func sameBots(players []replay.Player, entrants []string) bool {
	for k, p := range players {
		if p.Bot != entrants[k] {
			return false
		}
	}
	return true
}

// playsToEnd re-simulates a recording with next (a game's Next) to its
// footer, and reports whether it got there without an error.
func playsToEnd(next func() error) bool {
	for {
		err := next()
		if errors.Is(err, io.EOF) {
			return true
		}
		if err != nil {
			return false
		}
	}
}
