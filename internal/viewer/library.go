package viewer

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/viewer/index"
)

// Entry is one replay of a library, as the library page lists it: the
// file and its source.Summary.
type Entry struct {
	// ID is the replay's slash-separated path relative to the library
	// folder; it is what URLs name.
	ID      string
	Size    int64
	ModTime time.Time
	// Date is when the game was recorded (the .rwd header), else the
	// file's modification time.
	Date time.Time
	source.Summary
	// Err says why the file cannot be opened at all ("" when it can; a
	// damaged file that starts well is listed with Summary.Damage).
	Err string
	// Game is the replay's game, its registered display name
	// ("ColorfightII", "Monad"); its Summary counts the game's score
	// (index.GameUnit: gold, resources…).
	Game string
	// Hash is the hex SHA-256 of the file's bytes when the index read it
	// ("" otherwise).
	Hash string
	// retry: the file was not read for want of memory (Err says so); the
	// entry is not kept, so the next listing reads it again.
	retry bool
}

// Library is a folder of .rwd and .cfr replays, rescanned on every
// listing so files appear as they are written. Replay ids are paths
// relative to the folder and are resolved through an os.Root, so no id
// (not "..", not an absolute path, not a symlink) can reach a file outside
// it. A Library is safe for concurrent use.
type Library struct {
	dir  string
	root *os.Root
	only string // when set, the library lists just this id

	// mem accounts the memory of the summaries that decode a file whole
	// (shared with the server's pages and live games).
	mem *memBudget
	// summaryWait bounds how long a summary waits for room in mem
	// (summaryWait; less in tests).
	summaryWait time.Duration

	mu      sync.Mutex
	entries map[string]*Entry // by id, valid while size and mtime match
	// summarizing holds the summaries in progress, by id, so concurrent
	// listings of a folder read each new file once.
	summarizing map[string]*summarySlot
	summarized  int // files read to summarise them, for the tests

	// ix is the folder's index (UseIndex), nil without; syncMu serialises
	// Sync.
	ix     *index.Index
	syncMu sync.Mutex
}

type summarySlot struct {
	size  int64
	mod   time.Time
	done  chan struct{}
	entry *Entry
}

// OpenLibrary opens the library in dir.
func OpenLibrary(dir string) (*Library, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("library: %w", err)
	}
	abs, _ := filepath.Abs(dir)
	l := &Library{dir: abs, root: root, entries: map[string]*Entry{}, mem: newBudget(DefaultMemoryBudget), summaryWait: summaryWait}
	l.removeStaleTemps()
	return l, nil
}

// summaryOf summarises one file version, sharing the work with any
// listing already summarising the same version.
func (l *Library) summaryOf(id string, size int64, mod time.Time) *Entry {
	l.mu.Lock()
	if l.summarizing == nil {
		l.summarizing = map[string]*summarySlot{}
	}
	if sl, ok := l.summarizing[id]; ok && sl.size == size && sl.mod.Equal(mod) {
		l.mu.Unlock()
		<-sl.done
		return sl.entry
	}
	sl := &summarySlot{size: size, mod: mod, done: make(chan struct{})}
	l.summarizing[id] = sl
	l.mu.Unlock()

	e := &Entry{ID: id, Size: size, ModTime: mod, Date: mod}
	l.summarize(e)
	sl.entry = e
	close(sl.done)
	l.mu.Lock()
	l.summarized++
	if l.summarizing[id] == sl {
		delete(l.summarizing, id)
	}
	l.mu.Unlock()
	return e
}

// removeStaleTemps deletes the temporary files an upload or a fork leaves
// in the folder's top level when the server dies before its clean-up
// (.upload-*.tmp, .fork-*.tmp). Nothing else is touched.
func (l *Library) removeStaleTemps() {
	ents, err := fs.ReadDir(l.root.FS(), ".")
	if err != nil {
		return
	}
	for _, e := range ents {
		n := e.Name()
		if e.Type().IsRegular() && strings.HasSuffix(n, ".tmp") && (strings.HasPrefix(n, ".upload-") || strings.HasPrefix(n, ".fork-")) {
			l.root.Remove(n)
		}
	}
}

// OpenFile opens a library holding only the replay at path.
func OpenFile(file string) (*Library, error) {
	if !IsReplayName(file) {
		return nil, fmt.Errorf("library: %s: not named like a replay (%s)", file, strings.Join(replayEndings(), ", "))
	}
	l, err := OpenLibrary(filepath.Dir(file))
	if err != nil {
		return nil, err
	}
	l.only = filepath.Base(file)
	if _, err := l.root.Stat(l.only); err != nil {
		l.Close()
		return nil, fmt.Errorf("library: %w", err)
	}
	return l, nil
}

// Dir is the library's folder (absolute).
func (l *Library) Dir() string { return l.dir }

// Single reports whether the library holds one replay (OpenFile).
func (l *Library) Single() bool { return l.only != "" }

// Close releases the folder (and closes its index).
func (l *Library) Close() error {
	if ix := l.Index(); ix != nil {
		ix.Close()
	}
	return l.root.Close()
}

// IsReplayName reports whether name has a replay extension: .rwd, .cfr
// or the ending of a registered stream format (source.StreamEnding). A
// file with a shared ending (a .json) is a replay only when its content
// is one (Library.listable).
func IsReplayName(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	if ext == ".rwd" || ext == ".cfr" {
		return true
	}
	e, _ := source.StreamEnding(name)
	return e != ""
}

// replayEndings are the endings IsReplayName takes, for messages.
func replayEndings() []string {
	return append([]string{".rwd"}, source.StreamEndings()...)
}

// ValidID reports whether id is a well-formed replay id: a relative,
// slash-separated path with no "." or ".." element, no hidden element,
// ending in a replay extension (IsReplayName).
func ValidID(id string) bool {
	if !fs.ValidPath(id) || id == "." || !IsReplayName(id) || strings.ContainsRune(id, '\\') {
		return false
	}
	for _, el := range strings.Split(id, "/") {
		if strings.HasPrefix(el, ".") {
			return false
		}
	}
	return true
}

// List scans the folder and returns every replay, newest first. Files
// seen before and unchanged are not read again; new or changed ones are
// summarised in parallel.
func (l *Library) List() ([]*Entry, error) {
	type found struct {
		id   string
		size int64
		mod  time.Time
	}
	var files []found
	if l.only != "" {
		fi, err := l.root.Stat(l.only)
		if err != nil {
			return nil, fmt.Errorf("library: %w", err)
		}
		files = append(files, found{l.only, fi.Size(), fi.ModTime()})
	} else {
		err := l.walkFiles(func(p string, fi fs.FileInfo) error {
			if !l.listable(p, fi.Size(), fi.ModTime()) {
				return nil // a .json that is no replay
			}
			files = append(files, found{p, fi.Size(), fi.ModTime()})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("library: %w", err)
		}
	}

	out := make([]*Entry, len(files))
	var todo []int
	l.mu.Lock()
	seen := make(map[string]bool, len(files))
	for i, f := range files {
		seen[f.id] = true
		if e, ok := l.entries[f.id]; ok && e.Size == f.size && e.ModTime.Equal(f.mod) {
			out[i] = e
			continue
		}
		todo = append(todo, i)
	}
	for id := range l.entries {
		if !seen[id] {
			delete(l.entries, id)
		}
	}
	l.mu.Unlock()

	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.NumCPU(), len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				f := files[i]
				out[i] = l.summaryOf(f.id, f.size, f.mod)
			}
		}()
	}
	for _, i := range todo {
		work <- i
	}
	close(work)
	wg.Wait()

	l.mu.Lock()
	for _, i := range todo {
		if !out[i].retry {
			l.entries[out[i].ID] = out[i]
		}
	}
	l.mu.Unlock()
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Date.Equal(out[j].Date) {
			return out[i].Date.After(out[j].Date)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// replayBytes is the size of the folder's replay files, those it lists
// (hidden files and folders, such as upload temporaries, are not
// counted).
func (l *Library) replayBytes() int64 {
	var n int64
	l.walkFiles(func(p string, fi fs.FileInfo) error {
		if l.listable(p, fi.Size(), fi.ModTime()) {
			n += fi.Size()
		}
		return nil
	})
	return n
}

// walkFiles calls fn, in lexical order, with the path (its ID) and the
// file information of every regular file under the library's folder
// whose path is a valid ID, hidden files and folders left out; an
// unreadable subfolder or file is skipped, not fatal. It returns fn's
// first error, or the error of reading the folder itself.
func (l *Library) walkFiles(fn func(p string, fi fs.FileInfo) error) error {
	return fs.WalkDir(l.root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			return nil
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() || !ValidID(p) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		return fn(p, fi)
	})
}

// listable reports whether library file id (of this size and
// modification time), named like a replay (ValidID), is one the library
// lists: any but a file with a shared ending (source.StreamEnding: a
// .json), which is listed when its content is of a registered stream
// format (a file summarized well before is, others are sniffed: a page
// asked for a notes.json summarizes it too).
func (l *Library) listable(id string, size int64, mod time.Time) bool {
	if _, shared := source.StreamEnding(id); !shared {
		return true
	}
	l.mu.Lock()
	e, ok := l.entries[id]
	l.mu.Unlock()
	if ok && e.Err == "" && e.Size == size && e.ModTime.Equal(mod) {
		return true
	}
	f, err := l.root.Open(id)
	if err != nil {
		return false
	}
	defer f.Close()
	prefix := make([]byte, source.SniffBytes)
	n, _ := io.ReadFull(f, prefix)
	_, ok = source.LookupStreamFormat(prefix[:n])
	return ok
}

// unit is what the entry's winner amount counts (rowUnit).
func (e *Entry) unit() string { return rowUnit(e.Summary.Unit, e.Game) }

// rowUnit is what a library row's winner amount counts: the unit its
// summary named, or its game's score (index.GameUnit) for a row summarised (or
// indexed) before summaries named one.
func rowUnit(unit, game string) string {
	if unit != "" {
		return unit
	}
	return index.GameUnit(game)
}

// summaryWait is how long a library listing's summary of a file that is
// decoded whole (StreamFormat.DecodeBytes) waits for room in the memory
// budget before the file is listed as not read yet (and read again at
// the next listing).
const summaryWait = 30 * time.Second

// summarize fills in e from the file without re-simulating. A file of a
// stream format that is decoded whole to be read (a Monad reference log:
// StreamFormat.DecodeBytes) has those bytes reserved in the memory
// budget first, as for opening it (Server.openStream): many big files
// summarised at once stay within the budget, waiting for each other (up
// to summaryWait).
func (l *Library) summarize(e *Entry) {
	f, err := l.root.Open(e.ID)
	if err != nil {
		e.Err = err.Error()
		return
	}
	defer f.Close()
	l.summarizeFrom(e, f)
}

// summarizeFrom is summarize of the file's bytes read from r.
func (l *Library) summarizeFrom(e *Entry, r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	prefix, _ := br.Peek(source.SniffBytes)
	if f, ok := source.LookupStreamFormat(prefix); ok && source.SummarizedByStream(f) {
		if f.DecodeBytes > 0 {
			if err := l.mem.reserveWait(f.DecodeBytes, l.summaryWait); err != nil {
				e.Format, e.Err, e.retry = source.Format(f.Name), "not read: "+err.Error(), errors.Is(err, ErrBusy)
				return
			}
			defer l.mem.release(f.DecodeBytes)
		}
		summarizeStream(e, br)
		return
	}
	sum, err := source.Summarize(br)
	if err != nil {
		e.Err, e.Game = err.Error(), gameByName(e.ID)
		return
	}
	e.Summary, e.Game = *sum, rulesetName(sum.Ruleset)
	if !sum.Created.IsZero() {
		e.Date = sum.Created
	}
}

// gameByName is the display name of the game whose official format
// owns the ending of the file name (not a shared ending: ".cfr", not
// ".json"), for a file that could not be read; "" when none does.
func gameByName(name string) string {
	ext, shared := source.StreamEnding(name)
	if ext == "" || shared {
		return ""
	}
	for _, f := range engine.Formats() {
		for _, x := range f.Exts {
			if strings.EqualFold(x, ext) {
				if g, ok := engine.GameOf(f.Name); ok {
					return g.Name
				}
			}
		}
	}
	return ""
}

// summarizeStream summarizes a file of a registered stream format
// (source.LookupStreamFormat; not a .rwd) from its frames, the game named
// by its registered name or else its ruleset id.
func summarizeStream(e *Entry, br *bufio.Reader) {
	sum, m, err := source.SummarizeStream(br)
	if err != nil {
		e.Err = err.Error()
		return
	}
	e.Summary, e.Game = *sum, rulesetName(m.Ruleset)
}

// ErrNotFound is returned for an id that names no replay of the library.
var ErrNotFound = errors.New("no such replay")

// decodeSlots bounds how many replays the process decodes at once (each
// holds a whole game's frames while it is packed); further loads wait.
var decodeSlots = make(chan struct{}, max(2, runtime.NumCPU()))
