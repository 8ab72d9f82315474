package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/rewind-game/rewind/internal/testutil"
)

// A fifth game, written in this file only against the seam and the room
// engine's adapter API, registered with one engine.Register call: a
// tick-based game that players join mid-game, served over HTTP polling as
// ColorFight v1 is. The tests below drive it through the commands a user
// runs (the same cobra tree as the binary's) with no change to the shell.
//
// The rules: up to 4 seats; a seat takes part once it has sent "join
// NAME"; each tick a joined seat's "add K" (K in 1..9) adds K to its
// points. The most points win (the lower seat on a tie). Seat p's cell on
// a 4×1 board is p's once it joined, valued at its points.

const fifthID = "ticks"

func init() {
	engine.Register(engine.Registration{
		Ruleset: fifthRuleset{}, Name: "Ticks", Round: "ticks",
		MinPlayers: 1, MaxPlayers: 4, MinTurns: 1, MaxTurns: 10000, DefaultTurns: 30,
		Bots: []engine.Builtin{{Name: "adder", Doc: "joins at tick 2×seat, then adds seat+1 every tick",
			New: func(uint64) engine.Strategy { return engine.Strategy{Name: "adder", Commands: adderPlays} }}},
		Vectors:  &engine.Vectors{Input: ".ticks.json", Expected: ".points.json", Conform: conformTicks},
		Protocol: &pollServer{},
	})
}

type fifthRuleset struct{}

var fifthMetrics = []engine.Metric{{Name: "points", Unit: "points", Kind: engine.Gauge}}

func (fifthRuleset) ID() string               { return fifthID }
func (fifthRuleset) Version() int             { return 1 }
func (fifthRuleset) Metrics() []engine.Metric { return fifthMetrics }
func (fifthRuleset) ScoreMetric() int         { return 0 }
func (fifthRuleset) EventKinds() []engine.EventKind {
	return []engine.EventKind{{Name: "joined", Text: "{player} joined at tick {value}"}}
}
func (fifthRuleset) NewFromSetup([]byte, engine.Settings) (engine.Game, error) {
	return nil, engine.ErrSeedOnly
}
func (fifthRuleset) New(_ uint64, s engine.Settings) (engine.Game, error) {
	if s.Players < 1 || s.Players > 4 {
		return nil, fmt.Errorf("ticks: %d players, want 1..4", s.Players)
	}
	max := s.MaxTurns
	if max == 0 {
		max = 30
	}
	return &ticksGame{joined: make([]string, s.Players), points: make([]int64, s.Players), max: max}, nil
}

type ticksGame struct {
	joined []string
	points []int64
	turn   int
	max    int
	errs   []engine.CommandError
	events []engine.Event
}

func (g *ticksGame) Players() int                           { return len(g.points) }
func (g *ticksGame) Turn() int                              { return g.turn }
func (g *ticksGame) MaxTurns() int                          { return g.max }
func (g *ticksGame) Over() bool                             { return g.turn >= g.max }
func (g *ticksGame) Active() int                            { return -1 }
func (g *ticksGame) Fault(int, engine.Fault, string)        {}
func (g *ticksGame) Values(p int, d []int64) []int64        { return append(d, g.points[p]) }
func (g *ticksGame) Events(d []engine.Event) []engine.Event { return append(d, g.events...) }
func (g *ticksGame) Setting() [][2]string                   { return nil }
func (g *ticksGame) Setup() []byte                          { return nil }

func (g *ticksGame) Board(b *engine.Board) {
	b.Resize(4, 1)
	b.ValueName = "points"
	for i := range b.Cells {
		b.Cells[i] = engine.Cell{Owner: -1}
		if i < len(g.joined) && g.joined[i] != "" {
			b.Cells[i] = engine.Cell{Owner: i, Value: g.points[i]}
		}
	}
}

func (g *ticksGame) Hash() uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d %q %v", g.turn, g.joined, g.points)
	return h.Sum64()
}

func (g *ticksGame) Ranking() []int {
	r := make([]int, len(g.points))
	for i := range r {
		r[i] = i
	}
	slices.SortStableFunc(r, func(a, b int) int { return int(g.points[b] - g.points[a]) })
	return r
}

func (g *ticksGame) Round(cmds [][]string) []engine.CommandError {
	g.errs, g.events = g.errs[:0], g.events[:0]
	if g.Over() {
		return nil
	}
	for p := range g.points {
		if p >= len(cmds) {
			continue
		}
		for i, c := range cmds[p] {
			name, joining := strings.CutPrefix(c, "join ")
			k, err := strconv.Atoi(strings.TrimPrefix(c, "add "))
			switch {
			case joining && g.joined[p] == "" && name != "":
				g.joined[p] = name
				g.events = append(g.events, engine.Event{Kind: "joined", Player: p, Other: -1, X: p, Y: 0, Value: int64(g.turn)})
			case strings.HasPrefix(c, "add ") && err == nil && k >= 1 && k <= 9 && g.joined[p] != "":
				g.points[p] += int64(k)
			default:
				g.errs = append(g.errs, engine.CommandError{Player: p, Index: i, Code: 1, Text: "not a command of this tick"})
			}
		}
	}
	g.turn++
	return g.errs
}

// adderPlays is the built-in: seat p joins at tick 2p — mid-game for every
// seat but the first — then adds p+1 every tick.
func adderPlays(eg engine.Game, p int, dst []string) []string {
	g, ok := eg.(*ticksGame)
	switch {
	case !ok || g.turn < 2*p:
		return dst
	case g.joined[p] == "":
		return append(dst, "join adder")
	}
	return append(dst, "add "+strconv.Itoa(p+1))
}

// conformTicks plays a vector: the input is {"players": N, "ticks":
// [[[cmds of seat 0], …], …]}, the expected file the points of every
// seat after every tick.
func conformTicks(input, expected []byte, _ func(string) ([]byte, error)) (int, string, error) {
	var in struct {
		Players int
		Ticks   [][][]string
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return 0, "", &engine.VectorFileError{Err: err}
	}
	var want [][]int64
	if err := json.Unmarshal(expected, &want); err != nil {
		return 0, "", &engine.VectorFileError{Expected: true, Err: err}
	}
	g, err := fifthRuleset{}.New(1, engine.Settings{Players: in.Players, MaxTurns: len(in.Ticks)})
	if err != nil {
		return 0, "", err
	}
	for t, cmds := range in.Ticks {
		g.Round(cmds)
		if t >= len(want) {
			return t, fmt.Sprintf("tick %d: the expected file ends", t+1), nil
		}
		var got []int64
		for p := range in.Players {
			got = g.Values(p, got)
		}
		if !slices.Equal(got, want[t]) {
			return t + 1, fmt.Sprintf("tick %d: points %v, expected %v", t+1, got, want[t]), nil
		}
	}
	return len(in.Ticks), "", nil
}

// pollServer is the game's official protocol, HTTP polling over one
// rooms.Table at a time: POST /join {"name"} seats a player in the next
// open seat, mid-game, and answers its token; POST /action {"token",
// "cmds"} sends its commands for the next tick; GET /state is the game
// after the last tick. Built-ins (--bot) take the first seats.
type pollServer struct {
	mu     sync.Mutex
	table  *rooms.Table
	tokens map[string]int
	state  []byte
}

func (*pollServer) DefaultAddr() string { return "127.0.0.1:0" }

func (s *pollServer) Serve(ctx context.Context, o rooms.Options) error {
	reg, _ := engine.About(fifthID)
	n := o.Players
	if n == 0 {
		n = 4
	}
	var seats []rooms.Seat
	for i := range n {
		seat := rooms.Seat{Name: "seat " + strconv.Itoa(i+1), Open: true}
		if i < len(o.Bots) {
			b, _ := reg.FindBot(o.Bots[i])
			seat = rooms.Seat{Name: o.Bots[i], Builtin: &b}
		}
		seats = append(seats, seat)
	}
	tick := o.ThinkTime
	if tick <= 0 {
		tick = 50 * time.Millisecond
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	for game := 1; o.Games == 0 || game <= o.Games; game++ {
		s.mu.Lock()
		s.tokens, s.state = map[string]int{}, []byte(`{"turn":0}`)
		s.mu.Unlock()
		t, err := rooms.OpenTable(rooms.TableConfig{Ruleset: fifthRuleset{}, MaxTurns: o.MaxTurns, Seats: seats,
			Tick: tick, Clock: rooms.WallClock{}, Recordings: &rooms.Recordings{Dir: o.Dir, Own: func(string) bool { return true }},
			Name: fifthID + "-" + strconv.Itoa(game), Tool: o.Tool, Adapter: s})
		if err != nil {
			return err
		}
		s.mu.Lock()
		s.table = t
		s.mu.Unlock()
		if game == 1 && o.Ready != nil {
			o.Ready(map[string]string{"players": ln.Addr().String()})
		}
		select {
		case <-t.Done():
		case <-ctx.Done():
			t.Stop()
			<-t.Done()
			return nil
		}
		if err := t.Err(); err != nil {
			return err
		}
	}
	return nil
}

// Played keeps the state the players poll (rooms.Adapter).
func (s *pollServer) Played(eg engine.Game, _ *match.GameRound) {
	g := eg.(*ticksGame)
	b, _ := json.Marshal(map[string]any{"turn": g.turn, "over": g.Over(), "joined": g.joined, "points": g.points})
	s.mu.Lock()
	s.state = b
	s.mu.Unlock()
}

func (s *pollServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name, Token string
		Cmds        []string
	}
	if r.Method == http.MethodPost {
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&body); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
	}
	s.mu.Lock()
	t := s.table
	s.mu.Unlock()
	switch r.URL.Path {
	case "/join":
		seat, ok := t.Claim()
		if !ok {
			http.Error(w, "full", http.StatusConflict)
			return
		}
		tok := make([]byte, 8)
		rand.Read(tok)
		token := hex.EncodeToString(tok)
		s.mu.Lock()
		s.tokens[token] = seat
		s.mu.Unlock()
		t.Submit(seat, []string{"join " + body.Name})
		json.NewEncoder(w).Encode(map[string]any{"token": token, "seat": seat + 1})
	case "/action":
		s.mu.Lock()
		seat, ok := s.tokens[body.Token]
		s.mu.Unlock()
		if !ok {
			http.Error(w, "bad token", http.StatusForbidden)
			return
		}
		t.Submit(seat, body.Cmds)
		w.Write([]byte(`{"ok":true}`))
	case "/state":
		s.mu.Lock()
		w.Write(s.state)
		s.mu.Unlock()
	default:
		http.NotFound(w, r)
	}
}

// TestFifthGameThroughCLI: the game plays, records, verifies, shows its
// header, analyses, reports, exports and serves its page, runs a
// tournament and its conformance vector through the commands, as any
// registered game does.
func TestFifthGameThroughCLI(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "ticks.rwd")
	run := func(args ...string) string {
		t.Helper()
		out, err := runCLIOut(t, args...)
		if err != nil {
			t.Fatalf("rewind %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	run("play", "--game", fifthID, "--turns", "20", "--bot", "adder", "--bot", "adder", "--bot", "adder", "-o", rwd)
	if out := run("verify", rwd); !strings.Contains(out, "OK") {
		t.Fatalf("verify: %s", out)
	}
	if out := run("info", rwd); !strings.Contains(out, fifthID) || !strings.Contains(out, "adder") {
		t.Fatalf("info names neither the game nor its bots:\n%s", out)
	}
	// Seat p joins at tick 2p and adds p+1 each tick after: after 20
	// ticks seat 0 has 1×19, seat 1 2×17, seat 2 3×15 points.
	var a struct {
		Game    string
		Winner  int
		Summary []struct {
			Player  int
			Metrics map[string]struct{ Final int64 }
		}
		Events []struct{ Kind, Text string }
	}
	if err := json.Unmarshal([]byte(run("analyze", "--format", "json", rwd)), &a); err != nil {
		t.Fatal(err)
	}
	want := map[int]int64{0: 19, 1: 34, 2: 45}
	if len(a.Summary) != 3 {
		t.Fatalf("analyze: %d players", len(a.Summary))
	}
	for _, p := range a.Summary {
		if got := p.Metrics["points"].Final; got != want[p.Player] {
			t.Errorf("player %d: %d points, want %d", p.Player, got, want[p.Player])
		}
	}
	joins := 0
	for _, e := range a.Events {
		if e.Kind == "joined" {
			joins++
		}
	}
	if a.Game != fifthID || joins != 3 {
		t.Errorf("analyze: game %q, %d joins (want 3: one per seat, two of them mid-game)", a.Game, joins)
	}
	report := filepath.Join(dir, "r.html")
	run("report", rwd, "-o", report)
	page := filepath.Join(dir, "p.html")
	run("export", "--html", rwd, "-o", page)
	for _, f := range []string{report, page} {
		b, err := os.ReadFile(f)
		if err != nil || !bytes.Contains(b, []byte("points")) {
			t.Errorf("%s: %v, or no points in it", f, err)
		}
	}
	// view serves the game's page (the generic board: it has no painter).
	code, body := testutil.Get(t, viewPage(t, rwd))
	if code != http.StatusOK || !bytes.Contains(body, []byte(fifthID)) {
		t.Fatalf("view: status %d\n%.300s", code, body)
	}
	tdir := filepath.Join(dir, "t")
	if out := run("tournament", "--game", fifthID, "--games", "3", "--turns", "10", "--bot", "adder", "--bot", "adder", "--dir", tdir); !strings.Contains(out, "adder") || !strings.Contains(out, "mu-3sigma") {
		t.Fatalf("tournament:\n%s", out)
	}
	if rwds, _ := filepath.Glob(filepath.Join(tdir, "*.rwd")); len(rwds) != 3 {
		t.Fatalf("tournament wrote %v", rwds)
	}
	// A vector of three ticks: seat 2 joins at the second, a bad "add"
	// is refused and adds nothing.
	vdir := filepath.Join(dir, "vectors")
	os.MkdirAll(vdir, 0o755)
	os.WriteFile(filepath.Join(vdir, "v1.ticks.json"), []byte(`{"players": 2, "ticks": [[["join a", "add 3"], []], [["add 10"], ["join b"]], [["add 2"], ["add 9"]]]}`), 0o644)
	os.WriteFile(filepath.Join(vdir, "v1.points.json"), []byte(`[[3, 0], [3, 0], [5, 9]]`), 0o644)
	if out := run("conform", vdir); !strings.Contains(out, "v1") {
		t.Fatalf("conform:\n%s", out)
	}
	os.WriteFile(filepath.Join(vdir, "v1.points.json"), []byte(`[[3, 0], [3, 0], [5, 8]]`), 0o644)
	if out, err := runCLIOut(t, "conform", vdir); err == nil {
		t.Fatalf("conform passed a wrong expected file:\n%s", out)
	}
}

// TestFifthGameServer: `rewind server --game ticks` serves the game over
// HTTP polling through the room engine: a player joins a game already
// under way, polls it and plays; once stopped, the game's recording
// verifies and counts the player's points.
func TestFifthGameServer(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, done, logs := startServerCLI(t, ctx, "--game", fifthID, "--addr", "127.0.0.1:0", "--dir", dir, "--bot", "adder",
		"--max-player", "2", "--max-turn", "10000", "--round-time", "0.02", "--games", "1")
	base := "http://" + strings.TrimPrefix(addr, "http://")
	post := func(path string, v any) map[string]any {
		t.Helper()
		b, _ := json.Marshal(v)
		resp, err := http.Post(base+path, "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d, %v", path, resp.StatusCode, err)
		}
		return m
	}
	state := func() map[string]any {
		t.Helper()
		resp, err := http.Get(base + "/state")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		json.NewDecoder(resp.Body).Decode(&m)
		return m
	}
	// Join once the game is under way (the built-in in seat 1 has played).
	for st := state(); st["turn"].(float64) < 3; st = state() {
		time.Sleep(5 * time.Millisecond) // polling, as the game's clients do
	}
	join := post("/join", map[string]string{"name": "late"})
	token, _ := join["token"].(string)
	if token == "" || join["seat"].(float64) != 2 {
		t.Fatalf("join: %v", join)
	}
	// The join is the seat's command of the next tick: wait until it
	// is played (a command sent before would take its place).
	for st := state(); ; st = state() {
		if j, _ := st["joined"].([]any); len(j) == 2 && j[1] == "late" {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	// Play until three of its adds have counted, then stop the server:
	// the game in progress is recorded to its last whole tick.
	for st := state(); ; st = state() {
		if p, _ := st["points"].([]any); len(p) == 2 && p[1].(float64) >= 27 {
			break
		}
		post("/action", map[string]any{"token": token, "cmds": []string{"add 9"}})
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("server: %v\n%s", err, logs.String())
		}
	case <-time.After(2 * time.Minute): // a safety net, not a verdict
		t.Fatalf("the server did not end after its one game\n%s", logs.String())
	}
	rwds, _ := filepath.Glob(filepath.Join(dir, "*.rwd"))
	if len(rwds) != 1 {
		t.Fatalf("recordings %v\n%s", rwds, logs.String())
	}
	if out, err := runCLIOut(t, "verify", rwds[0]); err != nil || !strings.Contains(out, "OK") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	var a struct {
		Summary []struct {
			Name    string
			Metrics map[string]struct{ Final int64 }
		}
	}
	out, err := runCLIOut(t, "analyze", "--format", "json", rwds[0])
	if err := errors.Join(err, json.Unmarshal([]byte(out), &a)); err != nil {
		t.Fatal(err)
	}
	var late int64 = -1
	for _, p := range a.Summary {
		if strings.Contains(p.Name, "seat 2") || p.Name == "late" {
			late = p.Metrics["points"].Final
		}
	}
	if late <= 0 || late%9 != 0 {
		t.Fatalf("the late player's points %d: want a positive multiple of 9\n%s", late, out)
	}
}
