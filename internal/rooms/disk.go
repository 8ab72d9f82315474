package rooms

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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
// its disk budget. The budget counts and rotates only the recordings the
// server committed, listed in Dir's manifest (ManifestFile) with the
// size and modification time they had, and the ones it is writing
// (NAME.rwd.partial, Own(NAME.rwd)); other files of Dir — another
// tool's, the user's, a listed recording replaced since, one written
// before the manifest existed — are never counted or removed. It is
// safe for concurrent use.
type Recordings struct {
	// Dir is the folder (created by Create if missing).
	Dir string
	// Own reports whether a file name of Dir (NAME.rwd) is of the
	// server's naming: its .partial files are counted and recovered, and
	// only the manifest's recordings of its naming are rotated (a folder
	// may hold the recordings of several servers).
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

	mu           sync.Mutex               // serializes the budget's check and rotation, and the manifest
	manifest     map[string]manifestEntry // the manifest by name; nil until read
	manifestTorn bool                     // the manifest's last line has no line break
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
// recordings — the manifest's and the ones being written — reach
// MaxBytes, DiskRotate removes the oldest finished ones until they are
// under it, and DiskRefuse returns the error that says no game may
// start. A manifest entry whose file is gone or changed is dropped, its
// file left alone. Work: one listing of Dir and one stat per entry of
// the manifest.
func (d *Recordings) MakeRoom() error {
	limit := d.MaxBytes
	if limit <= 0 {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.loadManifest(); err != nil {
		return err
	}
	entries, err := os.ReadDir(d.Dir)
	if err != nil {
		return fmt.Errorf("recordings: %w", err)
	}
	var total int64
	for _, e := range entries {
		if own, finished := d.ownFile(e.Name()); !own || finished {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
	}
	changed := d.checkManifest()
	var done []string // oldest first
	for _, name := range d.manifestNames() {
		if d.Own != nil && d.Own(name) {
			total += d.manifest[name].size
			done = append(done, name)
		}
	}
	removed, err := d.rotate(done, total, limit)
	if changed || removed > 0 {
		if werr := d.writeManifest(); err == nil {
			err = werr
		}
	}
	return err
}

// rotate applies the budget to the finished recordings done (oldest
// first) when the recordings take total bytes (d.mu held), and returns
// how many it removed, each dropped from d.manifest.
func (d *Recordings) rotate(done []string, total, limit int64) (int, error) {
	if total < limit {
		return 0, nil
	}
	if d.Full == DiskRefuse {
		return 0, fmt.Errorf("the recordings take %d bytes, the disk budget (--max-disk) is %d: no new game until some are removed", total, limit)
	}
	removed := 0
	for _, name := range done {
		if total < limit {
			break
		}
		if err := os.Remove(filepath.Join(d.Dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return removed, fmt.Errorf("rotating the recordings: %w", err)
		}
		total -= d.manifest[name].size
		delete(d.manifest, name)
		removed++
		d.logf("%s removed: the recordings reached the disk budget of %d bytes (oldest first)", name, limit)
	}
	if total >= limit {
		return removed, fmt.Errorf("the games being played take %d bytes, the disk budget (--max-disk) is %d", total, limit)
	}
	return removed, nil
}

// Recording is one game's file being written: Partial is the file's
// name as it is written, Path its name once whole.
type Recording struct {
	File
	Path string

	d *Recordings // lists it in the manifest when committed
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
	return &Recording{File: f, Path: path, d: d}, nil
}

func taken(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// Commit syncs and closes the file after its footer, renames it into
// place (Path) and lists it in the manifest, synced: from then on the
// disk budget may rotate it.
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
	if r.d == nil {
		return nil
	}
	r.d.mu.Lock()
	defer r.d.mu.Unlock()
	return r.d.own(r.Path)
}

// Abandon closes a recording that could not be finished: its .partial
// keeps the whole rounds it got (Recover makes it a recording at the
// server's next start).
func (r *Recording) Abandon() { r.File.Close() }

// errNoGame marks a .partial that holds no game (removed).
var errNoGame = errors.New("no whole round")

func openRead(name string) (*os.File, error) { return os.Open(name) }
