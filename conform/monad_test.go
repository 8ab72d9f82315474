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
