package rules

import (
	"encoding/json"
	"github.com/rewind-game/rewind/internal/testutil"
	"path/filepath"
	"testing"
)

func TestNeighbor(t *testing.T) {
	// RULES-MONAD.md §2's table.
	even := map[Dir][2]int{East: {1, 0}, West: {-1, 0}, NorthEast: {1, -1}, NorthWest: {0, -1}, SouthEast: {1, 1}, SouthWest: {0, 1}, None: {0, 0}}
	odd := map[Dir][2]int{East: {1, 0}, West: {-1, 0}, NorthEast: {0, -1}, NorthWest: {-1, -1}, SouthEast: {0, 1}, SouthWest: {-1, 1}, None: {0, 0}}
	for d := East; d <= None; d++ {
		for _, y := range []int{4, 5} {
			want := even[d]
			if y%2 == 1 {
				want = odd[d]
			}
			x2, y2 := Neighbor(7, y, d)
			if x2-7 != want[0] || y2-y != want[1] {
				t.Errorf("Neighbor(7, %d, %d) = (%d, %d), want delta %v", y, d, x2, y2, want)
			}
			bx, by := Neighbor(x2, y2, d.Opposite())
			if bx != 7 || by != y {
				t.Errorf("direction %d then %d from (7, %d) ends at (%d, %d)", d, d.Opposite(), y, bx, by)
			}
		}
	}
	if x, y := Neighbor(0, 0, West); x != -1 || y != 0 {
		t.Errorf("Neighbor does not go off the map: (%d, %d)", x, y)
	}
	if x, y := Neighbor(3, 3, DirImplicit); x != 3 || y != 3 {
		t.Errorf("Neighbor with no direction moved to (%d, %d)", x, y)
	}
}

// emptyState sets up a 2..4-player state with nothing on the map but what
// the test places (start hives and units removed).
func emptyState(t *testing.T, players int) *State {
	t.Helper()
	s, err := NewWithMap(Config{Players: players}, &Map{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.cells {
		s.cells[i] = cell{hive: -1}
	}
	return s
}

func (s *State) at(x, y int) *cell { return &s.cells[y*Width+x] }

// TestHiveDefense checks the examples of RULES-MONAD.md §6.6: owner 0 holds
// U units on its hive, player 1 brings A (and player 2 B) units.
func TestHiveDefense(t *testing.T) {
	cases := []struct {
		u, a, b   int32
		wantOwner int32
		wantOther [2]int32 // players 1 and 2 after
		destroyed bool
	}{
		{3, 8, 0, 3, [2]int32{}, false},
		{0, 9, 0, 0, [2]int32{}, false},
		{0, 10, 0, 0, [2]int32{}, true},
		{3, 12, 0, 0, [2]int32{}, false},
		{3, 13, 0, 0, [2]int32{}, true},
		{5, 10, 0, 4, [2]int32{}, false},
		{20, 11, 0, 18, [2]int32{}, false},
		{0, 12, 11, 0, [2]int32{1, 0}, true},
		{0, 8, 6, 0, [2]int32{}, false},
	}
	for _, c := range cases {
		s := emptyState(t, 3)
		h := s.at(4, 4)
		h.hive, h.counter = 0, 2
		h.units = [MaxPlayers]int32{c.u, c.a, c.b}
		s.at(9, 9).hive = 1 // keep the game going
		s.Step(nil)
		if destroyed := h.hive < 0; destroyed != c.destroyed || h.units[0] != c.wantOwner || h.units[1] != c.wantOther[0] || h.units[2] != c.wantOther[1] {
			t.Errorf("U=%d A=%d B=%d: units %v, destroyed %v; want owner %d, others %v, destroyed %v",
				c.u, c.a, c.b, h.units[:3], destroyed, c.wantOwner, c.wantOther, c.destroyed)
		}
	}
}

func TestCellFightLargestMinusSecond(t *testing.T) {
	s := emptyState(t, 4)
	s.at(0, 0).hive, s.at(19, 19).hive = 0, 1
	c := s.at(10, 10)
	c.units = [MaxPlayers]int32{7, 3, 9, 9}
	s.Step(nil)
	if c.units != ([MaxPlayers]int32{}) {
		t.Errorf("a tie for the most leaves %v, want nobody", c.units)
	}
	c.units = [MaxPlayers]int32{7, 3, 12, 0}
	s.Step(nil)
	if c.units != ([MaxPlayers]int32{0, 0, 5, 0}) {
		t.Errorf("7, 3, 12 leave %v, want 12-7 = 5 for player 2", c.units)
	}
	if got := s.Stats(0).UnitsLost + s.Stats(1).UnitsLost + s.Stats(2).UnitsLost + s.Stats(3).UnitsLost; got != 7+3+9+9+7+3+7 {
		t.Errorf("units lost %d, want %d", got, 7+3+9+9+7+3+7)
	}
}

// TestRegrouping: every player but the last executes its commands grouped
// by origin (§6.2), which changes a chained move.
func TestRegrouping(t *testing.T) {
	for _, last := range []bool{false, true} {
		s := emptyState(t, 2)
		s.at(0, 19).hive, s.at(19, 19).hive = 0, 1
		p := 0
		if last {
			p = 1
		}
		s.at(2, 2).units[p] = 1 // A
		// [A: move east to B], [B: move east], [A: mine 0]. Grouped by
		// origin it runs A-move, A-mine, B-move: B's move sees the unit
		// that just arrived either way; what differs is the order.
		cmds := make([][]Command, 2)
		cmds[p] = []Command{
			{X: 2, Y: 2, Kind: KindMove, Dir: East, Count: 1},
			{X: 3, Y: 2, Kind: KindMove, Dir: East, Count: 1},
			{X: 2, Y: 2, Kind: KindMove, Dir: None, Count: 0},
		}
		s.Step(cmds)
		var order []int
		for _, e := range s.Executed() {
			order = append(order, e.Index)
		}
		want := []int{0, 2, 1}
		if last {
			want = []int{0, 1, 2}
		}
		if len(order) != 3 || order[0] != want[0] || order[1] != want[1] || order[2] != want[2] {
			t.Errorf("player %d (last %v) executed %v, want %v", p, last, order, want)
		}
	}
}

func TestCollisionUsesClaimedCounts(t *testing.T) {
	s := emptyState(t, 2)
	s.at(0, 19).hive, s.at(19, 19).hive = 0, 1
	s.at(4, 4).units[0] = 5
	s.at(5, 4).units[1] = 2
	cmds := [][]Command{
		{{X: 4, Y: 4, Kind: KindMove, Dir: East, Count: 4}},
		{{X: 5, Y: 4, Kind: KindMine, Dir: West, Count: 3}}, // claims 3, holds 2; any type collides
	}
	s.Step(cmds)
	// Player 1's command (3) loses to player 0's (4): player 0's cell loses
	// 3, player 1's cell holds fewer than 3 and loses nothing; player 0
	// moves 1 (its other unit mines implicitly) into player 1's 2 units.
	if got := s.at(4, 4).units[0]; got != 1 {
		t.Errorf("origin of player 0 holds %d, want 1", got)
	}
	if got := s.at(5, 4).units; got[0] != 0 || got[1] != 1 {
		t.Errorf("player 1's cell holds %v, want player 1 with 2-1 = 1 after the fight", got[:2])
	}
}

func TestBuildAndRanking(t *testing.T) {
	s, err := New(Config{Players: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Player 2 moves its unit east and builds there in the same turn.
	cmds := [][]Command{nil, nil, {
		{X: 15, Y: 5, Kind: KindMove, Dir: East, Count: 1},
		{X: 16, Y: 5, Kind: KindBuild, Dir: None, Count: 1},
		{X: 15, Y: 5, Kind: KindBuild, Dir: None, Count: 0},
	}}
	s.Step(cmds)
	if o, cnt, ok := s.Hive(16, 5); !ok || o != 2 || cnt != 1 {
		t.Fatalf("no new hive of player 2 at (16, 5): %d %d %v", o, cnt, ok)
	}
	if st := s.Stats(2); st.Resources != 0 || st.Hives != 2 || st.Rejected != 1 {
		t.Errorf("player 2: %+v, want 0 resources, 2 hives, 1 rejected (BUILD on its own hive)", st)
	}
	errs := s.Errors()
	if len(errs) != 1 || errs[0] != (CommandError{Player: 2, Index: 2, Code: ErrOwnHive}) {
		t.Errorf("errors %+v", errs)
	}
	r := s.Ranking()
	if r[0].Player != 2 || r[1].Player != 0 || r[2].Player != 1 || r[2].Rank != 3 {
		t.Errorf("ranking %+v, want 2, 0, 1", r)
	}
	s.SetCrashed(2)
	r = s.Ranking()
	if r[2].Player != 2 || r[2].Rank != 3 || r[0].Player != 0 {
		t.Errorf("ranking with player 2 crashed %+v", r)
	}
}

func TestProductionSchedule(t *testing.T) {
	s, err := New(Config{Players: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	// A start hive produces at the end of turns 5, 10, 15 (visible in
	// entries 6, 11, 16).
	for turn := 0; turn < 16; turn++ {
		s.Step(nil)
		if got, want := s.UnitsAt(1, 1, 0), 1+turn/5; got != want { // entry turn+1
			t.Fatalf("after turn %d the start cell holds %d, want %d", turn, got, want)
		}
	}
	if got := s.UnitsAt(1, 1, 0); got != 1+3 {
		t.Errorf("after 16 turns the start cell holds %d, want 4", got)
	}
	if got := s.Stats(0).UnitsProduced; got != 3 {
		t.Errorf("units produced %d, want 3", got)
	}
}

func TestOverAndConfig(t *testing.T) {
	if _, err := New(Config{Players: 5}); err == nil {
		t.Error("5 players accepted")
	}
	s, _ := New(Config{Players: 1})
	if !s.Over() {
		t.Error("a 1-player game is not over before turn 0")
	}
	s, _ = New(Config{Players: 2, MaxTurns: 3})
	s.SetTimedOut(0)
	if s.Over() {
		t.Error("over with one player still running")
	}
	s.Step([][]Command{{{X: 1, Y: 1, Kind: KindMine, Dir: None, Count: 1}}})
	if s.Stats(0).Resources != InitialResources {
		t.Error("a timed-out player's command was executed")
	}
	s.SetTimedOut(1)
	if !s.Over() {
		t.Error("not over when every player timed out")
	}
	h := s.Hash()
	s.Step(nil)
	if s.Turn() != 1 || s.Hash() != h {
		t.Error("Step on a finished game changed it")
	}
}

// TestHashGolden pins the hash of a fixed state, so that a change to the
// hash definition or to map generation is noticed.
func TestHashGolden(t *testing.T) {
	s, err := New(Config{Players: 4, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Hash(), uint64(hashGolden); got != want {
		t.Errorf("Hash() = %#x, want %#x", got, want)
	}
	c := s.Clone()
	c.Step(nil)
	if c.Hash() == s.Hash() {
		t.Error("a turn did not change the hash")
	}
}

// TestMapFromVectors compares GenerateMap and the setup with every
// vector's initial_map.
func TestMapFromVectors(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/monad/m*.commands.json")
	if len(files) != 6 {
		t.Fatalf("found %d vectors, want 6", len(files))
	}
	for _, f := range files {
		data := testutil.ReadFile(t, f)
		var v struct {
			Seed       int64 `json:"seed"`
			Players    int   `json:"players"`
			Uniform    bool  `json:"uniform"`
			InitialMap struct {
				Resource      [][]int32 `json:"resource"`
				DensityFactor int       `json:"density_factor"`
				Hives         [][3]int  `json:"hives"`
				Units         [][4]int  `json:"units"`
			} `json:"initial_map"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		m := GenerateMap(v.Seed, v.Uniform)
		if m.DensityFactor != v.InitialMap.DensityFactor {
			t.Errorf("%s: density factor %d, want %d", f, m.DensityFactor, v.InitialMap.DensityFactor)
		}
		for y, row := range v.InitialMap.Resource {
			for x, r := range row {
				if got := m.Resource[y*Width+x]; got != r {
					t.Fatalf("%s: resource (%d, %d) = %d, want %d", f, x, y, got, r)
				}
			}
		}
		s, err := New(Config{Players: v.Players, Seed: v.Seed, Uniform: v.Uniform})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range v.InitialMap.Hives {
			if o, cnt, ok := s.Hive(h[0], h[1]); !ok || o != h[2] || cnt != 0 {
				t.Errorf("%s: hive %v missing", f, h)
			}
		}
		for _, u := range v.InitialMap.Units {
			if got := s.UnitsAt(u[0], u[1], u[2]); got != u[3] {
				t.Errorf("%s: units %v: got %d", f, u, got)
			}
		}
	}
}

const hashGolden = 0xb1c3b1ce4c423ca6
