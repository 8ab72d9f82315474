package protocol

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// heapInUse is the live heap after a full collection.
func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// Issue 25, "one hostile bot's memory": a bot sending 2,500 random failing
// commands every round for three games leaves the server's heap where
// the first game left it — no recording's bytes are held once a game is
// over (docs/limits.md, rewind server: O(1) per finished game). Each game
// here writes several megabytes to disk.
func TestFloodBotMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 600 rounds of 2,500 commands")
	}
	ts := newTestServer(t, Options{AdminPassword: "master"})
	cfg := lockstep(200, "greedy")
	cfg.MaxPlayer = 2
	ts.createRoom("r", cfg)
	rng := rand.New(rand.NewPCG(25, 25))
	flood := make([]string, 2500)
	var base int64
	for game := 1; game <= 3; game++ {
		gc := ts.dial("r", "game_channel")
		a := ts.action("r")
		a.register("flood", "p")
		ts.mustPost("/start", map[string]any{"gameroom_id": "r", "admin_password": "master"})
		for turn := 1; turn < 200; turn++ {
			waitState(t, gc, atTurn(turn))
			for i := range flood {
				// off the map, so it fails; random, so it does not compress
				flood[i] = "a " + strconv.Itoa(100+rng.IntN(1e6)) + " " + strconv.Itoa(rng.IntN(1e6)) + " " + strconv.Itoa(rng.IntN(1e6))
			}
			if r := a.command(flood...); r["success"] != true {
				t.Fatalf("turn %d: %v", turn, r)
			}
		}
		id := ts.s.Games()[0].ID
		g := ts.waitTurn(id, 1<<30)
		if !g.Done || g.Turn != 200 {
			t.Fatalf("game %d: %+v", game, g)
		}
		if fi, err := os.Stat(g.File); err == nil {
			t.Logf("game %d: %s, %.1f MB on disk", game, filepath.Base(g.File), float64(fi.Size())/(1<<20))
		}
		gc.CloseNow()
		a.c.CloseNow()
		heap := heapInUse()
		t.Logf("game %d: heap %.1f MB", game, float64(heap)/(1<<20))
		if game == 1 {
			base = heap
		} else if grew := heap - base; grew > 4<<20 {
			t.Errorf("after game %d the heap grew by %.1f MB since game 1: recordings are held", game, float64(grew)/(1<<20))
		}
		ts.mustPost("/restart", map[string]any{"gameroom_id": "r", "admin_password": "master", "config": map[string]any{}})
	}
}
