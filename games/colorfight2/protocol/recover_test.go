package protocol

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// Issue 25, "SIGKILL mid-game": a server killed during a game leaves a
// .partial; the next server on the folder recovers it to its last whole
// round — a .rwd that verifies, with its footer there — and lists it.
func TestKilledGameRecoveredAndListed(t *testing.T) {
	if dir := os.Getenv("REWIND_SERVER_CRASH_DIR"); dir != "" {
		crashChild(t, dir)
		return
	}
	dir := t.TempDir()
	// The child is killed, so its own t.TempDir is never removed: keep it
	// inside this test's, which is.
	childTmp := t.TempDir()
	reached := testutil.KillChildAt(t, []string{"REWIND_SERVER_CRASH_DIR=" + dir, "TMPDIR=" + childTmp}, func(line string) bool { return line == "turn 50" })
	if !reached {
		t.Fatal("the child server did not reach turn 50")
	}
	partials, _ := filepath.Glob(filepath.Join(dir, "*.partial"))
	if len(partials) != 1 {
		t.Fatalf("partials %v", partials)
	}
	// an empty .partial (a start cut before its header) holds no game
	empty := filepath.Join(dir, "r-1.rwd.partial")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}

	s, err := New(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	games := s.Games()
	if len(games) != 1 {
		t.Fatalf("listed %+v", games)
	}
	g := games[0]
	if !g.Recovered || !g.Done || g.Turn < 50 || g.Turn >= g.MaxTurn || g.Room != "r" || len(g.Players) != 2 || g.File != strings.TrimSuffix(partials[0], ".partial") {
		t.Errorf("recovered game %+v", g)
	}
	f, err := os.Open(g.File)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := replay.VerifySim(f, nil)
	if err != nil || res.Err != nil || !res.Complete || res.Rounds != g.Turn {
		t.Errorf("verify %s: %+v %v", g.File, res, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.partial*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
	data, _, _, err := s.Recording(g.ID)
	if err != nil || len(data) == 0 {
		t.Errorf("Recording(%s): %d bytes, %v", g.ID, len(data), err)
	}
}

// crashChild plays a lock-step game in dir with one remote player it
// drives itself, up to turn 50, says so, and waits to be killed.
func crashChild(t *testing.T, dir string) {
	ts := newTestServer(t, Options{Dir: dir, LockstepDeadline: time.Hour})
	cfg := lockstep(500, "greedy")
	cfg.MaxPlayer = 2
	gc, players, _ := ts.startPlayers(cfg, "p")
	for turn := 2; turn <= 50; turn++ {
		players[0].command("a 99 99 1")
		waitState(t, gc, atTurn(turn))
	}
	ts.waitTurn(ts.s.Games()[0].ID, 50)
	fmt.Println("turn 50")
	time.Sleep(safety)
}
