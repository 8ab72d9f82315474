package protocol

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/rewind-game/rewind/internal/testutil"
)

// eventually polls cond until it holds, failing the test after safety (a
// safety net, never a timing verdict).
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(safety)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still not %s after %v", what, safety)
		}
		time.Sleep(time.Millisecond)
	}
}

// roomState is what an admin action could change in a room: its game,
// turn and config.
func (ts *testServer) roomState(id string) (gameID string, phase int, cfg RoomConfig, ok bool) {
	r := ts.s.room(id)
	if r == nil {
		return "", 0, RoomConfig{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.g.id, r.g.phase, r.cfg, true
}

// Issue 25, "admin without a password": with no master password, the
// default room (created by the operator without one) and a room a client
// created without one take no admin action from anybody, whatever
// password is sent; nothing changes.
func TestAdminClosedWithoutPassword(t *testing.T) {
	ts := newTestServer(t, Options{})
	cfg, _ := Preset("constant-run")
	// as `rewind server` does with $REWIND_ADMIN_PASSWORD unset
	if err := ts.s.CreateRoom("public", cfg, "", "", true); err != nil {
		t.Fatal(err)
	}
	ts.mustPost("/creategameroom", map[string]any{"gameroom_id": "atk"})
	type snap struct {
		id    string
		phase int
		cfg   RoomConfig
	}
	before := map[string]snap{}
	for _, room := range []string{"public", "atk"} {
		id, phase, cfg, _ := ts.roomState(room)
		before[room] = snap{id, phase, cfg}
	}
	attack := map[string]any{"max_turn": 200, "round_time": 0, "finish_time": 0.01, "first_round_time": "full", "bots": []string{"greedy", "greedy", "greedy", "greedy", "greedy", "greedy", "greedy", "greedy"}}
	for _, room := range []string{"public", "atk"} {
		for _, pw := range []any{nil, "", "x", "public"} {
			with := func(m map[string]any) map[string]any {
				m["gameroom_id"] = room
				if pw != nil {
					m["admin_password"] = pw
				}
				return m
			}
			for _, c := range []struct {
				path string
				body map[string]any
			}{
				{"/restart", with(map[string]any{"config": attack})},
				{"/restart", with(map[string]any{"config": map[string]any{}})},
				{"/start", with(map[string]any{})},
				{"/deletegameroom", with(map[string]any{})},
			} {
				if _, r := ts.post(c.path, c.body); r.Success {
					t.Errorf("%s %v succeeded without a working password", c.path, c.body)
				}
			}
		}
	}
	for _, c := range []struct {
		path string
		body map[string]any
	}{
		{"/configadmin", map[string]any{"admin_password": "", "allow_create_room": false}},
		{"/configadmin", map[string]any{"allow_create_room": false}},
		{"/reset_leaderboard", map[string]any{"admin_password": ""}},
		{"/creategameroom?admin=true", map[string]any{"gameroom_id": "adm", "master_admin_password": ""}},
	} {
		if _, r := ts.post(c.path, c.body); r.Success {
			t.Errorf("%s %v succeeded without a master password", c.path, c.body)
		}
	}
	for room, b := range before {
		id, phase, cfg, ok := ts.roomState(room)
		if !ok || id != b.id || phase != b.phase || cfg.RoundTime != b.cfg.RoundTime || len(cfg.Bots) != 0 {
			t.Errorf("room %s changed: present %v, game %s -> %s, phase %d -> %d, config %+v", room, ok, b.id, id, b.phase, phase, cfg)
		}
	}
	if n := len(ts.s.Games()); n != 0 {
		t.Errorf("%d games started", n)
	}
	if _, r := ts.post("/creategameroom", map[string]any{"gameroom_id": "still"}); !r.Success {
		t.Errorf("room creation was disabled by an anonymous /configadmin: %+v", r)
	}
}

// With a master password, a room a client created without a password
// is the master's alone; a wrong password changes nothing.
func TestAdminRoomWithoutPasswordIsMasters(t *testing.T) {
	ts := newTestServer(t, Options{AdminPassword: "master"})
	ts.mustPost("/creategameroom", map[string]any{"gameroom_id": "atk"})
	id, _, _, _ := ts.roomState("atk")
	for _, pw := range []string{"", "wrong", "maste", "master "} {
		if _, r := ts.post("/restart", map[string]any{"gameroom_id": "atk", "admin_password": pw, "config": map[string]any{}}); r.ErrMsg != "You are not allowed to do this" {
			t.Errorf("restart with %q: %+v", pw, r)
		}
	}
	if now, _, _, _ := ts.roomState("atk"); now != id {
		t.Errorf("a refused restart made game %s -> %s", id, now)
	}
	ts.mustPost("/restart", map[string]any{"gameroom_id": "atk", "admin_password": "master", "config": map[string]any{}})
	if now, _, _, _ := ts.roomState("atk"); now == id {
		t.Errorf("the master's restart kept game %s", id)
	}
}

// Issue 25, "a cross-site text/plain POST": admin routes take only
// application/json bodies and refuse what a browser sends for another
// site (Sec-Fetch-Site, Origin), even with the right password.
func TestAdminRefusesCrossSite(t *testing.T) {
	ts := newTestServer(t, Options{AdminPassword: "master"})
	ts.createRoom("r", lockstep(200))
	id, _, _, _ := ts.roomState("r")
	body := `{"gameroom_id":"r","admin_password":"master","config":{"max_turn":300}}`
	host := ts.hs.Listener.Addr().String()
	for _, c := range []struct {
		header map[string]string
		status int
	}{
		{map[string]string{"Content-Type": "text/plain"}, http.StatusUnsupportedMediaType},
		{map[string]string{}, http.StatusUnsupportedMediaType},
		{map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, http.StatusUnsupportedMediaType},
		{map[string]string{"Content-Type": "application/json", "Origin": "https://evil.example"}, http.StatusForbidden},
		{map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "same-site", "Origin": "http://sub." + host}, http.StatusForbidden},
	} {
		st, r := ts.postRaw("/restart", body, c.header)
		if st != c.status || r.Success {
			t.Errorf("POST /restart with %v: %d %+v, want %d", c.header, st, r, c.status)
		}
		for _, path := range []string{"/start", "/deletegameroom", "/configadmin", "/creategameroom?admin=true"} {
			if st, r := ts.postRaw(path, body, c.header); st != c.status || r.Success {
				t.Errorf("POST %s with %v: %d %+v, want %d", path, c.header, st, r, c.status)
			}
		}
	}
	if now, phase, cfg, ok := ts.roomState("r"); !ok || now != id || phase != phaseWaiting || cfg.MaxTurn != 200 {
		t.Fatalf("a refused request changed the room: %v %s %d %d", ok, now, phase, cfg.MaxTurn)
	}
	// the same request from the same origin, or from no browser, works
	if st, r := ts.postRaw("/restart", body, map[string]string{"Content-Type": "application/json; charset=utf-8", "Origin": "http://" + host, "Sec-Fetch-Site": "same-origin"}); st != 200 || !r.Success {
		t.Errorf("same-origin restart: %d %+v", st, r)
	}
}

// Issue 25, "round_time 0, finish_time 0.01 and eight built-in bots": a
// room's own password cannot set what plays games back to back; the
// master's can.
func TestMachineSpeedSettingsAreMasterOnly(t *testing.T) {
	ts := newTestServer(t, Options{AdminPassword: "master"})
	ts.mustPost("/creategameroom", map[string]any{"gameroom_id": "mine", "admin_password": "mine"})
	for _, c := range []struct {
		config map[string]any
		want   string
	}{
		{map[string]any{"round_time": 0}, "round_time 0 (lock-step) needs the master admin password"},
		{map[string]any{"bots": []string{"greedy"}}, "bots need the master admin password"},
		{map[string]any{"finish_time": 0.01}, "finish_time under 5 s needs the master admin password"},
		{map[string]any{"finish_time": 4.9}, "finish_time under 5 s needs the master admin password"},
		{map[string]any{"finish_time": 5, "round_time": 0.2}, ""},
	} {
		_, r := ts.post("/restart", map[string]any{"gameroom_id": "mine", "admin_password": "mine", "config": c.config})
		if r.Success != (c.want == "") || r.ErrMsg != c.want {
			t.Errorf("restart %v with the room's password: %+v, want %q", c.config, r, c.want)
		}
	}
	if _, _, cfg, _ := ts.roomState("mine"); cfg.RoundTime != 0.2 || len(cfg.Bots) != 0 {
		t.Errorf("config %+v", cfg)
	}
	ts.mustPost("/restart", map[string]any{"gameroom_id": "mine", "admin_password": "master", "config": map[string]any{"round_time": 0, "bots": []string{"greedy"}, "finish_time": 0.5}})
	// what the master set stays through the room owner's restarts
	ts.mustPost("/restart", map[string]any{"gameroom_id": "mine", "admin_password": "mine", "config": map[string]any{"max_turn": 300}})
	if _, _, cfg, _ := ts.roomState("mine"); cfg.RoundTime != 0 || len(cfg.Bots) != 1 || cfg.FinishTime != 0.5 || cfg.MaxTurn != 300 {
		t.Errorf("config %+v", cfg)
	}
}

// Issue 25, "26 games in 15 s, forever": a room starts at most
// MaxGamesPerHour games in an hour, and the next one an hour after the
// oldest.
func TestGamesPerHourBound(t *testing.T) {
	ts := newTestServer(t, Options{MaxGamesPerHour: 2})
	cfg := lockstep(200, "greedy", "raider")
	cfg.MaxPlayer, cfg.FirstRoundTime, cfg.FinishTime = 2, "full", 1
	if err := ts.s.CreateRoom("fast", cfg, "", "", true); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 2; n++ {
		eventually(t, "played", func() bool {
			g := ts.s.Games()
			return len(g) == n && g[0].Done
		})
		ts.clk.Advance(time.Second) // finish_time: the room restarts
	}
	r := ts.s.room("fast")
	eventually(t, "held at turn 0", func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.throttled == r.g && r.g.phase == phaseWaiting
	})
	if n := len(ts.s.Games()); n != 2 {
		t.Fatalf("%d games started, bound 2", n)
	}
	ts.clk.Advance(time.Hour)
	eventually(t, "the third game started", func() bool { return len(ts.s.Games()) == 3 })
}

// backoffMin is the least time n checked wrong guesses take under the
// documented back-off (rooms.GuardFree free, then rooms.GuardBase doubling up to
// rooms.GuardMax).
func backoffMin(n int) time.Duration {
	var total time.Duration
	for k := rooms.GuardFree + 1; k < n; k++ {
		total += min(rooms.GuardBase<<min(k-rooms.GuardFree-1, 20), rooms.GuardMax)
	}
	return total
}

// retryAfter parses the back-off's reply; ok is false for any other.
func retryAfter(msg string) (time.Duration, bool) {
	var secs int
	if _, err := fmt.Sscanf(msg, "Too many failed attempts, try again in %d s", &secs); err != nil || secs <= 0 {
		return 0, false
	}
	return time.Duration(secs) * time.Second, true
}

// Issue 25, "password guessing": 1,000 wrong admin passwords and 1,000
// wrong join keys from one address take at least the back-off's time
// (a fake clock: the test waits what the server says); meanwhile the
// right password is refused too, another address is still checked on the
// same room, and the same address, past its bound over every secret, is
// refused on another room; every failure is logged.
func TestGuessingIsSlow(t *testing.T) {
	var logs testutil.SyncBuffer
	ts := newTestServer(t, Options{AdminPassword: "master", Logf: logInto(&logs)})
	if err := ts.s.CreateRoom("r", lockstep(200), "pw", "key", false); err != nil {
		t.Fatal(err)
	}
	if err := ts.s.CreateRoom("r2", lockstep(200), "pw2", "", false); err != nil {
		t.Fatal(err)
	}
	const guesses = 1000
	start := ts.clk.Now()
	checked, refused := 0, 0
	for checked < guesses {
		_, r := ts.post("/restart", map[string]any{"gameroom_id": "r", "admin_password": fmt.Sprintf("guess%d", checked), "config": map[string]any{}})
		if r.ErrMsg == "You are not allowed to do this" {
			checked++
			continue
		}
		d, ok := retryAfter(r.ErrMsg)
		if !ok {
			t.Fatalf("guess %d: %+v", checked, r)
		}
		refused++
		if refused == 1 {
			// the right password, while refused, is refused too
			if _, r := ts.post("/restart", map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{}}); r.Success {
				t.Error("the right password worked during the back-off")
			}
			// another address on the same room is checked: the
			// back-off is the guesser's, never the room's
			if msg := postFrom(t, "127.0.0.2", ts.hs.URL+"/start", `{"gameroom_id":"r","admin_password":"y"}`); msg != "You are not allowed to do this" {
				t.Errorf("another address on the same room: %q", msg)
			}
		}
		ts.clk.Advance(d)
	}
	// the address, past its bound over every secret, is refused on
	// another room too
	if _, r := ts.post("/start", map[string]any{"gameroom_id": "r2", "admin_password": "x"}); !strings.HasPrefix(r.ErrMsg, "Too many failed attempts") {
		t.Errorf("the same address on another room: %+v", r)
	}
	if took, want := ts.clk.Now().Sub(start), backoffMin(guesses); took < want || want < 24*time.Hour {
		t.Errorf("%d admin password guesses took %v (%d refused), want at least %v", guesses, took, refused, want)
	}

	a := ts.action("r")
	start, checked, refused = ts.clk.Now(), 0, 0
	for checked < guesses {
		r := a.send(map[string]any{"action": "register", "username": "u", "password": "p", "join_key": fmt.Sprintf("k%d", checked)})
		msg, _ := r["err_msg"].(string)
		if msg == "You need the correct join key for the room" {
			checked++
			continue
		}
		d, ok := retryAfter(msg)
		if !ok {
			t.Fatalf("join key guess %d: %v", checked, r)
		}
		refused++
		ts.clk.Advance(d)
	}
	if took, want := ts.clk.Now().Sub(start), backoffMin(guesses); took < want {
		t.Errorf("%d join key guesses took %v (%d refused), want at least %v", guesses, took, refused, want)
	}
	// once the back-off is over, the right secrets work
	ts.clk.Advance(rooms.GuardMax)
	if r := a.send(map[string]any{"action": "register", "username": "u", "password": "p", "join_key": "key"}); r["success"] != true {
		t.Errorf("the right join key after the back-off: %v", r)
	}
	out := logs.String()
	for _, want := range []string{"room r: wrong admin password from 127.0.0.1", "room r: wrong join key from 127.0.0.1", "further attempts refused for"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q", want)
		}
	}
	if strings.Contains(out, "guess1") || strings.Contains(out, "k1") {
		t.Error("a guessed secret was logged")
	}
}

// postFrom posts body as application/json from local address ip and
// returns the reply's err_msg.
func postFrom(t *testing.T, ip, url, body string) string {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	defer c.CloseIdleConnections()
	resp, err := c.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Skipf("cannot send from %s: %v", ip, err)
	}
	defer resp.Body.Close()
	var r rpcReply
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return r.ErrMsg
}
