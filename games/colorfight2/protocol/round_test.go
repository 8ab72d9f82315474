package protocol

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// home returns player uid's home cell in a state message.
func home(t *testing.T, s state, uid int) (int, int) {
	t.Helper()
	u, ok := s.Users[fmt.Sprint(uid)]
	if !ok || len(u.Cells) == 0 {
		t.Fatalf("user %d has no cell: %+v", uid, s.Users)
	}
	return u.Cells[0][0], u.Cells[0][1]
}

// far returns a cell more than one step from (x, y).
func far(x, y int) (int, int) {
	fx, fy := (x+10)%30, (y+10)%30
	return fx, fy
}

// A command message replaces the player's pending list; each failed
// command gets the reference's message in "error"; what was applied is
// what the replay holds.
func TestCommandErrorsAndReplacement(t *testing.T) {
	ts := newTestServer(t, Options{})
	gc, ab, st := ts.startPlayers(lockstep(200), "a", "b")
	a, b := ab[0], ab[1]
	if len(st.Error) != 2 || st.Error["1"] == nil || len(st.Error["1"]) != 0 {
		t.Errorf("turn 1 errors %v, want an empty list per player", st.Error)
	}
	hx, hy := home(t, st, 1)
	fx, fy := far(hx, hy)
	// first list: replaced before the round, never applied
	if r := a.command("a 99 99 1", "b 99 99 g"); r["success"] != true {
		t.Fatal(r)
	}
	// Each failed command's error is the command as sent, a space and why.
	cases := []struct{ cmd, why string }{
		{"a 99 99 10", "failed, Attack position is not in the map."},
		{fmt.Sprintf("a %d %d 999999", fx, fy), "failed, Do not have enough energy to attack."},
		{fmt.Sprintf("a %d %d 1", fx, fy), "failed, No valid surrounding cell to attack."},
		{"b 99 99 g", "failed, Build position is not in the map."},
		{fmt.Sprintf("b %d %d g", fx, fy), "failed, You need to build on your own cell."},
		{fmt.Sprintf("b %d %d g", hx, hy), "failed, There is a building on this cell already."},
		{"u -1 0", "failed, Upgrade position is not in the map."},
		{fmt.Sprintf("u %d %d", fx, fy), "failed, You need to upgrade on your own cell."},
		{fmt.Sprintf("u %d %d", hx, hy), "failed, Not enough gold."},
		{"x 1 2", "is a wrong command, cmd type x is invalid"},
		{"a 1", "is a wrong command, list index out of range"},
		{"a b 1 2", "is a wrong command, invalid literal for int() with base 10: 'b'"},
		{"", "is not a command"},
		{"  a   99 99 10  ", "failed, Attack position is not in the map."},
	}
	var cmds, want []string
	for _, c := range cases {
		cmds = append(cmds, c.cmd)
		want = append(want, c.cmd+" "+c.why)
	}
	if r := a.command(cmds...); r["success"] != true {
		t.Fatal(r)
	}
	if r := b.send(map[string]any{"action": "command", "cmd_list": "a 1 1 1"}); r["err_msg"] != "Wrong type" {
		t.Errorf("string cmd_list: %v", r)
	}
	b.command() // b is ready: the round runs
	st = waitState(t, gc, atTurn(2))
	if got := st.Error["1"]; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("errors:\n got %q\nwant %q", got, want)
	}
	if len(st.Error["2"]) != 0 {
		t.Errorf("b's errors %q", st.Error["2"])
	}
	// the recording holds the second list as applied
	ts.closeAndResimulate(func(game *replay.Sim) {
		if game.Game().Turn() == 2 {
			applied := game.Game().(*colorfight2.Game).Applied()
			if len(applied[0]) != len(cmds) {
				t.Fatalf("recorded %d commands, want %d", len(applied[0]), len(cmds))
			}
			if c := applied[0][0]; c.Kind != colorfight2.CmdAttack || c.X != 99 {
				t.Errorf("first recorded command %+v", c)
			}
		}
	})
}

// A timed room: rounds run every round_time on the (fake) clock, also
// with no game_channel open, and nothing waits for the players.
func TestTimedRounds(t *testing.T) {
	ts := newTestServer(t, Options{})
	cfg := lockstep(200, "greedy")
	cfg.RoundTime = 1
	ts.createRoom("r", cfg)
	a := ts.action("r")
	a.register("a", "p")
	ts.start("r")
	gc := ts.dial("r", "game_channel")
	waitState(t, gc, atTurn(1))
	a.command("a 99 99 1")
	for turn := 2; turn <= 4; turn++ {
		ts.clk.Advance(time.Second)
		st := waitState(t, gc, atTurn(turn))
		if st.Turn != turn {
			t.Fatalf("turn %d, want %d", st.Turn, turn)
		}
		if turn == 2 && len(st.Error["1"]) != 1 {
			t.Errorf("turn 2 errors %v", st.Error)
		}
		if st.Info.RoundTime != 1 || !bytes.Contains(st.raw, []byte(`"round_time":1.0,`)) {
			t.Errorf("round_time in %.200s", st.raw)
		}
	}
	// without an observer the game goes on
	gc.CloseNow()
	id := ts.s.Games()[0].ID
	for turn := 5; turn <= 6; turn++ {
		ts.clk.Advance(time.Second)
		ts.waitTurn(id, turn)
	}
	gc = ts.dial("r", "game_channel")
	if st := readState(t, gc); st.Turn != 6 {
		t.Errorf("turn %d, want 6", st.Turn)
	}
}

// Countdown: start_count_down shown in whole seconds and sent each
// second; the game starts when it runs out.
func TestCountdownStart(t *testing.T) {
	ts := newTestServer(t, Options{})
	cfg := lockstep(200, "greedy", "turtle")
	cfg.FirstRoundTime = "3"
	ts.createRoom("r", cfg)
	gc := ts.dial("r", "game_channel")
	if st := readState(t, gc); st.Info.StartCountDown != 3 || st.Turn != 0 {
		t.Fatalf("first message: turn %d count down %d", st.Turn, st.Info.StartCountDown)
	}
	for _, want := range []int{2, 1} {
		ts.clk.AdvanceArmed(time.Second)
		st := readState(t, gc)
		if st.Info.StartCountDown != want || st.Turn != 0 {
			t.Fatalf("count down %d turn %d, want %d", st.Info.StartCountDown, st.Turn, want)
		}
	}
	ts.clk.AdvanceArmed(time.Second)
	st := waitState(t, gc, atTurn(1))
	if st.Info.StartCountDown != 0 || len(st.Users) != 2 {
		t.Errorf("started: count down %d, users %d", st.Info.StartCountDown, len(st.Users))
	}
}

// "full": the game starts when registered players plus bots fill the room.
func TestFullStart(t *testing.T) {
	ts := newTestServer(t, Options{})
	cfg := lockstep(200, "greedy")
	cfg.FirstRoundTime, cfg.MaxPlayer = "full", 2
	ts.createRoom("r", cfg)
	gc := ts.dial("r", "game_channel")
	readState(t, gc)
	a := ts.action("r")
	a.register("me", "p")
	st := waitState(t, gc, atTurn(1))
	if st.Users["1"].Username != "me" || st.Users["2"].Username != "greedy" {
		t.Errorf("users %+v", st.Users)
	}
}

// finish_time restarts the room with a new game after the end; 0 keeps
// the finished game.
func TestFinishAndRestart(t *testing.T) {
	ts := newTestServer(t, Options{})
	cfg := lockstep(200, "greedy", "raider")
	cfg.FinishTime = 5
	ts.createRoom("r", cfg)
	gc := ts.dial("r", "game_channel")
	first := readState(t, gc)
	ts.start("r")
	end := waitState(t, gc, atTurn(200))
	if end.Info.GameID != first.Info.GameID {
		t.Fatal("game id changed during the game")
	}
	ts.waitTurn(ts.s.Games()[0].ID, 1<<30) // returns once done
	ts.clk.Advance(5 * time.Second)
	next := waitState(t, gc, func(s state) bool { return s.Info.GameID != first.Info.GameID })
	if next.Turn != 0 || len(next.Users) != 0 {
		t.Errorf("restarted room: turn %d users %d", next.Turn, len(next.Users))
	}
	// /restart with a new config
	ts.mustPost("/restart", map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{"max_turn": 300, "round_time": 0, "first_round_time": "never"}})
	st := waitState(t, gc, func(s state) bool { return s.Info.MaxTurn == 300 })
	if st.Info.GameID == next.Info.GameID || st.Info.RoundTime != 0 {
		t.Errorf("after /restart: %+v", st.Info)
	}
}

// Lock-step: a player with an open channel that does not answer holds a
// round until LockstepDeadline; one whose channel closed holds nothing.
func TestLockstepDeadlineAndDisconnected(t *testing.T) {
	ts := newTestServer(t, Options{LockstepDeadline: 10 * time.Second})
	gc, ab, _ := ts.startPlayers(lockstep(200, "greedy"), "a", "b")
	a, b := ab[0], ab[1]
	a.command("a 99 99 1")
	// b says nothing: the round waits for the deadline
	ts.clk.Advance(10 * time.Second)
	st := waitState(t, gc, atTurn(2))
	if st.Turn != 2 || len(st.Error["1"]) != 1 {
		t.Fatalf("turn %d errors %v", st.Turn, st.Error)
	}
	// b leaves: a alone decides when rounds run
	b.c.Close(1000, "")
	for turn := 3; turn < 10; turn++ {
		a.command()
		if st := waitState(t, gc, atTurn(turn)); st.Turn != turn {
			t.Fatalf("turn %d, want %d", st.Turn, turn)
		}
	}
	// still seated after leaving (only turn 0 frees a seat)
	if st := readState(t, ts.dial("r", "game_channel")); len(st.Users) != 3 {
		t.Errorf("%d users", len(st.Users))
	}
}

// Logs never contain a password.
func TestLogsHoldNoPassword(t *testing.T) {
	var logs testutil.SyncBuffer
	ts := newTestServer(t, Options{AdminPassword: "master-secret", Logf: logInto(&logs)})
	ts.mustPost("/creategameroom", map[string]any{"gameroom_id": "r", "config": "official", "admin_password": "room-secret", "join_key": "key-secret"})
	ts.mustPost("/restart", map[string]any{"gameroom_id": "r", "admin_password": "master-secret", "config": map[string]any{"round_time": 0, "max_turn": 200, "bots": []string{"greedy", "turtle"}}})
	a := ts.action("r")
	if r := a.send(map[string]any{"action": "register", "username": "u", "password": "player-secret", "join_key": "key-secret"}); r["success"] != true {
		t.Fatal(r)
	}
	gc := ts.dial("r", "game_channel")
	ts.mustPost("/start", map[string]any{"gameroom_id": "r", "admin_password": "master-secret"})
	waitState(t, gc, atTurn(1))
	ts.mustPost("/deletegameroom", map[string]any{"gameroom_id": "r", "admin_password": "room-secret"})
	ts.s.Close()
	out := logs.String()
	if out == "" {
		t.Fatal("nothing logged")
	}
	for _, secret := range []string{"master-secret", "room-secret", "key-secret", "player-secret"} {
		if strings.Contains(out, secret) {
			t.Errorf("log holds %s:\n%s", secret, out)
		}
		g := ts.s.Games()[0]
		data, _, _, _ := ts.s.Recording(g.ID)
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("recording holds %s", secret)
		}
	}
}
