package rules_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/testutil"
)

// documentedTurn returns the example turn message of docs/bot-protocol.md
// (the first json block of the section "`turn`"), compacted to the one
// line it is sent as, with its newline.
func documentedTurn(t *testing.T, path string) []byte {
	t.Helper()
	doc := testutil.ReadFile(t, path)
	_, sec, ok := strings.Cut(string(doc), "### `turn` (runner → bot")
	if !ok {
		t.Fatalf("%s: no section on the turn message", path)
	}
	_, block, ok := strings.Cut(sec, "```json\n")
	if !ok {
		t.Fatalf("%s: no example turn message", path)
	}
	block, _, _ = strings.Cut(block, "```")
	var line bytes.Buffer
	if err := json.Compact(&line, []byte(block)); err != nil {
		t.Fatalf("%s: example turn message: %v", path, err)
	}
	return append(line.Bytes(), '\n')
}

// documentedFrame is the frame of the example turn message of
// docs/bot-protocol.md: turn 7 of a 3×1 map with two players.
func documentedFrame() *colorfight2.Frame {
	user := func(uid, energy, gold int64) colorfight2.FrameUser {
		u := colorfight2.FrameUser{UID: uid, Username: "p" + string(rune('0'+uid)), Energy: energy, Gold: gold,
			EnergySource: 10, GoldSource: 10, TechLevel: 1, CellNumber: 1, BuildingOrder: []colorfight2.Building{colorfight2.Home}}
		u.Buildings[colorfight2.Home] = 1
		return u
	}
	return &colorfight2.Frame{Turn: 7, Width: 3, Height: 1,
		Users: []colorfight2.FrameUser{user(1, 1070, 70), user(2, 905, 110)},
		Cells: []colorfight2.FrameCell{
			{AttackCost: 2070, Building: colorfight2.Home, Level: 1, Gold: 10, Energy: 10, Owner: 1, X: 0, Y: 0, NaturalGold: 4, NaturalEnergy: 7, NaturalCost: 88},
			{AttackCost: 96, Level: 1, Gold: 3, Energy: 8, X: 1, Y: 0, NaturalGold: 3, NaturalEnergy: 8, NaturalCost: 96},
			{AttackCost: 1905, Building: colorfight2.Home, Level: 1, Gold: 10, Energy: 10, Owner: 2, X: 2, Y: 0, NaturalGold: 6, NaturalEnergy: 9, NaturalCost: 120},
		}}
}

// TestBotTurnDocumented: the turn message of the documented frame is,
// byte for byte, the example of docs/bot-protocol.md.
func TestBotTurnDocumented(t *testing.T) {
	want := documentedTurn(t, "../../../docs/bot-protocol.md")
	got := colorfight2.AppendBotTurn(nil, documentedFrame(), 1, 500, 1000)
	if !bytes.Equal(got, want) {
		t.Fatalf("turn message\n%s\nwant (docs/bot-protocol.md)\n%s", got, want)
	}
}

// TestBotTurnBytes pins the exact bytes of a turn message where the
// encoding has choices to make: a username that needs escaping (JSON's,
// HTML-safe), negative amounts, a dead player, the building_number keys
// in the frame's order (an invalid type skipped), levels, forts and force
// fields, rows of several cells.
func TestBotTurnBytes(t *testing.T) {
	a := colorfight2.FrameUser{UID: 3, Username: "a\"b<é>\n&", Energy: -12, Gold: 40, EnergySource: 7, GoldSource: 5,
		TechLevel: 2, TaxLevel: 1, TaxAmount: 9, CellNumber: 3,
		BuildingOrder: []colorfight2.Building{colorfight2.Fortress, colorfight2.BuildingNone, colorfight2.Home, colorfight2.GoldMine}}
	a.Buildings[colorfight2.Home], a.Buildings[colorfight2.GoldMine], a.Buildings[colorfight2.Fortress] = 1, 1, 1
	b := colorfight2.FrameUser{UID: 1, Username: "", Gold: -3, Dead: true}
	f := &colorfight2.Frame{Turn: 42, Width: 2, Height: 2, Users: []colorfight2.FrameUser{a, b},
		Cells: []colorfight2.FrameCell{
			{AttackCost: 3000, ForceField: 1000, Building: colorfight2.Home, Level: 2, Gold: 11, Energy: 12, Owner: 3, X: 0, Y: 0, NaturalGold: 1, NaturalEnergy: 2, NaturalCost: 30},
			{AttackCost: 240, ForceField: 0, Building: colorfight2.Fortress, Level: 3, Gold: 0, Energy: 0, Owner: 3, X: 1, Y: 0, NaturalGold: 0, NaturalEnergy: 0, NaturalCost: 1},
			{AttackCost: 55, Building: colorfight2.GoldMine, Level: 1, Gold: 9, Energy: 2, Owner: 3, X: 0, Y: 1, NaturalGold: 9, NaturalEnergy: 2, NaturalCost: 55},
			{AttackCost: 7, Level: 1, X: 1, Y: 1, NaturalGold: 10, NaturalEnergy: 10, NaturalCost: 7},
		}}
	want := `{"type":"turn","turn":42,"uid":3,"info":{"max_turn":9,"width":2,"height":2,"deadline_ms":250},"users":{` +
		`"3":{"uid":3,"username":"a\"b\u003cé\u003e\n\u0026","energy":-12,"gold":40,"dead":false,"energy_source":7,"gold_source":5,"tech_level":2,"tax_level":1,"tax_amount":9,"building_number":{"fortress":1,"home":1,"gold_mine":1},"cell_number":3},` +
		`"1":{"uid":1,"username":"","energy":0,"gold":-3,"dead":true,"energy_source":0,"gold_source":0,"tech_level":0,"tax_level":0,"tax_amount":0,"building_number":{},"cell_number":0}},` +
		`"game_map":{"headers":["attack_cost","force_field","building","gold","energy","owner","position","natural_gold","natural_energy","natural_cost"],"data":[` +
		`[[3000,1000,["h",2],11,12,3,[0,0],1,2,30],[240,0,["f",3],0,0,3,[1,0],0,0,1]],` +
		`[[55,0,["g",1],9,2,3,[0,1],9,2,55],[7,0,[" ",1],0,0,0,[1,1],10,10,7]]]}}` + "\n"
	got := colorfight2.AppendBotTurn(nil, f, 3, 9, 250)
	if string(got) != want {
		t.Fatalf("turn message\n%s\nwant\n%s", got, want)
	}
}

// TestBotTurnMessage checks the turn message of a game's third frame
// against the frame, field by field.
func TestBotTurnMessage(t *testing.T) {
	s, err := colorfight2.NewFromSeed(colorfight2.DefaultConfig(), 1, []string{"ext", "other"})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		s.Step(nil)
	}
	f := &colorfight2.Frame{}
	s.Frame(f)
	line := colorfight2.AppendBotTurn(nil, f, 2, 700, 1500)
	if n := strings.Count(string(line), "\n"); n != 1 || line[len(line)-1] != '\n' {
		t.Fatalf("message is not one line (%d newlines)", n)
	}
	var msg struct {
		Type  string
		Turn  int
		UID   int
		Info  map[string]int
		Users map[string]struct {
			UID            int64            `json:"uid"`
			Username       string           `json:"username"`
			Energy         int64            `json:"energy"`
			Gold           int64            `json:"gold"`
			Dead           bool             `json:"dead"`
			EnergySource   int64            `json:"energy_source"`
			GoldSource     int64            `json:"gold_source"`
			TechLevel      int64            `json:"tech_level"`
			TaxLevel       int64            `json:"tax_level"`
			TaxAmount      int64            `json:"tax_amount"`
			BuildingNumber map[string]int64 `json:"building_number"`
			CellNumber     int64            `json:"cell_number"`
		}
		GameMap struct {
			Headers []string
			Data    [][][]json.RawMessage
		} `json:"game_map"`
	}
	if err := json.Unmarshal(line, &msg); err != nil {
		t.Fatal(err)
	}
	if msg.Type != "turn" || msg.Turn != 3 || msg.UID != 2 {
		t.Errorf("type/turn/uid = %q/%d/%d", msg.Type, msg.Turn, msg.UID)
	}
	wantInfo := map[string]int{"max_turn": 700, "width": 30, "height": 30, "deadline_ms": 1500}
	if !reflect.DeepEqual(msg.Info, wantInfo) {
		t.Errorf("info = %v, want %v", msg.Info, wantInfo)
	}
	if len(msg.Users) != 2 {
		t.Fatalf("%d users, want 2", len(msg.Users))
	}
	for _, u := range f.Users {
		got := msg.Users[strconv.FormatInt(u.UID, 10)]
		if got.UID != u.UID || got.Username != u.Username || got.Energy != u.Energy || got.Gold != u.Gold ||
			got.Dead != u.Dead || got.EnergySource != u.EnergySource || got.GoldSource != u.GoldSource ||
			got.TechLevel != u.TechLevel || got.TaxLevel != u.TaxLevel || got.TaxAmount != u.TaxAmount ||
			got.CellNumber != u.CellNumber || got.BuildingNumber["home"] != u.Buildings[colorfight2.Home] {
			t.Errorf("user %d = %+v, frame has %+v", u.UID, got, u)
		}
	}
	wantHeaders := []string{"attack_cost", "force_field", "building", "gold", "energy", "owner", "position", "natural_gold", "natural_energy", "natural_cost"}
	if !reflect.DeepEqual(msg.GameMap.Headers, wantHeaders) {
		t.Errorf("headers = %v", msg.GameMap.Headers)
	}
	if len(msg.GameMap.Data) != f.Height {
		t.Fatalf("%d rows, want %d", len(msg.GameMap.Data), f.Height)
	}
	for y, row := range msg.GameMap.Data {
		if len(row) != f.Width {
			t.Fatalf("row %d has %d cells", y, len(row))
		}
		for x, cell := range row {
			c := f.Cell(x, y)
			want := fmt.Sprintf(`[%d %d ["%c",%d] %d %d %d [%d,%d] %d %d %d]`, c.AttackCost, c.ForceField,
				c.Building.Letter(), c.Level, c.Gold, c.Energy, c.Owner, c.X, c.Y, c.NaturalGold, c.NaturalEnergy, c.NaturalCost)
			if got := fmt.Sprintf("%s", cell); got != want {
				t.Fatalf("cell (%d,%d) = %s, want %s", x, y, got, want)
			}
		}
	}
}
