package protocol

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestCreateRoom(t *testing.T) {
	ts := newTestServer(t, Options{AdminPassword: "master", MaxRooms: 4})
	cases := []struct {
		path string
		body any
		want string // "" = success
	}{
		{"/creategameroom", map[string]any{"gameroom_id": "a-b_c.1"}, ""},
		{"/creategameroom", map[string]any{"gameroom_id": "a-b_c.1"}, "Same id exists"},
		{"/creategameroom", map[string]any{"gameroom_id": "bad/id"}, "You have illegal special characters in you gameroom id"},
		{"/creategameroom", map[string]any{"gameroom_id": "sp ace"}, "You have illegal special characters in you gameroom id"},
		{"/creategameroom", map[string]any{}, "You need to specify room id"},
		{"/creategameroom", map[string]any{"gameroom_id": "off", "config": "official"}, "You need to set a password for official game!"},
		{"/creategameroom", map[string]any{"gameroom_id": "off", "config": "official", "admin_password": "x"}, ""},
		{"/creategameroom?admin=true", map[string]any{"gameroom_id": "adm", "master_admin_password": "wrong"}, "To create an admin room, you need admin"},
		{"/creategameroom?admin=true", map[string]any{"gameroom_id": "adm", "master_admin_password": "master"}, ""},
		{"/creategameroom", map[string]any{"gameroom_id": "duel", "config": "duel"}, ""},
		{"/creategameroom", map[string]any{"gameroom_id": "five"}, "Max room number reached"},
	}
	for _, c := range cases {
		st, r := ts.post(c.path, c.body)
		if st != 200 || r.Success != (c.want == "") || r.ErrMsg != c.want {
			t.Errorf("%s %v: %d %+v, want %q", c.path, c.body, st, r, c.want)
		}
	}
	resp := ts.get("/get_gameroom_list")
	var list []roomEntry
	if err := json.Unmarshal(resp.body, &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 4 || list[0].Name != "a-b_c.1" || list[3].Name != "duel" || list[3].MaxPlayer != 2 || list[3].MaxTurn != 500 {
		t.Errorf("list %+v", list)
	}
	for _, k := range []string{`"name"`, `"player_number"`, `"max_player"`, `"turn"`, `"max_turn"`, `"rank"`} {
		if !bytes.Contains(resp.body, []byte(k)) {
			t.Errorf("list lacks %s: %s", k, resp.body)
		}
	}
	// deleting: the room's password, or the master's for admin rooms
	for _, c := range []struct {
		body any
		want string
	}{
		{map[string]any{"gameroom_id": "nope"}, "No such room"},
		{map[string]any{"gameroom_id": "off", "admin_password": "y"}, "Wrong password"},
		{map[string]any{"gameroom_id": "off", "admin_password": "x"}, ""},
		{map[string]any{"gameroom_id": "adm", "admin_password": ""}, "Wrong password"},
		{map[string]any{"gameroom_id": "adm", "admin_password": "master"}, ""},
	} {
		_, r := ts.post("/deletegameroom", c.body)
		if r.Success != (c.want == "") || r.ErrMsg != c.want {
			t.Errorf("delete %v: %+v, want %q", c.body, r, c.want)
		}
	}
	// creating can be disabled by the master admin
	_, r := ts.post("/configadmin", map[string]any{"admin_password": "nope", "allow_create_room": false})
	if r.ErrMsg != "Admin password is wrong" {
		t.Errorf("configadmin: %+v", r)
	}
	_, r = ts.post("/configadmin", map[string]any{"allow_create_room": false})
	if r.ErrMsg != "You need admin password" {
		t.Errorf("configadmin: %+v", r)
	}
	ts.mustPost("/configadmin", map[string]any{"admin_password": "master", "allow_create_room": false, "max_gameroom_number": 10})
	if _, r := ts.post("/creategameroom", map[string]any{"gameroom_id": "z"}); r.ErrMsg != "Creating room is disabled now" {
		t.Errorf("create while disabled: %+v", r)
	}
}

func TestMasterAdminDisabledWhenEmpty(t *testing.T) {
	ts := newTestServer(t, Options{})
	if _, r := ts.post("/creategameroom?admin=true", map[string]any{"gameroom_id": "a", "master_admin_password": ""}); r.ErrMsg != "To create an admin room, you need admin" {
		t.Errorf("admin room with an empty master password: %+v", r)
	}
	if _, r := ts.post("/configadmin", map[string]any{"admin_password": ""}); r.ErrMsg != "Admin password is wrong" {
		t.Errorf("configadmin: %+v", r)
	}
}

func TestRestartConfig(t *testing.T) {
	ts := newTestServer(t, Options{AdminPassword: "master"})
	ts.createRoom("r", lockstep(200))
	cases := []struct {
		body any
		want string
	}{
		{map[string]any{"config": map[string]any{}}, "You need to specify room id"},
		{map[string]any{"gameroom_id": "r"}, "You need to specify config"},
		{map[string]any{"gameroom_id": "x", "config": map[string]any{}}, "No such room"},
		{map[string]any{"gameroom_id": "r", "admin_password": "no", "config": map[string]any{}}, "You are not allowed to do this"},
		{map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{"max_turn": 100}}, "max_turn value invalid"},
		{map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{"max_turn": 300.5}}, "max_turn value invalid"},
		{map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{"max_player": 3}}, "max_player value invalid"},
		{map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{"round_time": 0.1}}, "round_time value invalid"},
		{map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{"round_time": 21}}, "round_time value invalid"},
		{map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{"first_round_time": "soon"}}, "first_round_time value invalid"},
		{map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{"first_round_time": 61}}, "first_round_time value invalid"},
		{map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{"finish_time": 61}}, "finish_time value invalid"},
		{map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{"allow_join_after_start": "yes"}}, "allow_join_after_start value invalid"},
		{map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{"allow_manual_mode": 1}}, "allow_manual_mode value invalid"},
		{map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{"replay_enable": "sometimes"}}, "replay_enable value invalid"},
		{map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{"room_description": strings.Repeat("x", 501)}}, "room_description value invalid, it needs to be a string under 500 chars"},
		{map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{"colour": "red"}}, "Invalid field colour"},
		{map[string]any{"gameroom_id": "r", "admin_password": "pw", "config": map[string]any{"bots": []string{"skynet"}}}, `bots value invalid, "skynet" is not a built-in bot`},
		{map[string]any{"gameroom_id": "r", "admin_password": "master", "config": map[string]any{"max_turn": 2000, "max_player": 4, "round_time": 0.2, "first_round_time": 60, "finish_time": 0, "allow_join_after_start": false, "allow_manual_mode": true, "replay_enable": "end", "room_description": "hi", "bots": []string{"greedy"}}}, ""},
		{map[string]any{"gameroom_id": "r", "admin_password": "master", "config": map[string]any{"round_time": 0, "first_round_time": "full"}}, ""},
	}
	for _, c := range cases {
		_, r := ts.post("/restart", c.body)
		if r.Success != (c.want == "") || r.ErrMsg != c.want {
			t.Errorf("restart %v: %+v, want %q", c.body, r, c.want)
		}
	}
	_, r := ts.post("/start", map[string]any{"gameroom_id": "r", "admin_password": "bad"})
	if r.ErrMsg != "You are not allowed to do this" {
		t.Errorf("start: %+v", r)
	}
}

func TestBadBodies(t *testing.T) {
	ts := newTestServer(t, Options{})
	if st, r := ts.post("/creategameroom", "{oops"); st != http.StatusBadRequest || r.ErrMsg != "This is not a valid json" {
		t.Errorf("bad json: %d %+v", st, r)
	}
	if st, r := ts.post("/creategameroom", `[1]`); st != http.StatusBadRequest || r.ErrMsg != "This is not a valid json" {
		t.Errorf("not an object: %d %+v", st, r)
	}
	big := `{"gameroom_id": "` + strings.Repeat("a", 1<<20) + `"}`
	if st, r := ts.post("/creategameroom", big); st != http.StatusRequestEntityTooLarge || r.Success {
		t.Errorf("1 MiB body: %d %+v", st, r)
	}
	resp, err := http.Get(ts.hs.URL + "/creategameroom")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /creategameroom: %d", resp.StatusCode)
	}
}

// Chat entries are delivered once, in the next state message.
func TestChat(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.createRoom("r", lockstep(200))
	gc := ts.dial("r", "game_channel")
	readState(t, gc)
	if _, r := ts.post("/send_chat", map[string]any{"gameroom_id": "r", "user": "bob"}); r.ErrMsg != "Need both user and msg" {
		t.Errorf("chat: %+v", r)
	}
	if _, r := ts.post("/send_chat", map[string]any{"gameroom_id": "x", "user": "bob", "msg": "hi"}); r.ErrMsg != "No such room" {
		t.Errorf("chat: %+v", r)
	}
	ts.mustPost("/send_chat", map[string]any{"gameroom_id": "r", "user": "bob", "msg": "hello"})
	st := readState(t, gc)
	if len(st.Chat) != 1 || string(st.Chat[0]) != `{"user":"bob","msg":"hello"}` {
		t.Errorf("chat %s", st.Chat)
	}
	st = readState(t, gc)
	if len(st.Chat) != 0 {
		t.Errorf("chat delivered twice: %s", st.Chat)
	}
	// a new subscriber gets no old chat
	if st := readState(t, ts.dial("r", "game_channel")); len(st.Chat) != 0 {
		t.Errorf("late subscriber sees chat %s", st.Chat)
	}
}

// The state is sent again after 30 s unchanged.
func TestKeepAlive(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.createRoom("r", lockstep(200))
	gc := ts.dial("r", "game_channel")
	first := readState(t, gc)
	ts.clk.Advance(30 * time.Second)
	again := readState(t, gc)
	if !bytes.Equal(first.raw, again.raw) {
		t.Error("keep-alive message differs")
	}
}

// Idle non-admin rooms are removed; admin rooms stay.
func TestIdleRooms(t *testing.T) {
	ts := newTestServer(t, Options{IdleRoomTimeout: time.Minute, AdminPassword: "m"})
	ts.createRoom("idle", lockstep(200))
	if err := ts.s.CreateRoom("adm", lockstep(200), "", "", true); err != nil {
		t.Fatal(err)
	}
	ts.clk.Advance(2 * time.Minute)
	resp := ts.get("/get_gameroom_list")
	if bytes.Contains(resp.body, []byte(`"idle"`)) || !bytes.Contains(resp.body, []byte(`"adm"`)) {
		t.Errorf("list after idle time: %s", resp.body)
	}
}

// Presets are the reference's.
func TestPresets(t *testing.T) {
	for _, name := range []string{"default", "official", "rank_2", "rank_4", "rank_8", "duel", "test-run", "constant-run"} {
		c, ok := Preset(name)
		if !ok {
			t.Fatalf("no preset %s", name)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, ok := Preset("nope"); ok {
		t.Error("unknown preset found")
	}
	if c, _ := Preset("rank_4"); c.MaxPlayer != 4 || c.MaxTurn != 400 || c.FirstRoundTime != "full" || c.FinishTime != 30 {
		t.Errorf("rank_4 %+v", c)
	}
}
