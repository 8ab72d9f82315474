package conform

import "testing"

const monadDir = "../testdata/monad"

// TestMonadVectors replays the six Monad vectors recorded on the reference
// engine and requires every field of every turn to match (see RunMonad),
// the map generator included.
func TestMonadVectors(t *testing.T) {
	vs, err := Find([]string{monadDir})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 6 {
		t.Fatalf("found %d Monad vectors, want 6", len(vs))
	}
	for _, v := range vs {
		t.Run(v.Name, func(t *testing.T) {
			if v.Game != GameMonad {
				t.Fatalf("game %q, want %q", v.Game, GameMonad)
			}
			mv, err := ReadMonadVector(v.Commands)
			if err != nil {
				t.Fatal(err)
			}
			if d := CompareMonadMap(mv); d != nil {
				t.Fatalf("map generator: %s", d)
			}
			st, err := ReadMonadStates(v.States)
			if err != nil {
				t.Fatal(err)
			}
			res, err := CompareMonad(mv, st)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Pass() {
				t.Fatalf("diverges: %s", res.Divergence)
			}
			if got, want := res.Turns, len(st.Rounds); got != want {
				t.Fatalf("compared %d turns, want %d", got, want)
			}
		})
	}
}

// TestMonadDivergenceReported changes one field of the reference's output
// at a time and requires the comparison to name it with its turn.
func TestMonadDivergenceReported(t *testing.T) {
	mv, err := ReadMonadVector(monadDir + "/m05.commands.json")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		change func(st *MonadStates)
		want   string
	}{
		{"units", func(st *MonadStates) { st.Frames[7].Units[0][3]++ }, "turn 7: frames.units[0]: "},
		{"hive counter", func(st *MonadStates) { st.Frames[9].Hives[1][3]-- }, "turn 9: frames.hives[1]: "},
		{"resource", func(st *MonadStates) { st.Frames[3].Resource[2][4]++ }, "turn 3: frames.resource[2][4]: "},
		{"res", func(st *MonadStates) { st.Log.Turns[12].Res[1]++ }, "turn 12: log.turns.res[1]: "},
		{"cmd", func(st *MonadStates) { st.Log.Turns[4].Cmd[0].N++ }, "turn 4: log.turns.cmd[0]: "},
		{"rank", func(st *MonadStates) { st.Log.RankedBots[0].Rank = 2 }, "turn 100: log.rankedBots[0]: "},
		{"sha", func(st *MonadStates) { st.LogSHA256 = "00" }, "turn 100: log_sha256"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, err := ReadMonadStates(monadDir + "/m05.states.json.gz")
			if err != nil {
				t.Fatal(err)
			}
			c.change(st)
			res, err := CompareMonad(mv, st)
			if err != nil {
				t.Fatal(err)
			}
			if res.Pass() {
				t.Fatal("the change went unnoticed")
			}
			if got := res.Divergence.String(); len(got) < len(c.want) || got[:len(c.want)] != c.want {
				t.Errorf("divergence %q, want it to start with %q", got, c.want)
			}
		})
	}
	mv.Seed++
	if d := CompareMonadMap(mv); d == nil {
		t.Error("another seed's map was not noticed")
	}
}
