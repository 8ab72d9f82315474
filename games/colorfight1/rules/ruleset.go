package rules

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/rng"
)

// The game through the seam (engine.Ruleset, engine.Game). A turn is one
// tick: round k plays tick k — its poll's world update (from tick 1 on),
// then its commands. Seats join mid-game: a seat takes part once its
// "/joingame" succeeded, and a seat is one join: once its player died the
// seat only watches (a player joining again gets a new uid from the
// reference, so it is a new seat).
//
// A command is one request as the reference takes it, its endpoint's
// path, a space and its JSON body: `/attack {"cellx":3,"celly":4,
// "boost":false}`, `/joingame {"name":"me"}`, `/buildbase`, `/blast`,
// `/multiattack`, `/checktoken`. The seat's token is filled in (a token
// in the body is ignored). Within a tick the seats' commands apply in
// seat order, each seat's in the order sent. A command the reference
// refuses (an err_code, an HTTP error) is a CommandError whose Code is
// the err_code, or the HTTP status when the answer has none.

// Ruleset is ColorFight v1's rules for the engine.
var Ruleset engine.Ruleset = ruleset{}

// Limits of a game through the seam.
const (
	ID              = "colorfight1"
	MaxPlayers      = 8
	DefaultMaxTurns = 3000
	MaxMaxTurns     = 1 << 20
	// DefaultTick and DefaultT0 are the clock of a game drawn from a seed.
	DefaultTick = 0.2
	DefaultT0   = 1546300800.0
)

// Command error codes of the seam beyond the reference's.
const (
	// CodeNotCommand: the text is not "ENDPOINT JSON" of an endpoint a
	// player sends.
	CodeNotCommand = 1000
	// CodeJoined: a /joingame of a seat that has had a successful one
	// (its player alive or dead: a rejoin is a new seat).
	CodeJoined = 1001
	// CodeNotJoined: an action of a seat that has not joined.
	CodeNotJoined = 1002
)

var metrics = []engine.Metric{
	{Name: "cells", Unit: "cells", Kind: engine.Gauge, Swings: true},
	{Name: "owned", Unit: "cells", Kind: engine.Gauge},
	{Name: "bases", Unit: "bases", Kind: engine.Gauge},
	{Name: "gold", Unit: "gold", Kind: engine.Gauge},
	{Name: "energy", Unit: "energy", Kind: engine.Gauge},
	{Name: "captures", Unit: "cells", Kind: engine.Amount},
	{Name: "alive", Unit: "flag", Kind: engine.Gauge},
}

var eventKinds = []engine.EventKind{
	{Name: "join", Text: "{player} joins at ({x}, {y})"},
	{Name: "capture", Text: "{player} takes ({x}, {y}) from {other}"},
	{Name: "base_moved", Text: "{player}'s base at ({x}, {y}) falls and moves to cell {value}"},
	{Name: "base_lost", Text: "{player}'s base at ({x}, {y}) falls with nowhere to move"},
	{Name: "base_built", Text: "{player} finishes a base at ({x}, {y})"},
	{Name: "death", Text: "{player} dies with {value} cells"},
	{Name: "blast", Text: "{player} blasts around ({x}, {y}), hitting {value} cells"},
	{Name: "multiattack", Text: "{player} multiattacks around ({x}, {y}), attacking {value} cells"},
}

type ruleset struct{}

func (ruleset) ID() string                     { return ID }
func (ruleset) Version() int                   { return 1 }
func (ruleset) Metrics() []engine.Metric       { return metrics }
func (ruleset) ScoreMetric() int               { return 0 }
func (ruleset) EventKinds() []engine.EventKind { return eventKinds }

// Setup is a game's setup (engine.Game.Setup) as JSON: the clock, the
// seed of Python's generator (and of the spawns), the game's length and
// join window and the map.
type Setup struct {
	T0          float64 `json:"t0"`
	Tick        float64 `json:"tick"`
	Seed        uint64  `json:"seed"`
	LastTime    float64 `json:"last_time"`
	JoinTime    float64 `json:"ai_join_time"`
	GoldCells   []int   `json:"gold_cells"`
	EnergyCells []int   `json:"energy_cells"`
}

// DrawSetup is the setup of a game drawn from seed: the default clock,
// an unlimited game, 18 gold and 18 energy cells drawn with engine/rng.
func DrawSetup(seed uint64) Setup {
	src := rng.New(seed)
	ids := make([]int, NumCells)
	for i := range ids {
		ids[i] = i
	}
	src.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	gold := slices.Sorted(slices.Values(ids[:GoldCells]))
	energy := slices.Sorted(slices.Values(ids[GoldCells : GoldCells+EnergyCells]))
	return Setup{T0: DefaultT0, Tick: DefaultTick, Seed: seed, GoldCells: gold, EnergyCells: energy}
}

func (ruleset) New(seed uint64, s engine.Settings) (engine.Game, error) {
	return newGame(DrawSetup(seed), nil, s)
}

func (ruleset) NewFromSetup(setup []byte, s engine.Settings) (engine.Game, error) {
	var st Setup
	if err := json.Unmarshal(setup, &st); err != nil {
		return nil, fmt.Errorf("colorfight1: setup: %w", err)
	}
	if len(st.GoldCells) != GoldCells || len(st.EnergyCells) != EnergyCells {
		return nil, fmt.Errorf("colorfight1: setup: %d gold and %d energy cells, want %d and %d", len(st.GoldCells), len(st.EnergyCells), GoldCells, EnergyCells)
	}
	if st.LastTime < 0 || st.JoinTime < 0 || math.IsInf(st.LastTime, 0) || math.IsInf(st.JoinTime, 0) {
		return nil, fmt.Errorf("colorfight1: setup: last_time %v, ai_join_time %v", st.LastTime, st.JoinTime)
	}
	return newGame(st, slices.Clone(setup), s)
}

// Game is a game of ColorFight v1 through the seam; State is its tables.
type Game struct {
	State *State
	setup Setup
	raw   []byte
	max   int
	seats []seat
	// seatOf[uid] is the seat uid belongs to, −1 for none.
	seatOf []int
	spawns *rng.Source
	errs   []engine.CommandError
	// replies[p] are the answers to seat p's commands of the last round.
	replies [][]Response
	events  []engine.Event
	// captures[p] counts the cells seat p took in the last round.
	captures []int64
	buf      []int
	// text and body are the command being applied, reused.
	text []byte
	body Body
	// playedZero is set once tick 0's round was played.
	playedZero bool
}

type seat struct {
	uid   int
	token []byte // the player's token as a JSON string
	joins int
	// joined is set by the seat's successful join; name is that join's
	// name and uid ("MyAI #3").
	joined bool
	name   string
}

func newGame(st Setup, raw []byte, s engine.Settings) (*Game, error) {
	if s.Players < 1 || s.Players > MaxPlayers {
		return nil, fmt.Errorf("colorfight1: %d players, want 1..%d", s.Players, MaxPlayers)
	}
	max := s.MaxTurns
	if max == 0 {
		max = DefaultMaxTurns
	}
	if max < 1 || max > MaxMaxTurns {
		return nil, fmt.Errorf("colorfight1: %d ticks, want 1..%d", max, MaxMaxTurns)
	}
	state, err := New(Config{T0: st.T0, Tick: st.Tick, Seed: st.Seed, LastTime: st.LastTime, JoinTime: st.JoinTime,
		GoldCells: st.GoldCells, EnergyCells: st.EnergyCells}, nil)
	if err != nil {
		return nil, err
	}
	g := &Game{State: state, setup: st, raw: raw, max: max, seats: make([]seat, s.Players),
		spawns: rng.New(st.Seed ^ 0x636f6c6f72666967), captures: make([]int64, s.Players),
		replies: make([][]Response, s.Players)}
	return g, nil
}

func (g *Game) Players() int                    { return len(g.seats) }
func (g *Game) Turn() int                       { return g.State.tick + g.started() }
func (g *Game) MaxTurns() int                   { return g.max }
func (g *Game) Over() bool                      { return g.Turn() >= g.max }
func (g *Game) Active() int                     { return -1 }
func (g *Game) Fault(int, engine.Fault, string) {}
func (g *Game) Setup() []byte                   { return g.raw }

// started is 1 once tick 0 was played: Turn counts the ticks played.
func (g *Game) started() int {
	if g.playedZero {
		return 1
	}
	return 0
}

// NextNow is the time the next Round applies its commands at.
func (g *Game) NextNow() float64 {
	s := g.State
	if !g.playedZero {
		return s.Now()
	}
	return s.t0 + float64(float64(s.tick+1)*s.step)
}

// PlayerName returns the name seat p's player joined with and its uid
// ("MyAI #3": the reference takes the same name twice), also once that
// player died; "" before the seat's successful join (engine.Attendance: the header, written
// when the table opened, names the seat "seat N").
func (g *Game) PlayerName(p int) string {
	if p < 0 || p >= len(g.seats) {
		return ""
	}
	return g.seats[p].name
}

// Idle is false: every round takes commands, a join at the least
// (engine.Attendance).
func (g *Game) Idle() bool { return false }

// Out is false (engine.Attendance): the commands of a seat whose player
// died are still taken, and refused (a join: CodeJoined; an action as a
// token no player has is: err 21).
func (g *Game) Out(int) bool { return false }

// Joined reports whether seat p has had its successful /joingame (its
// player alive or dead).
func (g *Game) Joined(p int) bool { return p >= 0 && p < len(g.seats) && g.seats[p].joined }

// UID returns seat p's player's uid, 0 when it has none alive.
func (g *Game) UID(p int) int { return g.seats[p].uid }

// Seat returns the seat of uid, −1 for none.
func (g *Game) Seat(uid int) int {
	if uid > 0 && uid < len(g.seatOf) {
		return g.seatOf[uid]
	}
	return -1
}

func (g *Game) Round(cmds [][]string) []engine.CommandError {
	g.errs, g.events = g.errs[:0], g.events[:0]
	for p := range g.captures {
		g.captures[p] = 0
		g.replies[p] = g.replies[p][:0]
	}
	if g.Over() {
		return nil
	}
	s := g.State
	if g.playedZero {
		s.Advance()
	}
	g.playedZero = true
	for p := range g.seats {
		if p >= len(cmds) {
			break
		}
		for i, c := range cmds[p] {
			g.command(p, i, c)
		}
	}
	g.collectEvents()
	// A seat whose player's row is gone (or dead) has no player.
	for p := range g.seats {
		if uid := g.seats[p].uid; uid != 0 {
			if u := s.User(uid); u == nil || u.DeadTime != 0 {
				g.seats[p].uid = 0
			}
		}
	}
	return g.errs
}

// Replies returns the answers to seat p's commands of the last round,
// one per command in order, as the reference answers the request (a
// seam refusal — an action of a seat whose player is gone — as the
// reference answers a token no player has: err 21). They are valid until
// the next Round.
func (g *Game) Replies(p int) []Response { return g.replies[p] }

// reject refuses seat p's command i before the rules see it (a seam
// refusal, code CodeNotCommand, CodeJoined or CodeNotJoined).
func (g *Game) reject(p, i, code int, text string) {
	g.refused(p, i, code, text)
	if code == CodeNotJoined {
		g.replies[p] = append(g.replies[p], errResp(21, msgInvalidPlayer))
	} else {
		g.replies[p] = append(g.replies[p], Response{Status: 400, Shape: ShapeMsg, Msg: text})
	}
}

// refused records that seat p's command i was refused.
func (g *Game) refused(p, i, code int, text string) {
	g.errs = append(g.errs, engine.CommandError{Player: p, Index: i, Code: code, Text: text})
}

// command applies seat p's command i.
func (g *Game) command(p, i int, c string) {
	path, body, _ := strings.Cut(c, " ")
	ep, ok := EndpointOf(path)
	if !ok || ep == StartGame {
		g.reject(p, i, CodeNotCommand, "not a request of a player: want ENDPOINT JSON, ENDPOINT one of /joingame /attack /buildbase /blast /multiattack /checktoken")
		return
	}
	g.text = append(g.text[:0], body...)
	b := &g.body
	var err error
	*b, err = ParseBody(true, g.text)
	req := Request{Endpoint: ep, Body: b, BadJSON: err, Spawn: -1}
	st := &g.seats[p]
	if ep == JoinGame {
		if st.joined {
			g.reject(p, i, CodeJoined, "the seat's player has joined: a seat is one join, a player joining again takes a new seat")
			return
		}
		st.joins++
		req.Token = "seat-" + strconv.Itoa(p+1) + "-join-" + strconv.Itoa(st.joins)
		if cand := g.State.SpawnCells(g.buf[:0]); len(cand) > 0 {
			req.Spawn = cand[g.spawns.Intn(len(cand))]
			g.buf = cand
		}
	} else {
		if st.uid == 0 {
			g.reject(p, i, CodeNotJoined, "the seat has no player: send /joingame first")
			return
		}
		b.Set(FieldToken, st.token)
	}
	r := g.State.Do(req)
	g.replies[p] = append(g.replies[p], r)
	if ep == JoinGame && r.Shape == ShapeToken {
		st.uid, st.joined = r.UID, true
		st.token, _ = json.Marshal(r.Token)
		if u := g.State.User(r.UID); u != nil {
			st.name = u.Name + " #" + strconv.Itoa(r.UID)
		}
		for r.UID >= len(g.seatOf) {
			g.seatOf = append(g.seatOf, -1)
		}
		g.seatOf[r.UID] = p
	}
	if r.Failed() {
		code := r.Code
		if r.Shape != ShapeErr || code == 0 {
			code = r.Status
			if code == 200 {
				code = CodeNotCommand
			}
		}
		g.refused(p, i, code, r.Msg)
	}
}

// collectEvents turns the rules' events of the round into the seam's.
func (g *Game) collectEvents() {
	for _, e := range g.State.Events() {
		p, other := g.Seat(int(e.UID)), g.Seat(int(e.Other))
		x, y := -1, -1
		if e.Cell >= 0 {
			x, y = e.Cell%Width, e.Cell/Width
		}
		ev := engine.Event{Player: p, Other: -1, X: x, Y: y}
		switch e.Kind {
		case EventJoin:
			ev.Kind = "join"
		case EventCapture:
			if e.UID == 0 || e.UID == e.Other {
				continue // a blast's end, a refresh
			}
			ev.Kind, ev.Other = "capture", other
			if p >= 0 {
				g.captures[p]++
			}
		case EventBaseMoved:
			ev.Kind, ev.Value = "base_moved", int64(e.To)
		case EventBaseLost:
			ev.Kind = "base_lost"
		case EventBaseBuilt:
			ev.Kind = "base_built"
		case EventDeath:
			ev.Kind, ev.Value = "death", int64(e.Other)
		case EventBlast:
			ev.Kind, ev.Value = "blast", int64(e.Other)
		case EventMultiattack:
			ev.Kind, ev.Value = "multiattack", int64(e.Other)
		default:
			continue
		}
		if ev.Player < 0 && e.Kind != EventCapture {
			continue
		}
		g.events = append(g.events, ev)
	}
}

func (g *Game) Events(dst []engine.Event) []engine.Event { return append(dst, g.events...) }

func (g *Game) Hash() uint64 {
	h := g.State.Hash()
	src := *g.spawns
	h ^= src.Uint64()
	for _, st := range g.seats {
		h = h*1099511628211 ^ uint64(st.uid)<<32 ^ uint64(st.joins)
	}
	if g.playedZero {
		h = ^h
	}
	return h
}

// user is seat p's live row, nil when it has none.
func (g *Game) user(p int) *User {
	if uid := g.seats[p].uid; uid != 0 {
		return g.State.User(uid)
	}
	return nil
}

func (g *Game) Values(p int, dst []int64) []int64 {
	u := g.user(p)
	if u == nil {
		return append(dst, 0, 0, 0, 0, 0, g.captures[p], 0)
	}
	owned := int64(0)
	if uid := u.ID; uid < len(g.State.own) {
		owned = int64(g.State.own[uid].cells)
	}
	return append(dst, int64(u.Cells), owned, int64(u.Bases), int64(math.Floor(u.Gold)), int64(math.Floor(u.Energy)), g.captures[p], 1)
}

// Badges of a board's cells.
var badges = []string{"base", "building", "taking", "blast", "gold", "energy"}

// Board gives the map: Terrain the cell type, Owner the owner's seat,
// Value the ms until a cell's attack finishes, the badges above; and one
// entity of kind "attack" per cell being taken: Player the attacker's
// seat (−1 for a blast or an attacker without a seat), Value the
// attack's whole duration in ms (finish − attack time, rounded up as the
// cell's Value is, so that the cell's Value is at most the entity's: the
// part left). It reuses b's slices: no allocation once they have grown
// to the game's size. It changes nothing of the game.
func (g *Game) Board(b *engine.Board) {
	b.Topology = engine.Square
	b.Resize(Width, Height)
	b.TerrainName, b.ValueName, b.Badges = "cell_type", "ms_to_finish", badges
	b.Entities, b.Effects = b.Entities[:0], b.Effects[:0]
	now := g.State.Now()
	for i := range g.State.Cells {
		c := &g.State.Cells[i]
		bc := engine.Cell{Terrain: int64(c.Type), Owner: g.Seat(int(c.Owner))}
		if c.Base {
			if c.BuildFinish {
				bc.Badges |= 1
			} else {
				bc.Badges |= 2
			}
		}
		if c.IsTaking {
			bc.Badges |= 4
			bc.Value = int64(math.Ceil((c.FinishTime - now) * 1000))
			if c.Blast {
				bc.Badges |= 8
			}
			b.Entities = append(b.Entities, engine.Entity{Kind: "attack", Player: g.Seat(int(c.Attacker)),
				X: i % Width, Y: i / Width, Value: int64(math.Ceil((c.FinishTime - c.AttackTime) * 1000))})
		}
		switch c.Type {
		case Gold:
			bc.Badges |= 16
		case Energy:
			bc.Badges |= 32
		}
		b.Cells[i] = bc
	}
}

// Ranking: living players by cells, then gold, then the lower uid; then
// the seats without a living player, in seat order.
func (g *Game) Ranking() []int {
	r := make([]int, len(g.seats))
	for i := range r {
		r[i] = i
	}
	slices.SortStableFunc(r, func(a, b int) int {
		ua, ub := g.user(a), g.user(b)
		switch {
		case ua == nil && ub == nil:
			return 0
		case ua == nil:
			return 1
		case ub == nil:
			return -1
		case ua.Cells != ub.Cells:
			return ub.Cells - ua.Cells
		case ua.Gold != ub.Gold:
			if ua.Gold > ub.Gold {
				return -1
			}
			return 1
		}
		return ua.ID - ub.ID
	})
	return r
}

func (g *Game) Setting() [][2]string {
	game := "unlimited"
	if g.setup.LastTime != 0 {
		game = "timed, " + strconv.FormatFloat(g.setup.LastTime, 'g', -1, 64) + " s"
	}
	return [][2]string{
		{"tick", strconv.FormatFloat(g.setup.Tick, 'g', -1, 64) + " s"},
		{"t0", strconv.FormatFloat(g.setup.T0, 'f', -1, 64)},
		{"length", game},
		{"join_window", strconv.FormatFloat(g.setup.JoinTime, 'g', -1, 64) + " s"},
	}
}
