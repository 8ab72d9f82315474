package rules

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// TestLegacyRoundTrip: the header fields LegacyOf gives a game, opened
// again (OpenLegacy), start the same game: a seeded one keeps its seed
// in its Setup, one on an explicit map (an odd-sized map of no
// symmetry, and a mirrored one) keeps that map.
func TestLegacyRoundTrip(t *testing.T) {
	seeded, err := Ruleset.New(9, engine.Settings{Players: 3, MaxTurns: 300})
	if err != nil {
		t.Fatal(err)
	}
	plain := NewMap(7, 5)
	for i := range plain.NaturalGold {
		plain.NaturalGold[i], plain.NaturalEnergy[i], plain.NaturalCost[i] = int64(i%10), int64(i%3), int64(100+i)
	}
	mirrored, _, err := GenerateMap(30, 30, 2, 4)
	if err != nil {
		t.Fatal(err)
	}
	var games []engine.Game
	for _, m := range []*Map{plain, mirrored} {
		g, err := NewSetupGame(Setup{Config: Config{Width: m.Width, Height: m.Height, MaxTurn: 200, MaxPlayer: 2},
			Map: m, Players: []Player{{UID: 1, Name: "a", Home: Point{X: 1, Y: 1}}, {UID: 2, Name: "b", Home: Point{X: 3, Y: 2}}}}, engine.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	games = append(games, seeded)
	for i, g := range games {
		l, err := engine.LegacyHeaderOf(Ruleset).Of(g, 9)
		if err != nil {
			t.Fatal(err)
		}
		if (l.Map == nil) != (i == 2) || (l.Seed == nil) != (i < 2) {
			t.Fatalf("game %d: seed %v, map of %d bytes", i, l.Seed, len(l.Map))
		}
		l.Names = make([]string, g.Players())
		if err := engine.LegacyHeaderOf(Ruleset).Check(l); err != nil {
			t.Fatal(err)
		}
		st, err := engine.LegacyHeaderOf(Ruleset).Open(l)
		if err != nil {
			t.Fatal(err)
		}
		again, err := st(engine.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		if again.Hash() != g.Hash() {
			t.Errorf("game %d: reopened hash %016x, was %016x", i, again.Hash(), g.Hash())
		}
		if i == 2 && again.(*Game).Setup() == nil {
			t.Error("the seeded game's Setup lost its seed")
		}
	}
}

// TestCheckLegacy: fields out of the format's limits are a
// *engine.LimitError, others a plain error.
func TestCheckLegacy(t *testing.T) {
	seed := uint64(1)
	ok := engine.Legacy{Width: 30, Height: 30, MaxTurn: 500, MaxPlayer: 2, Seed: &seed, Names: []string{"a"}, Homes: []engine.Point{{X: 2, Y: 2}}}
	for _, tc := range []struct {
		name  string
		edit  func(l *engine.Legacy)
		limit bool
	}{
		{"huge map", func(l *engine.Legacy) { l.Width = MaxSide + 1 }, true},
		{"too many players", func(l *engine.Legacy) { l.MaxPlayer = 0 }, true},
		{"home off the map", func(l *engine.Legacy) { l.Homes = []engine.Point{{X: 30, Y: 0}} }, false},
		{"no map", func(l *engine.Legacy) { l.Seed = nil }, false},
	} {
		l := ok
		tc.edit(&l)
		err := engine.LegacyHeaderOf(Ruleset).Check(&l)
		var le *engine.LimitError
		if err == nil || errors.As(err, &le) != tc.limit {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if err := engine.LegacyHeaderOf(Ruleset).Check(&ok); err != nil {
		t.Error(err)
	}
}

// TestRecordAfterPlayRecord: a game that plays a recording's records
// (PlayRecord) records them again byte for byte (AppendRecord), as a
// recovered recording is rewritten: each has its own codec's state.
func TestRecordAfterPlayRecord(t *testing.T) {
	g, err := Ruleset.New(5, engine.Settings{Players: 2, MaxTurns: 40})
	if err != nil {
		t.Fatal(err)
	}
	homes := g.(*Game).State.homes()
	var recs [][]byte
	for turn := 0; !g.Over(); turn++ {
		cmds := make([][]string, 2)
		for p, h := range homes {
			for k := range 3 {
				cmds[p] = append(cmds[p], fmt.Sprintf("a %d %d %d", h.X+(turn+k)%3-1, h.Y+(turn*k)%3-1, 1+turn%7))
			}
		}
		g.Round(cmds)
		recs = append(recs, g.(*Game).AppendRecord(nil))
	}
	again, err := Ruleset.New(5, engine.Settings{Players: 2, MaxTurns: 40})
	if err != nil {
		t.Fatal(err)
	}
	for i, rec := range recs {
		if _, err := again.(*Game).PlayRecord(bytes.NewReader(rec), nil, nil, nil); err != nil {
			t.Fatal(err)
		}
		if got := again.(*Game).AppendRecord(nil); !bytes.Equal(got, rec) {
			t.Fatalf("round %d recorded again as %x, was %x", i, got, rec)
		}
	}
	if again.Hash() != g.Hash() {
		t.Fatal("the games differ")
	}
}
