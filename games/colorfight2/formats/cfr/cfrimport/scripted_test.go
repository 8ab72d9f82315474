package cfrimport_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/replay"
)

// scripted plays a two-player game on a 7x3 map (cheap cells rich in gold
// and energy; player 1's Home at (1,1), player 2's at (4,1)) and writes it
// as the reference writes a .cfr. Each round, script returns the commands
// (uid-1 indexed text) for the round from frame f, and done once the game
// is to end after that round.
func scripted(t *testing.T, script func(f *colorfight2.Frame) (cmds [][]string, done bool)) ([]byte, *colorfight2.Frame) {
	t.Helper()
	cfg := colorfight2.Config{Width: 7, Height: 3, MaxTurn: 1000, MaxPlayer: 2}
	m := colorfight2.NewMap(7, 3)
	for i := range m.NaturalGold {
		m.NaturalGold[i], m.NaturalEnergy[i], m.NaturalCost[i] = 10, 10, 10
	}
	st, err := colorfight2.New(cfg, m, []colorfight2.Player{{UID: 1, Name: "a", Home: colorfight2.Point{X: 1, Y: 1}}, {UID: 2, Name: "b", Home: colorfight2.Point{X: 4, Y: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc, err := cfr.NewEncoder(&buf, cfr.Header{Info: replay.OfficialInfo(replay.Config(cfg), "1")})
	if err != nil {
		t.Fatal(err)
	}
	var f colorfight2.Frame
	m.Frame(&f)
	if err := enc.WriteFrame(&f); err != nil {
		t.Fatal(err)
	}
	st.Step(nil)
	for {
		st.Frame(&f)
		if err := enc.WriteFrame(&f); err != nil {
			t.Fatal(err)
		}
		if st.Over() {
			t.Fatal("the script never ended")
		}
		text, done := script(&f)
		cmds := make([][]colorfight2.Command, 2)
		for k := range text {
			for _, s := range text[k] {
				cmds[k] = append(cmds[k], colorfight2.ParseCommand(s))
			}
		}
		st.Step(cmds)
		if errs := st.Errors(); len(errs) > 0 {
			t.Fatalf("turn %d: the script's commands failed: %v", st.Turn(), errs)
		}
		if done {
			st.Frame(&f)
			if err := enc.WriteFrame(&f); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), &f
}

func frameUser(f *colorfight2.Frame, uid int64) *colorfight2.FrameUser {
	for k := range f.Users {
		if f.Users[k].UID == uid {
			return &f.Users[k]
		}
	}
	return nil
}

// TestHomeLostWithHiddenBuilds is the round of the reference game the audit
// once called illegal (turn 348 of a 3-player game: "gold 13603, but the
// rules allow 14003"): a player places a building and upgrades it, and
// loses its Home in the same round, so the lost-homes step removes the
// building and only its count and its gold show. Rebuilt with the engine in
// each form the rules allow — a Fortress 1->2, a GoldMine 1->2 and 2->3
// beside an EnergyWell, the Home itself upgraded before it falls, a
// standing building upgraded — and exported as the reference writes it:
// import reproduces every frame, verify --against agrees, audit is clean.
func TestHomeLostWithHiddenBuilds(t *testing.T) {
	cases := []struct {
		name string
		tech int64    // player 2's Home level before the last round
		pre  []string // player 2's builds a few rounds before the last
		last []string // player 2's commands in the last round
	}{
		{"fortress placed and upgraded", 2, nil, []string{"b 5 1 f", "u 5 1"}},
		{"goldmine to level 3 and a well", 3, nil, []string{"b 5 1 g", "u 5 1", "u 5 1", "b 5 0 e"}},
		{"home upgraded as it falls", 2, nil, []string{"u 4 1", "b 5 2 f", "u 5 2"}},
		{"standing buildings upgraded", 3, []string{"b 5 1 f", "b 5 0 g"}, []string{"u 5 1", "u 5 1", "u 5 0", "b 5 2 e", "u 5 2"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stage := 0
			data, last := scripted(t, func(f *colorfight2.Frame) ([][]string, bool) {
				a, b := frameUser(f, 1), frameUser(f, 2)
				home := f.Cell(4, 1)
				switch {
				case stage == 0: // both expand
					stage++
					return [][]string{{"a 2 1 10", "a 1 0 10", "a 1 2 10"}, {"a 5 1 10", "a 4 0 10", "a 4 2 10"}}, false
				case stage == 1:
					stage++
					return [][]string{{"a 3 1 30"}, {"a 5 0 30", "a 5 2 30", "a 6 1 30"}}, false
				case stage == 2 && home.Level < tc.tech:
					if g, e := colorfight2.UpgradeCost(colorfight2.Home, home.Level); b.Gold >= g && b.Energy >= e {
						return [][]string{nil, {"u 4 1"}}, false
					}
					return nil, false
				case stage == 2:
					if b.Gold < 400 {
						return nil, false
					}
					stage++
					return [][]string{nil, tc.pre}, false
				}
				// The last round: player 2 can pay for everything (3000 for
				// a Home 2->3 at most), and spends its energy down to 100
				// on its own cell (6,1), so its Home stores 100; player 1
				// can take the Home, even at level 3.
				if b.Gold < 3400 || b.Energy < 2200 || a.Energy-50 < (1100+home.ForceField)*3 {
					return nil, false
				}
				var upE int64
				for _, c := range tc.last {
					if c == "u 4 1" {
						_, upE = colorfight2.UpgradeCost(colorfight2.Home, home.Level)
					}
				}
				last := append(append([]string(nil), tc.last...), fmt.Sprintf("a 6 1 %d", b.Energy-upE-100))
				return [][]string{{fmt.Sprintf("a 4 1 %d", a.Energy-50)}, last}, true
			})
			// The round is the one meant: player 2 lost its Home, and its
			// counts name buildings the map no longer shows.
			b := frameUser(last, 2)
			shown := 0
			for i := range last.Cells {
				if c := &last.Cells[i]; c.Owner == 2 && c.Building != colorfight2.BuildingNone {
					shown++
				}
			}
			if b.TechLevel != 0 || b.Buildings[colorfight2.GoldMine]+b.Buildings[colorfight2.EnergyWell]+b.Buildings[colorfight2.Fortress] == 0 || shown != 0 {
				t.Fatalf("the last round is not a Home lost with hidden buildings: %+v, %d shown", b, shown)
			}
			if err := checkGame(tc.name, data); err != nil {
				t.Fatal(err)
			}
		})
	}
}
