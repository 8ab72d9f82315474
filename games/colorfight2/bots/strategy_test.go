package bots

import (
	"testing"
	"time"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// TestStrategiesDiffer checks the built-ins' signatures over a few seeds:
// the economist builds mines and wells, the greedy does not; the turtle
// builds more fortresses than anyone else; the greedy holds more cells than
// the turtle.
func TestStrategiesDiffer(t *testing.T) {
	names := BuiltinNames()
	totals := map[string]*playerStats{}
	for _, n := range names {
		totals[n] = &playerStats{name: n}
	}
	const seeds = 4
	for seed := uint64(1); seed <= seeds; seed++ {
		// Each strategy against random, so that the others' aggression
		// does not decide what it manages to build.
		for _, n := range names {
			r := playMatch(t, seed, []string{n, "random"})
			p := r.players[0]
			tot := totals[n]
			tot.cells += p.cells
			tot.mines += p.mines
			tot.wells += p.wells
			tot.fortresses += p.fortresses
			tot.gold += p.gold
		}
	}
	for _, n := range names {
		t.Logf("%-9s over %d games vs random: %+v", n, seeds, *totals[n])
	}
	eco, gr, tu := totals["economist"], totals["greedy"], totals["turtle"]
	if eco.mines+eco.wells <= gr.mines+gr.wells || eco.mines+eco.wells < 4*seeds {
		t.Errorf("economist mines+wells %d, greedy %d", eco.mines+eco.wells, gr.mines+gr.wells)
	}
	for _, n := range names {
		if n != "turtle" && totals[n].fortresses >= tu.fortresses {
			t.Errorf("%s built %d fortresses, turtle only %d", n, totals[n].fortresses, tu.fortresses)
		}
	}
	if gr.cells <= 2*tu.cells {
		t.Errorf("greedy holds %d cells, turtle %d", gr.cells, tu.cells)
	}

	// In an 8-player free-for-all, fortresses remain the turtle's mark.
	r := playMatch(t, 42, []string{"turtle", "greedy", "economist", "raider", "random", "greedy", "economist", "raider"})
	for _, p := range r.players[1:] {
		if p.fortresses >= r.players[0].fortresses {
			t.Errorf("8 players: %s built %d fortresses, turtle %d", p.name, p.fortresses, r.players[0].fortresses)
		}
	}
}

// TestStrongBeatsRandom checks that greedy and economist each out-earn
// random in most of ten seeded 2-player games.
func TestStrongBeatsRandom(t *testing.T) {
	for _, strong := range []string{"greedy", "economist", "raider"} {
		wins := 0
		for seed := uint64(1); seed <= 10; seed++ {
			names := []string{strong, "random"}
			if seed%2 == 0 {
				names = []string{"random", strong} // both seats
			}
			r := playMatch(t, 1000+seed, names)
			si := 0
			if names[1] == strong {
				si = 1
			}
			if r.players[si].gold > r.players[1-si].gold {
				wins++
			}
		}
		t.Logf("%s beats random in %d of 10 games", strong, wins)
		if wins < 8 {
			t.Errorf("%s beats random in only %d of 10 games", strong, wins)
		}
	}
}

// benchLineup is the 8-player lineup of BenchmarkBuiltinMatch.
var benchLineup = []string{"economist", "greedy", "raider", "random", "turtle", "greedy", "economist", "raider"}

// timedMatch plays benchLineup and returns the time spent in the bots'
// Commands (including parsing their output) and in the engine's Step.
func timedMatch(tb testing.TB, seed uint64) (bots, engine time.Duration) {
	cfg := colorfight2.DefaultConfig()
	s, err := colorfight2.NewFromSeed(cfg, seed, benchLineup)
	if err != nil {
		tb.Fatal(err)
	}
	bs := make([]Bot, len(benchLineup))
	for i, n := range benchLineup {
		bs[i], _ = Builtin(n)
		_ = bs[i].Start(i+1, botSeed(seed, i+1))
	}
	cmds := make([][]colorfight2.Command, len(bs))
	var f colorfight2.Frame
	s.Step(nil)
	for !s.Over() {
		t0 := time.Now()
		s.Frame(&f)
		t1 := time.Now()
		for i, b := range bs {
			out, err := b.Commands(&f)
			if err != nil {
				tb.Fatal(err)
			}
			cmds[i] = cmds[i][:0]
			for _, c := range out {
				cmds[i] = append(cmds[i], colorfight2.ParseCommand(c))
			}
		}
		t2 := time.Now()
		s.Step(cmds)
		t3 := time.Now()
		bots += t2.Sub(t1)
		engine += t1.Sub(t0) + t3.Sub(t2)
	}
	return bots, engine
}

// BenchmarkBuiltinMatch plays a 500-round 8-player match of built-ins
// (one of each plus repeats); one op is one match. It reports the time
// spent in the bots and in the engine (Frame + Step) per match.
func BenchmarkBuiltinMatch(b *testing.B) {
	b.ReportAllocs()
	var bt, et time.Duration
	for i := 0; i < b.N; i++ {
		x, y := timedMatch(b, uint64(i%8)+1)
		bt += x
		et += y
	}
	b.ReportMetric(float64(bt.Nanoseconds())/float64(b.N), "bot-ns/op")
	b.ReportMetric(float64(et.Nanoseconds())/float64(b.N), "engine-ns/op")
}
