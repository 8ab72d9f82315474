package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/internal/testutil/simtest"
	"github.com/rewind-game/rewind/replay"

	"github.com/coder/websocket"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// safety bounds every wait of a test: far above any scheduler delay, so
// that no verdict depends on how fast the machine is.
const safety = 2 * time.Minute

type testServer struct {
	t   testing.TB
	s   *Server
	hs  *httptest.Server
	clk *testutil.Clock
	dir string
}

// newTestServer starts a Server with a fake clock behind httptest.
func newTestServer(t testing.TB, opts Options) *testServer {
	t.Helper()
	ts := &testServer{t: t, clk: testutil.NewClock(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)), dir: t.TempDir()}
	if opts.Dir == "" {
		opts.Dir = ts.dir
	}
	ts.dir = opts.Dir
	if opts.Tool == "" {
		opts.Tool = "rewind server test"
	}
	opts.clock = ts.clk
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts.s = s
	ts.hs = httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		s.Close()
		ts.hs.Close()
	})
	return ts
}

type rpcReply struct {
	Success bool   `json:"success"`
	ErrMsg  string `json:"err_msg"`
}

// post sends an RPC and decodes the reply.
func (ts *testServer) post(path string, body any) (int, rpcReply) {
	ts.t.Helper()
	var b []byte
	switch v := body.(type) {
	case string:
		b = []byte(v)
	case []byte:
		b = v
	default:
		var err error
		if b, err = json.Marshal(body); err != nil {
			ts.t.Fatal(err)
		}
	}
	return ts.postRaw(path, string(b), map[string]string{"Content-Type": "application/json"})
}

// postRaw sends body with the given headers and returns the status and
// the decoded reply.
func (ts *testServer) postRaw(path, body string, header map[string]string) (int, rpcReply) {
	ts.t.Helper()
	req, err := http.NewRequest(http.MethodPost, ts.hs.URL+path, bytes.NewReader([]byte(body)))
	if err != nil {
		ts.t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var r rpcReply
	if err := json.Unmarshal(data, &r); err != nil {
		ts.t.Fatalf("POST %s: reply %q: %v", path, data, err)
	}
	return resp.StatusCode, r
}

// mustPost sends an RPC that must succeed.
func (ts *testServer) mustPost(path string, body any) {
	ts.t.Helper()
	if st, r := ts.post(path, body); st != 200 || !r.Success {
		ts.t.Fatalf("POST %s %v: status %d, %+v", path, body, st, r)
	}
}

func (ts *testServer) createRoom(id string, cfg RoomConfig) {
	ts.t.Helper()
	if err := ts.s.CreateRoom(id, cfg, "pw", "", false); err != nil {
		ts.t.Fatal(err)
	}
}

func (ts *testServer) wsURL(room, channel string) string {
	return "ws" + strings.TrimPrefix(ts.hs.URL, "http") + "/gameroom/" + room + "/" + channel
}

func (ts *testServer) dial(room, channel string) *websocket.Conn {
	ts.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), safety)
	defer cancel()
	c, _, err := websocket.Dial(ctx, ts.wsURL(room, channel), nil)
	if err != nil {
		ts.t.Fatalf("dial %s %s: %v", room, channel, err)
	}
	c.SetReadLimit(16 << 20)
	ts.t.Cleanup(func() { c.CloseNow() })
	return c
}

// state is a decoded game_channel message.
type state struct {
	raw  []byte
	Turn int `json:"turn"`
	Info struct {
		MaxTurn        int     `json:"max_turn"`
		MaxPlayer      int     `json:"max_player"`
		RoundTime      float64 `json:"round_time"`
		StartCountDown int     `json:"start_count_down"`
		GameID         string  `json:"game_id"`
		ReplayVersion  int     `json:"replay_version"`
		GameVersion    int     `json:"game_version"`
	} `json:"info"`
	Chat  []json.RawMessage   `json:"chat"`
	Error map[string][]string `json:"error"`
	Users map[string]struct {
		UID      int      `json:"uid"`
		Username string   `json:"username"`
		Energy   int64    `json:"energy"`
		Gold     int64    `json:"gold"`
		Cells    [][2]int `json:"cells"`
	} `json:"users"`
}

// readState reads the next game_channel message.
func readState(t testing.TB, c *websocket.Conn) state {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), safety)
	defer cancel()
	typ, data, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("game_channel: %v", err)
	}
	if typ != websocket.MessageText {
		t.Fatalf("game_channel: message type %v", typ)
	}
	var s state
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("game_channel: %v in %.200s", err, data)
	}
	s.raw = data
	return s
}

// waitState reads game_channel messages until ok accepts one.
func waitState(t testing.TB, c *websocket.Conn, ok func(state) bool) state {
	t.Helper()
	for {
		if s := readState(t, c); ok(s) {
			return s
		}
	}
}

func atTurn(n int) func(state) bool { return func(s state) bool { return s.Turn >= n } }

// decodeState reads a state message with the official .cfr decoder (as
// element 0 of a one-frame replay) and returns its frame.
func decodeState(t testing.TB, msg []byte) (*colorfight2.Frame, cfr.Header) {
	t.Helper()
	var s struct {
		Turn int `json:"turn"`
	}
	if err := json.Unmarshal(msg, &s); err != nil {
		t.Fatal(err)
	}
	prefix := `{"turn":` + strconv.Itoa(s.Turn) + `,`
	if !bytes.HasPrefix(msg, []byte(prefix)) {
		t.Fatalf("message starts %.30q", msg)
	}
	doc := append([]byte(`[{"turn":0,`), msg[len(prefix):]...)
	doc = append(doc, ']')
	d, err := cfr.NewDecoder(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("the .cfr decoder refuses the state message: %v", err)
	}
	defer d.Close()
	var f colorfight2.Frame
	if err := d.Next(&f); err != nil {
		t.Fatal(err)
	}
	f.Turn = s.Turn
	return &f, d.Header()
}

// action is one player's action_channel.
type action struct {
	t testing.TB
	c *websocket.Conn
}

func (ts *testServer) action(room string) *action {
	return &action{t: ts.t, c: ts.dial(room, "action_channel")}
}

// send writes one message (a value marshalled to JSON, or raw text) and
// returns the decoded reply.
func (a *action) send(msg any) map[string]any {
	a.t.Helper()
	var b []byte
	if s, ok := msg.(string); ok {
		b = []byte(s)
	} else {
		b, _ = json.Marshal(msg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), safety)
	defer cancel()
	if err := a.c.Write(ctx, websocket.MessageText, b); err != nil {
		a.t.Fatalf("action_channel write: %v", err)
	}
	_, data, err := a.c.Read(ctx)
	if err != nil {
		a.t.Fatalf("action_channel read: %v", err)
	}
	var r map[string]any
	if err := json.Unmarshal(data, &r); err != nil {
		a.t.Fatalf("action_channel reply %q: %v", data, err)
	}
	return r
}

// register registers and returns the uid (failing the test otherwise).
func (a *action) register(name, password string) int {
	a.t.Helper()
	r := a.send(map[string]any{"action": "register", "username": name, "password": password, "join_key": ""})
	if r["success"] != true {
		a.t.Fatalf("register %s: %v", name, r)
	}
	return int(r["uid"].(float64))
}

func (a *action) command(cmds ...string) map[string]any {
	a.t.Helper()
	if cmds == nil {
		cmds = []string{}
	}
	return a.send(map[string]any{"action": "command", "cmd_list": cmds})
}

// wantErr checks a failed reply's err_msg.
func wantErr(t testing.TB, r map[string]any, msg string) {
	t.Helper()
	if r["success"] != false || r["err_msg"] != msg {
		t.Errorf("reply %v, want err_msg %q", r, msg)
	}
}

// lockstep is a lock-step room config that starts at /start.
func lockstep(maxTurn int, bots ...string) RoomConfig {
	c, _ := Preset("official")
	c.MaxTurn, c.RoundTime, c.FirstRoundTime, c.ReplayEnable = maxTurn, 0, "never", "always"
	c.Bots = bots
	return c
}

func (ts *testServer) start(room string) {
	ts.t.Helper()
	ts.mustPost("/start", map[string]any{"gameroom_id": room, "admin_password": "pw"})
}

// startPlayers creates room "r" with cfg, registers an action client in
// it for each name (with the password "p"+name), starts the game and
// returns once turn 1 is on the game channel gc, with that state.
func (ts *testServer) startPlayers(cfg RoomConfig, names ...string) (gc *websocket.Conn, players []*action, first state) {
	ts.t.Helper()
	ts.createRoom("r", cfg)
	gc = ts.dial("r", "game_channel")
	for _, name := range names {
		a := ts.action("r")
		a.register(name, "p"+name)
		players = append(players, a)
	}
	ts.start("r")
	return gc, players, waitState(ts.t, gc, atTurn(1))
}

// closeAndResimulate closes the server and re-simulates the recording of
// its first game, calling round after each of its rounds.
func (ts *testServer) closeAndResimulate(round func(*replay.Sim)) {
	ts.t.Helper()
	g := ts.s.Games()[0]
	ts.s.Close()
	simtest.ResimulateFile(ts.t, strings.TrimSuffix(g.File, ".partial"), round)
}

// logInto is a Logf that writes each line it is given into b.
func logInto(b *testutil.SyncBuffer) func(format string, args ...any) {
	return func(format string, args ...any) { fmt.Fprintf(b, format+"\n", args...) }
}

type httpResp struct {
	status int
	body   []byte
}

func (ts *testServer) get(path string) httpResp {
	ts.t.Helper()
	resp, err := http.Get(ts.hs.URL + path)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return httpResp{resp.StatusCode, b}
}

// waitTurn waits until game id's recording reaches turn n.
func (ts *testServer) waitTurn(id string, n int) rooms.LiveGame {
	ts.t.Helper()
	timeout := time.After(safety)
	for {
		_, g, changed, err := ts.s.Recording(id)
		if err != nil {
			ts.t.Fatal(err)
		}
		if g.Turn >= n || changed == nil {
			return g
		}
		select {
		case <-changed:
		case <-timeout:
			ts.t.Fatalf("game %s stays at turn %d, want %d", id, g.Turn, n)
		}
	}
}
