package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	"github.com/rewind-game/rewind/internal/testutil"
)

func TestLockstepGameEndToEnd(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.createRoom("r", lockstep(200, "greedy", "raider"))
	gc := ts.dial("r", "game_channel")
	s0 := readState(t, gc)
	if s0.Turn != 0 || s0.Info.StartCountDown != 9999 || s0.Info.GameVersion != 2 {
		t.Fatalf("first message %+v", s0)
	}
	p1 := ts.action("r")
	if uid := p1.register("alice", "a"); uid != 1 {
		t.Fatalf("uid %d", uid)
	}
	st := waitState(t, gc, func(s state) bool { return len(s.Users) == 1 })
	if u := st.Users["1"]; u.Username != "alice" || len(u.Cells) != 1 {
		t.Fatalf("users %+v", st.Users)
	}
	decodeState(t, st.raw)
	ts.start("r")
	for turn := 1; turn < 200; turn++ {
		st = waitState(t, gc, atTurn(turn))
		if st.Turn != turn {
			t.Fatalf("turn %d, want %d", st.Turn, turn)
		}
		if r := p1.command("a 0 0 1"); r["success"] != true {
			t.Fatalf("turn %d: %v", turn, r)
		}
	}
	st = waitState(t, gc, atTurn(200))
	f, _ := decodeState(t, st.raw)
	if len(f.Users) != 3 {
		t.Fatalf("%d users", len(f.Users))
	}
	wantErr(t, p1.command("a 0 0 1"), "The game has not started or it ended already.")

	games := ts.s.Games()
	if len(games) != 1 {
		t.Fatalf("games %+v", games)
	}
	// the replay download waits for the footer
	resp := ts.get("/gameroom/r/replay")
	if resp.status != 200 {
		t.Fatalf("replay: %d", resp.status)
	}
	g := ts.s.Games()[0]
	if !g.Done || filepath.Ext(g.File) != ".rwd" {
		t.Fatalf("game %+v", g)
	}
	data := testutil.ReadFile(t, g.File)
	want, err := cfrimport.OpenFrames(bytes.NewReader(resp.body))
	if err != nil {
		t.Fatal(err)
	}
	res, frames, err := cfrimport.VerifyAgainst(bytes.NewReader(data), want)
	if err != nil || res.Err != nil || !res.Complete || frames != 201 {
		t.Fatalf("verify against: %v %+v frames %d", err, res, frames)
	}
	_ = cfr.Headers
}

// The state message has the exact shape the official clients need.
func TestStateMessageShape(t *testing.T) {
	ts := newTestServer(t, Options{})
	cfg, _ := Preset("default")
	ts.createRoom("r", cfg)
	gc := ts.dial("r", "game_channel")
	ts.action("r").register("capA", "p")
	st := waitState(t, gc, func(s state) bool { return len(s.Users) == 1 })
	for _, want := range []string{
		`{"turn":0,"info":{"max_turn":500,"max_player":8,"width":30,"height":30,"round_time":1.0,"start_count_down":1,"allow_manual_mode":true,"game_id":"`,
		`","replay_version":2,"game_version":2},"chat":[],"error":{},"game_map":{"data":[[[`,
		`"headers":["attack_cost","force_field","building","gold","energy","owner","position","natural_gold","natural_energy","natural_cost"]}`,
		`"users":{"1":{"uid":1,"username":"capA","verified":false,"ranking":0,"energy":1000,"gold":0,"dead":false,"energy_source":10,"gold_source":10,"tech_level":1,"tax_level":0,"tax_amount":0,"building_number":{},"cell_number":1,"cells":[[`,
	} {
		if !bytes.Contains(st.raw, []byte(want)) {
			t.Errorf("message lacks %s:\n%.600s", want, st.raw)
		}
	}
	// every cell has its 10 fields, position included (the decoder checks
	// each position against its place)
	f, _ := decodeState(t, st.raw)
	x, y := st.Users["1"].Cells[0][0], st.Users["1"].Cells[0][1]
	if c := f.Cells[y*30+x]; c.Owner != 1 || c.Building.Letter() != 'h' || c.AttackCost != 1000 {
		t.Errorf("home cell %+v", c)
	}
	var m struct {
		GameMap struct {
			Data [][][]json.RawMessage `json:"data"`
		} `json:"game_map"`
	}
	if err := json.Unmarshal(st.raw, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.GameMap.Data) != 30 {
		t.Fatalf("%d rows", len(m.GameMap.Data))
	}
	for y, row := range m.GameMap.Data {
		for x, cell := range row {
			if len(cell) != 10 || string(cell[6]) != fmt.Sprintf("[%d,%d]", x, y) {
				t.Fatalf("cell (%d,%d): %s", x, y, cell)
			}
		}
	}
}

// Live view: Games lists newest first; Recording's channel closes at
// every round and the data grows by whole rounds.
func TestLiveRecording(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.createRoom("a", lockstep(200, "greedy"))
	ts.createRoom("b", lockstep(200))
	gc := ts.dial("a", "game_channel")
	p := ts.action("a")
	p.register("p", "p")
	ts.start("a")
	waitState(t, gc, atTurn(1))
	id := ts.s.Games()[0].ID
	data, g, changed, err := ts.s.Recording(id)
	if err != nil || g.Room != "a" || g.Turn != 1 || g.Done || len(g.Players) != 2 || g.Players[0] != "p" || g.Players[1] != "greedy" {
		t.Fatalf("%v %+v", err, g)
	}
	p.command()
	<-changed
	more, g2, _, _ := ts.s.Recording(id)
	if g2.Turn != 2 || len(more) <= len(data) || !bytes.Equal(more[:len(data)], data) {
		t.Errorf("after a round: turn %d, %d -> %d bytes", g2.Turn, len(data), len(more))
	}
	b := ts.action("b")
	b.register("q", "q")
	ts.start("b")
	waitState(t, ts.dial("b", "game_channel"), atTurn(1))
	if games := ts.s.Games(); len(games) != 2 || games[0].Room != "b" || games[1].Room != "a" {
		t.Errorf("games %+v", games)
	}
}
