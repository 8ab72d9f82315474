package rules_test

import (
	"slices"
	"testing"

	"github.com/rewind-game/rewind/engine"
	monad "github.com/rewind-game/rewind/games/monad/rules"
)

// stateView is a State as a MapView, through its exported accessors.
type stateView struct{ s *monad.State }

func (v stateView) MapCell(x, y int) (resource, occupant, units, hive int) {
	occupant, units = v.s.Occupant(x, y)
	hive, _, ok := v.s.Hive(x, y)
	if !ok {
		hive = -1
	}
	return v.s.Resource(x, y), occupant, units, hive
}

// TestBoardIsDescribeMap plays seeded games of the built-in bots and
// checks, every turn, that Game.Board (which reads the State's cells
// directly) describes the board DescribeMap describes from the State's
// accessors, into a board reused from turn to turn as a stream reuses
// its frame's; the games reach empty hive cells (the hive's owner shown)
// and cells of every player.
func TestBoardIsDescribeMap(t *testing.T) {
	emptyHives, owners := 0, map[int]bool{}
	for _, gm := range seededGames[:3] {
		g, bots := botGame(t, gm.seed, gm.bots, 300)
		var got, want engine.Board
		cmds := make([][]string, len(bots))
		for {
			g.Board(&got)
			monad.DescribeMap(&want, stateView{g.State})
			if got.Topology != want.Topology || got.Width != want.Width || got.Height != want.Height ||
				got.TerrainName != want.TerrainName || got.ValueName != want.ValueName || !slices.Equal(got.Badges, want.Badges) {
				t.Fatalf("seed %d turn %d: board %+v, want %+v", gm.seed, g.Turn(), got, want)
			}
			for i := range want.Cells {
				if got.Cells[i] != want.Cells[i] {
					t.Fatalf("seed %d turn %d: cell %d is %+v, want %+v", gm.seed, g.Turn(), i, got.Cells[i], want.Cells[i])
				}
			}
			for i, c := range want.Cells {
				x, y := i%monad.Width, i/monad.Width
				if p, _ := g.State.Occupant(x, y); c.Badges != 0 && p < 0 {
					emptyHives++
				}
				owners[c.Owner] = true
			}
			if g.Over() {
				break
			}
			botRound(t, g, bots, cmds)
		}
	}
	if emptyHives == 0 || len(owners) != monad.MaxPlayers+1 {
		t.Errorf("the games showed %d empty hive cells and owners %v: want some, and every player and -1", emptyHives, owners)
	}
}
