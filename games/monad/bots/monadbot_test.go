package bots

import (
	"testing"

	monad "github.com/rewind-game/rewind/games/monad/rules"
)

type outcome struct {
	turn  int
	stats []monad.PlayerStats
	// errs counts each player's rejected commands by code.
	errs []map[monad.ErrCode]int
	rank []monad.Rank
	hash uint64
}

// play runs a game of the named built-ins directly on a State.
func play(t *testing.T, seed int64, maxTurns int, names ...string) outcome {
	t.Helper()
	s, err := monad.New(monad.Config{Players: len(names), MaxTurns: maxTurns, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]Bot, len(names))
	for i, n := range names {
		if bots[i], err = Builtin(n); err != nil {
			t.Fatal(err)
		}
		if err := bots[i].Start(i, uint64(seed)*31+uint64(i)); err != nil {
			t.Fatal(err)
		}
	}
	o := outcome{errs: make([]map[monad.ErrCode]int, len(names))}
	for i := range o.errs {
		o.errs[i] = map[monad.ErrCode]int{}
	}
	cmds := make([][]monad.Command, len(names))
	for !s.Over() {
		for i, b := range bots {
			texts, err := b.Commands(s)
			if err != nil {
				t.Fatal(err)
			}
			cmds[i] = cmds[i][:0]
			for _, c := range texts {
				cmds[i] = append(cmds[i], monad.ParseCommand([]byte(c)))
			}
		}
		s.Step(cmds)
		for _, e := range s.Errors() {
			o.errs[e.Player][e.Code]++
		}
	}
	o.turn, o.rank, o.hash = s.Turn(), s.Ranking(), s.Hash()
	for i := range names {
		o.stats = append(o.stats, s.Stats(i))
	}
	return o
}

func TestDistance(t *testing.T) {
	for y := 0; y < monad.Height; y++ {
		for x := 0; x < monad.Width; x++ {
			for d := monad.East; d <= monad.SouthWest; d++ {
				nx, ny := monad.Neighbor(x, y, d)
				if got := Distance(x, y, nx, ny); got != 1 {
					t.Fatalf("(%d,%d) -> %v (%d,%d): distance %d", x, y, d, nx, ny, got)
				}
			}
		}
	}
	if d := Distance(1, 1, 18, 18); d < 17 || d > 26 {
		t.Errorf("corner to corner %d", d)
	}
}

// TestLegal: against a bot that does nothing, every built-in's commands
// are well formed and pass the engine's checks.
func TestLegal(t *testing.T) {
	for _, n := range BuiltinNames() {
		for seed := int64(1); seed <= 3; seed++ {
			o := play(t, seed, 300, n, "idle")
			if len(o.errs[0]) != 0 {
				t.Errorf("%s seed %d: rejected commands %v", n, seed, o.errs[0])
			}
		}
	}
}

// TestDeterministic: the same seed plays the same game.
func TestDeterministic(t *testing.T) {
	a := play(t, 5, 200, "expander", "miner", "rusher")
	b := play(t, 5, 200, "expander", "miner", "rusher")
	if a.hash != b.hash || a.turn != b.turn {
		t.Fatalf("two runs differ: %x@%d, %x@%d", a.hash, a.turn, b.hash, b.turn)
	}
}

// TestStrategiesDiffer checks each strategy's signature against an idle
// opponent: the miner builds the most hives, the expander holds the most
// cells, the rusher destroys the enemy's hive (it never builds).
func TestStrategiesDiffer(t *testing.T) {
	res := map[string]outcome{}
	for _, n := range []string{"expander", "miner", "rusher"} {
		res[n] = play(t, 11, 300, n, "idle")
		t.Logf("%-8s vs idle: turn %d, %+v %v", n, res[n].turn, res[n].stats[0], res[n].errs[0])
	}
	ex, mi, ru := res["expander"], res["miner"], res["rusher"]
	if mi.stats[0].Hives <= ex.stats[0].Hives || mi.stats[0].Hives <= ru.stats[0].Hives {
		t.Errorf("miner has %d hives, expander %d, rusher %d", mi.stats[0].Hives, ex.stats[0].Hives, ru.stats[0].Hives)
	}
	if ex.stats[0].Cells <= ru.stats[0].Cells {
		t.Errorf("expander holds %d cells, rusher %d", ex.stats[0].Cells, ru.stats[0].Cells)
	}
	if ru.stats[1].Hives != 0 || ru.turn >= 300 || ru.rank[0].Player != 0 {
		t.Errorf("rusher did not destroy the idle hive: idle has %d hives at turn %d", ru.stats[1].Hives, ru.turn)
	}
	// Head to head the games end differently.
	h := map[uint64]bool{}
	for _, pair := range [][2]string{{"expander", "miner"}, {"miner", "rusher"}, {"rusher", "expander"}} {
		o := play(t, 3, 300, pair[0], pair[1])
		t.Logf("%s vs %s: turn %d, ranking %v", pair[0], pair[1], o.turn, o.rank)
		h[o.hash] = true
	}
	if len(h) != 3 {
		t.Errorf("head-to-head games are not all different")
	}
}
