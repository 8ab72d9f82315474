package bots

import (
	"testing"

	"github.com/rewind-game/rewind/engine"
	skyport "github.com/rewind-game/rewind/games/skyport/rules"
)

// play runs one game between the named strategies through the seam and
// returns the final scores and the number of rounds.
func play(t *testing.T, seed uint64, turns int, names ...string) ([]int, int, []int) {
	t.Helper()
	g, err := skyport.Ruleset.New(seed, engine.Settings{Players: len(names), MaxTurns: turns, Names: names})
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]engine.Strategy, len(names))
	for i, n := range names {
		b, ok := New(n, seed*31+uint64(i))
		if !ok {
			t.Fatalf("no strategy %q", n)
		}
		bots[i] = b
	}
	rejected := make([]int, len(names))
	cmds := make([][]string, len(names))
	rounds := 0
	for !g.Over() {
		p := g.Active()
		for i := range cmds {
			cmds[i] = bots[i].Commands(g, i, cmds[i][:0])
			if i != p && len(cmds[i]) != 0 {
				t.Fatalf("%s answered out of turn", names[i])
			}
		}
		for _, e := range g.Round(cmds) {
			rejected[e.Player]++
		}
		rounds++
		if rounds > g.MaxTurns()+1 {
			t.Fatal("game does not end")
		}
	}
	scores := make([]int, len(names))
	for p := range scores {
		scores[p] = int(g.Values(p, nil)[0])
	}
	return scores, rounds, rejected
}

func TestStrategiesBeatRandom(t *testing.T) {
	for _, s := range []string{"miner", "hunter", "artillery"} {
		wins := 0
		for seed := uint64(1); seed <= 4; seed++ {
			sc, rounds, rej := play(t, seed, 200, s, "random")
			if rounds != 200 {
				t.Errorf("%s seed %d: %d rounds, want 200", s, seed, rounds)
			}
			if sc[0] > sc[1] {
				wins++
			}
			t.Logf("%s vs random, seed %d: %v (rejected lines %v)", s, seed, sc, rej)
		}
		if wins < 3 {
			t.Errorf("%s beat random in %d of 4 games", s, wins)
		}
	}
}

func TestStrategiesDeterministic(t *testing.T) {
	names := []string{"random", "miner", "hunter", "artillery"}
	a, _, _ := play(t, 9, 160, names...)
	b, _, _ := play(t, 9, 160, names...)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("scores %v then %v", a, b)
		}
	}
	t.Logf("four-way game: %v", a)
}

// The real strategies send only lines the reference accepts as actions
// (apart from the random one).
func TestStrategiesSendValidLines(t *testing.T) {
	_, _, rej := play(t, 3, 200, "hunter", "artillery", "miner")
	for i, n := range rej {
		if n > 20 {
			t.Errorf("player %d: %d rejected lines", i, n)
		}
	}
	t.Logf("rejected lines %v", rej)
}

func TestUnknownStrategy(t *testing.T) {
	if _, ok := New("chess", 1); ok {
		t.Error("unknown strategy accepted")
	}
	for _, n := range Names {
		b, ok := New(n, 1)
		if !ok || b.Name != n {
			t.Errorf("%s: %q %v", n, b.Name, ok)
		}
	}
}
