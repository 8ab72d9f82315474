package colorfight2_test

import (
	"path/filepath"
	"testing"

	"github.com/rewind-game/rewind/engine/colorfight2"
)

// TestInferCommands: for every round of every reference replay, the
// inferred commands, played from the previous frame, give exactly the next
// frame.
func TestInferCommands(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/conformance/*.cfr")
	paths = append(paths, "../../testdata/realworld/RuntimeTerrorsVictory.cfr")
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			fs := frames(t, p)
			cfg := configOf(&fs[0], len(fs)-1)
			var got colorfight2.Frame
			bad := 0
			for turn := 1; turn+1 < len(fs); turn++ {
				prev, next := byUID(&fs[turn]), byUID(&fs[turn+1])
				st, err := colorfight2.FromFrame(cfg, prev)
				if err != nil {
					t.Fatalf("turn %d: %v", turn, err)
				}
				cmds, err := colorfight2.InferCommands(st, prev, next)
				if err != nil {
					t.Fatalf("turn %d: %v", turn, err)
				}
				st.Step(cmds)
				st.Frame(&got)
				if d := colorfight2.Diff(next, &got); d != nil {
					bad++
					if bad <= 5 {
						t.Errorf("round %d->%d: %v; errors %v; commands %v", turn, turn+1, d, st.Errors(), cmds)
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d rounds not reproduced", bad, len(fs)-2)
			}
		})
	}
}
