package vectors

import (
	"os"
	"path/filepath"
	"testing"

	skyport "github.com/rewind-game/rewind/games/skyport/rules"
)

// BenchmarkPlayerTurn measures one player-turn (State.PlayTurn: reading
// the actor's raw lines, performing up to three actions, penalties and
// the ring's advance) over the turns of all six vectors in order,
// restarting a vector from its post-loadout state (State.CopyFrom) when
// it ends.
func BenchmarkPlayerTurn(b *testing.B) {
	dir := Dir(filepath.Join("..", "..", "..", "..", "shared", "skyport"))
	if _, err := os.Stat(filepath.Join(dir, "s01.input.json")); err != nil {
		b.Skipf("skyport vectors not found in %s (set REWIND_SKYPORT)", dir)
	}
	type vec struct {
		start, st *skyport.State
		g         *Game
		disc      [][]int // players disconnecting before turn index t
	}
	var vs []vec
	total := 0
	for _, name := range []string{"s01", "s02", "s03", "s04", "s05", "s06"} {
		g, err := Load(dir, name)
		if err != nil {
			b.Fatal(err)
		}
		start, err := g.Start()
		if err != nil {
			b.Fatal(err)
		}
		st, _ := g.Start()
		disc := make([][]int, len(g.Turns))
		for t := range disc {
			disc[t] = g.Disconnects[t+1]
		}
		vs = append(vs, vec{start, st, g, disc})
		total += len(g.Turns)
	}
	// Warm the arenas with one full pass.
	for _, v := range vs {
		for t, lines := range v.g.Turns {
			for _, p := range v.g.Disconnects[t+1] {
				v.st.Disconnect(p)
			}
			v.st.PlayTurn(lines)
		}
		v.st.CopyFrom(v.start)
	}
	b.ReportAllocs()
	b.ResetTimer()
	vi, t := 0, 0
	for i := 0; i < b.N; i++ {
		v := &vs[vi]
		for _, p := range v.disc[t] {
			v.st.Disconnect(p)
		}
		v.st.PlayTurn(v.g.Turns[t])
		t++
		if t == len(v.g.Turns) {
			v.st.CopyFrom(v.start)
			t = 0
			vi = (vi + 1) % len(vs)
		}
	}
	_ = total
}
