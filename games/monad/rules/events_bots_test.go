package rules_test

import (
	"cmp"
	"slices"
	"testing"

	"github.com/rewind-game/rewind/engine"
	monadbot "github.com/rewind-game/rewind/games/monad/bots"
	monad "github.com/rewind-game/rewind/games/monad/rules"
)

// seededGames are the seeds and built-in bots of the games the tests of
// bot games play.
var seededGames = []struct {
	seed uint64
	bots []string
}{
	{1, []string{"rusher", "expander", "miner", "rusher"}},
	{2, []string{"expander", "rusher"}},
	{3, []string{"rusher", "rusher", "expander"}},
	{4, []string{"miner", "rusher", "expander", "expander"}},
	{5, []string{"rusher", "rusher", "rusher", "rusher"}},
}

// TestEventsBotGames plays seeded games of the built-in bots through the
// seam and checks every turn's events against the states around it: each
// player's hives change by its hives built minus its hives destroyed; a
// hive event's Value is its player's hives after the turn and a
// hive_destroyed's Other the cell's holder then; died is reported exactly
// for the players whose cells fell to 0, with the cells they held; and
// BoardEvents of the two boards gives the same events but for hives
// built and destroyed in the same turn; the events are the same asked
// again after the turn's Values.
func TestEventsBotGames(t *testing.T) {
	counts := map[string]int{}
	sameTurn := 0
	for _, gm := range seededGames {
		n := len(gm.bots)
		g, bots := botGame(t, gm.seed, gm.bots, 400)
		var prev, cur engine.Board
		cmds := make([][]string, n)
		for !g.Over() {
			before := stats(g.State)
			g.Board(&prev)
			botRound(t, g, bots, cmds)
			g.Board(&cur)
			after := stats(g.State)
			turn := g.Turn()
			evs := g.Events(nil)
			// Once the turn's Values are read, Events counts from their
			// Stats (as a stream's frame reads them): the same events.
			g.Values(0, nil)
			if again := g.Events(nil); !slices.Equal(again, evs) {
				t.Errorf("seed %d turn %d: Events after Values\n%+v\nwant\n%+v", gm.seed, turn, again, evs)
			}
			var built, lost [monad.MaxPlayers]int
			var died []engine.Event
			for _, e := range evs {
				counts[e.Kind]++
				switch e.Kind {
				case monad.EventHiveBuilt:
					built[e.Player]++
				case monad.EventHiveDestroyed:
					lost[e.Player]++
					if c := cur.Cells[e.Y*monad.Width+e.X]; c.Owner != e.Other || c.Badges != 0 {
						t.Errorf("seed %d turn %d: %+v, the cell after: %+v", gm.seed, turn, e, c)
					}
				case monad.EventDied:
					died = append(died, e)
					continue
				default:
					t.Errorf("seed %d turn %d: kind %q", gm.seed, turn, e.Kind)
				}
				if e.Value != int64(after[e.Player].Hives) {
					t.Errorf("seed %d turn %d: %+v, player has %d hives", gm.seed, turn, e, after[e.Player].Hives)
				}
			}
			var wantDied []engine.Event
			for p := 0; p < n; p++ {
				if d := after[p].Hives - before[p].Hives; d != built[p]-lost[p] {
					t.Errorf("seed %d turn %d: player %d's hives changed by %d, %d built, %d destroyed", gm.seed, turn, p, d, built[p], lost[p])
				}
				if before[p].Cells > 0 && after[p].Cells == 0 {
					wantDied = append(wantDied, engine.Event{Kind: monad.EventDied, Player: p, Other: -1, X: -1, Y: -1, Value: int64(before[p].Cells)})
				}
			}
			if !slices.Equal(died, wantDied) {
				t.Errorf("seed %d turn %d: died %+v, want %+v", gm.seed, turn, died, wantDied)
			}
			// BoardEvents: the same, sorted as it sorts, without the hives
			// built and destroyed at once.
			var visible []engine.Event
			for _, e := range evs {
				if e.Kind != monad.EventDied && slices.ContainsFunc(evs, func(o engine.Event) bool {
					return o.Kind != e.Kind && o.Kind != monad.EventDied && o.X == e.X && o.Y == e.Y
				}) {
					sameTurn++
					continue
				}
				visible = append(visible, e)
			}
			order := map[string]int{monad.EventHiveBuilt: 0, monad.EventHiveDestroyed: 1, monad.EventDied: 2}
			slices.SortStableFunc(visible, func(a, b engine.Event) int {
				return cmp.Or(cmp.Compare(order[a.Kind], order[b.Kind]), cmp.Compare(a.Y, b.Y), cmp.Compare(a.X, b.X))
			})
			if got := monad.BoardEvents(&prev, &cur, nil); !slices.Equal(got, visible) {
				t.Errorf("seed %d turn %d: BoardEvents\n%+v\nwant\n%+v", gm.seed, turn, got, visible)
			}
		}
	}
	t.Logf("events: %v; hives built and destroyed in one turn: %d", counts, sameTurn/2)
	for _, k := range []string{monad.EventHiveBuilt, monad.EventHiveDestroyed, monad.EventDied} {
		if counts[k] == 0 {
			t.Errorf("no %s event in %d games: the test shows nothing of it", k, len(seededGames))
		}
	}
}

func stats(s *monad.State) []monad.PlayerStats {
	out := make([]monad.PlayerStats, s.Players())
	for p := range out {
		out[p] = s.Stats(p)
	}
	return out
}

// botGame starts a Monad game of seed with the built-ins named bots, one
// per player (player p's seeded seed*10+p), within maxTurns.
func botGame(t *testing.T, seed uint64, bots []string, maxTurns int) (*monad.Game, []monadbot.Bot) {
	t.Helper()
	eg, err := monad.Ruleset.New(seed, engine.Settings{Players: len(bots), MaxTurns: maxTurns})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]monadbot.Bot, len(bots))
	for p, name := range bots {
		if out[p], err = monadbot.Builtin(name); err != nil {
			t.Fatal(err)
		}
		if err := out[p].Start(p, seed*10+uint64(p)); err != nil {
			t.Fatal(err)
		}
	}
	return eg.(*monad.Game), out
}

// botRound plays one round of g with the bots' commands (cmds: one list
// per player, reused).
func botRound(t *testing.T, g *monad.Game, bots []monadbot.Bot, cmds [][]string) {
	t.Helper()
	for p, b := range bots {
		var err error
		if cmds[p], err = b.Commands(g.State); err != nil {
			t.Fatal(err)
		}
	}
	g.Round(cmds)
}
