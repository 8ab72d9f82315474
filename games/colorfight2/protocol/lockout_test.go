package protocol

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/rewind-game/rewind/internal/rooms"
)

// dialFrom opens room's action channel from the loopback address ip,
// skipping the test where the system cannot send from it.
func (ts *testServer) dialFrom(ip, room string) *action {
	ts.t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	client := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	ctx, cancel := context.WithTimeout(context.Background(), safety)
	defer cancel()
	c, _, err := websocket.Dial(ctx, ts.wsURL(room, "action_channel"), &websocket.DialOptions{HTTPClient: client})
	if err != nil {
		ts.t.Skipf("cannot connect from %s: %v", ip, err)
	}
	ts.t.Cleanup(func() { c.CloseNow() })
	return &action{t: ts.t, c: c}
}

// Issue 37, finding 8: wrong guesses at bob's password from another
// address, past the back-off, do not lock bob out: bob, reconnecting
// from his own address with his password, takes his seat back. The
// guesser is refused unchecked, and from its address only.
func TestGuessingDoesNotLockTheOwnerOut(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.createRoom("r", lockstep(200))
	bob := ts.dialFrom("127.0.0.1", "r")
	uid := bob.register("bob", "right")

	guesser := ts.dialFrom("127.0.0.2", "r")
	refused := false
	for i := 0; i < 2*rooms.GuardFree && !refused; i++ {
		r := guesser.send(map[string]any{"action": "register", "username": "bob", "password": "wrong", "join_key": ""})
		msg, _ := r["err_msg"].(string)
		switch {
		case r["success"] == true:
			t.Fatal("a wrong password took bob's seat")
		case strings.HasPrefix(msg, "Too many failed attempts"):
			refused = true
		case msg != "Username exists":
			t.Fatalf("guess %d: %v", i, r)
		}
	}
	if !refused {
		t.Fatalf("%d wrong guesses from one address were never refused", 2*rooms.GuardFree)
	}
	again := ts.dialFrom("127.0.0.1", "r")
	if got := again.register("bob", "right"); got != uid {
		t.Errorf("bob registered again as uid %d, was %d", got, uid)
	}
}
