package main

import (
	"encoding/json"
	"github.com/rewind-game/rewind/internal/testutil"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestServeListsNewFileAtOnce: a replay copied into a served folder is in
// the library's list within a second, noticed through the file system's
// notifications: the folder's walks (every followEvery where there are
// none, every followRescan as a fallback) are set an hour apart here, so
// only a notification can list it. The wait is on the list, not a sleep.
func TestServeListsNewFileAtOnce(t *testing.T) {
	src, dir := t.TempDir(), t.TempDir()
	mustRunCLI(t, "tournament", "--bot", "greedy", "--bot", "raider", "--games", "2", "--turns", "200", "--dir", src)
	copyFile(t, filepath.Join(src, "game-0000.rwd"), filepath.Join(dir, "game-0000.rwd"))
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	every, rescan := followEvery, followRescan
	followEvery, followRescan = time.Hour, time.Hour
	t.Cleanup(func() { followEvery, followRescan = every, rescan })

	base := serveForTest(t, "serve "+dir, &serveOptions{dir: dir, stderr: io.Discard}, runServe)
	// listed waits until the library's list holds id, and says how long
	// that took (a safety net of 20 s fails the test).
	listed := func(id string) time.Duration {
		t.Helper()
		start := time.Now()
		for time.Since(start) < 20*time.Second {
			res, err := http.Get(base + "/api/library")
			if err != nil {
				t.Fatal(err)
			}
			var page struct {
				Rows []struct {
					ID string `json:"id"`
				} `json:"rows"`
			}
			err = json.NewDecoder(res.Body).Decode(&page)
			res.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range page.Rows {
				if r.ID == id {
					return time.Since(start)
				}
			}
		}
		t.Fatalf("%s is not listed after 20 s", id)
		return 0
	}
	listed("game-0000.rwd")
	copyFile(t, filepath.Join(src, "game-0001.rwd"), filepath.Join(dir, "new.rwd"))
	d := listed("new.rwd")
	t.Logf("new.rwd listed after %v", d)
	// In a sub-folder, and one made after serve started.
	copyFile(t, filepath.Join(src, "game-0001.rwd"), filepath.Join(dir, "sub", "b.rwd"))
	listed("sub/b.rwd")
	if err := os.MkdirAll(filepath.Join(dir, "later", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(src, "game-0001.rwd"), filepath.Join(dir, "later", "deeper", "c.rwd"))
	listed("later/deeper/c.rwd")
	if d > time.Second {
		t.Errorf("new.rwd listed after %v, want within 1 s", d)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b := testutil.ReadFile(t, from)
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
