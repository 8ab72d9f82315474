// Package protocol is ColorFight v1's HTTP server as `rewind server
// --game colorfight1` runs it (rooms.Mounted, rooms.Flagged,
// rooms.Described): the reference's endpoints (PROTOCOL-COLORFIGHT1.md)
// on a fixed tick, so that the official colorfight.py and its
// exampleAI.py play unchanged.
//
// One game at a time, on rooms.Table: it starts with the server and
// again when it ends (until Options.Games are played), or when an admin
// calls /startgame. Every request of a player is a command of its seat,
// applied at the next tick in arrival order and answered then with the
// reference's answer; /getgameinfo is answered at once with the state of
// the last tick (every cell, whatever timeAfter asks: the protocol allows
// more cells than changed, and the client merges by id). A player's token
// is the server's own (random); the recording holds the game's.
//
// Bounds (docs/limits.md): a body ≤ MaxBody; ≤ MaxPending requests of a
// seat and ≤ MaxStrangers of unknown tokens waiting for a tick (more:
// 429); ≤ JoinsPerMinute joins an address; the table's seats
// (Options.Players, at most rules.MaxPlayers).
package protocol

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight1/bots"
	"github.com/rewind-game/rewind/games/colorfight1/rules"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/spf13/pflag"
)

// Bounds and defaults.
const (
	// DefaultTick is --tick's default, in seconds; a tick is more than
	// MinTick.
	DefaultTick = 0.2
	MinTick     = 0.1
	// MaxBody bounds a request's body (a real one is under 200 bytes).
	MaxBody = rules.MaxBodyBytes
	// MaxPending bounds a seat's requests waiting for the next tick;
	// MaxStrangers the requests of tokens no player has.
	MaxPending   = 64
	MaxStrangers = 256
	// JoinsPerMinute bounds the joins of one address.
	JoinsPerMinute = 20
	// DefaultMaxTicks is an unlimited game's length in ticks when
	// --max-turn does not say (an hour at the default tick).
	DefaultMaxTicks = 18000
)

// recordingPrefix starts the name of every recording the server writes.
const recordingPrefix = "colorfight1-"

// Server is the protocol (rooms.Mounted, rooms.Flagged, rooms.Described).
type Server struct{}

var (
	_ rooms.Mounted   = Server{}
	_ rooms.Flagged   = Server{}
	_ rooms.Described = Server{}
)

// DefaultAddr is where bots connect by default.
func (Server) DefaultAddr() string { return "127.0.0.1:8000" }

// AddFlags declares the protocol's flags (rooms.Flagged).
func (Server) AddFlags(fs *pflag.FlagSet) {
	fs.Float64("tick", DefaultTick, "seconds of game time per tick, more than 0.1: the world updates and the commands apply every tick")
	fs.Float64("last-time", 0, "seconds a game lasts (the reference's last_time; 0: unlimited, --max-turn ticks)")
	fs.Float64("join-time", 0, "seconds after the start during which players may join (ai_join_time; 0: the whole game)")
}

// Describe is the protocol's paragraph of `rewind server`'s help.
func (Server) Describe() string {
	return `It serves ColorFight v1's HTTP endpoints (/getgameinfo, /joingame,
/checktoken, /attack, /buildbase, /blast, /multiattack, /startgame) as its
reference does, so that the official colorfight.py and exampleAI.py play
unchanged: set the client's hostUrl to http://HOST:PORT/. The world
updates every --tick seconds and each request is applied at the next
tick, answered then; a game lasts --last-time seconds (0: --max-turn
ticks) with joins open for --join-time, and a new one starts when it
ends. --bot seats built-in bots. /startgame restarts the game for an admin
(the master password, from REWIND_ADMIN_PASSWORD).`
}

// settings is one game's configuration.
type settings struct {
	tick, lastTime, joinTime float64
	maxTicks                 int
}

type config struct {
	o     rooms.Options
	first settings
	seats int
	bots  []engine.Builtin
	logf  func(format string, args ...any)
}

func configure(o rooms.Options) (config, error) {
	fs := o.Flags
	if fs == nil {
		fs = pflag.NewFlagSet("server", pflag.ContinueOnError)
		Server{}.AddFlags(fs)
	}
	tick, _ := fs.GetFloat64("tick")
	last, _ := fs.GetFloat64("last-time")
	join, _ := fs.GetFloat64("join-time")
	c := config{o: o, first: settings{tick: tick, lastTime: last, joinTime: join, maxTicks: o.MaxTurns}, seats: o.Players,
		logf: func(string, ...any) {}}
	if o.Log != nil {
		c.logf = log.New(o.Log, "", log.LstdFlags).Printf
	}
	switch {
	case o.Dir == "":
		return c, errors.New("server: no folder to record games in (--dir)")
	case !(tick > MinTick) || tick > 60 || math.IsNaN(tick):
		return c, fmt.Errorf("server: --tick %v: give seconds, more than %v and at most 60", tick, MinTick)
	case !(last >= 0) || last > 1e7:
		return c, fmt.Errorf("server: --last-time %v: give seconds, 0..1e7 (0: unlimited)", last)
	case !(join >= 0) || join > 1e7:
		return c, fmt.Errorf("server: --join-time %v: give seconds, 0..1e7 (0: the whole game)", join)
	}
	if c.seats == 0 {
		c.seats = rules.MaxPlayers
	}
	if c.seats < 1 || c.seats > rules.MaxPlayers {
		return c, fmt.Errorf("server: --max-player %d outside 1..%d", c.seats, rules.MaxPlayers)
	}
	if len(o.Bots) > c.seats {
		return c, fmt.Errorf("server: %d --bot for %d seats (--max-player)", len(o.Bots), c.seats)
	}
	for _, name := range o.Bots {
		b, ok := builtin(name)
		if !ok {
			return c, fmt.Errorf("server: --bot %q: no such built-in bot of ColorFight", name)
		}
		c.bots = append(c.bots, b)
	}
	return c, nil
}

func builtin(name string) (engine.Builtin, bool) {
	for _, b := range bots.Builtins {
		if b.Name == name {
			return b, true
		}
	}
	return engine.Builtin{}, false
}

// ticks is the length in ticks of a game of s.
func (s settings) ticks() int {
	if s.lastTime > 0 {
		// One tick past the end, so that the end is played.
		return int(math.Ceil(s.lastTime/s.tick)) + 1
	}
	if s.maxTicks > 0 {
		return s.maxTicks
	}
	return DefaultMaxTicks
}

// Serve runs the server alone on o.Addr (rooms.Protocol).
func (p Server) Serve(ctx context.Context, o rooms.Options) error {
	m, err := p.Mount(o)
	if err != nil {
		return err
	}
	// It ends once no game follows (Options.Games played, or a game
	// that could not be recorded), whether or not Games counts.
	hs := &http.Server{ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute, IdleTimeout: 2 * time.Minute}
	return rooms.ServeAlone(ctx, m, o, p.DefaultAddr(), hs, m.(*mount).finished)
}

// Mount opens the server without listening (rooms.Mounted): it
// recovers what a crash left in o.Dir and starts the first game.
func (Server) Mount(o rooms.Options) (rooms.Mount, error) {
	cfg, err := configure(o)
	if err != nil {
		return nil, err
	}
	m := &mount{cfg: cfg, finished: make(chan struct{}), joins: map[string][]time.Time{},
		secrets: &rooms.Secrets{Clock: rooms.WallClock{}, Logf: cfg.logf}}
	m.disk = &rooms.Recordings{Dir: o.Dir, Own: ownRecording, Logf: cfg.logf}
	for _, g := range m.disk.Recover(nil) {
		if o.Live != nil {
			o.Live.List(g)
		}
	}
	if err := m.start(cfg.first); err != nil {
		return nil, err
	}
	go m.run()
	return m, nil
}

func ownRecording(name string) bool {
	return strings.HasPrefix(name, recordingPrefix) && strings.HasSuffix(name, ".rwd")
}

// mount is the server: the game in play and the requests waiting for
// its next tick.
type mount struct {
	cfg      config
	disk     *rooms.Recordings
	secrets  *rooms.Secrets
	finished chan struct{} // closed when Options.Games games are played

	mu      sync.Mutex
	game    *session
	played  int
	closed  bool
	joins   map[string][]time.Time // per address, the joins of the last minute
	restart chan struct{}          // closed by /startgame: the run loop starts the next game
}

// session is one game: its table and what its players wait for.
type session struct {
	m     *mount
	tbl   *rooms.Table
	set   settings
	n     int
	over  bool
	poll  []byte         // the full /getgameinfo answer at the last tick
	ready chan struct{}  // closed once poll is set
	token map[string]int // the server's token → seat
	// seatToken[p] is seat p's player's token ("" for none); joining[p]
	// marks a seat whose /joingame waits for its tick; claimed[p] a seat
	// taken from the table (a player's, alive or not); joined[p] a seat
	// whose join succeeded (its player alive or not).
	seatToken []string
	joining   []bool
	claimed   []bool
	joined    []bool
	// pending[p] are seat p's requests not yet answered, in order: the
	// first ones are in the round being played (a prefix of what was
	// submitted), the rest for the next.
	pending   [][]*call
	strangers []*call
	// next, when set by /startgame, is the game to start when this one
	// ends.
	next *settings
}

// call is one request waiting for its tick's answer.
type call struct {
	cmd   string // ENDPOINT JSON
	ep    rules.Endpoint
	body  []byte
	join  bool
	reply chan answer // buffered: the answer is never waited for
}

// answer is a request's HTTP status and JSON body.
type answer struct {
	status int
	body   []byte
}

func newCall(ep rules.Endpoint, path string, body []byte) *call {
	return &call{cmd: path + " " + string(body), ep: ep, body: body, reply: make(chan answer, 1)}
}

func (c *call) answer(status int, body []byte) { c.reply <- answer{status, body} }

// start opens the table of a new game of s (m.mu not held).
func (m *mount) start(s settings) error {
	m.mu.Lock()
	n := m.played
	m.mu.Unlock()
	seed := m.cfg.o.Seed + uint64(n)*0x9e3779b97f4a7c15
	if m.cfg.o.Seed == 0 {
		var b [8]byte
		rand.Read(b[:])
		seed = uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 | uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
	}
	st := rules.DrawSetup(seed)
	now := time.Now()
	st.T0, st.Tick, st.LastTime, st.JoinTime = float64(now.Unix()), s.tick, s.lastTime, s.joinTime
	setup, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	np := m.cfg.seats
	g := &session{m: m, set: s, n: n, token: map[string]int{}, ready: make(chan struct{}), seatToken: make([]string, np), joining: make([]bool, np),
		claimed: make([]bool, np), joined: make([]bool, np), pending: make([][]*call, np)}
	seats := make([]rooms.Seat, np)
	for i := range seats {
		if i < len(m.cfg.bots) {
			b := m.cfg.bots[i]
			seats[i] = rooms.Seat{Name: b.Name, Builtin: &b}
			g.claimed[i] = true
			continue
		}
		seats[i] = rooms.Seat{Name: "seat " + strconv.Itoa(i+1), Open: true}
	}
	name := fmt.Sprintf("%s%s-%d", recordingPrefix, now.UTC().Format("20060102-150405"), n+1)
	m.mu.Lock()
	m.game = g
	m.restart = make(chan struct{})
	if m.closed {
		close(m.restart) // Close came while the game was being set up
	}
	m.mu.Unlock()
	tbl, err := rooms.OpenTable(rooms.TableConfig{Ruleset: rules.Ruleset, Setup: setup, MaxTurns: s.ticks(), Seats: seats,
		Tick: time.Duration(s.tick * float64(time.Second)), Recordings: m.disk, Name: name, Tool: m.cfg.o.Tool,
		Live: m.cfg.o.Live, Game: rooms.LiveGame{ID: name}, Adapter: g, Logf: m.cfg.logf})
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	m.mu.Lock()
	g.tbl = tbl
	m.mu.Unlock()
	m.cfg.logf("colorfight1: game %d started (%s), recorded as %s", n+1, describe(s), tbl.Path())
	return nil
}

func describe(s settings) string {
	d := fmt.Sprintf("tick %gs", s.tick)
	if s.lastTime > 0 {
		d += fmt.Sprintf(", %gs", s.lastTime)
	} else {
		d += fmt.Sprintf(", unlimited (%d ticks)", s.ticks())
	}
	if s.joinTime > 0 {
		d += fmt.Sprintf(", joins for %gs", s.joinTime)
	}
	return d
}

// run starts the next game whenever one ends, until Options.Games are
// played or the server closes.
func (m *mount) run() {
	for {
		m.mu.Lock()
		g, restart := m.game, m.restart
		m.mu.Unlock()
		select {
		case <-g.tbl.Done():
		case <-restart:
			g.tbl.Stop()
		}
		g.end()
		m.mu.Lock()
		m.played++
		closed := m.closed
		done := m.cfg.o.Games > 0 && m.played >= m.cfg.o.Games
		next := g.next
		m.mu.Unlock()
		failed := g.tbl.Err()
		if failed != nil {
			// A game that could not be recorded (a full disk, a folder
			// gone) is not followed by another that would fail the same.
			m.cfg.logf("colorfight1: game %d: %v; no new game starts (restart the server)", g.n+1, failed)
		}
		if closed || done || failed != nil {
			close(m.finished)
			return
		}
		if next == nil {
			s := m.cfg.first
			next = &s
		}
		if err := m.start(*next); err != nil {
			m.cfg.logf("colorfight1: %v", err)
			close(m.finished)
			return
		}
	}
}

// end answers every request still waiting: the game has ended.
func (g *session) end() {
	m := g.m
	m.mu.Lock()
	defer m.mu.Unlock()
	g.over = true
	for p := range g.pending {
		for _, c := range g.pending[p] {
			c.answer(http.StatusOK, []byte(`{"err_code":4,"err_msg":"Game is ended"}`))
		}
		g.pending[p] = nil
	}
	for _, c := range g.strangers {
		c.answer(http.StatusOK, []byte(`{"err_code":4,"err_msg":"Game is ended"}`))
	}
	g.strangers = nil
}

// Played answers the requests of the round just played (rooms.Adapter).
func (g *session) Played(eg engine.Game, rd *match.GameRound) {
	gm := eg.(*rules.Game)
	m := g.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if rd != nil {
		for p := range g.pending {
			if p >= len(rd.Commands) {
				break
			}
			n := min(len(rd.Commands[p]), len(g.pending[p]))
			replies := gm.Replies(p)
			for i, c := range g.pending[p][:n] {
				var r rules.Response
				if i < len(replies) {
					r = replies[i]
				} else {
					r = rules.Response{Status: http.StatusInternalServerError, Shape: rules.ShapeMsg, Msg: "no answer"}
				}
				if c.join {
					g.joining[p] = false
					if r.Shape == rules.ShapeToken {
						tok := newToken()
						g.token[tok], g.seatToken[p], g.joined[p] = p, tok, true
						r.Token = tok
						m.cfg.logf("colorfight1: a player joined as uid %d (seat %d)", r.UID, p+1)
					}
				}
				c.answer(r.Status, r.AppendJSON(nil))
			}
			g.pending[p] = g.pending[p][n:]
		}
		// A player gone (dead, or its row removed) has no token any more.
		for p, tok := range g.seatToken {
			if tok != "" && gm.UID(p) == 0 {
				delete(g.token, tok)
				g.seatToken[p] = ""
			}
		}
		for p := range g.pending {
			if len(g.pending[p]) > 0 {
				g.tbl.Submit(p, commands(g.pending[p]))
			}
		}
	}
	// Requests of tokens no player has: the rules' answer to such a
	// token, which changes nothing (the token is one no row has).
	for _, c := range g.strangers {
		b, err := rules.ParseBody(true, c.body)
		if err != nil {
			c.answer(http.StatusBadRequest, jsonMsg(err.Error()))
			continue
		}
		if b.Has(rules.FieldToken) {
			b.Set(rules.FieldToken, []byte(`"-"`))
		}
		r := gm.State.Do(rules.Request{Endpoint: c.ep, Body: &b, Spawn: -1})
		c.answer(r.Status, r.AppendJSON(nil))
	}
	g.strangers = g.strangers[:0]
	first := g.poll == nil
	g.poll = gm.State.AppendPoll(g.poll[:0])
	if first {
		close(g.ready)
	}
}

func commands(cs []*call) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.cmd
	}
	return out
}

func newToken() string {
	var b [24]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

func jsonMsg(msg string) []byte {
	b, _ := json.Marshal(map[string]string{"msg": msg})
	return b
}

// endpoints are the paths the server owns.
var endpoints = map[string]rules.Endpoint{}

func init() {
	for _, p := range []string{"/getgameinfo", "/joingame", "/checktoken", "/attack", "/buildbase", "/blast", "/multiattack", "/startgame"} {
		ep, _ := rules.EndpointOf(p)
		endpoints[p] = ep
	}
}

// Owns reports whether r is for one of the protocol's endpoints.
// Done is closed once Options.Games games are played; nil for Games 0
// (rooms.Mount).
func (m *mount) Done() <-chan struct{} {
	if m.cfg.o.Games <= 0 {
		return nil
	}
	return m.finished
}

func (m *mount) Owns(r *http.Request) bool {
	_, ok := endpoints[r.URL.Path]
	return ok
}

// Banner says where bots connect.
func (m *mount) Banner(base string) string {
	return "ColorFight v1 bots: set colorfight.py's hostUrl to " + base + "/"
}

// Close ends the game at its last whole tick, its recording kept.
func (m *mount) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	select {
	case <-m.restart:
	default:
		close(m.restart)
	}
	m.mu.Unlock()
	<-m.finished
	return nil
}

func (m *mount) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ep, ok := endpoints[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	admin := ep == rules.StartGame
	if !admin {
		// The game endpoints answer every origin, as the reference does:
		// a player acts only with its token.
		w.Header().Set("Access-Control-Allow-Origin", "*")
	} else if origin := r.Header.Get("Origin"); origin != "" && !sameOrigin(origin, r.Host) {
		writeJSON(w, http.StatusForbidden, jsonMsg("cross-site requests to /startgame are refused"))
		return
	}
	switch r.Method {
	case http.MethodOptions:
		if !admin {
			w.Header().Set("Access-Control-Allow-Methods", "POST, OPTIONS")
			w.Header().Set("Access-Control-Allow-Headers", "Content-Type")
		}
		w.WriteHeader(http.StatusNoContent)
		return
	case http.MethodPost:
	default:
		w.Header().Set("Allow", "POST, OPTIONS")
		writeJSON(w, http.StatusMethodNotAllowed, jsonMsg("method not allowed: POST"))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		writeJSON(w, http.StatusRequestEntityTooLarge, jsonMsg(fmt.Sprintf("a body of at most %d bytes", MaxBody)))
		return
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	isJSON := mt == "application/json"
	if r.URL.Path == "/getgameinfo" {
		m.gameInfo(w, r)
		return
	}
	b, perr := rules.ParseBody(isJSON, body)
	switch {
	case !isJSON || (perr == nil && !b.JSON):
		writeJSON(w, http.StatusBadRequest, []byte(`{"msg":"No json!"}`))
		return
	case perr != nil:
		writeJSON(w, http.StatusBadRequest, jsonMsg("Bad Request: "+perr.Error()))
		return
	}
	if admin {
		m.startGame(w, r, &b)
		return
	}
	c := newCall(ep, r.URL.Path, bytes.TrimSpace(body))
	if status, msg := m.queue(c, &b, rooms.RequestHost(r)); status != 0 {
		writeJSON(w, status, msg)
		return
	}
	select {
	case a := <-c.reply:
		writeJSON(w, a.status, a.body)
	case <-r.Context().Done():
	}
}

// queue puts c with the requests of the next tick; a refusal is a status
// and its answer.
func (m *mount) queue(c *call, b *rules.Body, addr string) (int, []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g := m.game
	switch {
	case g == nil || g.tbl == nil:
		return http.StatusBadRequest, []byte(`{"msg":"No game established"}`)
	case g.over && c.ep == rules.JoinGame:
		// The reference answers 200, on which colorfight.py's JoinGame
		// fails with a KeyError; a 403 makes it return False.
		return http.StatusForbidden, []byte(`{"err_code":4,"err_msg":"Game is ended"}`)
	case g.over:
		return http.StatusOK, []byte(`{"err_code":4,"err_msg":"Game is ended"}`)
	}
	if c.ep == rules.JoinGame {
		if !m.joinAllowed(addr) {
			return http.StatusTooManyRequests, jsonMsg(fmt.Sprintf("at most %d joins a minute from one address", JoinsPerMinute))
		}
		if !b.Has(rules.FieldName) {
			return http.StatusBadRequest, []byte(`{"code":400,"msg":"wrong args! need name"}`)
		}
		p, ok := g.freeSeat()
		if !ok {
			return http.StatusForbidden, jsonMsg(fmt.Sprintf("the game is full: %d players (rewind server --max-player)", len(g.claimed)))
		}
		c.join, g.joining[p] = true, true
		g.pending[p] = append(g.pending[p], c)
		g.tbl.Submit(p, commands(g.pending[p]))
		return 0, nil
	}
	tok, _ := b.String(rules.FieldToken)
	if p, ok := g.token[tok]; ok && tok != "" {
		if len(g.pending[p]) >= MaxPending {
			return http.StatusTooManyRequests, jsonMsg(fmt.Sprintf("at most %d requests of a player wait for a tick", MaxPending))
		}
		g.pending[p] = append(g.pending[p], c)
		g.tbl.Submit(p, commands(g.pending[p]))
		return 0, nil
	}
	if len(g.strangers) >= MaxStrangers {
		return http.StatusTooManyRequests, jsonMsg("too many requests wait for a tick")
	}
	g.strangers = append(g.strangers, c)
	return 0, nil
}

// freeSeat is a seat for a new player. Every successful join is a seat
// of its own, in join order (a player joining again, after its death or
// beside itself, is a new uid and so a new seat): the seat claimed last
// when its join failed and nothing waits on it, else the next seat the
// table has open (seats are claimed in ascending order, and a tick
// applies its joins in seat order).
func (g *session) freeSeat() (int, bool) {
	for p := len(g.claimed) - 1; p >= len(g.m.cfg.bots); p-- {
		if !g.claimed[p] {
			continue
		}
		if !g.joined[p] && !g.joining[p] && len(g.pending[p]) == 0 {
			return p, true
		}
		break
	}
	p, ok := g.tbl.Claim()
	if ok {
		g.claimed[p] = true
	}
	return p, ok
}

// joinAllowed counts a join from addr in the last minute (m.mu held).
func (m *mount) joinAllowed(addr string) bool {
	now := time.Now()
	if len(m.joins) > 4096 {
		for a, ts := range m.joins {
			if len(ts) == 0 || now.Sub(ts[len(ts)-1]) > time.Minute {
				delete(m.joins, a)
			}
		}
	}
	ts := m.joins[addr]
	for len(ts) > 0 && now.Sub(ts[0]) > time.Minute {
		ts = ts[1:]
	}
	if len(ts) >= JoinsPerMinute {
		m.joins[addr] = ts
		return false
	}
	m.joins[addr] = append(ts, now)
	return true
}

func (m *mount) gameInfo(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	g := m.game
	m.mu.Unlock()
	var poll []byte
	if g != nil {
		// A game just opened has its first state in a moment.
		select {
		case <-g.ready:
		case <-g.tbl.Done():
		case <-r.Context().Done():
			return
		}
		m.mu.Lock()
		poll = bytes.Clone(g.poll)
		m.mu.Unlock()
	}
	if len(poll) == 0 {
		writeJSON(w, http.StatusBadRequest, []byte(`{"msg":"No game established"}`))
		return
	}
	writeJSON(w, http.StatusOK, poll)
}

// startGame is /startgame: for the master password, the next game with
// the body's last_time and ai_join_time, at once.
func (m *mount) startGame(w http.ResponseWriter, r *http.Request, b *rules.Body) {
	want := m.cfg.o.AdminPassword
	if want == "" {
		writeJSON(w, http.StatusForbidden, jsonMsg("Fail: /startgame is disabled: the server was started without "+rooms.AdminPasswordEnv))
		return
	}
	for _, f := range []rules.Field{rules.FieldAdminPassword, rules.FieldLastTime, rules.FieldJoinTime} {
		if !b.Has(f) {
			writeJSON(w, http.StatusBadRequest, []byte(`{"code":400,"msg":"wrong args! need `+f.String()+`"}`))
			return
		}
	}
	got, _ := b.String(rules.FieldAdminPassword)
	if err := m.secrets.Check(rooms.RequestHost(r), "", "the master admin password", func() bool { return rooms.SameSecret(got, want) }); err != nil {
		var re *rooms.RetryError
		if errors.As(err, &re) {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(re.Wait.Seconds()))))
			writeJSON(w, http.StatusTooManyRequests, jsonMsg(err.Error()))
			return
		}
		writeJSON(w, http.StatusOK, []byte(`{"msg":"Fail"}`))
		return
	}
	last, ok1 := b.Number(rules.FieldLastTime)
	join, ok2 := b.Number(rules.FieldJoinTime)
	s := m.cfg.first
	s.lastTime, s.joinTime = last, join
	if !ok1 || !ok2 || !(last >= 0) || last > 1e7 || !(join >= 0) || join > 1e7 {
		writeJSON(w, http.StatusBadRequest, jsonMsg("last_time and ai_join_time: seconds, 0..1e7"))
		return
	}
	m.mu.Lock()
	g := m.game
	g.next = &s
	restart := m.restart
	m.mu.Unlock()
	select {
	case <-restart:
	default:
		close(restart)
	}
	m.cfg.logf("colorfight1: an admin restarted the game (%s)", describe(s))
	writeJSON(w, http.StatusOK, []byte(`{"msg":"Success"}`))
}

func sameOrigin(origin, host string) bool {
	o := strings.TrimPrefix(strings.TrimPrefix(origin, "http://"), "https://")
	return o == host
}

// writeJSON writes one compact JSON answer.
func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)+1))
	w.WriteHeader(status)
	w.Write(body)
	w.Write([]byte("\n"))
}
