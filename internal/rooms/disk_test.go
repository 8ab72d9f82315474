package rooms_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

func ownG(name string) bool { return strings.HasPrefix(name, "g") && strings.HasSuffix(name, ".rwd") }

func write(t *testing.T, path string, n int, mod time.Time) {
	t.Helper()
	if err := os.WriteFile(path, make([]byte, n), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
}

// A recording is written as NAME.rwd.partial and renamed NAME.rwd;
// a taken name gets -2.
func TestRecordingsCreateCommit(t *testing.T) {
	d := &rooms.Recordings{Dir: filepath.Join(t.TempDir(), "sub"), Own: ownG}
	a, err := d.Create("g1")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := a.Partial(), filepath.Join(d.Dir, "g1.rwd.partial"); got != want {
		t.Errorf("partial %s, want %s", got, want)
	}
	b, err := d.Create("g1") // the first is still being written
	if err != nil {
		t.Fatal(err)
	}
	if got, want := filepath.Base(b.Path), "g1-2.rwd"; got != want {
		t.Errorf("second recording %s, want %s", got, want)
	}
	a.Write([]byte("x"))
	if err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(a.Path); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(a.Partial()); !os.IsNotExist(err) {
		t.Errorf("partial left: %v", err)
	}
	b.Abandon()
	if _, err := os.Stat(b.Partial()); err != nil {
		t.Errorf("an abandoned recording keeps its partial: %v", err)
	}
}

// commit records a recording of n bytes named base through d.
func commit(t *testing.T, d *rooms.Recordings, base string, n int) string {
	t.Helper()
	rec, err := d.Create(base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Write(make([]byte, n)); err != nil {
		t.Fatal(err)
	}
	if err := rec.Commit(); err != nil {
		t.Fatal(err)
	}
	return rec.Path
}

// exist checks which files of dir are there.
func exist(t *testing.T, dir string, want map[string]bool) {
	t.Helper()
	for name, want := range want {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s there %v, want %v", name, err == nil, want)
		}
	}
}

// The budget counts the recordings the server committed and the ones it
// writes; rotate removes the oldest committed ones, refuse refuses.
// Files of its naming that it did not commit are neither counted nor
// removed.
func TestRecordingsBudget(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	write(t, filepath.Join(dir, "g0.rwd"), 1000, old) // not committed: another tool's, or from before the manifest
	write(t, filepath.Join(dir, "other.rwd"), 1000, old)
	d := &rooms.Recordings{Dir: dir, Own: ownG, MaxBytes: 250, Full: rooms.DiskRefuse}
	commit(t, d, "g1", 100)
	commit(t, d, "g2", 100)
	write(t, filepath.Join(dir, "g3.rwd.partial"), 100, old)
	if err := d.MakeRoom(); err == nil {
		t.Error("refuse: no error at 300 of 250 bytes")
	}
	d.Full = rooms.DiskRotate
	if err := d.MakeRoom(); err != nil {
		t.Fatal(err)
	}
	exist(t, dir, map[string]bool{"g0.rwd": true, "g1.rwd": false, "g2.rwd": true, "g3.rwd.partial": true, "other.rwd": true})
	d.MaxBytes = 50 // the partial alone passes it: nothing more to remove
	if err := d.MakeRoom(); err == nil {
		t.Error("a budget the games being played pass: no error")
	}
	exist(t, dir, map[string]bool{"g0.rwd": true, "g2.rwd": false, "g3.rwd.partial": true, "other.rwd": true})
}

// The manifest outlives the server: a new Recordings on the folder
// rotates what an earlier one committed, oldest first, but not a listed
// file the user replaced or one that vanished (both dropped from the
// manifest), nor the recording of another server's naming listed there.
func TestRecordingsManifest(t *testing.T) {
	dir := t.TempDir()
	first := &rooms.Recordings{Dir: dir, Own: ownG}
	a := commit(t, first, "g1", 100)
	replaced := commit(t, first, "g2", 100)
	gone := commit(t, first, "g3", 100)
	b := commit(t, first, "g4", 100)
	other := commit(t, &rooms.Recordings{Dir: dir, Own: func(string) bool { return true }}, "h1", 100)
	write(t, replaced, 100, time.Now().Add(-2*time.Hour)) // the user's: same size, another time
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	var logs []string
	second := &rooms.Recordings{Dir: dir, Own: ownG, MaxBytes: 150,
		Logf: func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) }}
	if err := second.MakeRoom(); err != nil {
		t.Fatal(err)
	}
	exist(t, dir, map[string]bool{filepath.Base(a): false, filepath.Base(replaced): true, filepath.Base(b): true, filepath.Base(other): true})
	if !strings.Contains(strings.Join(logs, "\n"), "g2.rwd changed since the server recorded it") {
		t.Errorf("logs %q", logs)
	}
	manifest := testutil.ReadFile(t, filepath.Join(dir, rooms.ManifestFile))
	var listed []string
	for _, line := range strings.Split(strings.TrimSpace(string(manifest)), "\n") {
		f := strings.Fields(line)
		listed = append(listed, f[len(f)-1])
	}
	if got, want := strings.Join(listed, " "), "g4.rwd h1.rwd"; got != want {
		t.Errorf("manifest lists %s, want %s", got, want)
	}
	// the replaced file now fits the budget with g4; at 50, g4 goes and
	// the replaced file and h1 stay
	second.MaxBytes = 50
	if err := second.MakeRoom(); err != nil {
		t.Fatal(err)
	}
	exist(t, dir, map[string]bool{"g2.rwd": true, "g4.rwd": false, "h1.rwd": true})
}

// A manifest is read up to MaxManifestEntries entries (the rest are
// not rotated); a damaged line is skipped, a line cut by a crash does
// not join the next append.
func TestRecordingsManifestBounds(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rooms.ManifestFile)), 0o755); err != nil {
		t.Fatal(err)
	}
	late := filepath.Join(dir, "g-late.rwd")
	write(t, late, 100, time.Now().Add(-time.Hour))
	fi, err := os.Stat(late)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("not a line\n")
	for i := range rooms.MaxManifestEntries {
		fmt.Fprintf(&sb, "1 1 g-gone-%d.rwd\n", i)
	}
	fmt.Fprintf(&sb, "%d %d g-late.rwd\n", fi.Size(), fi.ModTime().UnixNano()) // past the bound
	sb.WriteString("100 17")                                                   // cut by a crash
	if err := os.WriteFile(filepath.Join(dir, rooms.ManifestFile), []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	d := &rooms.Recordings{Dir: dir, Own: ownG, MaxBytes: 1}
	mine := commit(t, d, "g-mine", 10)
	if err := d.MakeRoom(); err != nil {
		t.Fatal(err)
	}
	exist(t, dir, map[string]bool{"g-late.rwd": true, filepath.Base(mine): false})
	commit(t, d, "g-next", 10)
	manifest := testutil.ReadFile(t, filepath.Join(dir, rooms.ManifestFile))
	lines := strings.Split(strings.TrimSuffix(string(manifest), "\n"), "\n")
	if len(lines) != 1 || !strings.HasSuffix(lines[0], " g-next.rwd") {
		t.Errorf("manifest %q, want only g-next", lines)
	}

	// a line cut by a crash, then a commit: both recordings are known
	if err := os.WriteFile(filepath.Join(dir, rooms.ManifestFile), append(manifest, "100 17"...), 0o644); err != nil {
		t.Fatal(err)
	}
	commit(t, &rooms.Recordings{Dir: dir, Own: ownG}, "g-after", 10)
	d = &rooms.Recordings{Dir: dir, Own: ownG, MaxBytes: 1}
	if err := d.MakeRoom(); err != nil {
		t.Fatal(err)
	}
	exist(t, dir, map[string]bool{"g-next.rwd": false, "g-after.rwd": false, "g-late.rwd": true})
}

// Recover makes a cut recording whole up to its last whole round,
// removes one without a round and leaves other files alone.
func TestRecordingsRecover(t *testing.T) {
	dir := t.TempDir()
	d := &rooms.Recordings{Dir: dir, Own: ownG}
	rec, err := d.Create("g-7")
	if err != nil {
		t.Fatal(err)
	}
	info, ok := engine.About("monad")
	if !ok {
		t.Skip("monad is not registered")
	}
	seats := []match.GameSeat{{Bot: match.BuiltinPlayer(info.Bots[0])}, {Bot: match.BuiltinPlayer(info.Bots[0])}}
	ctx, cancel := context.WithCancel(context.Background())
	rounds := 0
	_, err = match.RunGame(ctx, match.GameConfig{Ruleset: info.Ruleset, Seed: 3, Seats: seats, MaxTurns: 100,
		Recorder: cutRecorder{recording.NewRecorder(rec, time.Unix(0, 0), "test"), &rounds, 12, cancel}})
	if err != nil {
		t.Fatal(err)
	}
	rec.Abandon()
	write(t, filepath.Join(dir, "g-8.rwd.partial"), 0, time.Now())
	write(t, filepath.Join(dir, "x.rwd.partial"), 10, time.Now())
	games := d.Recover(func(name string) (string, string) { return "room", strings.TrimPrefix(name, "g-") })
	if len(games) != 1 {
		t.Fatalf("recovered %+v", games)
	}
	g := games[0]
	if !g.Recovered || !g.Done || g.ID != "7" || g.Room != "room" || g.Turn < 12 || g.File != rec.Path || len(g.Players) != 2 {
		t.Errorf("recovered %+v", g)
	}
	f, err := os.Open(rec.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := replay.VerifySim(f, nil)
	if err != nil || res.Err != nil || !res.Complete || res.Rounds != g.Turn {
		t.Errorf("verify: %+v %v", res, err)
	}
	for name, want := range map[string]bool{"g-7.rwd.partial": false, "g-8.rwd.partial": false, "x.rwd.partial": true} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s there %v, want %v", name, err == nil, want)
		}
	}
}

// cutRecorder records without its footer: the match is cancelled after
// cut rounds and End writes nothing, as a kill leaves it.
type cutRecorder struct {
	*recording.Recorder
	rounds *int
	cut    int
	cancel func()
}

func (c cutRecorder) Round(rd *match.GameRound, g engine.Game) error {
	if *c.rounds++; *c.rounds >= c.cut {
		c.cancel()
	}
	return c.Recorder.Round(rd, g)
}

func (c cutRecorder) End(engine.Game) error { return nil }

func TestClientsBounds(t *testing.T) {
	c := rooms.Clients{PerAddr: 2, Total: 3}
	for i := range 2 {
		if err := c.Take("a"); err != nil {
			t.Fatalf("connection %d from a refused: %v", i+1, err)
		}
	}
	if err := c.Take("a"); err != rooms.ErrAddressFull {
		t.Errorf("a third from a: %v, want ErrAddressFull", err)
	}
	if err := c.Take("b"); err != nil {
		t.Fatal("b refused")
	}
	if err := c.Take("c"); err != rooms.ErrServerFull {
		t.Errorf("a fourth in all: %v, want ErrServerFull", err)
	}
	c.Release("a")
	if err := c.Take("c"); err != nil {
		t.Errorf("c refused after a release: %v", err)
	}
}
