package viewer

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/recording"
)

// standingsGames is the games column of bot's row on the standings page
// at base, "" when the bot has no row.
func standingsGames(t *testing.T, base, bot string) string {
	t.Helper()
	_, page := getBody(t, base+"/standings")
	m := regexp.MustCompile(`<tr data-bot="` + regexp.QuoteMeta(bot) + `">\s*<td class="num">\d+</td>\s*<td>.*?</td>\s*<td class="num">(\d+)</td>`).FindStringSubmatch(page)
	if m == nil {
		return ""
	}
	return m[1]
}

// uploadAnswered is the upload's JSON answer, as the page reads it.
type uploadAnswered struct {
	ID, URL, Error, Note string
	Duplicate            bool
}

// uploadAnswer posts data as name to base's upload and decodes the answer.
func uploadAnswer(t *testing.T, base, name string, data []byte) (int, uploadAnswered) {
	t.Helper()
	res, err := http.Post(base+"/api/upload?name="+name, "application/octet-stream", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var r uploadAnswered
	if err := json.NewDecoder(res.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, r
}

// TestOneGameCountedOnce (issue 40, item 2): two copies of one game's
// file in the library count once in the standings; an upload of a game
// the library holds says so, names the copy and keeps no second one,
// also right after the first upload, before the index lists it.
func TestOneGameCountedOnce(t *testing.T) {
	game := func(seed uint64) []byte {
		var buf bytes.Buffer
		playCF2(t, seed, 40, recording.NewRecorder(&buf, time.Date(2026, 11, 2, 12, 0, 0, int(seed), time.UTC), "rewind test"),
			cf2Seat(t, "greedy", "g"), cf2Seat(t, "random", "r"))
		return buf.Bytes()
	}
	dir := t.TempDir()
	first := game(7)
	write(t, filepath.Join(dir, "a.rwd"), first)
	write(t, filepath.Join(dir, "copies", "a.rwd"), first)
	lib := indexedLib(t, dir)
	base := serve(t, lib, Options{})
	if g := standingsGames(t, base, "greedy"); g != "1" {
		t.Errorf("two copies of one game: greedy has %q games in the standings, want 1", g)
	}

	code, r := uploadAnswer(t, base, "again.rwd", first)
	if code != 200 || !r.Duplicate || r.ID != "a.rwd" {
		t.Errorf("upload of a game the library has: %d %+v, want the copy a.rwd named as a duplicate", code, r)
	}
	if _, err := os.Stat(filepath.Join(dir, "again.rwd")); err == nil {
		t.Error("a second copy was kept")
	}

	second := game(8)
	if code, r := uploadAnswer(t, base, "b.rwd", second); code != 200 || r.Duplicate || r.ID != "b.rwd" {
		t.Fatalf("upload of a new game: %d %+v", code, r)
	}
	if code, r := uploadAnswer(t, base, "b-again.rwd", second); code != 200 || !r.Duplicate || r.ID != "b.rwd" {
		t.Errorf("the same upload at once: %d %+v, want a duplicate of b.rwd", code, r)
	}
	if _, err := os.Stat(filepath.Join(dir, "b-again.rwd")); err == nil {
		t.Error("a second copy of the upload was kept")
	}
}
