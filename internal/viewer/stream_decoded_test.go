package viewer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/internal/viewer/index"
)

// The stream format these tests use is the registered one with shared
// endings (.json, .mp.gz: its files are listed by their content) that is
// decoded whole when opened (StreamFormat.DecodeBytes): the Monad
// reference logs of testdata/monad/official.

// officialLog reads one of the reference engine's logs in testdata.
func officialLog(t *testing.T, name string) []byte {
	t.Helper()
	return testutil.ReadFile(t, filepath.Join(testdata, "monad", "official", name))
}

// decodeBytes is the DecodeBytes of the format of the log file name.
func decodeBytes(t *testing.T, name string) int64 {
	t.Helper()
	f, ok := source.LookupStreamFormat(officialLog(t, name)[:source.SniffBytes])
	if !ok || f.DecodeBytes <= 0 {
		t.Fatalf("%s: format %q, decoded whole in %d bytes", name, f.Name, f.DecodeBytes)
	}
	return f.DecodeBytes
}

func streamOptions(o Options) Options {
	o.OpenStream = func(f *os.File) (engine.Stream, error) { return source.NewStream(f, f) }
	return o
}

// logFolder is a library folder of n reference logs (copies of the
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
	lib := openLib(t, dir)
	lib.mem = newBudget(budget)
	return lib
}

// checkLogEntry fails unless e is a log summarised whole.
func checkLogEntry(t *testing.T, e *Entry) {
	t.Helper()
	if e.Game != "Monad" || e.Err != "" || !e.Complete || e.Rounds < 100 || e.Winner < 1 || index.GameUnit(e.Game) != "hives" {
		t.Errorf("%s summarised as game %q (unit %q), error %q, complete %v, %d turns, winner %d", e.ID, e.Game, index.GameUnit(e.Game), e.Err, e.Complete, e.Rounds, e.Winner)
	}
}

// TestStreamDecodedSummaryBudget: summarising a file decoded whole
// reserves its format's DecodeBytes in the memory budget, as opening it
// does, so many summarised at once never hold more than the budget: with
// room for two decodes, eight summaries started together all finish, and
// the budget's peak stays within it; a listing too.
func TestStreamDecodedSummaryBudget(t *testing.T) {
	const n = 8
	need := decodeBytes(t, "m05.replay.json")
	limit := 2*need + need/2
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
	if used != 0 || peak < need || peak > limit {
		t.Errorf("budget after the summaries: %d bytes used, peak %d (want 0, and a peak from %d to %d)", used, peak, need, limit)
	}

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
	if used, peak, _ := lib.mem.stats(); used != 0 || peak < need || peak > limit {
		t.Errorf("budget after the listing: %d bytes used, peak %d", used, peak)
	}
}

// TestStreamDecodedSummaryWaits: a summary that does not fit beside what
// others hold waits for them to release (holding nothing meanwhile) and
// then reads the file; past summaryWait it gives up, the row saying why,
// and the next listing reads the file again.
func TestStreamDecodedSummaryWaits(t *testing.T) {
	need := decodeBytes(t, "m05.replay.json")
	limit := need + need/2
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

	lib = logFolder(t, 1, limit)
	lib.summaryWait = 0
	lib.mem.charge(limit)
	entries, err := lib.List()
	if err != nil || len(entries) != 1 {
		t.Fatalf("listing: %v, %d entries", err, len(entries))
	}
	if e := entries[0]; !strings.Contains(e.Err, "memory budget is in use") {
		t.Errorf("a summary with no room: error %q", e.Err)
	}
	lib.mem.release(limit)
	entries, err = lib.List()
	if err != nil || len(entries) != 1 {
		t.Fatalf("listing again: %v, %d entries", err, len(entries))
	}
	checkLogEntry(t, entries[0])
}

// TestStreamDecodedPage: the replay page of a file decoded whole holds
// its format's DecodeBytes while it is read, and answers 503 with
// Retry-After when the budget cannot take them; the budget is whole
// again after each answer.
func TestStreamDecodedPage(t *testing.T) {
	need := decodeBytes(t, "m05.replay.json")
	lib := logFolder(t, 1, 0)
	sv := serveWith(t, lib, streamOptions(Options{MemoryBudget: need + StreamPeakBytes(StreamLimits{}) + 64<<20}))
	url := sv.base + "/replay/log00.json"
	for _, q := range []string{"", "?data=1"} {
		if code, body := get(t, url+q); code != 200 {
			t.Fatalf("%s: %d %.300s", q, code, body)
		}
	}
	// The handler gives its bytes back after the answer is written, so
	// the client may see the answer first: wait for the release.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		used, _, _ := sv.s.mem.stats()
		if used == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the answers the budget holds %d bytes", used)
		}
	}
	sv.s.mem.charge(65 << 20) // others hold what a decode would need
	res, err := http.Get(url + "?data=1")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Errorf("no room: %s, Retry-After %q; want 503", res.Status, res.Header.Get("Retry-After"))
	}
}

// TestStreamDecodedUploads: logs are taken as uploads, checked by
// packing them as their page would: a valid one is kept byte for byte,
// listed with its game and opens on the replay page; a corrupt one, or a
// .json that is no replay, is refused saying why; a .cfr sent under a
// .json name (or a log under a .rwd name) is kept under an ending of what
// it holds, and the answer says so. The folder quota counts the logs the
// library lists, not a .json that is none.
func TestStreamDecodedUploads(t *testing.T) {
	dir := t.TempDir()
	jsonLog, mpLog := officialLog(t, "m05.replay.json"), officialLog(t, "m06.mp.gz")
	jsonLog2 := append(bytes.Clone(jsonLog), '\n') // other bytes, so another file
	// A .json of the folder that is no log: not listed, not counted.
	write(t, filepath.Join(dir, "notes.json"), bytes.Repeat([]byte(" "), 100))
	lib := openLib(t, dir)
	base := serveWith(t, lib, streamOptions(Options{MaxUpload: 4 << 20})).base
	cfr := testutil.ReadFile(t, filepath.Join(testdata, "conformance", "c06.cfr"))
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
		{"m06.mp.gz", mpLog, 200, `"duplicate":true`, "m06.mp.gz holds a game the library already has, as m06.mp.gz: no second copy kept"},
		{"cut.json", jsonLog[:len(jsonLog)/2], 422, "cut.json is not a replay rewind can open", ""},
		{"bad.mp.gz", damaged, 422, "bad.mp.gz is not a replay rewind can open", ""},
		{"results.json", []byte(`{"wins": 3}`), 422, "results.json is not a replay rewind can open", ""},
		{"game.json", cfr, 200, `"id":"game.cfr"`, "game.json holds a cfr file, so it is kept as game.cfr"},
		{"log.rwd", jsonLog2, 200, `"id":"log.json"`, "log.rwd holds a monad-log file, so it is kept as log.json"},
		{".mp.gz", mpLog, 400, "not a usable file name", ""},
	}
	for _, c := range cases {
		code, body := post(t, base+"/api/upload?name="+c.name, c.body)
		var res uploadResult
		json.Unmarshal([]byte(body), &res)
		if code != c.code || !strings.Contains(body, c.want) || res.Note != c.note {
			t.Errorf("upload %q: %d %s, want %d with %q, note %q", c.name, code, body, c.code, c.want, c.note)
		}
	}
	for name, want := range map[string][]byte{"replay.json": jsonLog, "m06.mp.gz": mpLog, "game.cfr": cfr, "log.json": jsonLog2} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(b, want) {
			t.Errorf("%s kept: %v (%d bytes, want %d)", name, err, len(b), len(want))
		}
	}
	entries, err := lib.List()
	if err != nil {
		t.Fatal(err)
	}
	games := map[string]string{}
	for _, e := range entries {
		games[e.ID] = e.Game
	}
	want := map[string]string{"replay.json": "Monad", "m06.mp.gz": "Monad", "log.json": "Monad", "game.cfr": "ColorfightII"}
	if fmt.Sprint(games) != fmt.Sprint(want) {
		t.Errorf("the library lists %v, want %v", games, want)
	}
	if got, want := lib.replayBytes(), int64(len(jsonLog)+len(jsonLog2)+len(mpLog)+len(cfr)); got != want {
		t.Errorf("the folder's replays take %d bytes, want %d (notes.json not counted)", got, want)
	}
	for _, id := range []string{"replay.json", "m06.mp.gz"} {
		if code, body := get(t, base+"/replay/"+id); code != 200 || !strings.Contains(body, `id="generic"`) || !strings.Contains(body, "/static/games/monad.js") {
			t.Errorf("/replay/%s: %d", id, code)
		}
	}
}
