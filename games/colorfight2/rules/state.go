// Package colorfight2 is the ColorfightII ruleset (game_version 2), played
// exactly as the official reference server plays it; the rules are written
// down in docs/rules.md.
//
// The package is pure: no I/O, no clock, no goroutines, no floating point and
// no map iteration. A round is a deterministic function of the state and the
// commands, so a recorded command log re-simulates bit-exactly on any
// platform.
//
// Typical use:
//
//	s, err := colorfight2.New(cfg, m, players)
//	s.Step(nil) // round 0 -> 1 takes no commands
//	for !s.Over() {
//		s.Step(commands) // commands[uid-1] is that player's list
//	}
package rules

import (
	"errors"
	"fmt"
)

// Limits and defaults of the ruleset.
const (
	DefaultWidth     = 30
	DefaultHeight    = 30
	DefaultMaxTurn   = 500
	DefaultMaxPlayer = 8
	MinMaxTurn       = 200
	MaxMaxTurn       = 2000
	// MaxSide bounds the width and height a state accepts.
	MaxSide = 1000
	// MaxPlayers bounds the number of players a state accepts.
	MaxPlayers = 64
)

// Config is a game's configuration.
type Config struct {
	Width, Height int
	MaxTurn       int
	MaxPlayer     int
}

// DefaultConfig is the official default: 30×30, 500 turns, 8 players.
func DefaultConfig() Config {
	return Config{Width: DefaultWidth, Height: DefaultHeight, MaxTurn: DefaultMaxTurn, MaxPlayer: DefaultMaxPlayer}
}

// Validate reports whether the configuration is playable. The reference
// server accepts max_turn 200..2000 and max_player 2, 4, 8; imported games
// are not held to those (see ValidateLoose).
func (c Config) Validate() error {
	if err := c.ValidateLoose(); err != nil {
		return err
	}
	if c.MaxTurn < MinMaxTurn || c.MaxTurn > MaxMaxTurn {
		return fmt.Errorf("colorfight2: max_turn %d outside %d..%d", c.MaxTurn, MinMaxTurn, MaxMaxTurn)
	}
	if c.MaxPlayer != 2 && c.MaxPlayer != 4 && c.MaxPlayer != 8 {
		return fmt.Errorf("colorfight2: max_player %d is not 2, 4 or 8", c.MaxPlayer)
	}
	return nil
}

// ValidateLoose checks only what the engine needs to run safely: sizes in
// 1..MaxSide, max_turn in 1..1000000, max_player in 1..MaxPlayers.
func (c Config) ValidateLoose() error {
	if c.Width < 1 || c.Width > MaxSide || c.Height < 1 || c.Height > MaxSide {
		return fmt.Errorf("colorfight2: map size %dx%d outside 1..%d", c.Width, c.Height, MaxSide)
	}
	if c.MaxTurn < 1 || c.MaxTurn > 1000000 {
		return fmt.Errorf("colorfight2: max_turn %d outside 1..1000000", c.MaxTurn)
	}
	if c.MaxPlayer < 1 || c.MaxPlayer > MaxPlayers {
		return fmt.Errorf("colorfight2: max_player %d outside 1..%d", c.MaxPlayer, MaxPlayers)
	}
	return nil
}

// Player registers one player. UIDs are 1, 2, 3, … in order.
type Player struct {
	UID  int
	Name string
	Home Point
}

// cell is the hot part of a cell, read by every pass of every round; it is
// kept small so the whole board stays in the L1 cache.
type cell struct {
	owner    int32 // uid, 0 = unowned
	building Building
	level    int8 // 0 when there is no building
	// Derived from building and level by setBuilding, cached because every
	// round reads them for every cell.
	ally, enemy, self int16 // force-field ally_incr, enemy_decr, self_incr
	ff                int32
	gold, energy      int32 // yield per round
}

// land is the cold part of a cell.
type land struct {
	ng, ne, nc int32
}

// pending holds the attacks on one cell during a round.
type pending struct {
	n      int32
	maxUID int32
	max    int64 // first largest energy, -1 when none
	total  int64
}

// MaxNatural bounds the natural gold, energy and cost a map may hold, so
// every derived quantity fits comfortably in 32 bits.
const MaxNatural = 1000000

// setBuilding places building b at level (0 for none) on cell i and
// refreshes the cached values that depend on them.
func (s *State) setBuilding(i int, b Building, level int8) {
	s.place(i, b, level)
	s.touch(i)
}

// place is setBuilding without touch: for a caller that has marked every
// cell dirty (prepare).
func (s *State) place(i int, b Building, level int8) {
	c, l := &s.cells[i], &s.land[i]
	c.building, c.level = b, level
	L := int32(level)
	c.gold, c.energy = l.ng, l.ne
	c.ally, c.enemy, c.self = 2, 5, 0
	switch b {
	case Home:
		c.gold, c.energy = 10*L, 10*L
	case GoldMine:
		c.gold = l.ng * (1 + L)
	case EnergyWell:
		c.energy = l.ne * (1 + L)
	case Fortress:
		c.ally, c.enemy, c.self = 2+2*int16(level), 6+10*int16(level), 4*int16(level)
	}
}

type user struct {
	uid          int
	name         string
	energy       int64
	gold         int64
	techLevel    int64
	buildingHome bool
	dead         bool
	// aggregates of the last cell scan
	cells        int64
	goldSource   int64
	energySource int64
	buildings    [NumBuildings]int64
	// scanEnergy is the energy at the last cell scan: what its Homes store.
	scanEnergy int64
	// order[:norder] is the building order pinned by the lost-home
	// clean-up (orderPinned), or the last one computed.
	order       [NumBuildings - 1]Building
	norder      int8
	orderPinned bool
	tax         int64
	taxLevel    int64
}

// State is a game in progress. The zero value is not usable; create one
// with New or NewFromSeed. A State is not safe for concurrent use.
type State struct {
	cfg   Config
	turn  int
	cells []cell
	land  []land
	pend  []pending
	users []user
	errs  []CommandError
	// cells attacked this round, in attack order
	attacked []int32
	agg      []aggregate // scratch for scan, len(users)+1
	// force-field cache: delta[i] is cell i's per-round change; cells in
	// dirty (flagged in isDirty) need it recomputed.
	delta   []int32
	isDirty []bool
	dirty   []int32
}

// New creates the game at turn 0 on map m with the given players
// registered: each owns its Home cell holding a level-1 Home, with energy
// 1000, gold 0 and tech level 1. Players must have UIDs 1..len(players) in
// order and distinct, in-map homes. cfg's width and height must match m.
func New(cfg Config, m *Map, players []Player) (*State, error) {
	s, err := newState(cfg, m, players)
	if err != nil {
		return nil, err
	}
	for i, p := range players {
		if p.UID != i+1 {
			return nil, fmt.Errorf("colorfight2: player %d has uid %d, want %d", i, p.UID, i+1)
		}
		if !s.onMap(p.Home.X, p.Home.Y) {
			return nil, fmt.Errorf("colorfight2: player %d home (%d,%d) is off the map", p.UID, p.Home.X, p.Home.Y)
		}
		hi := s.index(p.Home.X, p.Home.Y)
		c := &s.cells[hi]
		if c.owner != 0 {
			return nil, fmt.Errorf("colorfight2: players %d and %d share home (%d,%d)", c.owner, p.UID, p.Home.X, p.Home.Y)
		}
		c.owner = int32(p.UID)
		s.setBuilding(hi, Home, 1)
		s.users[i] = user{uid: p.UID, name: p.Name, energy: 1000, techLevel: 1, buildingHome: true}
	}
	return s, nil
}

// newState allocates a game at turn 0 on map m for the players, with no
// cell owned yet.
func newState(cfg Config, m *Map, players []Player) (*State, error) {
	if err := cfg.ValidateLoose(); err != nil {
		return nil, err
	}
	if m == nil || m.Width != cfg.Width || m.Height != cfg.Height {
		return nil, errors.New("colorfight2: map size does not match config")
	}
	n := cfg.Width * cfg.Height
	if len(m.NaturalGold) != n || len(m.NaturalEnergy) != n || len(m.NaturalCost) != n {
		return nil, errors.New("colorfight2: map arrays do not match its size")
	}
	s := &State{}
	err := s.reset(cfg, players, func(i int) (int64, int64, int64) {
		return m.NaturalGold[i], m.NaturalEnergy[i], m.NaturalCost[i]
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// reset makes s a game at turn 0 for the players, with the terrain
// natural(i) gives and no cell owned, reusing s's storage.
func (s *State) reset(cfg Config, players []Player, natural func(i int) (ng, ne, nc int64)) error {
	if err := s.prepare(cfg, players); err != nil {
		return err
	}
	for i := range s.cells {
		ng, ne, nc := natural(i)
		if _, err := s.setLand(i, ng, ne, nc); err != nil {
			return err
		}
		s.cells[i] = cell{}
		s.place(i, BuildingNone, 0)
	}
	return nil
}

// prepare is reset but for the cells and their terrain, which it leaves
// for the caller to set, each with setLand then place: every cell is
// marked dirty already, and no attack is pending.
func (s *State) prepare(cfg Config, players []Player) error {
	if len(players) > cfg.MaxPlayer {
		return fmt.Errorf("colorfight2: %d players but max_player is %d", len(players), cfg.MaxPlayer)
	}
	n := cfg.Width * cfg.Height
	s.cfg, s.turn = cfg, 0
	s.cells = resize(s.cells, n)
	s.land = resize(s.land, n)
	s.pend = resize(s.pend, n)
	s.users = resize(s.users, len(players))
	s.agg = resize(s.agg, len(players)+1)
	s.delta = resize(s.delta, n)
	// Every cell is dirty, as if each were touched (the order of the
	// list does not matter: forceFields recomputes each listed cell's
	// delta from the cells alone).
	s.isDirty = resize(s.isDirty, n)
	if cap(s.dirty) < n {
		s.dirty = make([]int32, n)
	}
	s.dirty = s.dirty[:n]
	for i := range n {
		s.isDirty[i], s.dirty[i] = true, int32(i)
		s.pend[i] = pending{max: -1}
	}
	if s.errs == nil {
		s.errs = make([]CommandError, 0, 64)
	}
	s.errs = s.errs[:0]
	if cap(s.attacked) < n {
		s.attacked = make([]int32, 0, n)
	}
	s.attacked = s.attacked[:0]
	for i, p := range players {
		s.users[i] = user{uid: p.UID, name: p.Name}
	}
	return nil
}

// setLand gives cell i its natural gold, energy and cost, each of which
// must be in 0..MaxNatural; changed says whether the cell had another
// terrain (then its building must be placed again).
func (s *State) setLand(i int, ng, ne, nc int64) (changed bool, err error) {
	if ng < 0 || ng > MaxNatural || ne < 0 || ne > MaxNatural || nc < 0 || nc > MaxNatural {
		return false, fmt.Errorf("colorfight2: cell (%d,%d): natural gold/energy/cost %d/%d/%d outside 0..%d",
			i%s.cfg.Width, i/s.cfg.Width, ng, ne, nc, MaxNatural)
	}
	l := land{ng: int32(ng), ne: int32(ne), nc: int32(nc)}
	if s.land[i] == l {
		return false, nil
	}
	s.land[i] = l
	return true, nil
}

// resize returns s with length n, reusing its storage when it can.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// NewFromSeed generates a map and spawn points from seed with GenerateMap
// and registers one player per name, in order, on the spawn points. Like
// New it accepts any max_turn of ValidateLoose (short games are useful for
// tests and experiments); max_player must be 2, 4 or 8.
func NewFromSeed(cfg Config, seed uint64, names []string) (*State, error) {
	if err := cfg.ValidateLoose(); err != nil {
		return nil, err
	}
	m, spawns, err := GenerateMap(cfg.Width, cfg.Height, cfg.MaxPlayer, seed)
	if err != nil {
		return nil, err
	}
	if len(names) > len(spawns) {
		return nil, fmt.Errorf("colorfight2: %d players but only %d spawn points", len(names), len(spawns))
	}
	players := make([]Player, len(names))
	for i, name := range names {
		players[i] = Player{UID: i + 1, Name: name, Home: spawns[i]}
	}
	return New(cfg, m, players)
}

// Clone returns an independent copy of s.
func (s *State) Clone() *State {
	c := &State{}
	c.CopyFrom(s)
	return c
}

// CopyFrom makes s an exact copy of src, reusing s's storage.
func (s *State) CopyFrom(src *State) {
	s.cfg = src.cfg
	s.turn = src.turn
	s.cells = append(s.cells[:0], src.cells...)
	s.land = append(s.land[:0], src.land...)
	s.pend = append(s.pend[:0], src.pend...)
	s.users = append(s.users[:0], src.users...)
	s.errs = append(s.errs[:0], src.errs...)
	if cap(s.attacked) < len(src.cells) {
		s.attacked = make([]int32, 0, len(src.cells))
	}
	s.attacked = append(s.attacked[:0], src.attacked...)
	s.agg = append(s.agg[:0], src.agg...)
	s.delta = append(s.delta[:0], src.delta...)
	s.isDirty = append(s.isDirty[:0], src.isDirty...)
	if cap(s.dirty) < len(src.cells) {
		s.dirty = make([]int32, 0, len(src.cells))
	}
	s.dirty = append(s.dirty[:0], src.dirty...)
}

// Config returns the game's configuration.
func (s *State) Config() Config { return s.cfg }

// Turn returns the current turn (0 before the first round).
func (s *State) Turn() int { return s.turn }

// Over reports whether the game has reached max_turn.
func (s *State) Over() bool { return s.turn >= s.cfg.MaxTurn }

// NumPlayers returns the number of registered players.
func (s *State) NumPlayers() int { return len(s.users) }

// Errors returns the commands that failed in the last round, in the order
// they were applied. The slice is reused by the next Step.
func (s *State) Errors() []CommandError { return s.errs }

func (s *State) onMap(x, y int) bool {
	return x >= 0 && x < s.cfg.Width && y >= 0 && y < s.cfg.Height
}

func (s *State) index(x, y int) int { return y*s.cfg.Width + x }

// PlayerGold returns the gold of player uid (1-based).
func (s *State) PlayerGold(uid int) int64 { return s.users[uid-1].gold }

// Ranking returns the uids ordered by gold, descending; ties keep ascending
// uid order.
func (s *State) Ranking() []int {
	return s.appendRanking(make([]int, 0, len(s.users)), 0)
}

// appendRanking appends Ranking to dst, each uid plus add (-1: the
// players as the seam numbers them), and returns it.
func (s *State) appendRanking(dst []int, add int) []int {
	k := len(dst)
	for i := range s.users {
		dst = append(dst, i)
	}
	r := dst[k:]
	// insertion sort: stable and fine for <= 64 players
	for i := 1; i < len(r); i++ {
		for j := i; j > 0 && s.users[r[j]].gold > s.users[r[j-1]].gold; j-- {
			r[j], r[j-1] = r[j-1], r[j]
		}
	}
	for i := range r {
		r[i] += 1 + add
	}
	return dst
}
