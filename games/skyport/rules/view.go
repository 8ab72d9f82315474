package rules

import (
	"errors"
	"fmt"
)

// View is a game as one gamestate message shows it (PROTOCOL-SKYPORT §5,
// the observer's copy): the map now, every player's visible facts and
// the turn order. It holds none of what a gamestate leaves out
// (resources held, has_to_pass, needs_respawn, units left are optional).
type View struct {
	// Turn is the gamestate's "turn".
	Turn int
	// Size is D; Tiles the tile codes, index j*Size+k (map.data[j][k]).
	Size  int
	Tiles []byte
	// Units, when not nil, are the resource units left per tile (index
	// j*Size+k); nil gives each R, E and C tile resourceUnits (2).
	Units []uint8
	// Players are numbered as the caller numbers them.
	Players []ViewPlayer
	// Order is the gamestate's players list as player numbers: the actor
	// first, then the rest of the ring.
	Order []int
}

// ViewPlayer is one player of a View.
type ViewPlayer struct {
	Name          string
	Health, Score int
	// J, K is the position; SpawnJ, SpawnK the player's own spawn tile,
	// or -1, -1 when unknown.
	J, K, SpawnJ, SpawnK int
	Arms
	// Connected is the observer's "alive".
	Connected bool
}

// FromView returns a State showing v: the map, the players where v puts
// them (a player with Health ≤ 0 is a body), the ring in v.Order with
// its cursor on the actor, the loadout phase over. Resources held,
// has_to_pass and needs_respawn are zero. It is a State to describe
// (Game.Board, AppendGamestate), built without any rule
// being played: nothing checks that v could happen under Rev 1. It fails
// on a View that does not fit a State: a size outside 1..MaxSize, tiles
// or units of the wrong length or with an unknown code, a player count
// outside 1..MaxPlayers, a player off the map or on another's tile, an
// Order that is not a permutation of the players, levels outside 0..3.
func FromView(v View) (*State, error) {
	D := v.Size
	if D < 1 || D > MaxSize {
		return nil, fmt.Errorf("skyport: view of size %d (1..%d)", D, MaxSize)
	}
	if len(v.Tiles) != D*D || (v.Units != nil && len(v.Units) != D*D) {
		return nil, fmt.Errorf("skyport: view of size %d with %d tiles and %d units", D, len(v.Tiles), len(v.Units))
	}
	n := len(v.Players)
	if n < 1 || n > MaxPlayers {
		return nil, fmt.Errorf("skyport: view of %d players (1..%d)", n, MaxPlayers)
	}
	if len(v.Order) != n {
		return nil, fmt.Errorf("skyport: view of %d players with an order of %d", n, len(v.Order))
	}
	m := &Map{Players: n, Size: D, Tiles: append([]byte(nil), v.Tiles...)}
	st := &State{m: m, d: D, maxTurns: max(v.Turn, 1), turn: v.Turn, played: max(v.Turn-1, 0), loadout: n, respawned: -1}
	st.tiles = append([]byte(nil), v.Tiles...)
	st.units = make([]uint8, D*D)
	st.occ = make([]int8, D*D)
	for i, c := range st.tiles {
		if TileIndex(c) < 0 {
			return nil, fmt.Errorf("skyport: view tile %d, %d has code %q", i/D, i%D, c)
		}
		st.occ[i] = -1
		switch {
		case c != Rubidium && c != Explosium && c != Scrap:
		case v.Units != nil:
			st.units[i] = v.Units[i]
		default:
			st.units[i] = resourceUnits
		}
	}
	st.players = make([]Player, n)
	for p, vp := range v.Players {
		if vp.J < 0 || vp.K < 0 || vp.J >= D || vp.K >= D {
			return nil, fmt.Errorf("skyport: view player %d at %d, %d, off the map", p, vp.J, vp.K)
		}
		if o := st.occ[vp.J*D+vp.K]; o >= 0 {
			return nil, fmt.Errorf("skyport: view players %d and %d both at %d, %d", o, p, vp.J, vp.K)
		}
		for _, l := range [2]int{vp.PrimaryLevel, vp.SecondaryLevel} {
			if l < 0 || l > 3 {
				return nil, fmt.Errorf("skyport: view player %d has a weapon of level %d", p, l)
			}
		}
		if vp.Primary > Droid || vp.Secondary > Droid {
			return nil, errors.New("skyport: view player with an unknown weapon")
		}
		st.players[p] = Player{Name: vp.Name, Health: vp.Health, Score: vp.Score, J: vp.J, K: vp.K, SpawnJ: vp.SpawnJ, SpawnK: vp.SpawnK,
			Arms:      vp.Arms,
			Connected: vp.Connected, Loaded: vp.Primary != NoWeapon}
		st.occ[vp.J*D+vp.K] = int8(p)
	}
	st.ring = make([]int8, n)
	seen := make([]bool, n)
	for i, p := range v.Order {
		if p < 0 || p >= n || seen[p] {
			return nil, fmt.Errorf("skyport: view order %v is not a permutation of 0..%d", v.Order, n-1)
		}
		seen[p] = true
		st.ring[i] = int8(p)
	}
	st.sameName = make([]bool, n*n)
	for a := range n {
		for b := range n {
			st.sameName[a*n+b] = v.Players[a].Name == v.Players[b].Name
		}
	}
	st.timedOut = make([]bool, n)
	st.log.init(n)
	st.log.reset(st.turn, -1)
	return st, nil
}
