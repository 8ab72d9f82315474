package rooms

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// PartialSuffix marks a recording being written: a game is recorded to
// NAME.rwd.partial and renamed NAME.rwd once whole. One left in the
// folder when a server starts was cut by a crash (Recordings.Recover).
const PartialSuffix = ".partial"

// Disk-full policies of Recordings.
const (
	// DiskRotate removes the oldest finished recordings until the others
	// fit the budget.
	DiskRotate = "rotate"
	// DiskRefuse refuses a new game while the budget is reached.
	DiskRefuse = "refuse"
)

// File is a recording's file as it is written.
type File interface {
	io.Writer
	io.Closer
}

// Recordings is the folder a protocol server records its games in, with
// its disk budget. Own names the server's recordings: only its files
// (NAME.rwd, and NAME.rwd.partial while written) are counted, rotated
// and recovered; other files of Dir are never touched. It is safe for
// concurrent use.
type Recordings struct {
	// Dir is the folder (created by Create if missing).
	Dir string
	// Own reports whether a file name of Dir (NAME.rwd) is one of the
	// server's recordings.
	Own func(name string) bool
	// Older orders two finished recordings of the same modification
	// time, oldest first (nil: by name).
	Older func(a, b string) bool
	// MaxBytes bounds the recordings, finished and being written, before
	// a game starts (MakeRoom); 0 or negative: no bound. The games being
	// played may pass it by what they record.
	MaxBytes int64
	// Full is DiskRotate (also when "") or DiskRefuse.
	Full string
	// Logf, when set, is told of every recording rotated or recovered.
	Logf func(format string, args ...any)
	// CreateFile creates a file to write (nil: os.Create); tests make a
	// disk fill up with it.
	CreateFile func(name string) (File, error)

	mu sync.Mutex // serializes the budget's check and rotation
}

func (d *Recordings) logf(format string, args ...any) {
	if d.Logf != nil {
		d.Logf(format, args...)
	}
}

// ParseDiskFull checks a disk-full policy ("" is DiskRotate).
func ParseDiskFull(s string) (string, error) {
	switch s {
	case "", DiskRotate:
		return DiskRotate, nil
	case DiskRefuse:
		return DiskRefuse, nil
	}
	return "", fmt.Errorf("%q is neither %s nor %s", s, DiskRotate, DiskRefuse)
}

// ownFile reports whether name is a recording of d, finished or being
// written, and which.
func (d *Recordings) ownFile(name string) (own, finished bool) {
	if d.Own == nil {
		return false, false
	}
	if d.Own(name) {
		return true, true
	}
	if base, ok := strings.CutSuffix(name, PartialSuffix); ok && d.Own(base) {
		return true, false
	}
	return false, false
}

// MakeRoom applies the disk budget before a game starts: when d's
// recordings reach MaxBytes, DiskRotate removes the oldest finished ones
// until they are under it, and DiskRefuse returns the error that says
// no game may start. Work: one listing of Dir.
func (d *Recordings) MakeRoom() error {
	limit := d.MaxBytes
	if limit <= 0 {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	entries, err := os.ReadDir(d.Dir)
	if err != nil {
		return fmt.Errorf("recordings: %w", err)
	}
	type recordingFile struct {
		name string
		size int64
		mod  time.Time
	}
	var total int64
	var done []recordingFile
	for _, e := range entries {
		own, finished := d.ownFile(e.Name())
		if !own {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		total += fi.Size()
		if finished {
			done = append(done, recordingFile{e.Name(), fi.Size(), fi.ModTime()})
		}
	}
	if total < limit {
		return nil
	}
	if d.Full == DiskRefuse {
		return fmt.Errorf("the recordings take %d bytes, the disk budget (--max-disk) is %d: no new game until some are removed", total, limit)
	}
	older := d.Older
	if older == nil {
		older = func(a, b string) bool { return a < b }
	}
	sort.Slice(done, func(i, j int) bool {
		if !done[i].mod.Equal(done[j].mod) {
			return done[i].mod.Before(done[j].mod)
		}
		return older(done[i].name, done[j].name)
	})
	for _, f := range done {
		if total < limit {
			break
		}
		if err := os.Remove(filepath.Join(d.Dir, f.name)); err != nil {
			return fmt.Errorf("rotating the recordings: %w", err)
		}
		total -= f.size
		d.logf("%s removed: the recordings reached the disk budget of %d bytes (oldest first)", f.name, limit)
	}
	if total >= limit {
		return fmt.Errorf("the games being played take %d bytes, the disk budget (--max-disk) is %d", total, limit)
	}
	return nil
}

// Recording is one game's file being written: Partial is the file's
// name as it is written, Path its name once whole.
type Recording struct {
	File
	Path string
}

// Partial is the name of the file while it is written.
func (r *Recording) Partial() string { return r.Path + PartialSuffix }

// Create starts the recording of a game named base (the file's name
// without .rwd): it writes DIR/BASE.rwd.partial, or BASE-2… when the
// name is taken by a finished recording or one being written.
func (d *Recordings) Create(base string) (*Recording, error) {
	if err := os.MkdirAll(d.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	path := filepath.Join(d.Dir, base+".rwd")
	for i := 2; taken(path) || taken(path+PartialSuffix); i++ {
		path = filepath.Join(d.Dir, base+"-"+strconv.Itoa(i)+".rwd")
	}
	create := d.CreateFile
	if create == nil {
		create = func(name string) (File, error) { return os.Create(name) }
	}
	f, err := create(path + PartialSuffix)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	return &Recording{File: f, Path: path}, nil
}

func taken(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// Commit syncs and closes the file after its footer and renames it into
// place (Path).
func (r *Recording) Commit() error {
	var err error
	if s, ok := r.File.(interface{ Sync() error }); ok {
		err = s.Sync()
	}
	if cerr := r.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(r.Partial(), r.Path)
	}
	if err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	return nil
}

// Abandon closes a recording that could not be finished: its .partial
// keeps the whole rounds it got (Recover makes it a recording at the
// server's next start).
func (r *Recording) Abandon() { r.File.Close() }

// errNoGame marks a .partial that holds no game (removed).
var errNoGame = errors.New("no whole round")

func openRead(name string) (*os.File, error) { return os.Open(name) }
