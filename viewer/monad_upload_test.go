package viewer

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// officialLog reads one of the reference engine's logs in testdata.
func officialLog(t *testing.T, name string) []byte {
	t.Helper()
	return readFile(t, filepath.Join(testdata, "monad", "official", name))
}

// TestMonadUploadLogs: the reference engine's own logs (replay.json,
// .mp.gz) are taken as uploads, checked by their content as the library's
// files are: a valid one is kept byte for byte, listed as a Monad game and
// opens; a corrupt one, or a .json that is no log, is refused saying what
// is wrong; a .cfr sent under a .json name (or a log under a .rwd name) is
// kept under the extension of what it holds, and the answer says so.
func TestMonadUploadLogs(t *testing.T) {
	dir := t.TempDir()
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serveWith(t, lib, Options{MaxUpload: 4 << 20}).base
	jsonLog, mpLog := officialLog(t, "m05.replay.json"), officialLog(t, "m06.mp.gz")
	cfr := readFile(t, filepath.Join(testdata, "conformance", "c06.cfr"))
	damaged := bytes.Clone(mpLog)
	damaged[len(damaged)-6] ^= 0xff // the gzip trailer's checksum

	cases := []struct {
		name string
		body []byte
		code int
		want string // in the answer
		note string // in the answer's note
	}{
		{"replay.json", jsonLog, 200, `"id":"replay.json"`, ""},
		{"m06.mp.gz", mpLog, 200, `"id":"m06.mp.gz"`, ""},
		{"m06.mp.gz", mpLog, 200, `"id":"m06-2.mp.gz"`, ""},
		{"cut.json", jsonLog[:len(jsonLog)/2], 422, "cut.json is not a replay rewind can open", ""},
		{"bad.mp.gz", damaged, 422, "bad.mp.gz is not a replay rewind can open: damaged gzip stream", ""},
		{"results.json", []byte(`{"wins": 3}`), 422, "must be a log the Monad reference engine wrote", ""},
		{"game.json", cfr, 200, `"id":"game.cfr"`, "game.json holds a ColorfightII .cfr replay, so it is kept as game.cfr"},
		{"log.rwd", jsonLog, 200, `"id":"log.json"`, "log.rwd holds a Monad reference log (JSON), so it is kept as log.json"},
		{".mp.gz", mpLog, 400, "not a usable file name", ""},
	}
	for _, c := range cases {
		code, body := post(t, base+"/api/upload?name="+c.name, c.body)
		t.Logf("%s: %d %s", c.name, code, body)
		var res uploadResult
		json.Unmarshal([]byte(body), &res)
		if code != c.code || !strings.Contains(body, c.want) || res.Note != c.note {
			t.Errorf("upload %q: %d %s, want %d with %q, note %q", c.name, code, body, c.code, c.want, c.note)
		}
	}
	// The cut log's error says where the decode stopped.
	if _, body := post(t, base+"/api/upload?name=cut2.json", jsonLog[:len(jsonLog)/2]); !strings.Contains(body, "turn") {
		t.Errorf("a cut log's error does not name the turn: %s", body)
	}

	for name, want := range map[string][]byte{"replay.json": jsonLog, "m06.mp.gz": mpLog, "m06-2.mp.gz": mpLog, "game.cfr": cfr, "log.json": jsonLog} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(b, want) {
			t.Errorf("%s kept: %v (%d bytes, want %d)", name, err, len(b), len(want))
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 5 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("the folder holds %v, want the 5 kept uploads only", names)
	}

	entries, err := lib.List()
	if err != nil {
		t.Fatal(err)
	}
	games := map[string]string{}
	for _, e := range entries {
		games[e.ID] = e.Game
		if e.Err != "" || !e.Complete {
			t.Errorf("%s listed with error %q, complete %v", e.ID, e.Err, e.Complete)
		}
	}
	want := map[string]string{"replay.json": GameMonad, "m06.mp.gz": GameMonad, "m06-2.mp.gz": GameMonad, "log.json": GameMonad, "game.cfr": GameColorfightII}
	for id, g := range want {
		if games[id] != g {
			t.Errorf("library lists %s as %q, want %q (all: %v)", id, games[id], g, games)
		}
	}
	for _, id := range []string{"replay.json", "m06-2.mp.gz"} {
		if code, body := get(t, base+"/replay/"+id); code != 200 || !strings.Contains(body, `id="monad"`) {
			t.Errorf("/replay/%s: %d", id, code)
		}
	}
}

// TestMonadUploadQuota: the folder quota (Options.MaxFolderBytes) counts
// the Monad logs the library lists, and not a .json that is no log.
func TestMonadUploadQuota(t *testing.T) {
	dir := t.TempDir()
	jsonLog, mpLog := officialLog(t, "m05.replay.json"), officialLog(t, "m06.mp.gz")
	// A .json of the folder that is no log, as large as the logs: were
	// it counted, the first upload would be refused.
	write(t, filepath.Join(dir, "notes.json"), bytes.Repeat([]byte(" "), len(jsonLog)+len(mpLog)))
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	base := serveWith(t, lib, Options{MaxFolderBytes: int64(len(jsonLog) + len(mpLog) - 1)}).base
	if code, body := post(t, base+"/api/upload?name=replay.json", jsonLog); code != 200 {
		t.Fatalf("first upload: %d %s", code, body)
	}
	if got := lib.replayBytes(); got != int64(len(jsonLog)) {
		t.Errorf("the folder's replays take %d bytes, want the log's %d", got, len(jsonLog))
	}
	code, body := post(t, base+"/api/upload?name=m06.mp.gz", mpLog)
	if code != http.StatusInsufficientStorage || !strings.Contains(body, "may hold") {
		t.Errorf("upload past the folder's bytes: %d %s", code, body)
	}
	if _, err := os.Stat(filepath.Join(dir, "m06.mp.gz")); err == nil {
		t.Error("the refused upload was kept")
	}
}
