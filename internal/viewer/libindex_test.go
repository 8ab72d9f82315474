package viewer

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/templates"
	"github.com/rewind-game/rewind/internal/viewer/index"
)

func getBody(t *testing.T, u string) (int, string) {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestIndexedLibrary: a library with an index lists its replays from it
// (the same rows, hostile names as text, the damaged and broken files with
// their status), by page with a cursor, filtered by bot and search,
// answers bad queries 400, and indexes an upload at once.
func TestIndexedLibrary(t *testing.T) {
	dir := fixtureLibrary(t)
	lib := openLib(t, dir)
	if warn, err := lib.OpenIndex(); err != nil || warn != nil {
		t.Fatal(warn, err)
	}
	st, err := lib.Sync(nil)
	if err != nil || st.Read != 5 || st.Files != 5 {
		t.Fatalf("sync: %+v %v", st, err)
	}
	base := serve(t, lib, Options{})

	code, page := getBody(t, base+"/")
	if code != 200 || strings.Contains(page, hostile) || !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Fatalf("page %d: the hostile name is not shown as text", code)
	}
	for _, id := range []string{"c03.rwd", "hostile.rwd", "sub/c04.cfr", "cut.rwd", "junk.cfr"} {
		if !strings.Contains(page, `data-id="`+id+`"`) {
			t.Errorf("%s not listed", id)
		}
	}
	if !strings.Contains(page, "incomplete: ") || !strings.Contains(page, "cannot be opened") {
		t.Error("the cut and the broken files are not listed with their status")
	}
	if !strings.Contains(page, `data-indexed="1"`) || !strings.Contains(page, `id="filters"`) {
		t.Error("no filter form")
	}
	// The rows agree with the in-memory listing's summaries.
	entries, err := lib.List()
	if err != nil {
		t.Fatal(err)
	}
	want := rows(entries)
	code, body := getBody(t, base+"/api/library?sort=size&limit=2")
	var api struct {
		Rows []struct {
			ID         string `json:"id"`
			Winner     string `json:"winner_name"`
			WinnerBot  string `json:"winner_bot"`
			WinnerGold int64  `json:"winner_gold"`
			Unit       string `json:"unit"`
			Rounds     int    `json:"rounds"`
			Hash       string `json:"sha256"`
		} `json:"rows"`
		Next string `json:"next"`
	}
	if err := json.Unmarshal([]byte(body), &api); err != nil || code != 200 || len(api.Rows) != 2 || api.Next == "" {
		t.Fatalf("api %d %v: %s", code, err, body)
	}
	seen := map[string]bool{}
	for page := 0; ; page++ {
		for _, r := range api.Rows {
			seen[r.ID] = true
			for _, w := range want {
				if w.ID == r.ID && (w.Winner != r.Winner || w.Score != r.WinnerGold || w.Rounds != r.Rounds) {
					t.Errorf("%s: index %q %d gold %d rounds, listing %q %d %d", r.ID, r.Winner, r.WinnerGold, r.Rounds, w.Winner, w.Score, w.Rounds)
				}
			}
			if r.Unit != "gold" {
				t.Errorf("%s: unit %q, want gold (a ColorfightII game)", r.ID, r.Unit)
			}
			if r.ID == "c03.rwd" && len(r.Hash) != 64 {
				t.Errorf("c03.rwd hash %q", r.Hash)
			}
		}
		if api.Next == "" || page > 5 {
			break
		}
		_, body = getBody(t, base+"/api/library?sort=size&limit=2&after="+url.QueryEscape(api.Next))
		api.Next, api.Rows = "", nil
		if err := json.Unmarshal([]byte(body), &api); err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) != 5 {
		t.Errorf("pages listed %d replays, want 5", len(seen))
	}
	// Filters and search.
	_, rowsHTML := getBody(t, base+"/library/rows?q="+url.QueryEscape("bot4_greedy"))
	if !strings.Contains(rowsHTML, `data-id="sub/c04.cfr"`) || strings.Contains(rowsHTML, `data-id="junk.cfr"`) || strings.Contains(rowsHTML, `data-id="hostile.rwd"`) {
		t.Errorf("search bot4_greedy: %s", rowsHTML)
	}
	_, rowsHTML = getBody(t, base+"/library/rows?bot=greedy")
	if !strings.Contains(rowsHTML, `data-id="hostile.rwd"`) || strings.Contains(rowsHTML, `data-id="junk.cfr"`) {
		t.Errorf("bot=greedy: %s", rowsHTML)
	}
	for _, q := range []string{"sort=name", "after=zzz", "limit=-1", "from=yesterday", "complete=maybe", "q=" + strings.Repeat("x", index.MaxSearch+1)} {
		if code, _ := getBody(t, base+"/?"+q); code != http.StatusBadRequest {
			t.Errorf("?%s: %d, want 400", q, code)
		}
	}
	if code, page := getBody(t, base+"/standings"); code != 200 || !strings.Contains(page, `data-bot="greedy"`) {
		t.Errorf("standings %d", code)
	}
	if code, _ := getBody(t, base+"/bot/nobody"); code != http.StatusNotFound {
		t.Errorf("an unknown bot: %d", code)
	}

	// An upload is listed without waiting for a check of the folder.
	res, err := http.Post(base+"/api/upload?name=up.rwd", "application/octet-stream", strings.NewReader(string(vectorRWD(t, "c02"))))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("upload: %d", res.StatusCode)
	}
	found := false
	for range 400 {
		if r, _ := lib.Index().Get("up.rwd"); r != nil {
			found = true
			break
		}
		time.Sleep(25 * time.Millisecond) // a safety net, not a verdict
	}
	if !found {
		t.Error("the upload was not indexed")
	}
	if _, err := os.Stat(filepath.Join(dir, ".rewind", "index.db")); err != nil {
		t.Error(err)
	}
}

// TestLibraryEventsEndOnShutdown: an open library page's event stream
// ends when the server shuts down, so that Shutdown (rewind serve's
// Ctrl-C) does not wait for it until its deadline.
func TestLibraryEventsEndOnShutdown(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "hostile.rwd"), hostileRWD(t))
	lib := indexedLib(t, dir)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := NewServer(lib, Options{Addr: ln.Addr().String(), ClientRate: -1}).HTTPServer()
	go hs.Serve(ln)
	defer hs.Close()
	resp, err := http.Get("http://" + ln.Addr().String() + "/library/events")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("events: %v %v", err, resp)
	}
	defer resp.Body.Close()
	ended := make(chan error, 1)
	go func() { _, err := io.Copy(io.Discard, resp.Body); ended <- err }()
	// A deadline far beyond any scheduler delay: Shutdown returns before
	// it only if the stream ends by itself.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := hs.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown with a library page open: %v", err)
	}
	if err := <-ended; err != nil {
		t.Errorf("the stream ended with %v, want a clean end", err)
	}
}

// TestIndexRowsUnit: an indexed row's winner amount is labelled by the
// unit the index keeps; a row indexed before the index kept units (Unit
// "") by its game's score, as the live listing labels an entry whose
// summary names none.
func TestIndexRowsUnit(t *testing.T) {
	rows := indexRows([]*index.Replay{
		{Path: "a.rwd", Game: "Monad", Winner: "1_a", WinnerScore: 115, Unit: "resources"},
		{Path: "b.rwd", Game: "Monad", Winner: "1_a", WinnerScore: 3},
		{Path: "c.rwd", Game: "ColorfightII", Winner: "1_a", WinnerScore: 9000},
	})
	want := []string{"resources", index.GameUnit("Monad"), index.GameUnit("ColorfightII")}
	if want[1] != "hives" || want[2] != "gold" {
		t.Fatalf("the games' scores are %q and %q, want hives and gold", want[1], want[2])
	}
	for i, r := range rows {
		if r.Unit != want[i] {
			t.Errorf("%s: unit %q, want %q", r.ID, r.Unit, want[i])
		}
	}
}

// TestGameFilterFromRegistry: the indexed library's game filter offers
// every registered game, by its display name, and keeps the one chosen.
func TestGameFilterFromRegistry(t *testing.T) {
	var b strings.Builder
	if err := templates.LibraryFilters(filterOf(url.Values{"game": {"Skyport"}})).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	for _, id := range engine.IDs() {
		info, _ := engine.About(id)
		if !strings.Contains(b.String(), `<option value="`+info.Name+`"`) {
			t.Errorf("no filter option for %s:\n%s", info.Name, b.String())
		}
	}
	if !strings.Contains(b.String(), `<option value="Skyport" selected>`) {
		t.Errorf("the chosen game is not selected:\n%s", b.String())
	}
}

// TestSyncMergesWalkAndIndex: Sync (the folder's walk merged with the
// index's rows, one at a time) reads new files and removes gone ones
// wherever they sort — sub-folders, names beside a folder's ("a-b",
// "a.rwd" around "a/") — and SyncPaths does so for the paths it is given
// (a folder removed has the whole folder synced).
func TestSyncMergesWalkAndIndex(t *testing.T) {
	dir := t.TempDir()
	c03 := vectorRWD(t, "c03")
	names := []string{"a-b.rwd", "a/x.rwd", "a.rwd", "a/b/c.rwd", "ab.rwd", "a/b-c.rwd", "Z.rwd"}
	for _, n := range names {
		write(t, filepath.Join(dir, n), c03)
	}
	lib := openLib(t, dir)
	if _, err := lib.OpenIndex(); err != nil {
		t.Fatal(err)
	}
	if st, err := lib.Sync(nil); err != nil || st.Read != 7 || st.Files != 7 || st.Removed != 0 {
		t.Fatalf("first sync: %+v %v", st, err)
	}
	os.Remove(filepath.Join(dir, "a-b.rwd"))
	os.RemoveAll(filepath.Join(dir, "a", "b"))
	write(t, filepath.Join(dir, "a", "new.rwd"), c03)
	write(t, filepath.Join(dir, "0.rwd"), c03)
	if st, err := lib.Sync(nil); err != nil || st.Read != 2 || st.Files != 7 || st.Removed != 2 {
		t.Fatalf("second sync: %+v %v", st, err)
	}
	listed := func() []string {
		pg, err := lib.Index().Page(index.Query{Sort: "winner", Asc: true, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range pg.Rows {
			out = append(out, r.Path)
		}
		slices.Sort(out)
		return out
	}
	if got, want := listed(), []string{"0.rwd", "Z.rwd", "a.rwd", "a/b-c.rwd", "a/new.rwd", "a/x.rwd", "ab.rwd"}; !slices.Equal(got, want) {
		t.Errorf("after the second sync %q, want %q", got, want)
	}
	write(t, filepath.Join(dir, "p.rwd"), c03)
	os.Remove(filepath.Join(dir, "0.rwd"))
	os.RemoveAll(filepath.Join(dir, "a"))
	if err := lib.SyncPaths([]string{"p.rwd", "0.rwd", "a"}); err != nil {
		t.Fatal(err)
	}
	if got, want := listed(), []string{"Z.rwd", "a.rwd", "ab.rwd", "p.rwd"}; !slices.Equal(got, want) {
		t.Errorf("after SyncPaths %q, want %q", got, want)
	}
}
