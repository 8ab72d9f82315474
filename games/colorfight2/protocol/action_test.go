package protocol

import (
	"context"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

func TestActionChannelErrors(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.createRoom("r", lockstep(200))
	if err := ts.s.CreateRoom("locked", lockstep(200), "pw", "key", false); err != nil {
		t.Fatal(err)
	}
	a := ts.action("r")
	cases := []struct {
		msg  any
		want string
	}{
		{"{not json", "This is not a valid json"},
		{`[1, 2]`, "You have to specify an action"},
		{`{"username": "x"}`, "You have to specify an action"},
		{`{"action": "fly"}`, "Not a valid action"},
		{`{"action": 5}`, "Not a valid action"},
		{`{"action": "command", "cmd_list": []}`, "You need to join the game first"},
		{`{"action": "register", "password": "p"}`, "username is missing"},
		{`{"action": "register", "username": "u"}`, "password is missing"},
		{`{"action": "register", "username": 5, "password": "p"}`, "Username and Password needs to be strings"},
		{`{"action": "register", "username": "u", "password": null}`, "Username and Password needs to be strings"},
		{`{"action": "register", "username": "abcdefghijklmno", "password": "p"}`, "Username can't exceed 15 characters."},
		{`{"action": "register", "username": "", "password": "p"}`, "Username has to be at least 1 characters"},
		{`{"action": "register", "username": "u", "password": "p", "join_key": "nope"}`, "You need the correct join key for the room"},
	}
	for _, c := range cases {
		wantErr(t, a.send(c.msg), c.want)
	}
	// 14 characters is the real limit
	if uid := a.register("abcdefghijklmn", "p"); uid != 1 {
		t.Errorf("uid %d", uid)
	}
	wantErr(t, a.command("a 1 1 1"), "The game has not started or it ended already.")
	wantErr(t, a.send(`{"action": "command"}`), "cmd_list is missing")

	// join keys
	l := ts.action("locked")
	wantErr(t, l.send(map[string]any{"action": "register", "username": "u", "password": "p"}), "You need the correct join key for the room")
	if r := l.send(map[string]any{"action": "register", "username": "u", "password": "p", "join_key": "key"}); r["success"] != true {
		t.Errorf("with the key: %v", r)
	}
}

func TestRegisterReconnectAndFull(t *testing.T) {
	ts := newTestServer(t, Options{})
	cfg := lockstep(200)
	cfg.MaxPlayer = 2
	ts.createRoom("r", cfg)
	gc := ts.dial("r", "game_channel")
	a, b, c := ts.action("r"), ts.action("r"), ts.action("r")
	if a.register("a", "pa") != 1 || b.register("b", "pb") != 2 {
		t.Fatal("uids")
	}
	wantErr(t, c.send(map[string]any{"action": "register", "username": "a", "password": "wrong"}), "Username exists")
	wantErr(t, c.send(map[string]any{"action": "register", "username": "c", "password": "pc"}), "Map is full")
	// same name and password: the same uid, on another socket
	if uid := c.register("a", "pa"); uid != 1 {
		t.Errorf("reconnect uid %d", uid)
	}
	st := waitState(t, gc, func(s state) bool { return len(s.Users) == 2 })
	if st.Users["1"].Username != "a" || st.Users["2"].Username != "b" {
		t.Errorf("users %+v", st.Users)
	}
	ts.start("r")
	waitState(t, gc, atTurn(1))
	// after the start: reconnect works, joining does not
	d := ts.action("r")
	if uid := d.register("b", "pb"); uid != 2 {
		t.Errorf("reconnect after start: uid %d", uid)
	}
	e := ts.action("r")
	// The reference's words first, then why, for the bot's author.
	late := e.send(map[string]any{"action": "register", "username": "new", "password": "x"})
	if msg, _ := late["err_msg"].(string); late["success"] != false || !strings.HasPrefix(msg, "You are not allowed to join after the game starts: game ") ||
		!strings.Contains(msg, "of room r is at turn 1 of 200") || !strings.Contains(msg, "seats players during turn 0 only") {
		t.Errorf("late register: %v", late)
	}
	wantErr(t, e.send(map[string]any{"action": "register", "username": "b", "password": "x"}), "Username exists")
}

// A player whose action channel closes during turn 0 leaves and frees its
// uid, which the next registrant takes (and users stay in registration
// order).
func TestLeaveAtTurn0FreesUID(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.createRoom("r", lockstep(200))
	gc := ts.dial("r", "game_channel")
	a, b, c := ts.action("r"), ts.action("r"), ts.action("r")
	a.register("a", "p")
	b.register("b", "p")
	c.register("c", "p")
	waitState(t, gc, func(s state) bool { return len(s.Users) == 3 })
	b.c.Close(websocket.StatusNormalClosure, "")
	st := waitState(t, gc, func(s state) bool { return len(s.Users) == 2 })
	if _, ok := st.Users["2"]; ok {
		t.Fatalf("uid 2 still there: %+v", st.Users)
	}
	d := ts.action("r")
	if uid := d.register("d", "p"); uid != 2 {
		t.Fatalf("d got uid %d, want the freed 2", uid)
	}
	st = waitState(t, gc, func(s state) bool { return len(s.Users) == 3 })
	// registration order: 1, 3, 2
	i1, i3, i2 := strings.Index(string(st.raw), `"1":{"uid"`), strings.Index(string(st.raw), `"3":{"uid"`), strings.Index(string(st.raw), `"2":{"uid"`)
	if !(i1 < i3 && i3 < i2) {
		t.Errorf("users not in registration order: %d %d %d", i1, i3, i2)
	}
}

// A uid gap left at the start is closed by renumbering: the engine seats
// uids 1..n.
func TestUIDGapRenumbered(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.createRoom("r", lockstep(200))
	gc := ts.dial("r", "game_channel")
	a, b := ts.action("r"), ts.action("r")
	a.register("a", "p")
	if b.register("b", "p") != 2 {
		t.Fatal("uid")
	}
	waitState(t, gc, func(s state) bool { return len(s.Users) == 2 })
	a.c.Close(websocket.StatusNormalClosure, "")
	waitState(t, gc, func(s state) bool { return len(s.Users) == 1 })
	ts.start("r")
	st := waitState(t, gc, atTurn(1))
	if u, ok := st.Users["1"]; !ok || u.Username != "b" || len(st.Users) != 1 {
		t.Fatalf("users %+v", st.Users)
	}
	if uid := ts.action("r").register("b", "p"); uid != 1 {
		t.Errorf("b reconnects as %d, want 1", uid)
	}
}

func TestBinaryAndOversizedMessagesClose(t *testing.T) {
	ts := newTestServer(t, Options{MaxMessageBytes: 1 << 20})
	ts.createRoom("r", lockstep(200))
	ctx := context.Background()
	// binary frame: the connection is closed (the reference does too)
	a := ts.action("r")
	a.c.Write(ctx, websocket.MessageBinary, []byte{0, 1, 2})
	if _, _, err := a.c.Read(ctx); err == nil {
		t.Error("binary message: connection still open")
	}
	// 10 MB: refused, the connection closed, the server fine
	b := ts.action("r")
	big := make([]byte, 10<<20)
	for i := range big {
		big[i] = 'x'
	}
	b.c.Write(ctx, websocket.MessageText, big) // may fail once the server closes
	_, _, err := b.c.Read(ctx)
	if err == nil {
		t.Fatal("10 MB message: connection still open")
	}
	if code := websocket.CloseStatus(err); code != websocket.StatusMessageTooBig && code != -1 {
		t.Errorf("close status %v", code)
	}
	c := ts.action("r")
	if uid := c.register("ok", "p"); uid != 1 {
		t.Errorf("uid %d", uid)
	}
}
