package viewer

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrtest"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/games/skyport/formats/jsn/jsntest"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
)

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{
		"a.rwd": true, "sub/b.cfr": true, "G.RWD": true,
		"../../a.rwd": false, "/etc/a.rwd": false, "a/../../b.rwd": false, "a.txt": false, "": false,
		".hidden.rwd": false, "sub/.x/a.rwd": false, `a\..\b.rwd`: false, "a//b.rwd": false,
	} {
		if got := ValidID(id); got != want {
			t.Errorf("ValidID(%q) = %v", id, got)
		}
	}
}

func get(t *testing.T, url string, header ...string) (int, string) {
	t.Helper()
	return request(t, "GET", url, nil, header...)
}

func post(t *testing.T, url string, body []byte, header ...string) (int, string) {
	t.Helper()
	return request(t, "POST", url, body, header...)
}

// request sends a request with header name/value pairs ("Host" sets the
// Host) and returns the status and body.
func request(t *testing.T, method, url string, body []byte, header ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, bytes.NewReader(body))
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestServerSafety: ids cannot leave the library (.., encoded .., absolute
// paths, symlinks out), foreign Host headers are refused, pages carry a
// CSP, and hostile names reach the HTML only escaped.
func TestServerSafety(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.rwd")
	hostileBytes := hostileRWD(t)
	write(t, secret, hostileBytes)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "hostile.rwd"), hostileBytes)
	if err := os.Symlink(secret, filepath.Join(dir, "link.rwd")); err != nil {
		t.Fatal(err)
	}
	lib := openLib(t, dir)
	base := serve(t, lib, Options{})

	for _, p := range []string{"/data/..%2fsecret.rwd", "/data/%2e%2e/secret.rwd", "/replay/..%2F..%2F" + strings.TrimPrefix(secret, "/"),
		"/data/link.rwd", "/replay/link.rwd", "/data//etc/passwd", "/static/..%2fserver.go", "/data/missing.rwd"} {
		code, body := get(t, base+p)
		if code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404\n%.200s", p, code, body)
		}
		if strings.Contains(body, "RWD") || strings.Contains(body, "package viewer") {
			t.Errorf("GET %s leaked a file", p)
		}
	}
	entries, _ := lib.List()
	for _, e := range entries {
		if e.ID == "link.rwd" {
			t.Error("the library lists a symlink that leaves the folder")
		}
	}

	if code, _ := get(t, base+"/", "Host", "evil.example:80"); code != http.StatusMisdirectedRequest {
		t.Errorf("foreign Host: %d", code)
	}
	if code, _ := get(t, base+"/", "Host", strings.Replace(strings.TrimPrefix(base, "http://"), "127.0.0.1", "localhost", 1)); code != http.StatusOK {
		t.Errorf("localhost Host: %d", code)
	}

	for _, p := range []string{"/", "/replay/hostile.rwd", "/library/rows"} {
		req, _ := http.NewRequest("GET", base+p, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("GET %s: %d", p, res.StatusCode)
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("GET %s: CSP %q", p, csp)
		}
		page := string(body)
		if strings.Contains(page, hostile) || strings.Contains(page, "<img src=x") {
			t.Errorf("GET %s: a hostile name is in the HTML unescaped", p)
		}
		if !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") && !strings.Contains(page, `\u003cscript\u003ealert(1)\u003c/script\u003e`) {
			t.Errorf("GET %s: the hostile name is not shown escaped", p)
		}
	}
}

// regzip is the gzip'd b decompressed and compressed again at level.
func regzip(t *testing.T, b []byte, level int) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, level)
	if _, err := io.Copy(zw, zr); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return out.Bytes()
}

// TestUpload: bounded, validated, never overwrites, names sanitised,
// cross-site uploads refused, off for a single-file server.
func TestUpload(t *testing.T) {
	dir := t.TempDir()
	base := serveDir(t, dir, Options{MaxUpload: 200 << 10})
	good := testutil.ReadFile(t, filepath.Join(testdata, "conformance", "c06.cfr"))
	big := testutil.ReadFile(t, filepath.Join(testdata, "conformance", "c03.cfr"))
	// Other files of other bytes (a file's identity when it is no .rwd).
	other, third := regzip(t, good, gzip.BestSpeed), regzip(t, good, 2)

	cases := []struct {
		name   string
		body   []byte
		header []string
		code   int
		want   string
	}{
		{"game.cfr", good, nil, 200, `"id":"game.cfr"`},
		{"game.cfr", other, nil, 200, `"id":"game-2.cfr"`},
		{"again.cfr", good, nil, 200, `"duplicate":true`}, // the same file: not kept twice
		{"../../../../tmp/evil name.cfr", third, nil, 200, `"id":"evil_name.cfr"`},
		{"big.cfr", big, nil, 413, "big.cfr is larger than the upload limit of 200.0 KiB"},
		{"bad.cfr", good[:len(good)/2], nil, 422, "bad.cfr is not a replay rewind can open"},
		{"junk.rwd", []byte("RWD?junk"), nil, 422, "junk.rwd is not a replay rewind can open"},
		{"empty.rwd", nil, nil, 400, "empty.rwd is empty"},
		{"notes.txt", good, nil, 400, "is not named like a replay (.rwd, "},
		{"x.cfr", good, []string{"Origin", "http://evil.example"}, 403, "another site"},
	}
	for _, c := range cases {
		code, body := post(t, base+"/api/upload?name="+urlQuery(c.name), c.body, c.header...)
		if code != c.code || !strings.Contains(body, c.want) {
			t.Errorf("upload %q: %d %s, want %d with %q", c.name, code, body, c.code, c.want)
		}
	}
	if b := testutil.ReadFile(t, filepath.Join(dir, "game.cfr")); !bytes.Equal(b, good) {
		t.Error("the first upload was changed")
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	hidden, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(names) != 3 || len(hidden) != 0 {
		t.Errorf("library holds %v (hidden %v), want the 3 good uploads and no temporary file", names, hidden)
	}
	code, body := get(t, base+"/replay/game-2.cfr")
	if code != 200 || !strings.Contains(body, "bot0_greedy") {
		t.Errorf("uploaded replay page: %d", code)
	}

	// One-file servers take no uploads.
	single, err := OpenFile(filepath.Join(dir, "game.cfr"))
	if err != nil {
		t.Fatal(err)
	}
	defer single.Close()
	sbase := serve(t, single, Options{})
	if code, body := post(t, sbase+"/api/upload?name=x.cfr", good); code != 403 || !strings.Contains(body, "uploads are off") {
		t.Errorf("single-file upload: %d %s", code, body)
	}
	if code, _ := get(t, sbase+"/replay/game-2.cfr"); code != 404 {
		t.Errorf("a single-file server serves another file of its folder: %d", code)
	}
}

func urlQuery(s string) string {
	r := strings.NewReplacer(" ", "%20", "/", "%2F", "&", "%26", "?", "%3F", "#", "%23")
	return r.Replace(s)
}

// TestLibraryPicksUpFiles: new, grown and deleted files show on the next
// listing; a replay still being written lists as incomplete and opens with
// the rounds it has.
func TestLibraryPicksUpFiles(t *testing.T) {
	dir := t.TempDir()
	lib := openLib(t, dir)
	if es, err := lib.List(); err != nil || len(es) != 0 {
		t.Fatalf("empty library: %v %v", es, err)
	}
	full := vectorRWD(t, "c03")
	p := filepath.Join(dir, "live.rwd")
	write(t, p, full[:len(full)/2])
	es, _ := lib.List()
	if len(es) != 1 || es[0].Complete || es[0].Rounds == 0 || es[0].Rounds >= 500 {
		t.Fatalf("half-written replay listed as %+v", es)
	}
	if p := packLibFile(t, lib, "live.rwd"); p.Warning == "" || len(p.Frames) < 10 {
		t.Errorf("half-written replay: %d frames, warning %q", len(p.Frames), p.Warning)
	}
	write(t, p, full)
	es, _ = lib.List()
	if len(es) != 1 || !es[0].Complete || es[0].Rounds != 500 || es[0].Winner == 0 {
		t.Fatalf("finished replay listed as %+v", es[0])
	}
	if p := packLibFile(t, lib, "live.rwd"); len(p.Frames) != 501 || p.Warning != "" {
		t.Fatalf("finished replay: %d frames, warning %q", len(p.Frames), p.Warning)
	}
	os.Remove(p)
	if es, _ = lib.List(); len(es) != 0 {
		t.Errorf("deleted replay still listed")
	}
}

// TestStaleTempsRemoved: temporary upload and fork files a dead server
// left behind are removed when the library opens; other files stay.
func TestStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{".upload-abc.tmp", ".fork-def.tmp", "keep.tmp", "game.rwd", ".upload-x.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	openLib(t, dir)
	for n, want := range map[string]bool{".upload-abc.tmp": false, ".fork-def.tmp": false, "keep.tmp": true, "game.rwd": true, ".upload-x.txt": true} {
		if _, err := os.Stat(filepath.Join(dir, n)); (err == nil) != want {
			t.Errorf("%s: present %v, want %v", n, err == nil, want)
		}
	}
}

// TestConcurrentListingsShareSummaries: six listings at once of a folder
// with one new replay read it once.
func TestConcurrentListingsShareSummaries(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "c03.cfr"), testutil.ReadFile(t, filepath.Join(testdata, "conformance", "c03.cfr")), 0o644); err != nil {
		t.Fatal(err)
	}
	lib := openLib(t, dir)
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			es, err := lib.List()
			if err != nil || len(es) != 1 || es[0].Rounds != 500 {
				t.Errorf("list: %v %v", err, es)
			}
		}()
	}
	wg.Wait()
	lib.mu.Lock()
	n := lib.summarized
	lib.mu.Unlock()
	if n != 1 {
		t.Fatalf("the file was summarised %d times", n)
	}
}

// packLibFile packs library file id as its page does (PackStream over
// source.NewInferredStream).
func packLibFile(t *testing.T, lib *Library, id string) *Packed {
	t.Helper()
	f, err := lib.root.Open(id)
	if err != nil {
		t.Fatal(err)
	}
	s, err := source.NewInferredStream(f, f)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, err := PackStream(s, StreamLimits{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// cfrHead is the first frames of the official replay at path, gzip'd
// (cfr.NewEncoder, as official replays are) or as plain JSON
// (cfr.NewJSONEncoder).
func cfrHead(tb testing.TB, path string, frames int, gzipped bool) []byte {
	tb.Helper()
	d := cfrtest.Open(tb, path)
	var out bytes.Buffer
	newEncoder := cfr.NewJSONEncoder
	if gzipped {
		newEncoder = cfr.NewEncoder
	}
	enc, err := newEncoder(&out, d.Header())
	if err != nil {
		tb.Fatal(err)
	}
	var f colorfight2.Frame
	for range frames {
		if err := d.Next(&f); err != nil {
			tb.Fatal(err)
		}
		if err := enc.WriteFrame(&f); err != nil {
			tb.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		tb.Fatal(err)
	}
	return out.Bytes()
}

// fuzzLimits bound what FuzzLoad packs: smaller than the defaults, so an
// input costs little, and large enough for its seeds.
var fuzzLimits = StreamLimits{MaxFrames: 1000, MaxBytes: 8 << 20, MaxText: 1 << 20}

// FuzzLoad feeds arbitrary bytes through the viewer's readers — the
// analysis's (source.NewStream) and the page's (source.NewInferredStream):
// a .rwd of any codec re-simulated, every registered stream format, a
// .cfr with its commands inferred — into PackStream and EncodeStream:
// they fail cleanly, never panic, and agree (the same error, or
// EncodeStream's JSON is PackStream's). Seeds: a played .rwd of every
// game with built-in bots in its own codec and in the text codec, c06.cfr's
// first frames gzip'd and as plain JSON, a Monad
// reference log, a Skyport observer recording.
func FuzzLoad(f *testing.F) {
	for _, id := range engine.IDs() {
		if info, _ := engine.About(id); len(info.Bots) == 0 {
			continue // a test's game (toygame), played by no built-in
		}
		f.Add(playedRWD(f, id, 12, false))
		f.Add(playedRWD(f, id, 12, true))
	}
	// c06's first frames rather than its 200: a seed the fuzzer can
	// mutate, and minimise, quickly.
	c06 := filepath.Join(testdata, "conformance", "c06.cfr")
	f.Add(cfrHead(f, c06, 4, true))
	f.Add(cfrHead(f, c06, 4, false))
	f.Add(testutil.ReadFile(f, filepath.Join(testdata, "monad", "official", "m05.mp.gz")))
	f.Add(jsntest.Recording())
	f.Add([]byte(`[{"turn":0}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, open := range []func(io.Reader, io.Closer) (engine.Stream, error){source.NewStream, source.NewInferredStream} {
			s, err := open(bytes.NewReader(data), nil)
			if err != nil {
				continue
			}
			p, perr := PackStream(s, fuzzLimits)
			s.Close()
			s, err = open(bytes.NewReader(data), nil)
			if err != nil {
				t.Fatalf("opens once, not twice: %v", err)
			}
			gz, err := EncodeStream(s, fuzzLimits)
			s.Close()
			if perr != nil || err != nil {
				if perr == nil || err == nil || err.Error() != perr.Error() {
					t.Fatalf("PackStream: %v; EncodeStream: %v", perr, err)
				}
				continue
			}
			want, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			if got := testutil.Gunzip(t, gz); !bytes.Equal(got, want) {
				t.Fatalf("EncodeStream's JSON is not PackStream's:\n%.300s\n%.300s", got, want)
			}
		}
	})
}
