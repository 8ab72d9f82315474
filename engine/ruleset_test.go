package engine_test

import (
	"testing"

	"github.com/rewind-game/rewind/engine"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	monad "github.com/rewind-game/rewind/games/monad/rules"
)

// TestRulesetMatchesDirect plays the same commands through Game and
// directly on each ruleset's State: the hashes agree every round.
func TestRulesetMatchesDirect(t *testing.T) {
	t.Run("colorfight2", func(t *testing.T) {
		g, err := colorfight2.Ruleset.New(7, engine.Settings{Players: 2, MaxTurns: 30, Names: []string{"a", "b"}})
		if err != nil {
			t.Fatal(err)
		}
		cfg := colorfight2.DefaultConfig()
		cfg.MaxTurn, cfg.MaxPlayer = 30, 2
		direct, err := colorfight2.NewFromSeed(cfg, 7, []string{"a", "b"})
		if err != nil {
			t.Fatal(err)
		}
		direct.Step(nil)
		g.Round(nil)
		texts := [][]string{{"a 1 1 10", "garbage"}, {"u 3 3", "b 2 2 g"}}
		for !g.Over() {
			errs := g.Round(texts)
			cmds := make([][]colorfight2.Command, 2)
			for p, l := range texts {
				for _, s := range l {
					cmds[p] = append(cmds[p], colorfight2.ParseCommand(s))
				}
			}
			direct.Step(cmds)
			if g.Hash() != direct.Hash() {
				t.Fatalf("turn %d: hash through Game %x, direct %x", g.Turn(), g.Hash(), direct.Hash())
			}
			if len(errs) != len(direct.Errors()) {
				t.Fatalf("turn %d: %d errors through Game, %d direct", g.Turn(), len(errs), len(direct.Errors()))
			}
		}
		if g.Turn() != 30 {
			t.Fatalf("game over at turn %d, want 30", g.Turn())
		}
	})
	t.Run("monad", func(t *testing.T) {
		g, err := monad.Ruleset.New(42, engine.Settings{Players: 2, MaxTurns: 40})
		if err != nil {
			t.Fatal(err)
		}
		direct, err := monad.New(monad.Config{Players: 2, MaxTurns: 40, Seed: 42})
		if err != nil {
			t.Fatal(err)
		}
		texts := [][]string{
			{`{"l":[1,1],"c":"MOVE","d":1,"n":1}`, `{"l":[1,1],"c":"MINE","d":7,"n":1}`, `nonsense`},
			{`{"l":[18,18],"c":"BUILD","d":7,"n":1}`, `{"l":[18,18],"c":"MOVE","d":9,"n":1}`},
		}
		for !g.Over() {
			errs := g.Round(texts)
			cmds := make([][]monad.Command, 2)
			for p, l := range texts {
				for _, s := range l {
					cmds[p] = append(cmds[p], monad.ParseCommand([]byte(s)))
				}
			}
			direct.Step(cmds)
			if g.Hash() != direct.Hash() {
				t.Fatalf("turn %d: hash through Game %x, direct %x", g.Turn(), g.Hash(), direct.Hash())
			}
			if len(errs) != len(direct.Errors()) || len(errs) == 0 {
				t.Fatalf("turn %d: %d errors through Game, %d direct", g.Turn(), len(errs), len(direct.Errors()))
			}
		}
	})
}

// TestRulesetDescriptions checks what every ruleset promises about its
// metrics, board and ranking.
func TestRulesetDescriptions(t *testing.T) {
	for _, rs := range []engine.Ruleset{colorfight2.Ruleset, monad.Ruleset} {
		t.Run(rs.ID(), func(t *testing.T) {
			g, err := rs.New(3, engine.Settings{Players: 2, MaxTurns: 10})
			if err != nil {
				t.Fatal(err)
			}
			g.Round(nil)
			seen := map[string]bool{}
			for _, m := range rs.Metrics() {
				if m.Name == "" || m.Unit == "" || seen[m.Name] {
					t.Errorf("metric %+v: empty or repeated name", m)
				}
				seen[m.Name] = true
			}
			for p := 0; p < g.Players(); p++ {
				if v := g.Values(p, nil); len(v) != len(rs.Metrics()) {
					t.Errorf("player %d: %d values for %d metrics", p, len(v), len(rs.Metrics()))
				}
			}
			var b engine.Board
			g.Board(&b)
			if len(b.Cells) != b.Width*b.Height || len(b.Cells) == 0 || len(b.Badges) > 32 {
				t.Fatalf("board %dx%d with %d cells, %d badges", b.Width, b.Height, len(b.Cells), len(b.Badges))
			}
			owned := map[int]bool{}
			for _, c := range b.Cells {
				if c.Owner < -1 || c.Owner >= g.Players() || c.Badges>>len(b.Badges) != 0 {
					t.Fatalf("cell %+v out of range", c)
				}
				if c.Owner >= 0 && c.Badges != 0 {
					owned[c.Owner] = true
				}
			}
			if len(owned) != 2 {
				t.Errorf("players with a badged cell (home, hive): %v, want both", owned)
			}
			if r := g.Ranking(); len(r) != 2 || r[0] == r[1] {
				t.Errorf("ranking %v", r)
			}
		})
	}
}

// TestRulesetFaults: a Monad timeout silences the player for good; a
// ColorfightII fault is one rejected command of the next round.
func TestRulesetFaults(t *testing.T) {
	m, err := monad.Ruleset.New(1, engine.Settings{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	m.Fault(0, engine.FaultTimeout, "no reply")
	if errs := m.Round([][]string{{`{"l":[1,1],"c":"MOVE","d":9,"n":1}`}}); len(errs) != 0 {
		t.Errorf("a timed-out player's commands were read: %+v", errs)
	}
	if !m.(*monad.Game).State.Stats(0).TimedOut {
		t.Error("player 0 not timed out")
	}
	m.Fault(1, engine.FaultGarbage, "")
	if errs := m.Round(nil); len(errs) != 1 || errs[0].Code != int(monad.ErrNotList) {
		t.Errorf("garbage: %+v", errs)
	}
	c, err := colorfight2.Ruleset.New(1, engine.Settings{Players: 2, MaxTurns: 5})
	if err != nil {
		t.Fatal(err)
	}
	c.Round(nil)
	c.Fault(1, engine.FaultCrash, "bot exited")
	errs := c.Round(nil)
	if len(errs) != 1 || errs[0].Player != 1 || errs[0].Code != int(colorfight2.ErrBotFault) {
		t.Errorf("colorfight2 fault: %+v", errs)
	}
}
