package vectors

import (
	"path/filepath"
	"testing"

	"github.com/rewind-game/rewind/internal/testutil"
)

const monadDir = "../../../testdata/monad"

// parse returns what fn makes of b, failing t on its error.
func parse[T any](t *testing.T, fn func([]byte) (T, error), b []byte) T {
	t.Helper()
	v, err := fn(b)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func readVector(t *testing.T, path string) *Vector {
	t.Helper()
	return parse(t, ParseVector, testutil.ReadFile(t, path))
}

func readStates(t *testing.T, path string) *States {
	t.Helper()
	return parse(t, ParseStates, testutil.GunzipFile(t, path))
}

// TestMonadVectors replays the six Monad vectors recorded on the reference
// engine and requires every field of every turn to match (see Conform),
// the map generator included.
func TestMonadVectors(t *testing.T) {
	names, err := filepath.Glob(filepath.Join(monadDir, "*.commands.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 6 {
		t.Fatalf("found %d Monad vectors, want 6", len(names))
	}
	for _, name := range names {
		stem := name[:len(name)-len(".commands.json")]
		t.Run(filepath.Base(stem), func(t *testing.T) {
			b := testutil.ReadFile(t, name)
			if !IsVector(b) {
				t.Fatal("not recognised as a Monad vector")
			}
			mv := readVector(t, name)
			if d := CompareMap(mv); d != nil {
				t.Fatalf("map generator: %s", d)
			}
			st := readStates(t, stem+".states.json.gz")
			res, err := Compare(mv, st)
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
	mv := readVector(t, monadDir+"/m05.commands.json")
	cases := []struct {
		name   string
		change func(st *States)
		want   string
	}{
		{"units", func(st *States) { st.Frames[7].Units[0][3]++ }, "turn 7: frames.units[0]: "},
		{"hive counter", func(st *States) { st.Frames[9].Hives[1][3]-- }, "turn 9: frames.hives[1]: "},
		{"resource", func(st *States) { st.Frames[3].Resource[2][4]++ }, "turn 3: frames.resource[2][4]: "},
		{"res", func(st *States) { st.Log.Turns[12].Res[1]++ }, "turn 12: log.turns.res[1]: "},
		{"cmd", func(st *States) { st.Log.Turns[4].Cmd[0].N++ }, "turn 4: log.turns.cmd[0]: "},
		{"rank", func(st *States) { st.Log.RankedBots[0].Rank = 2 }, "turn 100: log.rankedBots[0]: "},
		{"sha", func(st *States) { st.LogSHA256 = "00" }, "turn 100: log_sha256"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := readStates(t, monadDir+"/m05.states.json.gz")
			c.change(st)
			res, err := Compare(mv, st)
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
	if d := CompareMap(mv); d == nil {
		t.Error("another seed's map was not noticed")
	}
}
