package rooms_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/rooms"
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

// The budget counts the server's own recordings only; rotate removes
// the oldest finished ones, refuse refuses.
func TestRecordingsBudget(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	write(t, filepath.Join(dir, "g1.rwd"), 100, old)
	write(t, filepath.Join(dir, "g2.rwd"), 100, old.Add(time.Minute))
	write(t, filepath.Join(dir, "g3.rwd.partial"), 100, old)
	write(t, filepath.Join(dir, "other.rwd"), 1000, old)
	d := &rooms.Recordings{Dir: dir, Own: ownG, MaxBytes: 250, Full: rooms.DiskRefuse}
	if err := d.MakeRoom(); err == nil {
		t.Error("refuse: no error at 300 of 250 bytes")
	}
	d.Full = rooms.DiskRotate
	if err := d.MakeRoom(); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"g1.rwd": false, "g2.rwd": true, "g3.rwd.partial": true, "other.rwd": true} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s kept %v, want %v", name, err == nil, want)
		}
	}
	d.MaxBytes = 50 // the partial alone passes it: nothing more to remove
	if err := d.MakeRoom(); err == nil {
		t.Error("a budget the games being played pass: no error")
	}
	if _, err := os.Stat(filepath.Join(dir, "g3.rwd.partial")); err != nil {
		t.Error("a recording being written was removed")
	}
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
