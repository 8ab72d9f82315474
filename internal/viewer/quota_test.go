package viewer

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForkQuota: forks ("play on from here") count against the same
// hourly quota of new replays as uploads: past it a fork, and then an
// upload, is refused with 429 naming the limit, and no file is added.
func TestForkQuota(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "hostile.rwd"), hostileRWD(t))
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serve(t, lib, Options{MaxUploadsPerHour: 2, ClientRate: -1})
	const limit = "at most 2 new replays (uploads and forks) an hour"
	for k := range 3 {
		code, body := post(t, base+"/api/fork?id=hostile.rwd&turn=30", nil)
		if want := k < 2; want != (code == http.StatusOK) {
			t.Errorf("fork %d: %d %s", k+1, code, body)
		}
		if k == 2 && (code != http.StatusTooManyRequests || !strings.Contains(body, limit)) {
			t.Errorf("fork past the quota: %d %s, want 429 with %q", code, body, limit)
		}
	}
	if code, body := post(t, base+"/api/upload?name=one.rwd", hostileRWD(t)); code != http.StatusTooManyRequests || !strings.Contains(body, limit) {
		t.Errorf("upload after two forks: %d %s, want 429 with %q", code, body, limit)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	if len(names) != 3 {
		t.Errorf("the folder holds %v: want the replay and its two forks", names)
	}
}
