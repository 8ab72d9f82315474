package cfr

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"testing"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

type cellVals = colorfight2.FrameCell

// mk builds a cell from its fields in .cfr order.
func mk(ac, ff int64, b colorfight2.Building, lvl, g, e, o, x, y, ng, ne, nc int64) cellVals {
	return cellVals{AttackCost: ac, ForceField: ff, Building: b, Level: lvl, Gold: g, Energy: e, Owner: o,
		X: x, Y: y, NaturalGold: ng, NaturalEnergy: ne, NaturalCost: nc}
}

func TestRealworldFinalFrame(t *testing.T) {
	d, err := NewDecoder(bytes.NewReader(readShared(t, "realworld/RuntimeTerrorsVictory.cfr")))
	if err != nil {
		t.Fatal(err)
	}
	h := d.Header()
	if h.Width != 30 || h.Height != 30 {
		t.Errorf("size %dx%d, want 30x30", h.Width, h.Height)
	}
	wantInfo := `{"max_turn":500,"max_player":8,"width":30,"height":30,"round_time":1.0,"start_count_down":"never","allow_manual_mode":false,"game_id":"1570932949485","replay_version":2,"game_version":2}`
	if string(h.Info) != wantInfo {
		t.Errorf("info = %s\nwant %s", h.Info, wantInfo)
	}
	if string(h.Chat) != "[]" || string(h.Error) != "{}" {
		t.Errorf("chat %s error %s", h.Chat, h.Error)
	}
	if len(h.Users) != 0 {
		t.Errorf("element 0 has %d users, want 0", len(h.Users))
	}
	var f colorfight2.Frame
	n := drain(t, d, &f, func(n int) {
		if f.Turn != n {
			t.Fatalf("frame %d has turn %d", n, f.Turn)
		}
	})
	if n != 501 {
		t.Fatalf("%d frames, want 501", n)
	}
	if err := d.Next(&f); err != io.EOF {
		t.Errorf("Next after EOF = %v, want io.EOF", err)
	}
	found := false
	for _, u := range f.Users {
		if u.Username == "RuntimeTerrors" {
			found = true
			if u.Gold != 648787 {
				t.Errorf("RuntimeTerrors gold %d, want 648787", u.Gold)
			}
		}
	}
	if !found {
		t.Error("no user RuntimeTerrors in the final frame")
	}
	if len(f.Users) != 6 || f.Users[1].Username != "Skynet" || f.Users[1].Gold != 319162 {
		t.Errorf("users: %+v", f.Users)
	}
}

// Values checked with python3 + zcat against c06.cfr.
func TestSpotCheckC06(t *testing.T) {
	d, err := NewDecoder(bytes.NewReader(readShared(t, "conformance/c06.cfr")))
	if err != nil {
		t.Fatal(err)
	}
	var f0, f1, f2 colorfight2.Frame
	for _, f := range []*colorfight2.Frame{&f0, &f1, &f2} {
		if err := d.Next(f); err != nil {
			t.Fatal(err)
		}
	}
	if f0.Turn != 0 || len(f0.Users) != 0 || len(f0.Cells) != 900 {
		t.Fatalf("frame 0: turn %d, %d users, %d cells", f0.Turn, len(f0.Users), len(f0.Cells))
	}
	check := func(name string, got *colorfight2.FrameCell, want cellVals) {
		t.Helper()
		if *got != want {
			t.Errorf("%s = %+v\nwant %+v", name, *got, want)
		}
	}
	check("f0 (7,5)", f0.Cell(7, 5), mk(224, 0, colorfight2.BuildingNone, 1, 5, 7, 0, 7, 5, 5, 7, 224))
	check("f1 (6,3)", f1.Cell(6, 3), mk(2000, 0, colorfight2.Home, 1, 10, 10, 1, 6, 3, 8, 9, 290))
	check("f1 (26,6)", f1.Cell(26, 6), mk(2000, 0, colorfight2.Home, 1, 10, 10, 2, 26, 6, 8, 9, 290))
	check("f2 (6,3)", f2.Cell(6, 3), mk(2010, 0, colorfight2.Home, 1, 10, 10, 1, 6, 3, 8, 9, 290))
	check("f2 (26,6)", f2.Cell(26, 6), mk(1627, 2, colorfight2.Home, 1, 10, 10, 2, 26, 6, 8, 9, 290))
	check("f2 (26,7)", f2.Cell(26, 7), mk(633, 494, colorfight2.BuildingNone, 1, 1, 4, 2, 26, 7, 1, 4, 139))
	check("f2 (29,29)", f2.Cell(29, 29), mk(159, 0, colorfight2.BuildingNone, 1, 4, 8, 0, 29, 29, 4, 8, 159))
	if len(f1.Users) != 3 || len(f2.Users) != 3 {
		t.Fatalf("users %d %d, want 3", len(f1.Users), len(f2.Users))
	}
	u := f2.Users[1]
	want := colorfight2.FrameUser{UID: 2, Username: "bot1_hunter", Energy: 639, Gold: 21,
		EnergySource: 14, GoldSource: 11, TechLevel: 1, CellNumber: 2}
	want.Buildings[colorfight2.Home] = 1
	if u.UID != want.UID || u.Username != want.Username || u.Energy != want.Energy || u.Gold != want.Gold ||
		u.EnergySource != want.EnergySource || u.GoldSource != want.GoldSource || u.TechLevel != want.TechLevel ||
		u.CellNumber != want.CellNumber || u.Buildings != want.Buildings || u.Verified || u.Dead ||
		len(u.BuildingOrder) != 1 || u.BuildingOrder[0] != colorfight2.Home {
		t.Errorf("f2 user 2 = %+v", u)
	}
	if f1.Users[0].Username != "bot0_greedy" || f1.Users[0].Energy != 1010 || f1.Users[2].Username != "bot2_turtle" {
		t.Errorf("f1 users = %+v", f1.Users)
	}
	// Frames returned earlier are independent copies.
	if f1.Cell(26, 6).AttackCost != 2000 {
		t.Error("frame 1 was modified by decoding frame 2")
	}
}

// TestBuildingOrderPreserved finds a user whose building_number keys are not
// in canonical order and checks BuildingOrder reflects the file.
func TestBuildingOrderPreserved(t *testing.T) {
	_, frames, err := decodeAll(readShared(t, "conformance/c01.cfr"))
	if err != nil {
		t.Fatal(err)
	}
	nonCanonical := 0
	for _, f := range frames {
		for _, u := range f.Users {
			for i := 1; i < len(u.BuildingOrder); i++ {
				if u.BuildingOrder[i] < u.BuildingOrder[i-1] {
					nonCanonical++
					break
				}
			}
			for _, b := range u.BuildingOrder {
				if u.Buildings[b] <= 0 {
					t.Fatalf("turn %d user %d: %s listed with count %d", f.Turn, u.UID, b, u.Buildings[b])
				}
			}
		}
	}
	if nonCanonical == 0 {
		t.Error("expected some users with non-canonical building_number key order in c01")
	}
}

// tinyFrames builds a small valid 3x3 game: frame 0 with no users, then
// frames with two users and a few changes.
func tinyFrames() []colorfight2.Frame {
	f0 := colorfight2.Frame{Turn: 0, Width: 3, Height: 3}
	for y := 0; y < 3; y++ {
		for x := 0; x < 3; x++ {
			v := int64(1 + x + 3*y)
			f0.Cells = append(f0.Cells, colorfight2.FrameCell{AttackCost: 100 + v, Level: 1, Gold: v, Energy: 10 - v,
				X: int64(x), Y: int64(y), NaturalGold: v, NaturalEnergy: 10 - v, NaturalCost: 100 + v})
		}
	}
	var f1 colorfight2.Frame
	f1.CopyFrom(&f0)
	f1.Turn = 1
	f1.Users = []colorfight2.FrameUser{
		{UID: 1, Username: "a\"b\\c/é☃😀\n\x7f\x01", Energy: 1000, Gold: 0, TechLevel: 1, CellNumber: 1},
		{UID: 2, Username: "bot two", Energy: 1000, TechLevel: 1, CellNumber: 1},
	}
	f1.Users[0].Buildings[colorfight2.Home] = 1
	f1.Users[0].BuildingOrder = []colorfight2.Building{colorfight2.Home}
	f1.Users[1].Buildings[colorfight2.Home] = 1
	f1.Users[1].BuildingOrder = []colorfight2.Building{colorfight2.Home}
	*f1.Cell(0, 0) = colorfight2.FrameCell{AttackCost: 2000, Building: colorfight2.Home, Level: 1, Gold: 10, Energy: 10,
		Owner: 1, X: 0, Y: 0, NaturalGold: 1, NaturalEnergy: 9, NaturalCost: 101}
	*f1.Cell(2, 2) = colorfight2.FrameCell{AttackCost: 2000, Building: colorfight2.Home, Level: 1, Gold: 10, Energy: 10,
		Owner: 2, X: 2, Y: 2, NaturalGold: 9, NaturalEnergy: 1, NaturalCost: 109}
	var f2 colorfight2.Frame
	f2.CopyFrom(&f1)
	f2.Turn = 2
	f2.Cell(0, 0).AttackCost = 2010
	f2.Cell(1, 0).Owner = 1
	f2.Cell(1, 1).Building, f2.Cell(1, 1).Level = colorfight2.Fortress, 2
	f2.Cell(1, 1).Owner = 2
	f2.Users[0].Gold = -5
	f2.Users[0].Dead = true
	f2.Users[0].Verified = true
	f2.Users[1].Buildings[colorfight2.Fortress] = 1
	f2.Users[1].BuildingOrder = []colorfight2.Building{colorfight2.Fortress, colorfight2.Home}
	return []colorfight2.Frame{f0, f1, f2}
}

func encodeFrames(t testing.TB, h Header, frames []colorfight2.Frame, plain bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	var e *Encoder
	var err error
	if plain {
		e, err = NewJSONEncoder(&buf, h)
	} else {
		e, err = NewEncoder(&buf, h)
	}
	if err != nil {
		t.Fatal(err)
	}
	writeFrames(t, e, frames)
	return buf.Bytes()
}

func framesEqual(a, b *colorfight2.Frame) bool {
	if a.Turn != b.Turn || a.Width != b.Width || a.Height != b.Height || len(a.Cells) != len(b.Cells) || len(a.Users) != len(b.Users) {
		return false
	}
	for i := range a.Cells {
		if a.Cells[i] != b.Cells[i] {
			return false
		}
	}
	for i := range a.Users {
		x, y := a.Users[i], b.Users[i]
		if len(x.BuildingOrder) != len(y.BuildingOrder) {
			return false
		}
		for j := range x.BuildingOrder {
			if x.BuildingOrder[j] != y.BuildingOrder[j] {
				return false
			}
		}
		x.BuildingOrder, y.BuildingOrder = nil, nil
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

func TestTinyRoundTrip(t *testing.T) {
	frames := tinyFrames()
	h := Header{Info: json.RawMessage(`{"width":3,"height":3,"round_time":1.0}`), Chat: json.RawMessage(`[ "hi" ]`)}
	for _, plain := range []bool{true, false} {
		data := encodeFrames(t, h, frames, plain)
		gotH, got, err := decodeAll(data)
		if err != nil {
			t.Fatalf("plain=%v: %v", plain, err)
		}
		if string(gotH.Info) != string(h.Info) || string(gotH.Chat) != `[ "hi" ]` || string(gotH.Error) != "{}" {
			t.Errorf("header %s %s %s", gotH.Info, gotH.Chat, gotH.Error)
		}
		if len(got) != len(frames) {
			t.Fatalf("%d frames, want %d", len(got), len(frames))
		}
		for i := range frames {
			if !framesEqual(&got[i], &frames[i]) {
				t.Errorf("frame %d:\n got %+v\nwant %+v", i, got[i], frames[i])
			}
		}
	}
	plain := encodeFrames(t, h, frames, true)
	// Python-style escaping and minimal prefixes.
	for _, want := range []string{
		`"username":"a\"b\\c/\u00e9\u2603\ud83d\ude00\n\u007f\u0001"`,
		`{"turn":2,"users":`,
		`"building_number":{"fortress":1,"home":1}`,
		`"game_map":{"data":[[[2010],[102,0,[" ",1],2,8,1],[]],[[],[105,0,["f",2],5,5,2],[]],[[],[],[]]]}}]`,
		`"dead":true`, `"gold":-5`,
	} {
		if !bytes.Contains(plain, []byte(want)) {
			t.Errorf("output lacks %s\n%s", want, plain)
		}
	}
	if !json.Valid(plain) {
		t.Error("output is not valid JSON")
	}
}

func TestHeaderUsersWithCells(t *testing.T) {
	frames := tinyFrames()[1:2]
	frames[0].Turn = 0
	h := Header{Users: []HeaderUser{{FrameUser: colorfight2.FrameUser{UID: 2}, Cells: [][2]int64{{2, 2}, {1, 2}}},
		{FrameUser: colorfight2.FrameUser{UID: 1}, Cells: [][2]int64{}}}}
	data := encodeFrames(t, h, frames, true)
	if !bytes.Contains(data, []byte(`"cell_number":1,"cells":[[2,2],[1,2]]}`)) || !bytes.Contains(data, []byte(`"cell_number":1,"cells":[]}`)) {
		t.Fatalf("cells not written as expected:\n%s", data)
	}
	gotH, got, err := decodeAll(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].Users) != 2 || len(gotH.Users) != 2 {
		t.Fatalf("got %d frames, header users %d", len(got), len(gotH.Users))
	}
	if gotH.Users[0].Username != frames[0].Users[0].Username || gotH.Users[0].Cells == nil || len(gotH.Users[0].Cells) != 0 {
		t.Errorf("header user 1 = %+v", gotH.Users[0])
	}
	if c := gotH.Users[1].Cells; len(c) != 2 || c[0] != [2]int64{2, 2} || c[1] != [2]int64{1, 2} {
		t.Errorf("header user 2 cells = %v", c)
	}
	// Re-encoding with the decoded header reproduces the bytes.
	if again := encodeFrames(t, gotH, got, true); !bytes.Equal(again, data) {
		t.Errorf("re-encoded header differs:\n%s\n%s", again, data)
	}
	// cells after element 0 are an unknown key: skipped, not written back.
	plain := encodeFrames(t, Header{}, tinyFrames(), true)
	extra := bytes.Replace(plain, []byte(`"cell_number":1}`), []byte(`"cell_number":1,"cells":[[0,0]]}`), 1)
	if out, _, err := reencode(extra, true); err != nil || !bytes.Equal(out, plain) {
		t.Errorf("cells in element 1: err = %v, output equal %v", err, bytes.Equal(out, plain))
	}
	// off-map cells are rejected.
	off := bytes.Replace(data, []byte(`[[2,2],[1,2]]`), []byte(`[[2,2],[1,3]]`), 1)
	if _, _, err := decodeAll(off); !errors.Is(err, ErrInvalid) {
		t.Errorf("off-map header cell: err = %v", err)
	}
}
