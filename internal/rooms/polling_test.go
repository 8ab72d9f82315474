package rooms_test

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/rewind-game/rewind/replay"
)

// The room engine's adapter API proven on what ColorFight v1 needs: a
// tick-based toy game that players join mid-game, served over HTTP
// polling (join → token, poll the state, post commands) and an admin's
// /startgame, written here against internal/rooms alone.

// tickGame: up to 4 seats; a seat plays once it sent "join NAME"; each
// tick "add K" (1..9) adds K to its score. The most points win.
type tickRuleset struct{}

var tickMetrics = []engine.Metric{{Name: "points"}}

func (tickRuleset) ID() string                     { return "polltoy" }
func (tickRuleset) Version() int                   { return 1 }
func (tickRuleset) Metrics() []engine.Metric       { return tickMetrics }
func (tickRuleset) ScoreMetric() int               { return 0 }
func (tickRuleset) EventKinds() []engine.EventKind { return nil }
func (tickRuleset) NewFromSetup([]byte, engine.Settings) (engine.Game, error) {
	return nil, engine.ErrSeedOnly
}
func (tickRuleset) New(_ uint64, s engine.Settings) (engine.Game, error) {
	max := s.MaxTurns
	if max == 0 {
		max = 20
	}
	return &tickGame{joined: make([]string, s.Players), points: make([]int64, s.Players), max: max}, nil
}

type tickGame struct {
	joined []string
	points []int64
	turn   int
	max    int
	errs   []engine.CommandError
}

func (g *tickGame) Players() int                           { return len(g.points) }
func (g *tickGame) Turn() int                              { return g.turn }
func (g *tickGame) MaxTurns() int                          { return g.max }
func (g *tickGame) Over() bool                             { return g.turn >= g.max }
func (g *tickGame) Active() int                            { return -1 }
func (g *tickGame) Events(d []engine.Event) []engine.Event { return d }
func (g *tickGame) Setting() [][2]string                   { return nil }
func (g *tickGame) Setup() []byte                          { return nil }
func (g *tickGame) Fault(int, engine.Fault, string)        {}
func (g *tickGame) Values(p int, d []int64) []int64        { return append(d, g.points[p]) }
func (g *tickGame) Board(*engine.Board)                    {}
func (g *tickGame) Hash() uint64 {
	h := uint64(g.turn)
	for p, v := range g.points {
		h = h*1_000_003 + uint64(v) + uint64(len(g.joined[p]))
	}
	return h
}
func (g *tickGame) Ranking() []int {
	r := []int{}
	for p := range g.points {
		r = append(r, p)
	}
	for i := 1; i < len(r); i++ {
		for j := i; j > 0 && g.points[r[j]] > g.points[r[j-1]]; j-- {
			r[j], r[j-1] = r[j-1], r[j]
		}
	}
	return r
}
func (g *tickGame) Round(cmds [][]string) []engine.CommandError {
	g.errs = g.errs[:0]
	if g.Over() {
		return nil
	}
	for p, list := range cmds {
		for i, c := range list {
			name, isJoin := strings.CutPrefix(c, "join ")
			k, err := strconv.Atoi(strings.TrimPrefix(c, "add "))
			switch {
			case isJoin && g.joined[p] == "" && name != "":
				g.joined[p] = name
			case strings.HasPrefix(c, "add ") && err == nil && k >= 1 && k <= 9 && g.joined[p] != "":
				g.points[p] += int64(k)
			default:
				g.errs = append(g.errs, engine.CommandError{Player: p, Index: i, Text: "bad command"})
			}
		}
	}
	g.turn++
	return g.errs
}

func init() {
	engine.Register(engine.Registration{Ruleset: tickRuleset{}, Name: "Poll toy", MinPlayers: 1, MaxPlayers: 4,
		MinTurns: 1, MaxTurns: 100, DefaultTurns: 20, Round: "ticks",
		Bots: []engine.Builtin{{Name: "adder", Doc: "joins, then adds 1 every tick", New: newAdder}}})
}

func newAdder(uint64) engine.Strategy { return engine.Strategy{Name: "adder", Commands: adderCommands} }

// adderCommands joins, then adds 1 every tick.
func adderCommands(g engine.Game, p int, dst []string) []string {
	if g.(*tickGame).joined[p] == "" {
		return append(dst, "join adder")
	}
	return append(dst, "add 1")
}

// poller is the HTTP-polling protocol: a thin adapter over one
// rooms.Table at a time.
type poller struct {
	dir      string
	clock    rooms.Clock
	secrets  rooms.Secrets
	password string

	mu     sync.Mutex
	table  *rooms.Table
	tokens map[string]int // token → seat
	state  []byte         // the state every poll reads, encoded at each tick
	games  int
}

func (p *poller) newGame() error {
	bot, _ := engine.About("polltoy")
	seats := []rooms.Seat{{Name: "adder", Builtin: &bot.Bots[0]}}
	for i := 2; i <= 4; i++ {
		seats = append(seats, rooms.Seat{Name: "seat " + strconv.Itoa(i), Open: true})
	}
	p.mu.Lock()
	p.games++
	n := p.games
	p.tokens = map[string]int{}
	p.state = []byte(`{"turn":0}`) // until the new game's first state
	p.mu.Unlock()
	t, err := rooms.OpenTable(rooms.TableConfig{Ruleset: tickRuleset{}, MaxTurns: 6, Seats: seats,
		Tick: 200 * time.Millisecond, Clock: p.clock,
		Recordings: &rooms.Recordings{Dir: p.dir, Own: func(string) bool { return true }},
		Name:       "poll-" + strconv.Itoa(n), Adapter: p})
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.table = t
	p.mu.Unlock()
	return nil
}

// Played encodes the state the players poll (rooms.Adapter).
func (p *poller) Played(eg engine.Game, _ *match.GameRound) {
	g := eg.(*tickGame)
	b, _ := json.Marshal(map[string]any{"turn": g.turn, "over": g.Over(), "joined": g.joined, "points": g.points})
	p.mu.Lock()
	p.state = b
	p.mu.Unlock()
}

func (p *poller) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name, Token, Password string
		Cmds                  []string
	}
	if r.Method == http.MethodPost {
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&body); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
	}
	p.mu.Lock()
	t := p.table
	p.mu.Unlock()
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
		p.mu.Lock()
		p.tokens[token] = seat
		p.mu.Unlock()
		t.Submit(seat, []string{"join " + body.Name})
		json.NewEncoder(w).Encode(map[string]any{"token": token, "uid": seat + 1})
	case "/action":
		p.mu.Lock()
		seat, ok := p.tokens[body.Token]
		p.mu.Unlock()
		if !ok {
			http.Error(w, "bad token", http.StatusForbidden)
			return
		}
		t.Submit(seat, body.Cmds)
		w.Write([]byte(`{"ok":true}`))
	case "/state":
		p.mu.Lock()
		w.Write(p.state)
		p.mu.Unlock()
	case "/startgame":
		err := p.secrets.Check(rooms.RequestHost(r), "", "admin password", func() bool { return rooms.CheckPassword(body.Password, p.password) })
		if err != nil {
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
		t.Stop()
		if err := p.newGame(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Write([]byte(`{"ok":true}`))
	default:
		http.NotFound(w, r)
	}
}

// manualClock fires its timers only when the test advances it.
type manualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []manualTimer
}

type manualTimer struct {
	at time.Time
	c  chan time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	c.timers = append(c.timers, manualTimer{c.now.Add(d), ch})
	return ch
}

// Drop forgets every timer.
func (c *manualClock) Drop() {
	c.mu.Lock()
	c.timers = nil
	c.mu.Unlock()
}

// Armed reports whether a timer is set for d from now.
func (c *manualClock) Armed(d time.Duration) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.timers {
		if t.at.Equal(c.now.Add(d)) {
			return true
		}
	}
	return false
}

func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.timers[:0]
	for _, t := range c.timers {
		if !t.at.After(c.now) {
			t.c <- c.now
		} else {
			kept = append(kept, t)
		}
	}
	c.timers = kept
}

type pollState struct {
	Turn   int
	Over   bool
	Joined []string
	Points []int64
}

func TestHTTPPollingOverTable(t *testing.T) {
	clk := &manualClock{now: time.Unix(1_000_000, 0)}
	p := &poller{dir: t.TempDir(), clock: clk, password: "admin"}
	p.secrets = rooms.Secrets{Clock: clk}
	if err := p.newGame(); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	defer srv.Close()
	post := func(path string, body any, into any) int {
		t.Helper()
		b, _ := json.Marshal(body)
		resp, err := http.Post(srv.URL+path, "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if into != nil {
			json.NewDecoder(resp.Body).Decode(into)
		}
		return resp.StatusCode
	}
	poll := func() pollState {
		t.Helper()
		resp, err := http.Get(srv.URL + "/state")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var s pollState
		json.NewDecoder(resp.Body).Decode(&s)
		return s
	}
	// tick plays rounds until turn n, one at a time: it waits until the
	// table has armed the timer of the next round (at the clock's now +
	// a tick), advances the clock by one tick and waits for that round.
	tick := func(n int) pollState {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		wait := func(cond func() bool) {
			for !cond() {
				if time.Now().After(deadline) {
					t.Fatalf("turn %d never came: %+v", n, poll())
				}
				runtime.Gosched() // let the table's goroutines run
			}
		}
		s := poll()
		for s.Turn < n {
			turn := s.Turn
			wait(func() bool { return clk.Armed(200 * time.Millisecond) })
			clk.Advance(200 * time.Millisecond)
			wait(func() bool { s = poll(); return s.Turn > turn })
		}
		return s
	}
	var a struct {
		Token string
		UID   int
	}
	if code := post("/join", map[string]any{"name": "alice"}, &a); code != 200 || a.UID != 2 {
		t.Fatalf("join: %d %+v", code, a)
	}
	s := tick(1)
	if s.Joined[0] != "adder" || s.Joined[1] != "alice" {
		t.Errorf("turn 1: %+v", s)
	}
	post("/action", map[string]any{"token": a.Token, "cmds": []string{"add 5"}}, nil)
	s = tick(2)
	if s.Points[1] != 5 || s.Points[0] != 1 {
		t.Errorf("turn 2: %+v", s)
	}
	// bob joins mid-game, at turn 2
	var b struct {
		Token string
		UID   int
	}
	post("/join", map[string]any{"name": "bob"}, &b)
	if b.UID != 3 {
		t.Fatalf("bob's seat %d", b.UID)
	}
	s = tick(3)
	post("/action", map[string]any{"token": b.Token, "cmds": []string{"add 9"}}, nil)
	if code := post("/action", map[string]any{"token": "nope", "cmds": []string{"add 9"}}, nil); code != http.StatusForbidden {
		t.Errorf("a wrong token: %d", code)
	}
	s = tick(6)
	if !s.Over || s.Joined[2] != "bob" || s.Points[2] != 9 || s.Points[1] != 5 || s.Points[0] != 5 {
		t.Errorf("the end: %+v", s)
	}
	p.mu.Lock()
	first := p.table
	p.mu.Unlock()
	<-first.Done()
	if err := first.Err(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(first.Path())
	if err != nil {
		t.Fatal(err)
	}
	res, err := replay.VerifySim(f, nil)
	f.Close()
	if err != nil || res.Err != nil || !res.Complete || res.Rounds != 6 {
		t.Errorf("the recording verifies: %+v %v", res, err)
	}
	clk.Drop() // the first game's timers: none is armed once it is over
	// /startgame: refused without the admin's password, then restarts.
	if code := post("/startgame", map[string]any{"password": "guess"}, nil); code != http.StatusForbidden {
		t.Errorf("/startgame with a wrong password: %d", code)
	}
	if code := post("/startgame", map[string]any{"password": "admin"}, nil); code != 200 {
		t.Errorf("/startgame: %d", code)
	}
	if s := tick(1); s.Turn != 1 || s.Joined[1] != "" {
		t.Errorf("the new game: %+v", s)
	}
}
