package rules

import (
	"errors"
	"fmt"

	"github.com/rewind-game/rewind/engine/rng"
)

// Weapon is one of the three weapons.
type Weapon uint8

// Weapons. NoWeapon is a player's slot before its loadout.
const (
	NoWeapon Weapon = iota
	Laser
	Mortar
	Droid
)

var weaponNames = [...]string{"", "laser", "mortar", "droid"}

// String returns the protocol's name ("laser"), "" for NoWeapon.
func (w Weapon) String() string {
	if int(w) < len(weaponNames) {
		return weaponNames[w]
	}
	return "weapon?"
}

// Defaults.
const (
	// DefaultMaxTurns is the player-turn limit of a game rewind starts
	// (the reference stops on the wall clock instead).
	DefaultMaxTurns = 300
	startHealth     = 100
	penalty         = 10
)

// Player is one player's state. Players are numbered in connection
// order.
type Player struct {
	Name          string
	Health, Score int
	// J, K is the position; SpawnJ, SpawnK the own spawn tile.
	J, K, SpawnJ, SpawnK int
	Arms
	// Rubidium, Explosium, Scrap are the resources held.
	Rubidium, Explosium, Scrap int
	// HasToPass and NeedsRespawn are set by a death (RULES §8).
	HasToPass, NeedsRespawn bool
	// Connected is false once the connection closed (RULES §11).
	Connected bool
	// Loaded is true once the loadout is chosen.
	Loaded bool
	// Deaf is true once a line killed the player's reader thread in the
	// reference (a bad \u escape, very deep nesting): it stays connected
	// but nothing it sends is read any more.
	Deaf bool

	Stats Stats
}

// Stats are running totals of a player's game.
type Stats struct {
	DamageDealt, DamageTaken, Kills, Deaths int
	Mined                                   [3]int // rubidium, explosium, scrap
	Moves, Mines, Upgrades                  int
	Lasers, Mortars, Droids                 int
	Penalties                               int // -10 penalties paid
	Bonus                                   int // damage points from the action-slot bonus
}

// Arms are the two weapons a player carries and their levels.
type Arms struct {
	Primary, Secondary           Weapon
	PrimaryLevel, SecondaryLevel int
}

// Level returns the level of weapon w in a, 0 if w is not carried.
func (a *Arms) Level(w Weapon) int {
	switch {
	case a.Primary == w:
		return a.PrimaryLevel
	case a.Secondary == w:
		return a.SecondaryLevel
	}
	return 0
}

// Setup is everything a game starts from besides the lines: the map,
// the players' names (connection order), each one's spawn tile (index
// j*Size+k) and the turn ring (player numbers, first element first).
type Setup struct {
	Map      *Map
	Names    []string
	Spawns   []int
	Ring     []int
	MaxTurns int
}

// Draw picks spawns and ring for n players on m from seed, the way the
// reference draws them with its two Collections.shuffle calls
// (World.java:84-98, PlayerSelector.java:27) but with rewind's rng
// (engine/rng) shuffles: the spawn tiles in row-major order are
// shuffled and player p takes the p-th; then the players 0..n-1 are
// shuffled into the ring.
func Draw(m *Map, n int, seed uint64) (spawns, ring []int, err error) {
	sp := m.Spawns()
	if n < 1 || n > len(sp) || n > MaxPlayers {
		return nil, nil, fmt.Errorf("skyport: %d players on a map with %d spawn tiles (at most %d players)", n, len(sp), MaxPlayers)
	}
	r := rng.New(seed)
	r.Shuffle(len(sp), func(i, j int) { sp[i], sp[j] = sp[j], sp[i] })
	ring = make([]int, n)
	for i := range ring {
		ring[i] = i
	}
	r.Shuffle(n, func(i, j int) { ring[i], ring[j] = ring[j], ring[i] })
	return sp[:n], ring, nil
}

// State is a Skyport game: the map as it is now, the players, the ring
// and the log of the last player-turn. It is not safe for concurrent
// use.
type State struct {
	m     *Map
	d     int
	tiles []byte
	units []uint8
	occ   []int8 // player on each tile, -1

	players  []Player
	sameName []bool // [a*n+b]: names equal (no points between them)
	ring     []int8
	cur      int // ring index of the cursor

	// turn is the number of the turn about to be played (0 during the
	// loadout phase); played is how many were played.
	turn, played, maxTurns int
	loadout                int // next player to choose a loadout; n when done
	timedOut               []bool
	respawned              int  // respawned by the last advance, or -1
	pending                bool // the ring advances before the next turn
	errLine                int  // the line errors are recorded for

	jp  jparser
	log TurnLog
}

// New starts a game from s: players on their spawns, the ring's cursor
// on its last element, then advanced once (turn 0, RULES §2). The game
// begins with the loadout phase.
func New(s Setup) (*State, error) {
	m := s.Map
	if m == nil {
		return nil, errors.New("skyport: no map")
	}
	n := len(s.Names)
	if n < 1 || n > MaxPlayers {
		return nil, fmt.Errorf("skyport: %d players (1..%d)", n, MaxPlayers)
	}
	if len(s.Spawns) != n || len(s.Ring) != n {
		return nil, fmt.Errorf("skyport: %d players but %d spawns and a ring of %d", n, len(s.Spawns), len(s.Ring))
	}
	st := &State{m: m, d: m.Size, maxTurns: s.MaxTurns}
	if st.maxTurns <= 0 {
		st.maxTurns = DefaultMaxTurns
	}
	D := m.Size
	st.tiles = append([]byte(nil), m.Tiles...)
	st.units = make([]uint8, D*D)
	st.occ = make([]int8, D*D)
	for i, c := range st.tiles {
		st.occ[i] = -1
		if c == Rubidium || c == Explosium || c == Scrap {
			st.units[i] = resourceUnits
		}
	}
	st.players = make([]Player, n)
	seen := make([]bool, n)
	for p, name := range s.Names {
		sp := s.Spawns[p]
		if sp < 0 || sp >= D*D || st.tiles[sp] != Spawn {
			return nil, fmt.Errorf("skyport: spawn of player %d (tile %d) is not a spawn tile", p, sp)
		}
		if st.occ[sp] >= 0 {
			return nil, fmt.Errorf("skyport: players %d and %d share spawn tile %d, %d", st.occ[sp], p, sp/D, sp%D)
		}
		r := s.Ring[p]
		if r < 0 || r >= n || seen[r] {
			return nil, fmt.Errorf("skyport: ring %v is not a permutation of 0..%d", s.Ring, n-1)
		}
		seen[r] = true
		st.players[p] = Player{Name: name, Health: startHealth, J: sp / D, K: sp % D, SpawnJ: sp / D, SpawnK: sp % D,
			Arms: Arms{PrimaryLevel: 1, SecondaryLevel: 1}, Connected: true}
		st.occ[sp] = int8(p)
	}
	st.sameName = make([]bool, n*n)
	for a := range n {
		for b := range n {
			st.sameName[a*n+b] = s.Names[a] == s.Names[b]
		}
	}
	st.ring = make([]int8, n)
	for i, r := range s.Ring {
		st.ring[i] = int8(r)
	}
	st.cur = n - 1
	st.timedOut = make([]bool, n)
	st.respawned = -1
	st.advance() // turn 0
	st.log.init(n)
	return st, nil
}

// Map returns the map the game started from.
func (s *State) Map() *Map { return s.m }

// Players returns the number of players.
func (s *State) Players() int { return len(s.players) }

// Player returns player p (a copy).
func (s *State) Player(p int) Player { return s.players[p] }

// PlayerRef returns a pointer to player p, for read-only use.
func (s *State) PlayerRef(p int) *Player { return &s.players[p] }

// Tile returns the code of (j, k) now (mined-out tiles are G), 0 off the
// map.
func (s *State) Tile(j, k int) byte {
	if j < 0 || k < 0 || j >= s.d || k >= s.d {
		return 0
	}
	return s.tiles[j*s.d+k]
}

// Units returns the resource units left on (j, k).
func (s *State) Units(j, k int) int {
	if j < 0 || k < 0 || j >= s.d || k >= s.d {
		return 0
	}
	return int(s.units[j*s.d+k])
}

// Occupant returns the player standing (or lying dead) on (j, k), or -1.
func (s *State) Occupant(j, k int) int {
	if j < 0 || k < 0 || j >= s.d || k >= s.d {
		return -1
	}
	return int(s.occ[j*s.d+k])
}

// Size returns D.
func (s *State) Size() int { return s.d }

// Turn returns the number of the turn about to be played: 0 during the
// loadout phase, then 1, 2, … (the gamestate's "turn").
func (s *State) Turn() int { return s.turn }

// Played returns the number of player-turns played.
func (s *State) Played() int { return s.played }

// MaxTurns returns the player-turn limit.
func (s *State) MaxTurns() int { return s.maxTurns }

// InLoadout reports whether the game is still in its loadout phase.
func (s *State) InLoadout() bool { return s.loadout < len(s.players) }

// Over reports whether MaxTurns player-turns have been played.
func (s *State) Over() bool { return s.played >= s.maxTurns }

// Actor returns who acts next: during the loadout phase the player whose
// loadout is due (connection order), then the ring's player under the
// cursor; -1 once the game is over.
func (s *State) Actor() int {
	if s.Over() {
		return -1
	}
	if s.InLoadout() {
		return s.loadout
	}
	if s.pending {
		return s.peek()
	}
	return int(s.ring[s.cur])
}

// Ring returns the players in turn order from the cursor on (the
// gamestate's players order), appended to dst.
func (s *State) Ring(dst []int) []int {
	n := len(s.ring)
	for i := range n {
		dst = append(dst, int(s.ring[(s.cur+i)%n]))
	}
	return dst
}

// advance moves the ring's cursor (PlayerSelector.java:41-71): passing a
// player with has_to_pass (clearing it), respawning one that needs it.
// It returns the respawned player or -1.
func (s *State) advance() int {
	n := len(s.ring)
	for {
		s.cur = (s.cur + 1) % n
		p := int(s.ring[s.cur])
		pl := &s.players[p]
		if pl.HasToPass {
			pl.HasToPass = false
			continue
		}
		if pl.NeedsRespawn {
			s.occ[pl.J*s.d+pl.K] = -1
			pl.J, pl.K = pl.SpawnJ, pl.SpawnK
			s.occ[pl.J*s.d+pl.K] = int8(p)
			pl.Health = startHealth
			pl.NeedsRespawn = false
			return p
		}
		return -1
	}
}

// Begin starts the next player-turn if it has not begun: the turn
// number rises and the ring advances (a due respawn included, RULES §2).
// The gamestate of that turn (AppendGamestate) is built after it.
// PlayTurn calls it itself; it does nothing during the loadout phase or
// once the game is over.
func (s *State) Begin() {
	if !s.Over() {
		s.Advance()
	}
}

// Advance is Begin without the end-of-game check: after the last turn
// it moves the ring once more, as the reference would before its next
// gamestate (the vectors' "next" is built after it).
func (s *State) Advance() {
	if s.pending {
		s.pending = false
		s.turn++
		s.respawned = s.advance()
	}
}

// peek returns who the ring's next advance would stop on, without
// changing anything.
func (s *State) peek() int {
	n := len(s.ring)
	var passed uint32
	c := s.cur
	for {
		c = (c + 1) % n
		p := int(s.ring[c])
		if s.players[p].HasToPass && passed&(1<<uint(p)) == 0 {
			passed |= 1 << uint(p)
			continue
		}
		return p
	}
}

// Disconnect closes player p's connection for good (RULES §11): from
// now on its turns have no lines.
func (s *State) Disconnect(p int) {
	if p >= 0 && p < len(s.players) {
		s.players[p].Connected = false
	}
}

// Winner returns the reference's end text (GameThread.java:120-143): the
// first player in connection order with the highest score wins ("NAME
// wins!"), unless a player with another name has the same score
// ("Tie!").
func (s *State) Winner() string {
	best, name := -1000000000, ""
	for i := range s.players {
		if s.players[i].Score > best {
			best, name = s.players[i].Score, s.players[i].Name
		}
	}
	for i := range s.players {
		if s.players[i].Score == best && s.players[i].Name != name {
			return "Tie!"
		}
	}
	return name + " wins!"
}

// Ranking returns the players by score, best first, ties by connection
// order.
func (s *State) Ranking() []int {
	r := make([]int, len(s.players))
	for i := range r {
		r[i] = i
	}
	for i := 1; i < len(r); i++ {
		for j := i; j > 0 && s.players[r[j]].Score > s.players[r[j-1]].Score; j-- {
			r[j], r[j-1] = r[j-1], r[j]
		}
	}
	return r
}

// Resources appends [j, k, units] of every tile with units left, in
// row-major order.
func (s *State) Resources(dst [][3]int) [][3]int {
	for i, u := range s.units {
		if u > 0 {
			dst = append(dst, [3]int{i / s.d, i % s.d, int(u)})
		}
	}
	return dst
}

// CopyFrom makes s a copy of src's game (not of its last turn's log),
// reusing s's storage: a copy between games of the same map and number
// of players does not allocate.
func (s *State) CopyFrom(src *State) {
	s.m, s.d = src.m, src.d
	s.tiles = append(s.tiles[:0], src.tiles...)
	s.units = append(s.units[:0], src.units...)
	s.occ = append(s.occ[:0], src.occ...)
	s.players = append(s.players[:0], src.players...)
	s.sameName = append(s.sameName[:0], src.sameName...)
	s.ring = append(s.ring[:0], src.ring...)
	s.timedOut = append(s.timedOut[:0], src.timedOut...)
	s.cur, s.turn, s.played, s.maxTurns, s.loadout = src.cur, src.turn, src.played, src.maxTurns, src.loadout
	s.respawned, s.pending = src.respawned, src.pending
	if s.log.Lines == nil {
		s.log.init(len(s.players))
	}
	s.log.reset(s.turn, -1)
}

// Alive reports whether p has health left (a body has none).
func (p *Player) Alive() bool { return p.Health > 0 }
