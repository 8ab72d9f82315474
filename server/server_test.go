package server

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rewind-game/rewind/replay/cfr"
	"github.com/rewind-game/rewind/replay/source"
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
	if !g.Done || filepath.Ext(g.Path) != ".rwd" {
		t.Fatalf("game %+v", g)
	}
	data, err := os.ReadFile(g.Path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := source.New(bytes.NewReader(resp.body), nil)
	if err != nil {
		t.Fatal(err)
	}
	res, frames, err := source.VerifyAgainst(bytes.NewReader(data), want)
	if err != nil || res.Err != nil || !res.Complete || frames != 201 {
		t.Fatalf("verify against: %v %+v frames %d", err, res, frames)
	}
	_ = cfr.Headers
}
