package viewer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"time"

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
// the folder (stat only), reads and summarises just the files that are
// new or whose size or modification time changed (in parallel), and
// removes the rows of files that are gone. progress, if set, is called
// (serialized) after each file read. Sync calls are serialised.
func (l *Library) Sync(progress func()) (SyncStats, error) {
	ix := l.Index()
	if ix == nil {
		return SyncStats{}, fmt.Errorf("library %s: no index", l.dir)
	}
	l.syncMu.Lock()
	defer l.syncMu.Unlock()
	known, err := ix.Stamps()
	if err != nil {
		return SyncStats{}, err
	}
	type found struct {
		id   string
		size int64
		mod  time.Time
	}
	var todo []found
	st := SyncStats{}
	seen := make(map[string]bool, len(known))
	err = fs.WalkDir(l.root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
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
		k, ok := known[p]
		if ok && k.Size == fi.Size() && k.ModTime == fi.ModTime().UnixNano() {
			seen[p] = true
			st.Files++
			return nil
		}
		if !l.listable(p, fi.Size(), fi.ModTime()) {
			return nil
		}
		seen[p] = true
		st.Files++
		todo = append(todo, found{p, fi.Size(), fi.ModTime()})
		return nil
	})
	if err != nil {
		return st, fmt.Errorf("library: %w", err)
	}
	var gone []string
	for p := range known {
		if !seen[p] {
			gone = append(gone, p)
		}
	}
	if err := ix.Delete(gone); err != nil {
		return st, err
	}
	st.Removed = len(gone)

	work := make(chan found)
	out := make(chan *index.Replay)
	var wg sync.WaitGroup
	for range max(1, min(runtime.NumCPU(), len(todo))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
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
		for _, f := range todo {
			work <- f
		}
		close(work)
		wg.Wait()
		close(out)
	}()
	var batch []*index.Replay
	var perr error
	for r := range out {
		if progress != nil {
			progress()
		}
		if r == nil {
			continue
		}
		st.Read++
		batch = append(batch, r)
		if len(batch) >= syncBatch && perr == nil {
			perr = ix.Put(batch)
			batch = batch[:0]
		}
	}
	if perr == nil {
		perr = ix.Put(batch)
	}
	return st, perr
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

// Follow keeps the index up to date until ctx ends: a Sync (a walk of the
// folder, stat only, reading just new or changed files), then a pause of
// `every`, or of the walk's time when that is longer, so that a large
// folder's walks take at most half a core. logf, if set,
// reports the syncs that failed.
func (l *Library) Follow(ctx context.Context, every time.Duration, logf func(format string, args ...any)) {
	for {
		start := time.Now()
		st, err := l.Sync(nil)
		if err != nil && logf != nil {
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
