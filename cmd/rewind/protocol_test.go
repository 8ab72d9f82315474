package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/rewind-game/rewind/internal/testutil"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// This file is a ColorfightII client written from ../shared/docs/PROTOCOL.md
// alone, speaking to `rewind server` exactly as the official Python and
// Java clients do: the game_channel and action_channel websockets of a
// room, register, a command list per turn, the state messages they parse
// (with the field shapes the Java client casts to), the room list and the
// replay download. It stands in for the official clients, which are not
// part of this project (TestOfficialClientsPlay runs them when given).

// protoClient is one bot's two websockets.
type protoClient struct {
	t      *testing.T
	name   string
	game   *websocket.Conn
	action *websocket.Conn
	states chan []byte // every game_channel message, in order
	uid    int
}

// dialClient opens the room's game_channel and then its action_channel,
// as the official clients do on connect.
func dialClient(ctx context.Context, t *testing.T, roomURL, name string) *protoClient {
	t.Helper()
	c := &protoClient{t: t, name: name, states: make(chan []byte, 4096)}
	var err error
	c.game, _, err = websocket.Dial(ctx, roomURL+"/game_channel", nil)
	if err != nil {
		t.Fatalf("%s: game_channel: %v", name, err)
	}
	c.game.SetReadLimit(4 << 20) // a 30×30 state is ~47 KB
	c.action, _, err = websocket.Dial(ctx, roomURL+"/action_channel", nil)
	if err != nil {
		t.Fatalf("%s: action_channel: %v", name, err)
	}
	go func() {
		defer close(c.states)
		for {
			typ, b, err := c.game.Read(ctx)
			if err != nil {
				return
			}
			if typ != websocket.MessageText {
				t.Errorf("%s: game_channel sent a %v message", name, typ)
				return
			}
			c.states <- b
		}
	}()
	t.Cleanup(func() {
		c.action.CloseNow()
		c.game.CloseNow()
	})
	return c
}

// do sends one action_channel message and returns the one reply.
func (c *protoClient) do(ctx context.Context, msg string) string {
	c.t.Helper()
	if err := c.action.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		c.t.Fatalf("%s: send %s: %v", c.name, msg, err)
	}
	typ, b, err := c.action.Read(ctx)
	if err != nil || typ != websocket.MessageText {
		c.t.Fatalf("%s: reply to %s: %v (%v)", c.name, msg, err, typ)
	}
	return string(b)
}

// register sends the registration the official clients send and returns
// the uid of the reply, which must be exactly {"success": true, "uid": N}.
func (c *protoClient) register(ctx context.Context, password string) int {
	c.t.Helper()
	msg, _ := json.Marshal(map[string]string{"action": "register", "username": c.name, "password": password, "join_key": ""})
	got := c.do(ctx, string(msg))
	var r map[string]json.RawMessage
	if err := json.Unmarshal([]byte(got), &r); err != nil || len(r) != 2 || string(r["success"]) != "true" {
		c.t.Fatalf("%s: register reply %s, want {\"success\": true, \"uid\": N}", c.name, got)
	}
	uid, err := strconv.Atoi(string(r["uid"]))
	if err != nil || uid < 1 {
		c.t.Fatalf("%s: register reply %s: uid is not a plain positive integer", c.name, got)
	}
	if want := `{"success": true, "uid": ` + strconv.Itoa(uid) + `}`; got != want {
		c.t.Errorf("%s: register reply %q, want the reference's spacing %q", c.name, got, want)
	}
	return uid
}

// protoState is what a bot reads of a state message.
type protoState struct {
	Turn  int                 `json:"turn"`
	Error map[string][]string `json:"error"`
	Info  struct {
		MaxTurn int    `json:"max_turn"`
		GameID  string `json:"game_id"`
	} `json:"info"`
	GameMap struct {
		Headers []string              `json:"headers"`
		Data    [][][]json.RawMessage `json:"data"`
	} `json:"game_map"`
	Users map[string]struct {
		UID    int      `json:"uid"`
		Energy int64    `json:"energy"`
		Cells  [][2]int `json:"cells"`
	} `json:"users"`
}

// Field sets and shapes of a state message (PROTOCOL.md, game_channel).
var (
	stateKeys  = []string{"chat", "error", "game_map", "info", "turn", "users"}
	infoKeys   = []string{"allow_manual_mode", "game_id", "game_version", "height", "max_player", "max_turn", "replay_version", "round_time", "start_count_down", "width"}
	cellFields = []string{"attack_cost", "force_field", "building", "gold", "energy", "owner", "position", "natural_gold", "natural_energy", "natural_cost"}
	userKeys   = []string{"building_number", "cell_number", "cells", "dead", "energy", "energy_source", "gold", "gold_source", "ranking", "tax_amount", "tax_level", "tech_level", "uid", "username", "verified"}
	userInts   = []string{"uid", "energy", "gold", "energy_source", "gold_source", "tech_level", "tax_level", "tax_amount", "cell_number"}
)

// jsonString reports whether raw is a JSON string.
func jsonString(raw json.RawMessage) bool {
	s := bytes.TrimSpace(raw)
	return len(s) > 0 && s[0] == '"'
}

func sortedKeys(m map[string]json.RawMessage) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// plainInt reports whether raw is a JSON integer written without a
// fraction or exponent (the Java client casts it to Long).
func plainInt(raw json.RawMessage) bool {
	_, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil
}

// checkState checks one state message field by field against the shapes
// the official clients parse, and decodes it.
func checkState(t *testing.T, who string, b []byte) protoState {
	t.Helper()
	fail := func(format string, args ...any) protoState {
		t.Helper()
		t.Fatalf("%s: state message: "+format, append([]any{who}, args...)...)
		return protoState{}
	}
	// Keys in the reference's order; compact, where the reference's
	// json.dumps adds spaces (docs/server.md: every JSON parser reads both).
	if !bytes.HasPrefix(b, []byte(`{"turn":`)) || !bytes.Contains(b, []byte(`,"info":{"max_turn":`)) {
		return fail("not the reference's key order: %.80s", b)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		return fail("%v", err)
	}
	if ks := sortedKeys(top); !slices.Equal(ks, stateKeys) {
		return fail("keys %v, want %v", ks, stateKeys)
	}
	var info map[string]json.RawMessage
	if err := json.Unmarshal(top["info"], &info); err != nil {
		return fail("info: %v", err)
	}
	if ks := sortedKeys(info); !slices.Equal(ks, infoKeys) {
		return fail("info keys %v, want %v", ks, infoKeys)
	}
	// The Java client casts round_time to Double (it needs a decimal
	// point), game_id to String and the others to Long.
	if rt := string(info["round_time"]); !strings.Contains(rt, ".") {
		return fail("round_time %s has no decimal point", rt)
	}
	if !jsonString(info["game_id"]) {
		return fail("game_id %s is not a string", info["game_id"])
	}
	for _, k := range []string{"max_turn", "max_player", "width", "height", "replay_version", "game_version"} {
		if !plainInt(info[k]) {
			return fail("info.%s %s is not a plain integer", k, info[k])
		}
	}
	if !plainInt(top["turn"]) {
		return fail("turn %s is not a plain integer", top["turn"])
	}
	var s protoState
	if err := json.Unmarshal(b, &s); err != nil {
		return fail("%v", err)
	}
	if !slices.Equal(s.GameMap.Headers, cellFields) {
		return fail("game_map headers %v, want %v", s.GameMap.Headers, cellFields)
	}
	if len(s.GameMap.Data) != 30 {
		return fail("%d rows, want 30", len(s.GameMap.Data))
	}
	for y, row := range s.GameMap.Data {
		if len(row) != 30 {
			return fail("row %d has %d cells", y, len(row))
		}
		for x, cell := range row {
			if len(cell) != len(cellFields) {
				return fail("cell (%d,%d) has %d fields", x, y, len(cell))
			}
			// Every cell has its position (the Java client reads it).
			if want := fmt.Sprintf("[%d,%d]", x, y); string(cell[6]) != want {
				return fail("cell (%d,%d) position %s, want %s", x, y, cell[6], want)
			}
			var bld []json.RawMessage
			if json.Unmarshal(cell[2], &bld) != nil || len(bld) != 2 || !jsonString(bld[0]) || !plainInt(bld[1]) {
				return fail("cell (%d,%d) building %s, want [\"letter\", level]", x, y, cell[2])
			}
			for _, i := range []int{0, 1, 3, 4, 5, 7, 8, 9} {
				if !plainInt(cell[i]) {
					return fail("cell (%d,%d) %s %s is not a plain integer", x, y, cellFields[i], cell[i])
				}
			}
		}
	}
	var users map[string]map[string]json.RawMessage
	if err := json.Unmarshal(top["users"], &users); err != nil {
		return fail("users: %v", err)
	}
	for key, u := range users {
		if ks := sortedKeys(u); !slices.Equal(ks, userKeys) {
			return fail("user %s keys %v, want %v", key, ks, userKeys)
		}
		for _, k := range userInts {
			if !plainInt(u[k]) {
				return fail("user %s %s %s is not a plain integer", key, k, u[k])
			}
		}
		if string(u["uid"]) != key {
			return fail("user under key %q has uid %s", key, u["uid"])
		}
		if d := string(u["dead"]); d != "true" && d != "false" {
			return fail("user %s dead %s is not a boolean", key, d)
		}
	}
	return s
}

// nextTurn waits for a state whose turn differs from last, keeping only the
// newest of the messages already there, as the official client's
// update_turn does; every message read is checked.
func (c *protoClient) nextTurn(ctx context.Context, last int) (protoState, bool) {
	c.t.Helper()
	for {
		var b []byte
		var ok bool
		select {
		case b, ok = <-c.states:
		case <-ctx.Done():
			c.t.Fatalf("%s: no state after turn %d: %v", c.name, last, ctx.Err())
		}
		if !ok {
			return protoState{}, false
		}
		s := checkState(c.t, c.name, b)
		if s.Turn != last {
			return s, true
		}
	}
}

// attacks are the example bot's commands: every neighbour of its cells it
// does not own and can afford, each once.
func attacks(s protoState, uid int) []string {
	u, ok := s.Users[strconv.Itoa(uid)]
	if !ok {
		return []string{}
	}
	energy := u.Energy
	out := []string{} // sent as [] when empty, as the example bot does
	seen := map[[2]int]bool{}
	for _, c := range u.Cells {
		for _, d := range [][2]int{{0, -1}, {0, 1}, {-1, 0}, {1, 0}} {
			x, y := c[0]+d[0], c[1]+d[1]
			if x < 0 || y < 0 || x >= 30 || y >= 30 || seen[[2]int{x, y}] {
				continue
			}
			cell := s.GameMap.Data[y][x]
			var cost, owner int64
			json.Unmarshal(cell[0], &cost)
			json.Unmarshal(cell[5], &owner)
			if owner != int64(uid) && cost < energy {
				seen[[2]int{x, y}] = true
				energy -= cost
				out = append(out, fmt.Sprintf("a %d %d %d", x, y, cost))
			}
		}
	}
	return out
}

// TestProtocolClientPlays: two clients written from PROTOCOL.md play a
// 200-round lock-step game on `rewind server` with two built-in bots. The
// action channel answers each message once, in order, with the reference's
// replies and error texts (invalid JSON, no action, a command before
// joining or before the game starts, a name too long, a wrong password for
// a taken name); registering again with the same name and password gives
// the same uid; every state message has the fields and shapes the official
// clients parse; lock-step shows the clients every turn and waits for
// them; a failed command is reported in the next state's error under the
// player's uid with the reference's wording; the room list has the
// reference's fields; the replay download is a gzip .cfr of the game that
// `verify --against` accepts against the recording, in which both clients
// sent commands every round and are seated under their names.
func TestProtocolClientPlays(t *testing.T) {
	const maxTurn = 200
	work := t.TempDir()
	dir := filepath.Join(work, "replays")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a safety net, not a verdict
	defer cancel()
	srvCtx, stop := context.WithCancel(ctx)
	defer stop()
	base, done, logs := startServerCLI(t, srvCtx, "--addr", "127.0.0.1:0", "--dir", dir, "--lockstep-deadline", "1h",
		"--max-turn", strconv.Itoa(maxTurn), "--max-player", "4", "--round-time", "0", "--first-round-time", "full",
		"--replay", "always", "--bot", "greedy", "--bot", "raider")
	roomURL := "ws" + strings.TrimPrefix(base, "http") + "/gameroom/public"

	// The room list, as get_gameroom_list answers it.
	resp, err := http.Get(base + "/get_gameroom_list")
	if err != nil {
		t.Fatal(err)
	}
	var rooms []map[string]json.RawMessage
	err = json.NewDecoder(resp.Body).Decode(&rooms)
	resp.Body.Close()
	if err != nil || len(rooms) != 1 {
		t.Fatalf("room list: %v %v", err, rooms)
	}
	if ks := sortedKeys(rooms[0]); !slices.Equal(ks, []string{"max_player", "max_turn", "name", "player_number", "rank", "turn"}) ||
		string(rooms[0]["name"]) != `"public"` || string(rooms[0]["max_player"]) != "4" || string(rooms[0]["turn"]) != "0" {
		t.Fatalf("room list entry %v", rooms[0])
	}

	a := dialClient(ctx, t, roomURL, "ProtoA")
	b := dialClient(ctx, t, roomURL, "ProtoB")
	// The state is sent on connect.
	if s, ok := a.nextTurn(ctx, -1); !ok || s.Turn != 0 || s.Info.MaxTurn != 200 {
		t.Fatalf("first state: turn %d, max_turn %d", s.Turn, s.Info.MaxTurn)
	}

	// The action channel's errors, each answered once and in order.
	for _, tc := range []struct{ msg, want string }{
		{`{"action": "command", "cmd_list`, `{"success": false, "err_msg": "This is not a valid json"}`},
		{`{"username": "x"}`, `{"success": false, "err_msg": "You have to specify an action"}`},
		{`{"action": "dance"}`, `{"success": false, "err_msg": "Not a valid action"}`},
		{`{"action": "command", "cmd_list": ["a 1 1 1"]}`, `{"success": false, "err_msg": "You need to join the game first"}`},
		{`{"action": "register", "username": "SixteenCharsName", "password": "p", "join_key": ""}`, `{"success": false, "err_msg": "Username can't exceed 15 characters."}`},
		{`{"action": "register", "username": "ProtoA"}`, `{"success": false, "err_msg": "password is missing"}`},
	} {
		if got := a.do(ctx, tc.msg); got != tc.want {
			t.Errorf("%s -> %s, want %s", tc.msg, got, tc.want)
		}
	}
	a.uid = a.register(ctx, "secret-a")
	if again := a.register(ctx, "secret-a"); again != a.uid {
		t.Errorf("registering again with the same password gave uid %d, want %d", again, a.uid)
	}
	if got, want := b.do(ctx, `{"action": "register", "username": "ProtoA", "password": "wrong", "join_key": ""}`), `{"success": false, "err_msg": "Username exists"}`; got != want {
		t.Errorf("a taken name with another password -> %s, want %s", got, want)
	}
	if got, want := a.do(ctx, `{"action": "command", "cmd_list": ["a 1 1 1"]}`), `{"success": false, "err_msg": "The game has not started or it ended already."}`; got != want {
		t.Errorf("a command at turn 0 -> %s, want %s", got, want)
	}
	// The last seat: "full" starts the game with the built-ins seated.
	b.uid = b.register(ctx, "secret-b")

	// Play: each client answers every turn (lock-step waits for it) with
	// the example bot's attacks; at turn 5 client A adds a build off the
	// map, which the next state reports under its uid.
	const badCmd = "b 99 99 g"
	type result struct {
		turns  []int
		errSaw bool
		err    error
	}
	play := func(c *protoClient, bad bool) result {
		var r result
		last := 0
		for {
			s, ok := c.nextTurn(ctx, last)
			if !ok {
				r.err = fmt.Errorf("game_channel closed after turn %d", last)
				return r
			}
			if s.Turn < last {
				r.err = fmt.Errorf("turn went back from %d to %d", last, s.Turn)
				return r
			}
			last = s.Turn
			if bad && s.Turn == 6 {
				want := badCmd + " failed, Build position is not in the map."
				r.errSaw = slices.Contains(s.Error[strconv.Itoa(c.uid)], want)
				if !r.errSaw {
					r.err = fmt.Errorf("turn 6 error field %v lacks %q under uid %d", s.Error, want, c.uid)
				}
			}
			if s.Turn >= maxTurn {
				return r
			}
			if s.Turn == 0 {
				continue
			}
			cmds := attacks(s, c.uid)
			if bad && s.Turn == 5 {
				cmds = append(cmds, badCmd)
			}
			msg, _ := json.Marshal(map[string]any{"action": "command", "cmd_list": cmds})
			if got := c.do(ctx, string(msg)); got != `{"success": true}` {
				r.err = fmt.Errorf("turn %d: command reply %s", s.Turn, got)
				return r
			}
			r.turns = append(r.turns, s.Turn)
		}
	}
	results := make(chan result, 2)
	go func() { results <- play(b, false) }()
	ra := play(a, true)
	rb := <-results
	for _, r := range []struct {
		c   *protoClient
		res result
	}{{a, ra}, {b, rb}} {
		if r.res.err != nil {
			t.Fatalf("%s: %v\nserver:\n%s", r.c.name, r.res.err, tail(logs.String()))
		}
		// Lock-step: the client saw, and answered, every turn before the last.
		if len(r.res.turns) != maxTurn-1 || r.res.turns[0] != 1 || r.res.turns[len(r.res.turns)-1] != maxTurn-1 {
			t.Errorf("%s answered turns %v, want 1..%d each", r.c.name, r.res.turns, maxTurn-1)
		}
	}
	if !ra.errSaw {
		t.Error("the failed build was not reported")
	}

	// The finished game's replay.
	resp, err = http.Get(base + "/gameroom/public/replay")
	if err != nil {
		t.Fatal(err)
	}
	cfrBytes, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(cfrBytes) < 2 || cfrBytes[0] != 0x1f || cfrBytes[1] != 0x8b {
		t.Fatalf("replay: %s, %d bytes (want a gzip .cfr)", resp.Status, len(cfrBytes))
	}
	cfrPath := filepath.Join(work, "game.cfr")
	if err := os.WriteFile(cfrPath, cfrBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatalf("server: %v\n%s", err, logs.String())
	}

	// The recording: seated with both clients under their names, their
	// commands every round, no round without their message.
	rec := readServerRecording(t, dir)
	if rec.uids["ProtoA"] != a.uid || rec.uids["ProtoB"] != b.uid || len(rec.uids) != 4 {
		t.Fatalf("recording's players %v, want ProtoA as %d and ProtoB as %d with two built-ins", rec.uids, a.uid, b.uid)
	}
	if rec.rounds != maxTurn {
		t.Errorf("recording has %d rounds, want %d", rec.rounds, maxTurn)
	}
	for _, c := range []*protoClient{a, b} {
		if rec.faults[c.uid] != 0 || rec.sent[c.uid] == 0 {
			t.Errorf("%s: %d rounds without a command message, %d rounds with commands", c.name, rec.faults[c.uid], rec.sent[c.uid])
		}
	}
	if err := runCLI(t, "verify", "--against", cfrPath, rec.path); err != nil {
		t.Errorf("verify --against the room's .cfr: %v", err)
	}
}

// startServerCLI runs `rewind server` with args (through its cobra
// command, until ctx ends) and returns its base URL, its exit and its log.
func startServerCLI(t *testing.T, ctx context.Context, args ...string) (base string, done <-chan error, logs *testutil.SyncBuffer) {
	t.Helper()
	ready := make(chan string, 1)
	logs = &testutil.SyncBuffer{}
	cmd := serverCommand(&serverOptions{ready: ready})
	cmd.SetOut(logs)
	cmd.SetErr(logs)
	cmd.SetArgs(args)
	exit := make(chan error, 1)
	go func() { exit <- cmd.ExecuteContext(ctx) }()
	select {
	case base = <-ready:
	case err := <-exit:
		t.Fatalf("server did not start: %v\n%s", err, logs.String())
	case <-time.After(2 * time.Minute): // a safety net, not a verdict
		t.Fatalf("server did not start listening\n%s", logs.String())
	}
	return base, exit, logs
}

// serverRecording is what the one finished recording in a server's
// folder holds: its path, players by name, rounds, and per uid the rounds
// with commands and the faults (a lock-step round without a command
// message from a seated player is recorded as one: docs/server.md), and
// the last frame.
type serverRecording struct {
	path         string
	uids         map[string]int
	rounds       int
	sent, faults map[int]int
	last         colorfight2.Frame
}

func readServerRecording(t *testing.T, dir string) *serverRecording {
	t.Helper()
	rwds, _ := filepath.Glob(filepath.Join(dir, "*.rwd"))
	if len(rwds) != 1 {
		t.Fatalf("want one finished recording in %s, have %v", dir, rwds)
	}
	f, err := os.Open(rwds[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := cfrimport.OpenRecording(f)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	r := &serverRecording{path: rwds[0], uids: map[string]int{}, sent: map[int]int{}, faults: map[int]int{}}
	for _, p := range g.Sim().Header().Players {
		r.uids[p.Name] = p.UID
	}
	if err := g.Next(&r.last); err != nil {
		t.Fatalf("frame 0: %v", err)
	}
	for {
		err := g.Next(&r.last)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("round %d: %v", r.rounds+1, err)
		}
		r.rounds++
		for i, l := range g.Game().Applied() {
			if len(l) > 0 {
				r.sent[i+1]++
			}
			for _, c := range l {
				if c.Err == colorfight2.ErrBotFault {
					r.faults[i+1]++
				}
			}
		}
	}
	return r
}
