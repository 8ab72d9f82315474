package viewer

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/viewer/index"
)

// BenchmarkLibraryFolder measures the index on a real folder of
// REWIND_BENCH_FILES replay files (default 10,000; copies of four
// conformance vectors recorded as .rwd, in subfolders of 1,000): the cold
// build (files/s), a restart's first page (the server's "/", before any
// sync: no file read) and its sync (stat only, 0 read), 1,000 files added
// (the sync that indexes them), one deleted. The folder is kept in the
// temporary folder between runs (rebuilt when absent).
func BenchmarkLibraryFolder(b *testing.B) {
	n := 10_000
	if s := os.Getenv("REWIND_BENCH_FILES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1000 {
			b.Fatalf("REWIND_BENCH_FILES=%q: want a number ≥ 1000", s)
		}
		n = v
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("rewind-library-bench-%d", n))
	var srcs [][]byte
	for _, v := range []string{"c01", "c02", "c03", "c04"} {
		srcs = append(srcs, vectorRWD(b, v))
	}
	write := func(i int) {
		sub := filepath.Join(dir, fmt.Sprintf("d%03d", i/1000))
		os.MkdirAll(sub, 0o755)
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("g%07d.rwd", i)), srcs[i%len(srcs)], 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("d%03d", (n-1)/1000), fmt.Sprintf("g%07d.rwd", n-1))); err != nil {
		os.RemoveAll(dir)
		for i := range n {
			write(i)
		}
	}
	for i := n; i < n+1000; i++ { // the added files of an earlier run
		os.Remove(filepath.Join(dir, fmt.Sprintf("d%03d", i/1000), fmt.Sprintf("g%07d.rwd", i)))
	}
	write(0) // the deleted file of an earlier run
	os.RemoveAll(filepath.Join(dir, ".rewind"))

	for b.Loop() {
		// Cold build.
		lib, err := OpenLibrary(dir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := lib.OpenIndex(); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		st, err := lib.Sync(nil)
		if err != nil || st.Read != n {
			b.Fatalf("cold sync read %d of %d: %v", st.Read, n, err)
		}
		cold := time.Since(start)
		lib.Close()

		// Restart: the first page comes from the index.
		start = time.Now()
		lib, err = OpenLibrary(dir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := lib.OpenIndex(); err != nil {
			b.Fatal(err)
		}
		srv := NewServer(lib, Options{MaxUpload: -1})
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
		first := time.Since(start)
		if rec.Code != http.StatusOK || strings.Count(rec.Body.String(), "<tr data-id=") != index.DefaultPage {
			b.Fatalf("first page: %d, %d rows", rec.Code, strings.Count(rec.Body.String(), "<tr data-id="))
		}
		pageBytes := rec.Body.Len()
		start = time.Now()
		st, err = lib.Sync(nil)
		if err != nil || st.Read != 0 || st.Files != n {
			b.Fatalf("restart sync read %d (want 0) of %d files: %v", st.Read, st.Files, err)
		}
		restartSync := time.Since(start)

		// 1,000 added, then one deleted.
		for i := n; i < n+1000; i++ {
			write(i)
		}
		start = time.Now()
		st, err = lib.Sync(nil)
		if err != nil || st.Read != 1000 {
			b.Fatalf("sync after adding read %d, want 1000: %v", st.Read, err)
		}
		added := time.Since(start)
		if r, err := lib.Index().Get(fmt.Sprintf("d%03d/g%07d.rwd", (n+999)/1000, n+999)); err != nil || r == nil {
			b.Fatalf("an added file is not indexed: %v", err)
		}
		gone := fmt.Sprintf("d%03d/g%07d.rwd", 0, 0)
		os.Remove(filepath.Join(dir, filepath.FromSlash(gone)))
		start = time.Now()
		st, err = lib.Sync(nil)
		if err != nil || st.Removed != 1 {
			b.Fatalf("sync after deleting removed %d: %v", st.Removed, err)
		}
		deleted := time.Since(start)
		if r, _ := lib.Index().Get(gone); r != nil {
			b.Fatal("a deleted file stays indexed")
		}
		fi, _ := os.Stat(lib.Index().Path())
		lib.Close()

		b.ReportMetric(float64(n)/cold.Seconds(), "cold-files/s")
		b.ReportMetric(float64(first.Milliseconds()), "restart-first-page-ms")
		b.ReportMetric(float64(pageBytes), "page-bytes")
		b.ReportMetric(float64(restartSync.Milliseconds()), "restart-sync-ms")
		b.ReportMetric(float64(added.Milliseconds()), "add-1000-sync-ms")
		b.ReportMetric(float64(deleted.Milliseconds()), "delete-1-sync-ms")
		b.ReportMetric(float64(fi.Size())/float64(n), "index-bytes/replay")

		// Back to the start for the next iteration.
		for i := n; i < n+1000; i++ {
			os.Remove(filepath.Join(dir, fmt.Sprintf("d%03d", i/1000), fmt.Sprintf("g%07d.rwd", i)))
		}
		write(0)
		os.RemoveAll(filepath.Join(dir, ".rewind"))
	}
}
