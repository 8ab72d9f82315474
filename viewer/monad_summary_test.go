package viewer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// logFolder is a library folder of n Monad reference logs (copies of the
// testdata's m05.replay.json and m06.mp.gz) with a memory budget of
// budget bytes.
func logFolder(t *testing.T, n int, budget int64) *Library {
	t.Helper()
	dir := t.TempDir()
	logs := [][2]string{{"m05.replay.json", ".json"}, {"m06.mp.gz", ".mp.gz"}}
	for i := range n {
		l := logs[i%2]
		write(t, filepath.Join(dir, fmt.Sprintf("log%02d%s", i, l[1])), officialLog(t, l[0]))
	}
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	lib.setBudget(newBudget(budget))
	return lib
}

// checkLogEntry fails unless e is a Monad log summarised whole.
func checkLogEntry(t *testing.T, e *Entry) {
	t.Helper()
	if e.Game != GameMonad || e.Err != "" || !e.Complete || e.Rounds < 100 || e.Winner < 1 {
		t.Errorf("%s summarised as game %q, error %q, complete %v, %d turns, winner %d", e.ID, e.Game, e.Err, e.Complete, e.Rounds, e.Winner)
	}
}

// TestMonadSummaryBudget: summarising a reference log (decoded whole)
// reserves monadLogDecodeBytes in the memory budget, as opening it does,
// so many logs summarised at once never hold more than the budget: with
// room for two decodes, eight summaries started together all finish, and
// the budget's peak stays within it.
func TestMonadSummaryBudget(t *testing.T) {
	const n = 8
	limit := int64(2*monadLogDecodeBytes + monadLogDecodeBytes/2)
	lib := logFolder(t, n, limit)
	ents, _ := os.ReadDir(lib.Dir())
	out := make([]*Entry, len(ents))
	var wg sync.WaitGroup
	for i, de := range ents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fi, err := de.Info()
			if err != nil {
				t.Error(err)
				return
			}
			out[i] = lib.summaryOf(de.Name(), fi.Size(), fi.ModTime())
		}()
	}
	wg.Wait()
	for _, e := range out {
		if e != nil {
			checkLogEntry(t, e)
		}
	}
	used, peak, refused := lib.mem.stats()
	t.Logf("%d summaries at once: budget peak %d MiB of %d MiB, %d reservations waited", n, peak>>20, limit>>20, refused)
	if used != 0 || peak < monadLogDecodeBytes || peak > limit {
		t.Errorf("budget after the summaries: %d bytes used, peak %d (want 0, and a peak from %d to %d)", used, peak, monadLogDecodeBytes, limit)
	}

	// A listing summarises in parallel within the same bound.
	lib = logFolder(t, n, limit)
	entries, err := lib.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != n {
		t.Fatalf("listed %d of %d logs", len(entries), n)
	}
	for _, e := range entries {
		checkLogEntry(t, e)
	}
	if used, peak, _ := lib.mem.stats(); used != 0 || peak < monadLogDecodeBytes || peak > limit {
		t.Errorf("budget after the listing: %d bytes used, peak %d", used, peak)
	}
}

// TestMonadSummaryWaits: a summary that does not fit beside what others
// hold waits for them to release (holding nothing meanwhile) and then
// reads the log; past summaryWait it gives up, the row saying why, and
// the next listing reads the file again; a budget smaller than a log's
// decode lists the log with that error.
func TestMonadSummaryWaits(t *testing.T) {
	limit := int64(monadLogDecodeBytes + monadLogDecodeBytes/2)
	lib := logFolder(t, 1, limit)
	lib.mem.charge(limit) // others hold the whole budget
	done := make(chan []*Entry)
	go func() {
		entries, err := lib.List()
		if err != nil {
			t.Error(err)
		}
		done <- entries
	}()
	deadline := time.Now().Add(2 * time.Minute) // a safety net only
	for {
		lib.mem.mu.Lock()
		waiting, used := lib.mem.waiting, lib.mem.used
		lib.mem.mu.Unlock()
		if used != limit {
			t.Fatalf("the budget holds %d bytes while the summary waits, want %d", used, limit)
		}
		if waiting == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the summary never waited for room")
		}
		time.Sleep(time.Millisecond)
	}
	lib.mem.release(limit)
	entries := <-done
	if len(entries) != 1 {
		t.Fatalf("listed %d entries", len(entries))
	}
	checkLogEntry(t, entries[0])

	// Giving up: the row says why and is not kept.
	lib = logFolder(t, 1, limit)
	lib.summaryWait = 0
	lib.mem.charge(limit)
	entries, err := lib.List()
	if err != nil || len(entries) != 1 {
		t.Fatalf("listing: %v, %d entries", err, len(entries))
	}
	if e := entries[0]; e.Game != GameMonad || !strings.Contains(e.Err, "memory budget is in use") {
		t.Errorf("a summary with no room: game %q, error %q", e.Game, e.Err)
	}
	lib.mem.release(limit)
	entries, err = lib.List()
	if err != nil || len(entries) != 1 {
		t.Fatalf("listing again: %v, %d entries", err, len(entries))
	}
	checkLogEntry(t, entries[0])

	// A budget a log's decode does not fit in.
	lib = logFolder(t, 1, monadLogDecodeBytes-1)
	entries, err = lib.List()
	if err != nil || len(entries) != 1 {
		t.Fatalf("listing: %v, %d entries", err, len(entries))
	}
	if e := entries[0]; !strings.Contains(e.Err, "more than the viewer's whole memory budget") {
		t.Errorf("a log over the whole budget: error %q", e.Err)
	}
}
