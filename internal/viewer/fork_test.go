package viewer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// TestForkEndpoint: POST /api/fork plays a replay of the library on from a
// turn and keeps the new game beside it under a name that never replaces
// a file, whose page names its parent; bad ids and turns, cross-site
// requests and single-file servers are refused, and a second fork while
// one is played is told to wait.
func TestForkEndpoint(t *testing.T) {
	dir := t.TempDir()
	c06 := testutil.ReadFile(t, filepath.Join(testdata, "conformance", "c06.cfr"))
	write(t, filepath.Join(dir, "sub", "c06.cfr"), c06)
	write(t, filepath.Join(dir, "hostile.rwd"), hostileRWD(t))
	outside := filepath.Join(t.TempDir(), "secret.rwd")
	write(t, outside, hostileRWD(t))
	lib := openLib(t, dir)
	base := serve(t, lib, Options{})
	fork := func(id, turn string, header ...string) (int, string) {
		t.Helper()
		return post(t, base+"/api/fork?id="+urlQuery(id)+"&turn="+turn, nil, header...)
	}

	refused := []struct {
		id, turn string
		header   []string
		code     int
		want     string
	}{
		{"missing.rwd", "10", nil, 404, "no replay"},
		{"../../" + filepath.Base(filepath.Dir(outside)) + "/secret.rwd", "10", nil, 404, "no replay"},
		{"sub/../hostile.rwd", "10", nil, 404, "no replay"},
		{"hostile.rwd", "ten", nil, 400, "not a number"},
		{"hostile.rwd", "0", nil, 400, "turn 0 outside"},
		{"hostile.rwd", "60", nil, 400, "turn 60 outside"},
		{"sub/c06.cfr", "-3", nil, 400, "outside"},
		{"sub/c06.cfr", "50", []string{"Origin", "http://evil.example"}, 403, "another site"},
	}
	for _, c := range refused {
		code, body := fork(c.id, c.turn, c.header...)
		if code != c.code || !strings.Contains(body, c.want) {
			t.Errorf("fork %s at %s: %d %s, want %d with %q", c.id, c.turn, code, body, c.code, c.want)
		}
	}
	if names := files(t, dir); len(names) != 2 {
		t.Fatalf("refused forks left files: %v", names)
	}

	// A .cfr names no bot: the page must choose each seat's.
	if code, body := fork("sub/c06.cfr", "50"); code != 400 || !strings.Contains(body, "choose the bot of seat 1 (bot0_greedy), 2 (bot1_hunter), 3 (bot2_turtle)") {
		t.Errorf("fork of a .cfr without bots: %d %s", code, body)
	}
	for _, bad := range []string{"&bot=greedy", "&bot=greedy&bot=greedy&bot=python3+x.py", "&bot=greedy&bot=greedy&bot=serve:0"} {
		if code, body := fork("sub/c06.cfr", "50"+bad); code != 400 || !strings.Contains(body, "cannot play on") {
			t.Errorf("fork with %s: %d %s", bad, code, body)
		}
	}
	if names := files(t, dir); len(names) != 2 {
		t.Fatalf("refused forks left files: %v", names)
	}

	// Success, from the page's own origin: a new file beside the parent,
	// whose page names it and the bots chosen.
	code, body := fork("sub/c06.cfr", "50&bot=raider&bot=greedy&bot=turtle", "Origin", base)
	if code != 200 || !strings.Contains(body, `"id":"sub/c06-fork-T50.rwd"`) || !strings.Contains(body, `"url":"/replay/sub/c06-fork-T50.rwd"`) {
		t.Fatalf("fork: %d %s", code, body)
	}
	first := testutil.ReadFile(t, filepath.Join(dir, "sub", "c06-fork-T50.rwd"))
	h, err := replay.ReadHeader(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	if h == nil || h.Parent == nil || h.Parent.Source != "c06.cfr" || h.Parent.Turn != 50 {
		t.Fatalf("header %+v", h)
	}
	if got := []string{h.Players[0].Bot, h.Players[1].Bot, h.Players[2].Bot}; strings.Join(got, " ") != "raider greedy turtle" {
		t.Errorf("the fork seats %q, chosen raider greedy turtle", got)
	}
	if code, _ := get(t, base+"/replay/sub/c06-fork-T50.rwd"); code != 200 {
		t.Errorf("the fork's page: %d", code)
	}
	code, gz := testutil.Get(t, base+"/replay/sub/c06-fork-T50.rwd?data=1")
	var p Packed
	if code != 200 {
		t.Fatalf("the fork's page data: %d %s", code, gz)
	}
	if err := json.Unmarshal(testutil.Gunzip(t, gz), &p); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Provenance, "played on from turn 50 of c06.cfr") || len(p.Frames) < 50 {
		t.Errorf("the fork's page: %d frames, provenance %q: want its parent named", len(p.Frames), p.Provenance)
	}
	// Again: a new name; the first file is left as it was.
	code, body = fork("sub/c06.cfr", "50&bot=greedy&bot=greedy&bot=greedy")
	if code != 200 || !strings.Contains(body, `"id":"sub/c06-fork-T50-2.rwd"`) {
		t.Fatalf("second fork: %d %s", code, body)
	}
	if b := testutil.ReadFile(t, filepath.Join(dir, "sub", "c06-fork-T50.rwd")); !bytes.Equal(b, first) {
		t.Error("the second fork changed the first")
	}
	// A .rwd forks too, each seat with its own bot by default.
	if code, body := fork("hostile.rwd", "30"); code != 200 || !strings.Contains(body, `"id":"hostile-fork-T30.rwd"`) {
		t.Errorf("fork of a .rwd: %d %s", code, body)
	}
	hh, err := replay.ReadHeader(bytes.NewReader(testutil.ReadFile(t, filepath.Join(dir, "hostile-fork-T30.rwd"))))
	if err != nil {
		t.Fatal(err)
	}
	if hh.Players[0].Bot != "greedy" || hh.Players[1].Bot != "random" {
		t.Errorf("the fork of a .rwd seats %q and %q, the parent greedy and random", hh.Players[0].Bot, hh.Players[1].Bot)
	}
	if names := files(t, dir); len(names) != 5 {
		t.Errorf("library holds %v, want the 2 replays, 3 forks and no temporary file", names)
	}

	// One fork at a time.
	s := NewServer(lib, Options{})
	s.forking.Lock()
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("POST", "/api/fork?id=hostile.rwd&turn=30", nil))
	s.forking.Unlock()
	if rec.Code != http.StatusTooManyRequests {
		t.Errorf("fork while another is played: %d %s", rec.Code, rec.Body)
	}

	// A one-file server does not fork.
	single, err := OpenFile(filepath.Join(dir, "hostile.rwd"))
	if err != nil {
		t.Fatal(err)
	}
	defer single.Close()
	sbase := serve(t, single, Options{})
	if code, body := post(t, sbase+"/api/fork?id=hostile.rwd&turn=30", nil); code != 403 || !strings.Contains(body, "off") {
		t.Errorf("single-file fork: %d %s", code, body)
	}
}

// TestForkBotsOfServer: a server started with bots (serve --bot) offers
// them beside the built-ins, and a fork seats one by its place in that
// list — never by a command the page sends.
func TestForkBotsOfServer(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "hostile.rwd"), hostileRWD(t))
	lib := openLib(t, dir)
	var started []string
	newBot := func(spec string, uid int) (match.GamePlayer, error) {
		started = append(started, fmt.Sprintf("%d:%s", uid, spec))
		info, _ := engine.About(engine.Default())
		b, _ := info.FindBot("raider")
		return match.BuiltinPlayer(b), nil
	}
	base := serve(t, lib, Options{ForkBots: []string{"turtle", "python3 my.py"}, NewForkBot: newBot})
	code, body := get(t, base+"/api/fork/bots")
	if code != 200 || !strings.Contains(body, `{"id":"serve:1","bot":"python3 my.py","label":"python3 my.py"}`) || strings.Contains(body, "serve:0") || !strings.Contains(body, `"id":"turtle"`) {
		t.Fatalf("choices: %d %s", code, body)
	}
	if code, body := post(t, base+"/api/fork?id=hostile.rwd&turn=30&bot=greedy&bot=python3+my.py", nil); code != 400 || len(started) != 0 {
		t.Errorf("a command from the page: %d %s, started %q", code, body, started)
	}
	code, body = post(t, base+"/api/fork?id=hostile.rwd&turn=30&bot=greedy&bot=serve:1", nil)
	if code != 200 || strings.Join(started, " ") != "2:python3 my.py" {
		t.Fatalf("fork with the server's bot: %d %s, started %q", code, body, started)
	}
	h, err := replay.ReadHeader(bytes.NewReader(testutil.ReadFile(t, filepath.Join(dir, "hostile-fork-T30.rwd"))))
	if err != nil {
		t.Fatal(err)
	}
	if h.Players[0].Bot != "greedy" || h.Players[1].Bot != "python3 my.py" {
		t.Errorf("seats %q and %q", h.Players[0].Bot, h.Players[1].Bot)
	}
}

// TestForkName: beside the parent, the stem kept whole runes.
func TestForkName(t *testing.T) {
	for id, want := range map[string]string{
		"game.cfr":                       "game-fork-T250.rwd",
		"sub/dir/g.rwd":                  "sub/dir/g-fork-T250.rwd",
		strings.Repeat("é", 60) + ".cfr": strings.Repeat("é", 50) + "-fork-T250.rwd",
	} {
		got := ForkName(id, 250)
		if got != want || !ValidID(got) {
			t.Errorf("ForkName(%q) = %q, want %q", id, got, want)
		}
	}
}

// files lists every file under dir, hidden ones included.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
