// Package monad is the Monad (Si32) ruleset, played exactly as the
// reference engine (dartmouth-cs98/18w-si32, folder game/) plays it; the
// rules are written down in RULES-MONAD.md and summarised, with rewind's one
// deviation, in docs/monad.md.
//
// The package is pure: no I/O, no clock, no goroutines, no floating point
// and no map iteration. A turn is a deterministic function of the state and
// the commands, so a recorded command log re-simulates bit-exactly on any
// platform.
//
// Typical use:
//
//	s, err := monad.New(monad.Config{Players: 2, Seed: 42})
//	for !s.Over() {
//		s.Step(commands) // commands[p] is player p's list
//	}
//	ranking := s.Ranking()
package rules

import (
	"fmt"

	"github.com/rewind-game/rewind/engine/rng"
)

// Constants of the ruleset (params.py).
const (
	Width            = 20
	Height           = 20
	NumCells         = Width * Height
	MaxResource      = 50
	UniformResource  = 20
	InitialResources = 100
	HiveCost         = 100
	DefenseRating    = 10
	UnitCost         = 5
	DefaultMaxTurns  = 1000
	// MaxPlayers is the most players the reference supports (its start
	// positions exist for 1..4).
	MaxPlayers = 4
	// MaxMaxTurns bounds Config.MaxTurns.
	MaxMaxTurns = 100000
)

// StartPositions[n-1] are the start cells (x, y) of an n-player game.
var StartPositions = [MaxPlayers][][2]int{
	{{10, 10}},
	{{1, 1}, {18, 18}},
	{{5, 5}, {10, 14}, {15, 5}},
	{{5, 5}, {5, 15}, {15, 5}, {15, 15}},
}

// Map is a generated map: the resource of every cell, indexed y*Width+x.
type Map struct {
	Resource [NumCells]int32
	// DensityFactor is the reference's first draw, randint(2, 8), made
	// (also on a uniform map) and never used.
	DensityFactor int
	Uniform       bool
}

// GenerateMap draws the map of Python's random.seed(seed) followed by the
// reference's Map(n, uniform) (RULES-MONAD.md §3): on a non-uniform map
// randint(2, 8), then randint(0, 50) for every cell in row-major order
// (y outer, x inner), 401 draws in all; a uniform map has 20 in every cell
// (its single draw, randint(2, 8), is also made). The player count does not
// change the map.
func GenerateMap(seed int64, uniform bool) *Map {
	r := rng.NewMT19937(seed)
	m := &Map{Uniform: uniform}
	df := int(r.Randint(2, 8))
	m.DensityFactor = df
	for i := range m.Resource {
		if uniform {
			m.Resource[i] = UniformResource
		} else {
			m.Resource[i] = int32(r.Randint(0, MaxResource))
		}
	}
	return m
}

// Config is a game's configuration.
type Config struct {
	Players  int   // 1..MaxPlayers
	MaxTurns int   // turn limit, 1..MaxMaxTurns; 0 means DefaultMaxTurns
	Seed     int64 // the integer given to Python's random.seed
	Uniform  bool  // every cell starts with 20 resources
}

// Validate reports whether the configuration can be played.
func (c Config) Validate() error {
	if c.Players < 1 || c.Players > MaxPlayers {
		return fmt.Errorf("monad: %d players outside 1..%d", c.Players, MaxPlayers)
	}
	if c.MaxTurns < 0 || c.MaxTurns > MaxMaxTurns {
		return fmt.Errorf("monad: max turns %d outside 0..%d (0 is the default, %d)", c.MaxTurns, MaxMaxTurns, DefaultMaxTurns)
	}
	return nil
}

type cell struct {
	units    [MaxPlayers]int32
	resource int32
	hive     int8  // owner, or -1
	counter  int32 // production counter of the hive
}

type player struct {
	resources int64
	produced  int64
	lost      int64
	rejected  int64
	timedOut  bool
	crashed   bool
}

// State is the whole state of a game between turns. The zero value is not
// usable; create one with New or NewWithMap. A State is not safe for
// concurrent use; Clone gives an independent copy.
type State struct {
	players  int
	maxTurns int
	turn     int
	cells    [NumCells]cell
	pl       [MaxPlayers]player

	// Results of the last Step.
	errs       []CommandError
	exec       []Executed
	collisions []Collision
	fights     []Fight

	// Scratch of Step, reused.
	pool   []work
	lists  [MaxPlayers][]int32
	sorted [MaxPlayers][]int32
	keys   []int16
	g      []int32
	cnt    [NumCells]int32
	start  [NumCells]int32
	sums   [NumCells]int64
}

// New returns the state before turn 0 of a game on the map GenerateMap
// draws from cfg.Seed and cfg.Uniform.
func New(cfg Config) (*State, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return NewWithMap(cfg, GenerateMap(cfg.Seed, cfg.Uniform))
}

// NewWithMap returns the state before turn 0 on map m (cfg.Seed and
// cfg.Uniform are ignored): every player has one unit and a hive with
// production counter 0 on its start cell and 100 resources (§4).
func NewWithMap(cfg Config, m *Map) (*State, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &State{players: cfg.Players, maxTurns: cfg.MaxTurns}
	if s.maxTurns == 0 {
		s.maxTurns = DefaultMaxTurns
	}
	for i := range s.cells {
		if r := m.Resource[i]; r < 0 {
			return nil, fmt.Errorf("monad: cell %d has negative resource %d", i, r)
		}
		s.cells[i].resource = m.Resource[i]
		s.cells[i].hive = -1
	}
	for p, pos := range StartPositions[cfg.Players-1] {
		c := &s.cells[pos[1]*Width+pos[0]]
		c.units[p]++
		c.hive = int8(p)
		s.pl[p].resources = InitialResources
	}
	return s, nil
}

// Players returns the number of players.
func (s *State) Players() int { return s.players }

// Turn returns the number of turns played.
func (s *State) Turn() int { return s.turn }

// MaxTurns returns the turn limit.
func (s *State) MaxTurns() int { return s.maxTurns }

// UnitsAt returns player p's units in cell (x, y); 0 off the map.
func (s *State) UnitsAt(x, y, p int) int {
	if !OnMap(x, y) || p < 0 || p >= s.players {
		return 0
	}
	return int(s.cells[y*Width+x].units[p])
}

// Occupant returns the player holding units in (x, y) and their count, or
// (-1, 0) when the cell is empty or off the map. Between turns at most one
// player holds units in a cell.
func (s *State) Occupant(x, y int) (p, units int) {
	if !OnMap(x, y) {
		return -1, 0
	}
	c := &s.cells[y*Width+x]
	for q := 0; q < s.players; q++ {
		if c.units[q] > 0 {
			return q, int(c.units[q])
		}
	}
	return -1, 0
}

// Hive returns the owner and production counter of the hive in (x, y);
// ok is false when there is none (or the position is off the map).
func (s *State) Hive(x, y int) (owner, counter int, ok bool) {
	if !OnMap(x, y) {
		return 0, 0, false
	}
	c := &s.cells[y*Width+x]
	if c.hive < 0 {
		return 0, 0, false
	}
	return int(c.hive), int(c.counter), true
}

// Resource returns the resource left in (x, y); 0 off the map.
func (s *State) Resource(x, y int) int {
	if !OnMap(x, y) {
		return 0
	}
	return int(s.cells[y*Width+x].resource)
}

// PlayerStats are the per-player facts of a state. Counters are totals
// since turn 0.
type PlayerStats struct {
	Resources     int64 // resources held
	Units         int64 // units on the map
	Hives         int   // hives owned
	Cells         int   // cells where the player has units or a hive
	UnitsProduced int64 // units its hives have produced
	// UnitsLost counts units removed in combat: in collisions (§6.2) and in
	// cell fights (§6.6; for a hive's owner, the units it ends below what
	// it had before the +10 bonus).
	UnitsLost int64
	// Rejected counts the commands that drew an error code (Step's Errors).
	Rejected int64
	TimedOut bool
	Crashed  bool
}

// Stats returns player p's facts; it panics if p is not a player.
func (s *State) Stats(p int) PlayerStats {
	if p < 0 || p >= s.players {
		panic("monad: Stats: no such player")
	}
	pl := &s.pl[p]
	st := PlayerStats{
		Resources: pl.resources, UnitsProduced: pl.produced, UnitsLost: pl.lost,
		Rejected: pl.rejected, TimedOut: pl.timedOut, Crashed: pl.crashed,
	}
	for i := range s.cells {
		c := &s.cells[i]
		u := c.units[p]
		st.Units += int64(u)
		own := int(c.hive) == p
		if own {
			st.Hives++
		}
		if u > 0 || own {
			st.Cells++
		}
	}
	return st
}

// SetTimedOut marks player p as timed out, from the current turn on: Step
// ignores its commands (it is not asked any more, its units and hives play
// on), and the game is over when every player is timed out or crashed.
// This is part of the state: a recording must keep when it happened.
func (s *State) SetTimedOut(p int) {
	if p >= 0 && p < s.players {
		s.pl[p].timedOut = true
	}
}

// SetCrashed marks player p as crashed: like SetTimedOut, and the player
// ranks last (§7).
func (s *State) SetCrashed(p int) {
	if p >= 0 && p < s.players {
		s.pl[p].crashed = true
	}
}

// Over reports whether the game has ended (§7): at most one player owns a
// hive, MaxTurns turns have been played, or every player has timed out or
// crashed. A 1-player game is over before turn 0.
func (s *State) Over() bool {
	if s.turn >= s.maxTurns {
		return true
	}
	owners := 0
	var seen [MaxPlayers]bool
	for i := range s.cells {
		if h := s.cells[i].hive; h >= 0 && !seen[h] {
			seen[h] = true
			owners++
		}
	}
	if owners <= 1 {
		return true
	}
	for p := 0; p < s.players; p++ {
		if !s.pl[p].timedOut && !s.pl[p].crashed {
			return false
		}
	}
	return true
}

// Rank is one line of the final ranking.
type Rank struct {
	Player int
	Rank   int // 1, 2, ...; crashed players share the last rank
}

// Ranking returns the players in rank order (§7): RankStats of every
// player's Stats.
func (s *State) Ranking() []Rank {
	return RankStats(s.AllStats(nil))
}

// AllStats appends every player's Stats to dst, in player order, reading
// the map once (Stats reads it once per player).
func (s *State) AllStats(dst []PlayerStats) []PlayerStats {
	var units [MaxPlayers]int64
	var hives, cells [MaxPlayers]int
	s.census(&units, &hives, &cells)
	for p := 0; p < s.players; p++ {
		pl := &s.pl[p]
		dst = append(dst, PlayerStats{
			Resources: pl.resources, Units: units[p], Hives: hives[p], Cells: cells[p],
			UnitsProduced: pl.produced, UnitsLost: pl.lost,
			Rejected: pl.rejected, TimedOut: pl.timedOut, Crashed: pl.crashed,
		})
	}
	return dst
}

// census counts every player's units, hives and cells (PlayerStats.Units,
// Hives and Cells) in one pass over the map.
func (s *State) census(units *[MaxPlayers]int64, hives, cells *[MaxPlayers]int) {
	np := s.players
	for i := range s.cells {
		c := &s.cells[i]
		h := int(c.hive)
		if h >= 0 {
			hives[h]++
		}
		for p := 0; p < np; p++ {
			u := c.units[p]
			units[p] += int64(u)
			if u > 0 || h == p {
				cells[p]++
			}
		}
	}
}

// RankStats ranks players from their facts (stats[p] is player p's), as
// the rules do (§7): players not crashed by hives owned (more first), then
// units on the map (more first), then id; ranks 1, 2, ... without ties.
// Crashed players follow, in id order, all with rank (number not crashed)
// + 1. It is the one statement of the ranking: State.Ranking and an
// analysis of a replay's frames both use it.
func RankStats(stats []PlayerStats) []Rank {
	return appendRanks(make([]Rank, 0, len(stats)), stats)
}

// appendRanks appends RankStats(stats) to dst.
func appendRanks(dst []Rank, stats []PlayerStats) []Rank {
	type key struct {
		p, hives int
		units    int64
	}
	var buf [MaxPlayers]key
	ks := buf[:0]
	for p, st := range stats {
		if !st.Crashed {
			ks = append(ks, key{p, st.Hives, st.Units})
		}
	}
	// insertion sort: few players, stable
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0; j-- {
			a, b := ks[j-1], ks[j]
			if b.hives > a.hives || (b.hives == a.hives && b.units > a.units) {
				ks[j-1], ks[j] = b, a
			} else {
				break
			}
		}
	}
	for i, k := range ks {
		dst = append(dst, Rank{Player: k.p, Rank: i + 1})
	}
	for p, st := range stats {
		if st.Crashed {
			dst = append(dst, Rank{Player: p, Rank: len(ks) + 1})
		}
	}
	return dst
}

// Clone returns an independent copy of the state (without the last turn's
// Errors, Executed, Collisions and Fights).
func (s *State) Clone() *State {
	c := &State{}
	c.CopyFrom(s)
	return c
}

// CopyFrom makes s a copy of src, reusing s's buffers.
func (s *State) CopyFrom(src *State) {
	s.players, s.maxTurns, s.turn = src.players, src.maxTurns, src.turn
	s.cells = src.cells
	s.pl = src.pl
	s.errs = s.errs[:0]
	s.exec = s.exec[:0]
	s.collisions = s.collisions[:0]
	s.fights = s.fights[:0]
}

// Hash constants: FNV-1a 64-bit offset basis and prime.
const (
	hashOffset = 14695981039346656037
	hashPrime  = 1099511628211
)

// Hash returns a stable 64-bit hash of everything that determines the
// game's future, the same on every platform.
//
// Definition. Let mix(h, v) = (h XOR uint64(v)) * 1099511628211 (mod 2^64),
// v an int64 taken as two's-complement uint64. Start from h =
// 14695981039346656037 and mix, in order: players, max turns, turn; for
// every cell in row-major order (index y*20+x): each player's units (player
// 0 first), resource, hive owner + 1 (0 = no hive), production counter (0
// without a hive); for every player: resources, units produced, timed out
// (0/1), crashed (0/1). Return h XOR (h >> 32). The statistics UnitsLost and
// Rejected are not hashed.
func (s *State) Hash() uint64 {
	h := uint64(hashOffset)
	mix := func(v int64) { h = (h ^ uint64(v)) * hashPrime }
	mix(int64(s.players))
	mix(int64(s.maxTurns))
	mix(int64(s.turn))
	for i := range s.cells {
		c := &s.cells[i]
		for p := 0; p < s.players; p++ {
			mix(int64(c.units[p]))
		}
		mix(int64(c.resource))
		mix(int64(c.hive) + 1)
		if c.hive >= 0 {
			mix(int64(c.counter))
		} else {
			mix(0)
		}
	}
	for p := 0; p < s.players; p++ {
		pl := &s.pl[p]
		mix(pl.resources)
		mix(pl.produced)
		mix(b2i(pl.timedOut))
		mix(b2i(pl.crashed))
	}
	return h ^ (h >> 32)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
