package viewer

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestForkQuota: forks ("play on from here") count against the same
// hourly quota of new replays as uploads: past it a fork, and then an
// upload, is refused with 429 naming the limit, and no file is added.
func TestForkQuota(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "hostile.rwd"), hostileRWD(t))
	lib := openLib(t, dir)
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

// chunkedUpload starts a chunked upload (no Content-Length) of name to
// base; its body is what the test writes to the returned pipe, and its
// answer (status and body) comes on the channel.
func chunkedUpload(t *testing.T, base, name string) (*io.PipeWriter, <-chan [2]string) {
	t.Helper()
	pr, pw := io.Pipe()
	req, err := http.NewRequest("POST", base+"/api/upload?name="+name, pr)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = -1
	done := make(chan [2]string, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- [2]string{"error", err.Error()}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		pr.CloseWithError(errors.New("answered"))
		done <- [2]string{strconv.Itoa(resp.StatusCode), string(b)}
	}()
	return pw, done
}

// waitTempBytes waits until the folder's upload temporaries hold at least
// n bytes (n = 0: until there is none).
func waitTempBytes(t *testing.T, dir string, n int64) {
	t.Helper()
	for start := time.Now(); ; {
		var total int64
		files := 0
		tmps, _ := filepath.Glob(filepath.Join(dir, ".upload-*.tmp"))
		for _, p := range tmps {
			if fi, err := os.Stat(p); err == nil {
				total += fi.Size()
				files++
			}
		}
		if n > 0 && total >= n || n == 0 && files == 0 {
			return
		}
		if time.Since(start) > time.Minute {
			t.Fatalf("the upload temporaries hold %d bytes in %d files, waiting for %d", total, files, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestChunkedUploadsDiskBudget: chunked uploads (no Content-Length) are
// counted as their bytes arrive against Options.MaxUploadDisk: while one
// holds most of it, another is refused with 507 naming the limit once its
// bytes would pass it; once the first ends its bytes are free again.
func TestChunkedUploadsDiskBudget(t *testing.T) {
	dir := t.TempDir()
	lib := openLib(t, dir)
	base := serve(t, lib, Options{MaxUploadDisk: 1 << 20, ClientRate: -1})
	chunk := bytes.Repeat([]byte("x"), 700<<10)

	first, firstDone := chunkedUpload(t, base, "first.rwd")
	if _, err := first.Write(chunk); err != nil {
		t.Fatal(err)
	}
	waitTempBytes(t, dir, int64(len(chunk)))

	second, secondDone := chunkedUpload(t, base, "second.rwd")
	go func() {
		second.Write(chunk)
		second.Close()
	}()
	got := <-secondDone
	if got[0] != "507" || !strings.Contains(got[1], "the uploads in progress may take 1.0 MiB of disk together") {
		t.Errorf("an upload past the disk budget of uploads in progress: %s %s", got[0], got[1])
	}

	first.Close()
	if got := <-firstDone; got[0] != "422" {
		t.Errorf("the first upload (not a replay): %s %s", got[0], got[1])
	}
	waitTempBytes(t, dir, 0)
	third, thirdDone := chunkedUpload(t, base, "third.rwd")
	go func() {
		third.Write(chunk)
		third.Close()
	}()
	if got := <-thirdDone; got[0] != "422" {
		t.Errorf("an upload once the others ended: %s %s, want 422 (read whole, then found not to be a replay)", got[0], got[1])
	}
}
