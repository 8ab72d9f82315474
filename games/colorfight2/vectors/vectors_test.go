package vectors

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/testutil"
)

const vectorDir = "../../../testdata/conformance"

// vector is one vector's two files.
type vector struct {
	Name, Commands, CFR string
}

// vectors returns the vectors of testdata/conformance, by name.
func vectors(t *testing.T) []vector {
	t.Helper()
	ms, err := filepath.Glob(filepath.Join(vectorDir, "*"+Expected))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) < 6 {
		t.Fatalf("found %d vectors in %s, want at least 6", len(ms), vectorDir)
	}
	var vs []vector
	for _, m := range ms {
		stem := strings.TrimSuffix(m, Expected)
		vs = append(vs, vector{Name: filepath.Base(stem), Commands: stem + Input, CFR: m})
	}
	return vs
}

// runFiles is Run on v's files.
func runFiles(t *testing.T, v vector, visit func(*colorfight2.Frame) error) (*Result, error) {
	t.Helper()
	lf, err := os.Open(v.Commands)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	rf, err := os.Open(v.CFR)
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	return Run(lf, rf, visit)
}

// TestVectors replays every conformance vector and requires every field of
// every cell and user in every frame, and every per-player error count, to
// match the reference server.
func TestVectors(t *testing.T) {
	for _, v := range vectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			res, err := runFiles(t, v, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Pass() {
				t.Fatalf("diverges: %s", res.Divergence)
			}
			g, err := Load(v.Commands, v.CFR)
			if err != nil {
				t.Fatal(err)
			}
			if res.Rounds != g.Config.MaxTurn {
				t.Fatalf("compared %d rounds, want %d", res.Rounds, g.Config.MaxTurn)
			}
		})
	}
}

// TestEncodeEngineFrames encodes the frames our engine produces for each
// vector as a .cfr (info carried over from the source) and requires the
// JSON to equal the reference replay's, byte for byte after decompression.
func TestEncodeEngineFrames(t *testing.T) {
	for _, v := range vectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			g, err := Load(v.Commands, v.CFR)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			enc, err := cfr.NewJSONEncoder(&out, cfr.Header{Info: g.Header.Info, Chat: g.Header.Chat, Error: g.Header.Error})
			if err != nil {
				t.Fatal(err)
			}
			res, err := runFiles(t, v, enc.WriteFrame)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Pass() {
				t.Fatalf("diverges: %s", res.Divergence)
			}
			if err := enc.Close(); err != nil {
				t.Fatal(err)
			}
			want := testutil.GunzipFile(t, v.CFR)
			if !bytes.Equal(out.Bytes(), want) {
				i := 0
				for i < len(want) && i < out.Len() && want[i] == out.Bytes()[i] {
					i++
				}
				t.Fatalf("encoded JSON differs from %s at byte %d: want %q, got %q", v.CFR, i,
					snippet(want, i), snippet(out.Bytes(), i))
			}
			// And as parsed JSON values (independent of our decoder).
			var a, b any
			if err := json.Unmarshal(want, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(out.Bytes(), &b); err != nil {
				t.Fatal(err)
			}
			aj, _ := json.Marshal(a)
			bj, _ := json.Marshal(b)
			if !bytes.Equal(aj, bj) {
				t.Fatal("encoded JSON value differs")
			}
		})
	}
}

func snippet(b []byte, i int) string {
	lo, hi := max(0, i-40), min(len(b), i+40)
	return string(b[lo:hi])
}

// copyVector copies vector name into a temp dir, letting edit rewrite the
// command log, and returns the new vector.
func copyVector(t *testing.T, name string, edit func(*rawLog)) vector {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(vectorDir, name)
	b := testutil.ReadFile(t, src+".commands.json")
	if edit != nil {
		var raw rawLog
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		edit(&raw)
		var err error
		if b, err = json.Marshal(raw); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, name+".commands.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	c := testutil.ReadFile(t, src+".cfr")
	if err := os.WriteFile(filepath.Join(dir, name+".cfr"), c, 0o644); err != nil {
		t.Fatal(err)
	}
	return vector{Name: name, Commands: filepath.Join(dir, name+".commands.json"), CFR: filepath.Join(dir, name+".cfr")}
}

// TestDivergenceReported checks that a changed command log is caught at
// the right round, with the field that differs.
func TestDivergenceReported(t *testing.T) {
	// Drop every command player 2 sent at turn 10: frame 11 must differ.
	v := copyVector(t, "c06", func(r *rawLog) {
		for i := range r.Turns {
			if r.Turns[i].Turn == 10 {
				delete(r.Turns[i].Commands, "2")
			}
		}
	})
	res, err := runFiles(t, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass() {
		t.Fatal("edited vector passed")
	}
	if res.Divergence.Round != 11 {
		t.Errorf("divergence at round %d, want 11: %s", res.Divergence.Round, res.Divergence)
	}
	if !strings.Contains(res.Divergence.String(), "round 11") {
		t.Errorf("report %q does not name the round", res.Divergence)
	}
}

// TestErrorCountChecked: a failing command added to the log (which changes
// no state) is caught by the error counts.
func TestErrorCountChecked(t *testing.T) {
	v := copyVector(t, "c06", func(r *rawLog) {
		for i := range r.Turns {
			if r.Turns[i].Turn == 20 {
				r.Turns[i].Commands["1"] = append(r.Turns[i].Commands["1"], "x 1 2 3")
			}
		}
	})
	res, err := runFiles(t, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass() || res.Divergence.Frame != nil || res.Divergence.Round != 21 || res.Divergence.UID != 1 {
		t.Fatalf("want an error-count divergence for user 1 at round 21, got %v", res.Divergence)
	}
}

// TestStateHashTracksFrames: the state hash changes whenever the frame does.
func TestStateHashTracksFrames(t *testing.T) {
	v := vectors(t)[0]
	g, err := Load(v.Commands, v.CFR)
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.NewState()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]int{}
	var cmds [][]colorfight2.Command
	for t0 := 0; t0 < g.Config.MaxTurn; t0++ {
		cmds = g.Commands(t0, cmds)
		s.Step(cmds)
		h := s.Hash()
		if prev, ok := seen[h]; ok {
			t.Fatalf("turns %d and %d hash equal", prev, s.Turn())
		}
		seen[h] = s.Turn()
	}
}
