package rules_test

import (
	"math"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight1/rules"
)

// TestBoardAttacks: at every tick of a game of the four built-ins (3000
// ticks: the aggressor blasts), the
// board has one "attack" entity per cell being taken and no other, on
// that cell, by the attacker's seat (−1 for a blast), its Value the
// attack's whole duration in ms (0 for a spawn's, taken at once) and at
// least the cell's Value (the ms left); drawing the board changes no
// hash; once its slices have grown, Board allocates nothing.
func TestBoardAttacks(t *testing.T) {
	m := newBuiltinsMatch(t, 4, 3000)
	g := m.g
	game := g.(*rules.Game)
	var b engine.Board
	inFlight, blasts, most := 0, 0, 0
	for !g.Over() {
		m.tick()
		h := g.Hash()
		g.Board(&b)
		if g.Hash() != h {
			t.Fatalf("tick %d: Board changed the hash", g.Turn())
		}
		taking := 0
		for _, c := range b.Cells {
			if c.Badges&4 != 0 {
				taking++
			}
		}
		if len(b.Entities) != taking {
			t.Fatalf("turn %d: %d entities for %d cells being taken", g.Turn(), len(b.Entities), taking)
		}
		most = max(most, taking)
		for _, e := range b.Entities {
			id := e.Y*rules.Width + e.X
			c, sc := b.Cells[id], game.State.Cells[id]
			total := int64(math.Ceil((sc.FinishTime - sc.AttackTime) * 1000))
			if e.Kind != "attack" || c.Badges&4 == 0 || e.Value != total || e.Value < 0 || c.Value > e.Value || c.Value < 0 ||
				e.Player != game.Seat(int(sc.Attacker)) {
				t.Fatalf("turn %d: entity %+v on cell %+v (attacker uid %d, duration %d ms)", g.Turn(), e, c, sc.Attacker, total)
			}
			inFlight++
			if c.Badges&8 != 0 {
				blasts++
				if e.Player != -1 {
					t.Errorf("turn %d: a blast's entity has player %d, want -1", g.Turn(), e.Player)
				}
			}
		}
	}
	if inFlight == 0 || most < 2 || blasts == 0 {
		t.Fatalf("%d attacks in flight seen (%d of blasts), at most %d at once: the game attacks too little to test", inFlight, blasts, most)
	}
	t.Logf("%d attack-ticks in flight (%d of blasts), at most %d at once", inFlight, blasts, most)
	// Steady state: the board's slices have room for every cell being
	// taken at once.
	b.Entities = make([]engine.Entity, 0, rules.NumCells)
	if n := testing.AllocsPerRun(50, func() { g.Board(&b) }); n != 0 {
		t.Errorf("Board allocates %v times a call", n)
	}
}
