package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/rewind-game/rewind/engine"
)

// Ruleset is Skyport Rev 1 through the game-agnostic seam (package
// engine).
var Ruleset engine.Ruleset = ruleset{}

// RulesetID and RulesetVersion identify Skyport in a .rwd header.
const (
	RulesetID      = "skyport"
	RulesetVersion = 1
)

type ruleset struct{}

// The per-player values Game.Values reports, in this order.
var metrics = []engine.Metric{
	{Name: "score", Unit: "points", Kind: engine.Gauge},
	{Name: "health", Unit: "hp", Kind: engine.Gauge},
	{Name: "damage_dealt", Unit: "hp", Kind: engine.Counter},
	{Name: "damage_taken", Unit: "hp", Kind: engine.Counter},
	{Name: "kills", Unit: "kills", Kind: engine.Counter},
	{Name: "deaths", Unit: "deaths", Kind: engine.Counter},
	{Name: "rubidium_mined", Unit: "units", Kind: engine.Counter},
	{Name: "explosium_mined", Unit: "units", Kind: engine.Counter},
	{Name: "scrap_mined", Unit: "units", Kind: engine.Counter},
	{Name: "rubidium", Unit: "units", Kind: engine.Gauge},
	{Name: "explosium", Unit: "units", Kind: engine.Gauge},
	{Name: "scrap", Unit: "units", Kind: engine.Gauge},
	{Name: "laser_level", Unit: "level", Kind: engine.Gauge},
	{Name: "mortar_level", Unit: "level", Kind: engine.Gauge},
	{Name: "droid_level", Unit: "level", Kind: engine.Gauge},
	{Name: "moves", Unit: "actions", Kind: engine.Counter},
	{Name: "mines", Unit: "actions", Kind: engine.Counter},
	{Name: "upgrades", Unit: "actions", Kind: engine.Counter},
	{Name: "shots", Unit: "actions", Kind: engine.Counter},
	{Name: "penalties", Unit: "penalties", Kind: engine.Counter},
	{Name: "bonus_damage", Unit: "hp", Kind: engine.Counter},
}

var eventKinds = []engine.EventKind{
	{Name: "laser", Text: "{player} fires a level {value} laser to {x}, {y}"},
	{Name: "mortar", Text: "{player} fires a level {value} mortar at {x}, {y}"},
	{Name: "droid", Text: "{player}'s level {value} droid explodes at {x}, {y}"},
	{Name: "hit", Text: "{player} hits {other} for {value} at {x}, {y}"},
	{Name: "kill", Text: "{player} kills {other} at {x}, {y}"},
	{Name: "respawn", Text: "{player} respawns at {x}, {y}"},
	{Name: "mined", Text: "{player} mines at {x}, {y}"},
	{Name: "upgraded", Text: "{player} upgrades a weapon to level {value}"},
	{Name: "penalty", Text: "{player} loses {value} points"},
}

var badges = []string{"spawn"}

func (ruleset) ID() string                     { return RulesetID }
func (ruleset) Version() int                   { return RulesetVersion }
func (ruleset) Metrics() []engine.Metric       { return metrics }
func (ruleset) EventKinds() []engine.EventKind { return eventKinds }
func (ruleset) ScoreMetric() int               { return 0 }
func (r ruleset) String() string               { return RulesetID }

// New starts a game on a map drawn by GenerateMap(seed, players), the
// spawns and ring drawn by Draw(map, players, seed). Settings.Players
// defaults to 2; Settings.MaxTurns counts Rounds, the players' loadout
// rounds included, so a game has MaxTurns − players player-turns (0
// means DefaultMaxTurns Rounds); names default to player0, player1, …
// (also for a given name the reference's handshake would refuse:
// ValidName).
func (ruleset) New(seed uint64, s engine.Settings) (engine.Game, error) {
	n := s.Players
	if n == 0 {
		n = 2
	}
	if n < 1 || n > MaxPlayers {
		return nil, fmt.Errorf("skyport: %d players (1..%d)", n, MaxPlayers)
	}
	m := GenerateMap(seed, n)
	m.Name = "generated-" + strconv.FormatUint(seed, 10)
	spawns, ring, err := Draw(m, n, seed^0x5eed5eed5eed5eed)
	if err != nil {
		return nil, err
	}
	pt, err := playerTurns(s.MaxTurns, n)
	if err != nil {
		return nil, err
	}
	st, err := New(Setup{Map: m, Names: names(s.Names, n), Spawns: spawns, Ring: ring, MaxTurns: pt})
	if err != nil {
		return nil, err
	}
	return &Game{State: st}, nil
}

// playerTurns converts a seam turn limit (Rounds, loadout rounds
// included; 0 is DefaultMaxTurns) into player-turns.
func playerTurns(rounds, players int) (int, error) {
	if rounds == 0 {
		rounds = DefaultMaxTurns
	}
	if rounds <= players {
		return 0, fmt.Errorf("skyport: a limit of %d rounds leaves no player-turn after %d loadout rounds", rounds, players)
	}
	return rounds - players, nil
}

func names(given []string, n int) []string {
	out := make([]string, n)
	for i := range out {
		if i < len(given) && ValidName(given[i]) {
			out[i] = given[i]
		} else {
			out[i] = "player" + strconv.Itoa(i)
		}
	}
	return out
}

// SetupFile is the JSON a Game's Setup returns and NewFromSetup reads:
// the map file's text, the players' names (connection order), each one's
// spawn "j, k", the ring (player numbers, first element first) and the
// player-turn limit (loadout rounds not counted; 0 the default).
type SetupFile struct {
	Map      string   `json:"map"`
	MapName  string   `json:"map_name,omitempty"`
	Names    []string `json:"names"`
	Spawns   []string `json:"spawns"`
	Ring     []int    `json:"ring"`
	MaxTurns int      `json:"max_turns"`
}

// MarshalSetup encodes s as a SetupFile.
func MarshalSetup(s Setup) ([]byte, error) {
	if s.Map == nil {
		return nil, errors.New("skyport: setup without a map")
	}
	f := SetupFile{Map: string(s.Map.AppendFile(nil)), MapName: s.Map.Name, Names: s.Names, Ring: s.Ring, MaxTurns: s.MaxTurns}
	for _, sp := range s.Spawns {
		f.Spawns = append(f.Spawns, fmt.Sprintf("%d, %d", sp/s.Map.Size, sp%s.Map.Size))
	}
	return json.Marshal(f)
}

// UnmarshalSetup decodes a SetupFile (the map parsed with ParseMap).
func UnmarshalSetup(b []byte) (Setup, error) {
	var f SetupFile
	if err := json.Unmarshal(b, &f); err != nil {
		return Setup{}, fmt.Errorf("skyport: setup: %w", err)
	}
	m, err := ParseMap([]byte(f.Map))
	if err != nil {
		return Setup{}, fmt.Errorf("skyport: setup: %w", err)
	}
	m.Name = f.MapName
	s := Setup{Map: m, Names: f.Names, Ring: f.Ring, MaxTurns: f.MaxTurns}
	for i, p := range f.Spawns {
		a, b, ok := strings.Cut(p, ", ")
		j, err1 := strconv.Atoi(a)
		k, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || j < 0 || k < 0 || j >= m.Size || k >= m.Size {
			return Setup{}, fmt.Errorf("skyport: setup: spawn %d %q is not \"j, k\" on the map", i, p)
		}
		s.Spawns = append(s.Spawns, j*m.Size+k)
	}
	return s, nil
}

// NewFromSetup starts a game from a SetupFile (Game.Setup's bytes). A
// non-zero Settings.MaxTurns (Rounds, loadout rounds included, as New)
// overrides the file's limit; without either the game lasts
// DefaultMaxTurns Rounds. Names in Settings override the file's (those
// the reference would refuse excepted).
func (ruleset) NewFromSetup(setup []byte, s engine.Settings) (engine.Game, error) {
	su, err := UnmarshalSetup(setup)
	if err != nil {
		return nil, err
	}
	if s.Players != 0 && s.Players != len(su.Names) {
		return nil, fmt.Errorf("skyport: setup has %d players, settings ask for %d", len(su.Names), s.Players)
	}
	if s.MaxTurns > 0 || su.MaxTurns <= 0 {
		if su.MaxTurns, err = playerTurns(s.MaxTurns, len(su.Names)); err != nil {
			return nil, err
		}
	}
	for i, n := range s.Names {
		if i < len(su.Names) && ValidName(n) {
			su.Names[i] = n
		}
	}
	st, err := New(su)
	if err != nil {
		return nil, err
	}
	return &Game{State: st, setup: setup}, nil
}

// SetupFromMap reads a .skyportmap file (ParseMap) and draws the spawns
// and ring for players players from seed (Draw); players 0 seats as many
// as the map has spawn tiles, as the reference's player count 0 does. It
// returns the SetupFile NewFromSetup starts from (names player0, …; the
// Settings' names replace them): engine.Registration.SetupFromMap.
func SetupFromMap(file []byte, seed uint64, players int) ([]byte, error) {
	m, err := ParseMap(file)
	if err != nil {
		return nil, err
	}
	if players == 0 {
		players = min(len(m.Spawns()), MaxPlayers)
	}
	spawns, ring, err := Draw(m, players, seed)
	if err != nil {
		return nil, err
	}
	return MarshalSetup(Setup{Map: m, Names: names(nil, players), Spawns: spawns, Ring: ring})
}

// NewGame starts a seam Game from a Setup (a parsed map with chosen
// spawns and ring); its Setup returns MarshalSetup(s).
func NewGame(s Setup) (*Game, error) {
	st, err := New(s)
	if err != nil {
		return nil, err
	}
	b, err := MarshalSetup(s)
	if err != nil {
		return nil, err
	}
	return &Game{State: st, setup: b}, nil
}

// Game adapts a State to engine.Game. One Round is one player-turn, or
// during the loadout phase one player's loadout round.
//
// The loadout phase: the reference sends the turn-0 gamestate and waits
// for every player's loadout (RULES §3). Through the seam it is the
// first Players() Rounds, one per player in connection order: Active
// names the player, AppendObservation shows the turn-0 gamestate, and
// the player's lines are loadout attempts until one is valid. A player
// whose round ends without a valid loadout gets laser and mortar (the
// reference would wait forever). Then every Round is one player-turn:
// Round reads only cmds[Active()], each string one line the bot sent
// during its think time. Turn and MaxTurns count Rounds, loadout
// rounds included; State.Turn is the reference's turn number.
//
// Faults: a timeout or a garbled reply of the active player means its
// lines of the next Round are not read, as the reference drops lines
// that miss the think time (the turn then costs the no-action penalty);
// a crash closes the player's connection for good (RULES §11: it stays
// in the game, its turns have no lines). A timeout or garbled reply of a
// player who is not active changes nothing. The player's next Round
// reports the fault once (CodeFault, Index -1).
type Game struct {
	State  *State
	setup  []byte
	rounds int
	errs   []engine.CommandError
	fault  [MaxPlayers]string // reported in the player's next Round
}

var (
	_ engine.Game     = (*Game)(nil)
	_ engine.Observer = (*Game)(nil)
)

// Players returns the number of players.
func (g *Game) Players() int { return g.State.Players() }

// Turn returns the number of Rounds played, loadout rounds included.
func (g *Game) Turn() int { return g.rounds }

// MaxTurns returns the number of Rounds the game lasts: one loadout
// round per player plus the player-turn limit.
func (g *Game) MaxTurns() int { return g.State.Players() + g.State.MaxTurns() }

// Over reports whether the player-turn limit is reached.
func (g *Game) Over() bool { return g.State.Over() }

// Active returns the player of the next Round, -1 once the game is over.
func (g *Game) Active() int { return g.State.Actor() }

// Fault applies a fault of player p (see Game).
func (g *Game) Fault(p int, f engine.Fault, text string) {
	if p < 0 || p >= g.Players() {
		return
	}
	switch f {
	case engine.FaultCrash:
		g.State.Disconnect(p)
	default:
		if p != g.Active() {
			return
		}
		g.State.TimeOut(p)
	}
	g.fault[p] = f.String()
	if text != "" {
		g.fault[p] += ": " + text
	}
}

// Error codes of CommandError.
const (
	// CodeNotQueued: the line was not an action message (a parse or
	// protocol error).
	CodeNotQueued = 1
	// CodeRejected: the action was performed and found invalid.
	CodeRejected = 2
	// CodeCrash: mortar coordinates the reference crashes on.
	CodeCrash = 3
	// CodeFault: a fault (Game.Fault) applied to this Round (Index -1).
	CodeFault = 4
)

// Round plays the next loadout round or player-turn with the active
// player's lines and returns the lines that drew an error or were
// rejected (Index: the position in cmds[Active()]), and, with Index -1,
// a fault reported for the player since its last Round.
func (g *Game) Round(cmds [][]string) []engine.CommandError {
	g.errs = g.errs[:0]
	p := g.Active()
	if p < 0 {
		return g.errs
	}
	var lines []string
	if p < len(cmds) {
		lines = cmds[p]
	}
	if g.fault[p] != "" {
		g.errs = append(g.errs, engine.CommandError{Player: p, Index: -1, Code: CodeFault, Text: g.fault[p]})
		g.fault[p] = ""
	}
	if g.State.InLoadout() {
		g.State.Loadout(lines)
	} else {
		g.State.PlayTurn(lines)
	}
	g.rounds++
	l := g.State.Log()
	for i := range l.Lines {
		f := &l.Lines[i]
		code := 0
		switch {
		case f.Crash:
			code = CodeCrash
		case f.Status == NotQueued:
			code = CodeNotQueued
		case f.Status == Rejected:
			code = CodeRejected
		}
		if code == 0 {
			continue
		}
		text := "rejected"
		if f.nerr > 0 {
			text = string(l.text[f.errs[0].s:f.errs[0].e])
		}
		g.errs = append(g.errs, engine.CommandError{Player: p, Index: f.Cmd, Code: code, Text: text})
	}
	g.State.Begin()
	return g.errs
}

// Hash returns State.Hash.
func (g *Game) Hash() uint64 { return g.State.Hash() }

// Values appends player p's values in Metrics order.
func (g *Game) Values(p int, dst []int64) []int64 {
	if p < 0 || p >= g.Players() {
		for range metrics {
			dst = append(dst, 0)
		}
		return dst
	}
	pl := g.State.PlayerRef(p)
	s := &pl.Stats
	return append(dst, int64(pl.Score), int64(pl.Health), int64(s.DamageDealt), int64(s.DamageTaken),
		int64(s.Kills), int64(s.Deaths), int64(s.Mined[0]), int64(s.Mined[1]), int64(s.Mined[2]),
		int64(pl.Rubidium), int64(pl.Explosium), int64(pl.Scrap),
		int64(pl.Level(Laser)), int64(pl.Level(Mortar)), int64(pl.Level(Droid)),
		int64(s.Moves), int64(s.Mines), int64(s.Upgrades), int64(s.Lasers+s.Mortars+s.Droids),
		int64(s.Penalties), int64(s.Bonus))
}

// Board describes the map: X is j, Y is k; Terrain is TileIndex of the
// tile now (mined-out tiles are grass), Value the resource units left,
// Owner the player standing (or lying dead) there, badge "spawn" on
// every spawn tile; then the players and effects (extras).
func (g *Game) Board(b *engine.Board) {
	st := g.State
	D := st.Size()
	b.Entities, b.Effects = b.Entities[:0], b.Effects[:0]
	b.Topology = engine.HexAxial
	b.TerrainName, b.ValueName, b.Badges = "tile", "resources", badges
	b.Resize(D, D)
	for k := 0; k < D; k++ {
		for j := 0; j < D; j++ {
			c := engine.Cell{Terrain: int64(TileIndex(st.Tile(j, k))), Owner: st.Occupant(j, k), Value: int64(st.Units(j, k))}
			if st.Tile(j, k) == Spawn {
				c.Badges = 1
			}
			b.Cells[k*D+j] = c
		}
	}
	g.extras(b)
}

// extras adds one "player" entity per player (Health, Value the score,
// Label the weapons and levels, "dead" for a body) and the effects of
// the last player-turn: a "laser" Line to where the beam stopped, a
// "mortar" Area of radius 1 where it landed ("mortar_dud", radius 0, on
// rock, void or spawn), a "droid" Path step by step and its
// "droid_blast" Area, and a "damage" Mark per hit with the amount.
func (g *Game) extras(b *engine.Board) {
	st := g.State
	for p := 0; p < st.Players(); p++ {
		pl := st.PlayerRef(p)
		label := fmt.Sprintf("%s %d / %s %d", pl.Primary, pl.PrimaryLevel, pl.Secondary, pl.SecondaryLevel)
		if pl.Health <= 0 {
			label += " (dead)"
		}
		b.Entities = append(b.Entities, engine.Entity{Kind: "player", Player: p, X: pl.J, Y: pl.K, Health: int64(pl.Health), Value: int64(pl.Score), Label: label})
	}
	l := st.Log()
	for _, e := range l.effects {
		ef := engine.Effect{Kind: e.kind, Name: e.name, Player: l.Actor, X: e.x, Y: e.y, X2: e.x2, Y2: e.y2, Radius: e.radius, Value: e.value}
		if e.kind == engine.Path {
			ef.Points = append([]engine.Point(nil), l.pts[e.p0:e.p1]...)
		}
		b.Effects = append(b.Effects, ef)
	}
}

// Events appends the events of the last Round.
func (g *Game) Events(dst []engine.Event) []engine.Event {
	return append(dst, g.State.Log().Events...)
}

// AppendObservation appends the gamestate the reference sends every
// player at the start of the next turn (the same for all; turn 0 during
// the loadout phase).
func (g *Game) AppendObservation(dst []byte, _ int) []byte {
	return g.State.AppendGamestate(dst, false)
}

// Setting describes the map and players.
func (g *Game) Setting() [][2]string {
	st := g.State
	m := st.Map()
	var ns []string
	for p := 0; p < st.Players(); p++ {
		ns = append(ns, st.PlayerRef(p).Name)
	}
	return [][2]string{
		{"map", m.Name},
		{"size", strconv.Itoa(m.Size) + "×" + strconv.Itoa(m.Size)},
		{"players", strings.Join(ns, ", ")},
		{"player_turns", strconv.Itoa(st.MaxTurns())},
	}
}

// Setup returns the SetupFile the game started from, or nil for a game
// whose seed is enough (Ruleset.New).
func (g *Game) Setup() []byte { return g.setup }

// Ranking returns the players by score, ties by connection order.
func (g *Game) Ranking() []int { return g.State.Ranking() }
