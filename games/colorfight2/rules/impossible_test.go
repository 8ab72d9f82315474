package rules_test

import (
	"testing"

	cf "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// TestImpossible: a round the rules played is never refuted, and each
// condition Impossible checks refutes a frame that breaks it, naming the
// cell or user and the field.
func TestImpossible(t *testing.T) {
	cfg := cf.Config{Width: 7, Height: 3, MaxTurn: 100, MaxPlayer: 2}
	m := cf.NewMap(7, 3)
	for i := range m.NaturalGold {
		m.NaturalGold[i], m.NaturalEnergy[i], m.NaturalCost[i] = 10, 10, 10
	}
	st, err := cf.New(cfg, m, []cf.Player{{UID: 1, Name: "a", Home: cf.Point{X: 1, Y: 1}}, {UID: 2, Name: "b", Home: cf.Point{X: 4, Y: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	play := func(cmds ...[]string) {
		cs := make([][]cf.Command, len(cmds))
		for k, list := range cmds {
			for _, c := range list {
				cs[k] = append(cs[k], cf.ParseCommand(c))
			}
		}
		st.Step(cs)
		if len(st.Errors()) > 0 {
			t.Fatalf("turn %d: %v", st.Turn(), st.Errors())
		}
	}
	play()
	play([]string{"a 2 1 10", "a 1 0 10"}, []string{"a 5 1 10", "a 4 0 10"})
	for st.PlayerGold(2) < 200 {
		play()
	}
	before := st.Clone()
	// The round checked: player 1 takes (2,0) with energy to spare and
	// reinforces (2,1); player 2 builds a Fortress on (5,1).
	play([]string{"a 2 0 40", "a 2 1 30"}, []string{"b 5 1 f"})
	var clean cf.Frame
	st.Frame(&clean)
	if d := cf.Impossible(before, &clean); d != nil {
		t.Fatalf("a legal round refuted: %v", d)
	}
	user := func(f *cf.Frame, uid int64) *cf.FrameUser {
		for k := range f.Users {
			if f.Users[k].UID == uid {
				return &f.Users[k]
			}
		}
		t.Fatalf("no user %d", uid)
		return nil
	}
	cases := []struct {
		name, where, field string
		edit               func(f *cf.Frame)
	}{
		{"terrain changed", "cell (3,2)", "natural_gold", func(f *cf.Frame) { f.Cell(3, 2).NaturalGold++ }},
		{"owned cell lost to nobody", "cell (1,0)", "owner", func(f *cf.Frame) { f.Cell(1, 0).Owner = 0 }},
		{"taken from afar", "cell (6,2)", "owner", func(f *cf.Frame) { f.Cell(6, 2).Owner = 1 }},
		{"captured cell keeps a building", "cell (2,0)", "building", func(f *cf.Frame) {
			c := f.Cell(2, 0)
			c.Building, c.Level = cf.GoldMine, 1
		}},
		{"a building changes type", "cell (4,1)", "building", func(f *cf.Frame) { f.Cell(4, 1).Building = cf.GoldMine }},
		{"upgraded past the Home", "cell (5,1)", "building level", func(f *cf.Frame) { f.Cell(5, 1).Level = 2 }},
		{"force field no attack gives", "cell (2,0)", "force_field", func(f *cf.Frame) { f.Cell(2, 0).ForceField++ }},
		{"gold off by one", "user 2", "gold", func(f *cf.Frame) { user(f, 2).Gold++ }},
		{"a building for free", "user 2", "gold", func(f *cf.Frame) { user(f, 2).Gold += 200 }},
		{"attacks for free", "user 1", "energy", func(f *cf.Frame) { user(f, 1).Energy += 70 }},
		{"tax of other counts", "user 1", "tax_amount", func(f *cf.Frame) {
			u := user(f, 1)
			u.TaxAmount++ // and the reserves it leaves, so only the tax is off
			u.Energy--
			u.Gold--
		}},
	}
	for _, tc := range cases {
		var f cf.Frame
		f.CopyFrom(&clean)
		tc.edit(&f)
		d := cf.Impossible(before, &f)
		if d == nil || d.Where != tc.where || d.Field != tc.field {
			t.Errorf("%s: got %v, want %s %s", tc.name, d, tc.where, tc.field)
		}
	}
}
