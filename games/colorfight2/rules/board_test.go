package rules

import (
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// TestBoardLayers: the seam's board gives each cell's natural cost as its
// terrain, its attack cost as its value and its natural gold and energy
// as the layers natural_gold and natural_energy, as the Frame has them,
// reusing the board's storage from round to round.
func TestBoardLayers(t *testing.T) {
	g, err := Ruleset.New(11, engine.Settings{Players: 2, MaxTurns: 5})
	if err != nil {
		t.Fatal(err)
	}
	var b engine.Board
	for round := 0; round < 3; round++ {
		if round > 0 {
			g.Round(nil)
		}
		g.Board(&b)
		f := g.(*Game).Frame()
		if len(b.Layers) != 2 || b.Layers[0].Name != "natural_gold" || b.Layers[1].Name != "natural_energy" {
			t.Fatalf("round %d: layers %+v", round, b.Layers)
		}
		varied := false
		for i := range f.Cells {
			c := &f.Cells[i]
			if b.Cells[i].Terrain != c.NaturalCost || b.Cells[i].Value != c.AttackCost ||
				b.Layers[0].Values[i] != c.NaturalGold || b.Layers[1].Values[i] != c.NaturalEnergy {
				t.Fatalf("round %d, cell %d: board %+v, gold %d, energy %d; frame %+v", round, i, b.Cells[i], b.Layers[0].Values[i], b.Layers[1].Values[i], *c)
			}
			varied = varied || c.NaturalGold != f.Cells[0].NaturalGold
		}
		if !varied {
			t.Fatalf("round %d: every cell has natural gold %d", round, f.Cells[0].NaturalGold)
		}
		if len(b.Layers[0].Values) != len(b.Cells) || len(b.Layers[1].Values) != len(b.Cells) {
			t.Fatalf("layers of %d and %d values, %d cells", len(b.Layers[0].Values), len(b.Layers[1].Values), len(b.Cells))
		}
	}
	// Describing again reuses the layers' storage.
	before := &b.Layers[0].Values[0]
	if allocs := testing.AllocsPerRun(5, func() { g.Board(&b) }); allocs != 0 || &b.Layers[0].Values[0] != before {
		t.Errorf("Describe again: %v allocations, storage reused %v", allocs, &b.Layers[0].Values[0] == before)
	}
}
