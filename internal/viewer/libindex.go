package viewer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/rewind-game/rewind/internal/viewer/index"
)

// SyncStats says what one Sync did.
type SyncStats struct {
	Files   int // replay files in the folder
	Read    int // new or changed files read and summarised
	Removed int // index rows whose file is gone
}

// syncBatch is how many summaries go into the index in one transaction.
const syncBatch = 500

// UseIndex makes the library keep ix, the index of its folder, and list
// through it (Server's library pages are then indexed queries). Call
// Sync to bring it up to date with the folder.
func (l *Library) UseIndex(ix *index.Index) {
	l.mu.Lock()
	l.ix = ix
	l.mu.Unlock()
}

// Index returns the library's index, nil when it has none.
func (l *Library) Index() *index.Index {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ix
}

// Sync brings the library's index up to date with its folder: it walks
// the folder (stat only) beside the index's rows in the same order
// (index.WalkStamps), reads and summarises just the files that are new
// or whose size or modification time changed (in parallel, as they are
// found), and removes the rows of files that are gone. It holds a
// bounded number of rows and files at a time, whatever the folder's
// size. progress, if set, is called (serialized) after each file read.
// Sync calls are serialised.
func (l *Library) Sync(progress func()) (SyncStats, error) {
	ix := l.Index()
	if ix == nil {
		return SyncStats{}, fmt.Errorf("library %s: no index", l.dir)
	}
	l.syncMu.Lock()
	defer l.syncMu.Unlock()
	cur, err := ix.WalkStamps()
	if err != nil {
		return SyncStats{}, err
	}
	defer cur.Close()
	st := SyncStats{}
	r := l.newReader(ix, progress)
	var gone []string
	var gerr error
	drop := func(p string) {
		gone = append(gone, p)
		if len(gone) >= syncBatch && gerr == nil {
			gerr = ix.Delete(gone)
			st.Removed += len(gone)
			gone = gone[:0]
		}
	}
	more := cur.Next()
	err = l.walkFiles(func(p string, fi fs.FileInfo) error {
		for more && index.WalkOrder(cur.Path(), p) < 0 {
			drop(cur.Path())
			more = cur.Next()
		}
		known := more && cur.Path() == p
		var k index.Stamp
		if known {
			k = cur.Stamp()
			more = cur.Next()
		}
		if known && k.Size == fi.Size() && k.ModTime == fi.ModTime().UnixNano() {
			st.Files++
			return nil
		}
		if !l.listable(p, fi.Size(), fi.ModTime()) {
			if known {
				drop(p)
			}
			return nil
		}
		st.Files++
		r.add(p, fi.Size(), fi.ModTime())
		return nil
	})
	for ; err == nil && more; more = cur.Next() {
		drop(cur.Path())
	}
	if err == nil {
		err = cur.Err()
	}
	read, perr := r.wait()
	st.Read = read
	if err != nil {
		return st, fmt.Errorf("library: %w", err)
	}
	if gerr == nil {
		gerr = ix.Delete(gone)
		st.Removed += len(gone)
	}
	if gerr != nil {
		return st, gerr
	}
	if !ix.StandingsFresh() {
		// Files that came out of game order: the standings are
		// counted again, in the background (Standings answers the
		// stored ones meanwhile).
		ix.RecountInBackground()
	}
	return st, perr
}

// SyncPaths brings the index's rows of paths (slash-separated, in the
// folder) up to date: each that is a listable file is read when new or
// changed, each indexed one that is gone is removed. A path that is a
// folder, or is gone and was not indexed (a folder removed, perhaps),
// has the whole folder synced (Sync). What file-system notifications
// name is synced this way.
func (l *Library) SyncPaths(paths []string) error {
	ix := l.Index()
	if ix == nil {
		return fmt.Errorf("library %s: no index", l.dir)
	}
	full := false
	func() {
		l.syncMu.Lock()
		defer l.syncMu.Unlock()
		r := l.newReader(ix, nil)
		var gone []string
		for _, p := range paths {
			fi, err := l.root.Stat(p)
			if err == nil && fi.IsDir() {
				full = true
				continue
			}
			row, gerr := ix.Get(p)
			if gerr != nil {
				full = true
				continue
			}
			if err != nil || !fi.Mode().IsRegular() || !ValidID(p) {
				if row != nil {
					gone = append(gone, p)
				} else if errors.Is(err, fs.ErrNotExist) {
					full = true
				}
				continue
			}
			if row != nil && row.Size == fi.Size() && row.ModTime.UnixNano() == fi.ModTime().UnixNano() {
				continue
			}
			if !l.listable(p, fi.Size(), fi.ModTime()) {
				if row != nil {
					gone = append(gone, p)
				}
				continue
			}
			r.add(p, fi.Size(), fi.ModTime())
		}
		if _, err := r.wait(); err != nil {
			full = true
		}
		if err := ix.Delete(gone); err != nil {
			full = true
		}
	}()
	if full {
		_, err := l.Sync(nil)
		return err
	}
	return nil
}

// reader summarises files in parallel as they are added and puts their
// rows into the index in batches of syncBatch.
type reader struct {
	work     chan found
	done     chan struct{}
	read     int
	err      error
	progress func()
}

type found struct {
	id   string
	size int64
	mod  time.Time
}

func (l *Library) newReader(ix *index.Index, progress func()) *reader {
	r := &reader{work: make(chan found), done: make(chan struct{}), progress: progress}
	out := make(chan *index.Replay)
	var wg sync.WaitGroup
	for range max(1, runtime.NumCPU()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range r.work {
				e := &Entry{ID: f.id, Size: f.size, ModTime: f.mod, Date: f.mod}
				l.summarizeHashed(e)
				if e.retry {
					out <- nil // not read for want of memory: next time
					continue
				}
				out <- indexRow(e)
			}
		}()
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	go func() {
		defer close(r.done)
		var batch []*index.Replay
		for row := range out {
			if r.progress != nil {
				r.progress()
			}
			if row == nil {
				continue
			}
			r.read++
			batch = append(batch, row)
			if len(batch) >= syncBatch && r.err == nil {
				r.err = ix.Put(batch)
				batch = batch[:0]
			}
		}
		if r.err == nil {
			r.err = ix.Put(batch)
		}
	}()
	return r
}

func (r *reader) add(id string, size int64, mod time.Time) { r.work <- found{id, size, mod} }

// wait ends the reading and returns how many files were read.
func (r *reader) wait() (int, error) {
	close(r.work)
	<-r.done
	return r.read, r.err
}

// summarizeHashed is summarize, with e.Hash the SHA-256 of the file's
// bytes (read once: what the summary does not read is read after it).
func (l *Library) summarizeHashed(e *Entry) {
	f, err := l.root.Open(e.ID)
	if err != nil {
		e.Err = err.Error()
		return
	}
	defer f.Close()
	h := sha256.New()
	tee := io.TeeReader(io.LimitReader(f, e.Size), h)
	l.summarizeFrom(e, tee)
	if e.retry {
		return
	}
	io.Copy(io.Discard, tee)
	e.Hash = hex.EncodeToString(h.Sum(nil))
}

// Identity identifies the game e holds (index.Replay.Content): its
// content hash (source.Summary.Content), else the hash of its bytes.
func (e *Entry) Identity() string {
	if e.Content != "" {
		return e.Content
	}
	return e.Hash
}

// indexRow is the index's row of a summarised entry.
func indexRow(e *Entry) *index.Replay {
	r := &index.Replay{Path: e.ID, Size: e.Size, ModTime: e.ModTime, Hash: e.Hash, Content: e.Identity(), Game: e.Game, Format: string(e.Format),
		Rounds: e.Rounds, MaxTurn: e.MaxTurn, Complete: e.Complete, Created: e.Created, Date: e.Date,
		Parent: e.Parent, Import: e.Import, Err: e.Err, Unit: e.Summary.Unit}
	switch {
	case e.Err != "":
		r.Status = "cannot be opened: " + e.Err
	case !e.Complete || e.EndedEarly():
		r.Status = e.Status()
	}
	for _, p := range e.Players {
		s := index.Seat{UID: p.UID, Name: p.Name, Bot: p.Bot, Rank: p.Rank, Score: p.Score}
		r.Seats = append(r.Seats, s)
		if p.UID == e.Winner && e.Winner != 0 {
			r.Winner, r.WinnerBot, r.WinnerScore = p.Name, s.Key(), e.WinnerScore
		}
	}
	return r
}

// OpenIndex opens the index of the library's folder (DIR/.rewind/index.db)
// and makes the library list through it (UseIndex). warn is non-nil when a
// damaged or foreign index was set aside and rebuilt; an index from a
// newer rewind is refused (index.ErrNewerSchema) and left as it is.
func (l *Library) OpenIndex() (warn error, err error) {
	return l.openIndex(index.Open)
}

// OpenIndexChecked is OpenIndex reading the whole index file to check it
// (index.OpenChecked): what `rewind index` does.
func (l *Library) OpenIndexChecked() (warn error, err error) {
	return l.openIndex(index.OpenChecked)
}

func (l *Library) openIndex(open func(string) (*index.Index, error, error)) (warn error, err error) {
	if l.only != "" {
		return nil, fmt.Errorf("library: one replay has no index")
	}
	ix, warn, err := open(l.dir)
	if err != nil {
		return nil, err
	}
	l.UseIndex(ix)
	return warn, nil
}

// Follow keeps the index up to date until ctx ends. It syncs the folder
// (Sync), then follows the file system's notifications (fsnotify: one
// watch per folder, hidden ones left out) and syncs the files they name
// (SyncPaths) a moment after they change — within followSettle, a file
// that keeps changing at most every followRepeat — with a whole Sync every
// rescan as a fallback for what notifications miss (a network file
// system, an overflow). Idle, it does nothing. Where notifications cannot
// be had (no inotify, too many folders to watch), it syncs every `every`,
// or the walk's time when that is longer, so that a large folder's walks
// take at most half a core. logf, if set, reports what failed.
func (l *Library) Follow(ctx context.Context, every, rescan time.Duration, logf func(format string, args ...any)) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	w, err := fsnotify.NewWatcher()
	if err == nil {
		defer w.Close()
		err = l.watchTree(w, ".")
	}
	if err != nil {
		logf("library index: no file-system notifications (%v); looking at the folder every %v", err, every)
		l.poll(ctx, every, logf)
		return
	}
	if _, err := l.Sync(nil); err != nil {
		logf("library index: %v", err)
	}
	rescanT := time.NewTicker(rescan)
	defer rescanT.Stop()
	pending := map[string]bool{}
	recent := map[string]time.Time{} // paths synced in the last followRepeat
	var settle *time.Timer
	var settleC <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-rescanT.C:
			if _, err := l.Sync(nil); err != nil {
				logf("library index: %v", err)
			}
		case err := <-w.Errors:
			logf("library index: notifications: %v; syncing the folder", err)
			if _, err := l.Sync(nil); err != nil {
				logf("library index: %v", err)
			}
		case ev, ok := <-w.Events:
			if !ok {
				l.poll(ctx, every, logf)
				return
			}
			rel, err := filepath.Rel(l.dir, ev.Name)
			if err != nil || rel == "." || hiddenPath(rel) {
				continue
			}
			rel = filepath.ToSlash(rel)
			if ev.Has(fsnotify.Create) {
				if fi, err := l.root.Stat(rel); err == nil && fi.IsDir() {
					if err := l.watchTree(w, rel); err != nil {
						logf("library index: %v", err)
					}
				}
			}
			pending[rel] = true
			if settleC == nil {
				settle = time.NewTimer(followSettle)
				settleC = settle.C
			}
		case now := <-settleC:
			settleC = nil
			var paths []string
			var later time.Duration
			for p := range pending {
				if t, ok := recent[p]; ok && now.Sub(t) < followRepeat {
					later = max(later, followRepeat-now.Sub(t))
					continue
				}
				paths = append(paths, p)
				delete(pending, p)
				recent[p] = now
			}
			for p, t := range recent {
				if now.Sub(t) >= followRepeat {
					delete(recent, p)
				}
			}
			if len(pending) > 0 {
				settle = time.NewTimer(later)
				settleC = settle.C
			}
			slices.Sort(paths)
			if err := l.SyncPaths(paths); err != nil {
				logf("library index: %v", err)
			}
		}
	}
}

// followSettle is how long after a notification Follow syncs what it
// named (the notifications of one copy gathered); followRepeat how often
// at most a file that keeps changing (a game being recorded) is read.
// rescan is serve's whole Sync (followRescan in cmd/rewind).
const (
	followSettle = 100 * time.Millisecond
	followRepeat = 2 * time.Second
)

// hiddenPath reports whether a path in the folder (OS-separated) is in a
// hidden folder or is hidden itself (a name starting with "."), as Sync
// leaves them out.
func hiddenPath(rel string) bool {
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.HasPrefix(part, ".") && part != "." {
			return true
		}
	}
	return false
}

// watchTree watches the folder dir (slash-separated, in the library) and
// every folder under it, hidden ones left out.
func (l *Library) watchTree(w *fsnotify.Watcher, dir string) error {
	return fs.WalkDir(l.root.FS(), dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		if err := w.Add(filepath.Join(l.dir, filepath.FromSlash(p))); err != nil {
			return fmt.Errorf("watch %s: %w", p, err)
		}
		return nil
	})
}

// poll is Follow without notifications: a Sync, then a pause of every,
// or of the walk's time when that is longer.
func (l *Library) poll(ctx context.Context, every time.Duration, logf func(format string, args ...any)) {
	for {
		start := time.Now()
		st, err := l.Sync(nil)
		if err != nil {
			logf("library index: %v", err)
		}
		// The pause follows the walk, not the reading of new files.
		walk := time.Since(start)
		if st.Read > 0 {
			walk = 0
		}
		t := time.NewTimer(max(every, walk))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}
