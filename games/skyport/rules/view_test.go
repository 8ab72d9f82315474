package rules

import (
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// TestFromView builds a State from a gamestate's facts and checks what
// the seam describes of it, and that bad views are refused.
func TestFromView(t *testing.T) {
	tiles := []byte("SGR" + "GVG" + "EGS")
	v := View{Turn: 7, Size: 3, Tiles: tiles, Order: []int{1, 0}, Players: []ViewPlayer{
		{Name: "ann", Health: 100, Score: 3, J: 0, K: 0, SpawnJ: 0, SpawnK: 0, Arms: Arms{Primary: Laser, Secondary: Mortar, PrimaryLevel: 2, SecondaryLevel: 1}, Connected: true},
		{Name: "bob", Health: 0, Score: -40, J: 1, K: 2, SpawnJ: 2, SpawnK: 2, Arms: Arms{Primary: Droid, Secondary: Laser, PrimaryLevel: 1, SecondaryLevel: 3}},
	}}
	st, err := FromView(v)
	if err != nil {
		t.Fatal(err)
	}
	if st.Actor() != 1 || st.Turn() != 7 || st.InLoadout() || st.Over() || st.Occupant(1, 2) != 1 || st.Units(0, 2) != 2 || st.Units(2, 0) != 2 {
		t.Fatalf("actor %d turn %d loadout %v over %v occupant %d units %d %d", st.Actor(), st.Turn(), st.InLoadout(), st.Over(), st.Occupant(1, 2), st.Units(0, 2), st.Units(2, 0))
	}
	if r := st.Ring(nil); r[0] != 1 || r[1] != 0 {
		t.Errorf("ring %v", r)
	}
	var b engine.Board
	(&Game{State: st}).Board(&b)
	if b.Topology != engine.HexAxial || b.Width != 3 || len(b.Cells) != 9 || len(b.Entities) != 2 || len(b.Effects) != 0 {
		t.Fatalf("board %v %dx%d, %d cells, %d entities, %d effects", b.Topology, b.Width, b.Height, len(b.Cells), len(b.Entities), len(b.Effects))
	}
	if e := b.Entities[1]; e.X != 1 || e.Y != 2 || e.Health != 0 || e.Value != -40 || !strings.Contains(e.Label, "(dead)") {
		t.Errorf("bob's entity %+v", e)
	}
	gs := string(st.AppendGamestate(nil, true))
	if !strings.Contains(gs, `"turn":7`) || strings.Index(gs, `"bob"`) > strings.Index(gs, `"ann"`) {
		t.Errorf("gamestate %s", gs)
	}
	v.Units = make([]uint8, 9)
	v.Units[2] = 1
	if st, err := FromView(v); err != nil || st.Units(0, 2) != 1 || st.Units(2, 0) != 0 {
		t.Errorf("units: %v", err)
	}

	bad := map[string]func(v *View){
		"size":      func(v *View) { v.Size = MaxSize + 1 },
		"tiles":     func(v *View) { v.Tiles = v.Tiles[:8] },
		"code":      func(v *View) { v.Tiles = []byte("SGRGXGEGS") },
		"units":     func(v *View) { v.Units = make([]uint8, 3) },
		"nobody":    func(v *View) { v.Players, v.Order = nil, nil },
		"off map":   func(v *View) { v.Players[0].K = 3 },
		"shared":    func(v *View) { v.Players[0].J, v.Players[0].K = 1, 2 },
		"order":     func(v *View) { v.Order = []int{1, 1} },
		"order len": func(v *View) { v.Order = []int{0} },
		"level":     func(v *View) { v.Players[1].SecondaryLevel = 4 },
		"weapon":    func(v *View) { v.Players[1].Primary = 9 },
	}
	for name, f := range bad {
		w := v
		w.Units = nil
		w.Players = append([]ViewPlayer(nil), v.Players...)
		w.Order = append([]int(nil), v.Order...)
		f(&w)
		if _, err := FromView(w); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
