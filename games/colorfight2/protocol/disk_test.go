package protocol

import (
	"encoding/json"
	"github.com/rewind-game/rewind/internal/testutil"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// fullDisk makes the recordings' files fail with ENOSPC after limit
// bytes while full is set.
type fullDisk struct {
	full  atomic.Bool
	limit int64
}

type fullFile struct {
	*os.File
	left int64
}

func (f *fullFile) Write(p []byte) (int, error) {
	if int64(len(p)) <= f.left {
		f.left -= int64(len(p))
		return f.File.Write(p)
	}
	n, _ := f.File.Write(p[:f.left])
	f.left = 0
	return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

func (d *fullDisk) create(name string) (recFile, error) {
	f, err := os.Create(name)
	if err != nil || !d.full.Load() {
		return f, err
	}
	return &fullFile{File: f, left: d.limit}, nil
}

// roomList reads /get_gameroom_list.
func (ts *testServer) roomList() []map[string]any {
	ts.t.Helper()
	var list []map[string]any
	if err := json.Unmarshal(ts.get("/get_gameroom_list").body, &list); err != nil {
		ts.t.Fatal(err)
	}
	return list
}

// botRoom is a lock-step room of two built-in bots that starts when full
// and restarts one second after each game.
func botRoom(maxTurn int) RoomConfig {
	cfg := lockstep(maxTurn, "greedy", "raider")
	cfg.MaxPlayer, cfg.FirstRoundTime, cfg.FinishTime = 2, "full", 1
	return cfg
}

// Issue 25, "disk full": a game whose recording fails stops its room
// with a message saying why — it does not restart every finish_time into
// the same error, leaving an empty .partial each time — until an admin
// /restart.
func TestDiskFullStopsTheRoom(t *testing.T) {
	disk := &fullDisk{limit: 4000}
	disk.full.Store(true)
	ts := newTestServer(t, Options{AdminPassword: "master", MaxGamesPerHour: -1, create: disk.create})
	if err := ts.s.CreateRoom("r", botRoom(2000), "", "", true); err != nil {
		t.Fatal(err)
	}
	eventually(t, "stopped", func() bool {
		g := ts.s.Games()
		return len(g) == 1 && g[0].Done && len(ts.roomList()[0]) > 0 && ts.roomList()[0]["stopped"] != nil
	})
	r := ts.s.room("r")
	for i := 0; i < 10; i++ {
		ts.clk.Advance(10 * time.Second) // ten finish_times and more
		r.tick()                         // what the room's loop does when woken
	}
	if n := len(ts.s.Games()); n != 1 {
		t.Fatalf("%d games after the disk filled up, want 1", n)
	}
	stopped, _ := ts.roomList()[0]["stopped"].(string)
	if !strings.Contains(stopped, "recording failed") || !strings.Contains(stopped, "no space left on device") {
		t.Errorf("stopped: %q", stopped)
	}
	if partials, _ := filepath.Glob(filepath.Join(ts.dir, "*.partial")); len(partials) != 1 {
		t.Errorf("partials %v, want the one cut game", partials)
	}
	_, rep := ts.post("/start", map[string]any{"gameroom_id": "r", "admin_password": "master"})
	if !strings.HasPrefix(rep.ErrMsg, "The room is stopped: ") {
		t.Errorf("/start on a stopped room: %+v", rep)
	}
	// room on disk again: the admin's /restart plays again
	disk.full.Store(false)
	ts.mustPost("/restart", map[string]any{"gameroom_id": "r", "admin_password": "master", "config": map[string]any{"max_turn": 200}})
	eventually(t, "played again", func() bool {
		g := ts.s.Games()
		return len(g) == 2 && g[0].Done && g[0].Turn == 200
	})
	if _, ok := ts.roomList()[0]["stopped"]; ok {
		t.Error("the room is still stopped after /restart")
	}
}

// restart advances the clock past the finish_time of room id's game
// once that game is over in the room (not only in the live list, which
// is told first): the room then restarts, whichever comes first, the
// advance or the room's timer.
func (ts *testServer) restart(id string) {
	ts.t.Helper()
	eventually(ts.t, "over in its room", func() bool {
		r := ts.s.room(id)
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.g != nil && r.g.phase == phaseOver
	})
	ts.clk.Advance(time.Second)
}

// ownFiles lists the server's finished recordings in dir.
func ownFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if ownRecording(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// Issue 25, "recordings on disk": with --max-disk reached, "rotate"
// removes the oldest finished recordings before a game starts (the
// folder never holds more than the budget plus the games in progress),
// and other files are left alone.
func TestMaxDiskRotates(t *testing.T) {
	ts := newTestServer(t, Options{MaxGamesPerHour: -1, MaxDiskBytes: 1})
	other := filepath.Join(ts.dir, "mine.rwd")
	if err := os.WriteFile(other, []byte("not the server's"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ts.s.CreateRoom("r", botRoom(200), "", "", true); err != nil {
		t.Fatal(err)
	}
	var first string
	for n := 1; n <= 4; n++ {
		eventually(t, "played", func() bool {
			g := ts.s.Games()
			return len(g) == n && g[0].Done
		})
		if n == 1 {
			first = filepath.Base(ts.s.Games()[0].File)
		}
		if files := ownFiles(t, ts.dir); len(files) != 1 {
			t.Fatalf("after game %d: %v, want only the last", n, files)
		}
		ts.restart("r") // the budget rotates
	}
	eventually(t, "rotated", func() bool {
		_, err := os.Stat(filepath.Join(ts.dir, first))
		return os.IsNotExist(err)
	})
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a file the server did not write was touched: %v", err)
	}
}

// With "refuse", a full budget stops the room with a message instead.
func TestMaxDiskRefuses(t *testing.T) {
	ts := newTestServer(t, Options{MaxGamesPerHour: -1, MaxDiskBytes: 1, DiskFull: "refuse"})
	if err := ts.s.CreateRoom("r", botRoom(200), "", "", true); err != nil {
		t.Fatal(err)
	}
	eventually(t, "played", func() bool {
		g := ts.s.Games()
		return len(g) == 1 && g[0].Done
	})
	ts.restart("r")
	eventually(t, "stopped", func() bool { return ts.roomList()[0]["stopped"] != nil })
	if stopped, _ := ts.roomList()[0]["stopped"].(string); !strings.Contains(stopped, "disk budget (--max-disk)") {
		t.Errorf("stopped: %q", stopped)
	}
	if n := len(ts.s.Games()); n != 1 {
		t.Errorf("%d games", n)
	}
	if files := ownFiles(t, ts.dir); len(files) != 1 {
		t.Errorf("files %v", files)
	}
}

func TestOwnRecording(t *testing.T) {
	for name, want := range map[string]bool{
		"public-1795348800000.rwd": true, "a-b_c.1-12.rwd": true,
		"public-17x.rwd": false, "mine.rwd": false, "-12.rwd": false, "r-.rwd": false,
		"r-12.rwd.partial": false, "r-12.cfr": false, "bad/id-1.rwd": false,
	} {
		if got := ownRecording(name); got != want {
			t.Errorf("ownRecording(%q) = %v", name, got)
		}
	}
}

// copyOld copies a real recording to dir/name, its modification time an
// hour ago: older than anything the servers record, so rotation would
// take it first if it counted it.
func copyOld(t *testing.T, from, dir, name string) string {
	t.Helper()
	b := testutil.ReadFile(t, from)
	to := filepath.Join(dir, name)
	old := time.Now().Add(-time.Hour)
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(to, old, old); err != nil {
		t.Fatal(err)
	}
	return to
}

// Issue 37, finding 5: --max-disk rotation removes only the recordings
// the server wrote. game-0001.rwd and game-0002.rwd — the names `rewind
// tournament` writes, here copies of real recordings older than the
// server's — are neither counted nor removed; a restarted server still
// rotates the recordings it wrote before; a recording the user replaced
// since is left alone.
func TestMaxDiskRotatesOnlyItsOwn(t *testing.T) {
	dir := t.TempDir()
	first := newTestServer(t, Options{Dir: dir, MaxGamesPerHour: -1, MaxDiskBytes: -1})
	if err := first.s.CreateRoom("r", botRoom(200), "", "", true); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 3; n++ {
		eventually(t, "played", func() bool {
			g := first.s.Games()
			return len(g) == n && g[0].Done
		})
		if n < 3 {
			first.restart("r")
		}
	}
	first.s.Close()
	var before []string // the first server's recordings, oldest first
	for _, g := range first.s.Games() {
		before = append([]string{g.File}, before...)
	}
	if len(before) != 3 {
		t.Fatalf("the first server recorded %v", before)
	}
	tournament := []string{copyOld(t, before[0], dir, "game-0001.rwd"), copyOld(t, before[1], dir, "game-0002.rwd")}
	// The user replaces the first server's last recording with a file of
	// their own under the same name.
	replaced := before[2]
	if err := os.WriteFile(replaced, []byte("the user's own file"), 0o644); err != nil {
		t.Fatal(err)
	}

	second := newTestServer(t, Options{Dir: dir, MaxGamesPerHour: -1, MaxDiskBytes: 1})
	if err := second.s.CreateRoom("s", botRoom(200), "", "", true); err != nil {
		t.Fatal(err)
	}
	eventually(t, "played", func() bool {
		g := second.s.Games()
		return len(g) == 1 && g[0].Done
	})
	for _, p := range before[:2] {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s, recorded by the server before its restart, not rotated: %v", filepath.Base(p), err)
		}
	}
	for _, p := range append(tournament, replaced) {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s, not the server's, removed: %v", filepath.Base(p), err)
		}
	}
	mine := second.s.Games()[0].File
	second.restart("s") // the next game rotates the last one
	eventually(t, "rotated", func() bool {
		_, err := os.Stat(mine)
		return os.IsNotExist(err)
	})
	for _, p := range append(tournament, replaced) {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s, not the server's, removed: %v", filepath.Base(p), err)
		}
	}
}
