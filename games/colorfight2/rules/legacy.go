package rules

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/rewind-game/rewind/engine"
)

// ColorfightII's .rwd header (docs/replay-format.md, "Header" and "Map
// blob"), through its engine.LegacyHeader: its files keep the configuration,
// a map seed or an explicit map, and the players' homes in header fields
// of their own, and a .rwd reader and writer read and write them here.

// Map symmetries an explicit map can declare (its first byte).
const (
	symNone   = 0 // every cell stored
	symMirror = 1 // v(x,y) = v(W-1-x,y) = v(x,H-1-y)
	symEight  = 2 // symMirror and, square maps only, v(x,y) = v(y,x)
)

// legacyHeader is ColorfightII's engine.LegacyHeader (its Codec's).
var legacyHeader = engine.LegacyHeader{Check: checkLegacy, MapLimit: legacyMapLimit, Open: openLegacy, Of: legacyOf}

// checkLegacy checks a header's fields (engine.LegacyHeader): the map's
// size within MaxSide, max_player within MaxPlayers and seating every
// player, each home on the map, and a map seed or an explicit map.
func checkLegacy(l *engine.Legacy) error {
	if l.Width < 1 || l.Width > MaxSide || l.Height < 1 || l.Height > MaxSide {
		return &engine.LimitError{Err: fmt.Errorf("map size %dx%d outside 1..%d", l.Width, l.Height, MaxSide)}
	}
	if l.MaxPlayer < 1 || l.MaxPlayer > MaxPlayers || len(l.Names) > l.MaxPlayer {
		return &engine.LimitError{Err: fmt.Errorf("%d players with max_player %d (limit %d)", len(l.Names), l.MaxPlayer, MaxPlayers)}
	}
	for i := range l.Names {
		if i >= len(l.Homes) {
			return fmt.Errorf("player %d has no home", i+1)
		}
		if h := l.Homes[i]; h.X < 0 || h.X >= l.Width || h.Y < 0 || h.Y >= l.Height {
			return fmt.Errorf("player %d home (%d,%d) off the map", i+1, h.X, h.Y)
		}
	}
	if l.Seed == nil && l.Map == nil {
		return fmt.Errorf("neither a map seed nor an explicit map")
	}
	return nil
}

// legacyMapLimit is 9 bytes a cell, at least 64 KiB (engine.LegacyHeader):
// each stored value is a uvarint of at most 3 bytes (values <=
// MaxNatural); a zstd frame declares a window of at least 1 KiB, so a
// small map's bound is not below 64 KiB (else a tiny map's blob is
// refused).
func legacyMapLimit(l *engine.Legacy) int {
	return max(3*3*l.Width*l.Height, 64<<10)
}

// openLegacy decodes a header's map (engine.LegacyHeader): the map its
// seed gives (GenerateMap), or its explicit map (one symmetry byte, then
// the stored cells' natural_gold values, row-major over stored cells,
// then their natural_energy, then natural_cost, each a uvarint). Its
// games keep the seed in their Setup when the homes are the seeded map's
// spawns, as every seeded recording's are.
func openLegacy(l *engine.Legacy) (engine.LegacyStart, error) {
	cfg := Config{Width: l.Width, Height: l.Height, MaxTurn: l.MaxTurn, MaxPlayer: l.MaxPlayer}
	su := Setup{Config: cfg}
	homes := make([]Point, len(l.Names))
	for i, n := range l.Names {
		homes[i] = Point(l.Homes[i])
		su.Players = append(su.Players, Player{UID: i + 1, Name: n, Home: homes[i]})
	}
	if l.Seed != nil {
		m, spawns, err := GenerateMap(l.Width, l.Height, l.MaxPlayer, *l.Seed)
		if err != nil {
			return nil, fmt.Errorf("map seed: %w", err)
		}
		su.Map = m
		if len(spawns) >= len(homes) && slices.Equal(spawns[:len(homes)], homes) {
			su.Seed = l.Seed
		}
		return legacyStart(su), nil
	}
	m, err := decodeMap(l.Map, l.Width, l.Height)
	if err != nil {
		return nil, err
	}
	su.Map = m
	return legacyStart(su), nil
}

// legacyStart starts the game of a header's setup, decoded
// (engine.LegacyStart), with NewSetupGame: the setup is encoded only if
// the game's Setup is asked for.
func legacyStart(su Setup) engine.LegacyStart {
	return func(set engine.Settings) (engine.Game, error) {
		g, err := NewSetupGame(su, set)
		if err != nil {
			return nil, err
		}
		return g, nil
	}
}

// legacyOf returns the header fields of g, a *Game at turn 0
// (engine.LegacyHeader): its configuration, and for a game drawn from
// seed that seed and the spawns of its map, else its setup's seed, or
// map, and homes.
func legacyOf(g engine.Game, seed uint64) (*engine.Legacy, error) {
	cg, ok := g.(*Game)
	if !ok {
		return nil, fmt.Errorf("colorfight2: the header of a %T, not a ColorfightII game", g)
	}
	cfg := cg.State.Config()
	l := &engine.Legacy{Width: cfg.Width, Height: cfg.Height, MaxTurn: cfg.MaxTurn, MaxPlayer: cfg.MaxPlayer, Seed: &seed}
	if setup := cg.Setup(); setup != nil {
		su, err := UnmarshalSetup(setup)
		if err != nil {
			return nil, err
		}
		if l.Seed = su.Seed; su.Seed == nil {
			l.Map = encodeMap(su.Map)
		}
		for _, p := range su.Players {
			l.Homes = append(l.Homes, engine.Point(p.Home))
		}
		return l, nil
	}
	_, spawns, err := GenerateMap(cfg.Width, cfg.Height, cfg.MaxPlayer, seed)
	if err != nil {
		return nil, err
	}
	for _, p := range spawns {
		l.Homes = append(l.Homes, engine.Point(p))
	}
	return l, nil
}

// storedCell reports whether (x, y) is a stored cell under symmetry sym:
// 2x <= W-1 and 2y <= H-1, and x <= y for symEight.
func storedCell(sym byte, x, y, w, h int) bool {
	switch sym {
	case symMirror:
		return 2*x <= w-1 && 2*y <= h-1
	case symEight:
		return 2*x <= w-1 && 2*y <= h-1 && x <= y
	}
	return true
}

// canonicalOf maps (x, y) to the stored cell that holds its values.
func canonicalOf(sym byte, x, y, w, h int) (int, int) {
	if sym == symNone {
		return x, y
	}
	x, y = min(x, w-1-x), min(y, h-1-y)
	if sym == symEight && x > y {
		x, y = y, x
	}
	return x, y
}

// mapSymmetry returns the strongest symmetry m has.
func mapSymmetry(m *Map) byte {
	w, h := m.Width, m.Height
	best := byte(symNone)
	for _, sym := range []byte{symEight, symMirror} {
		if sym == symEight && w != h {
			continue
		}
		ok := true
		for y := 0; y < h && ok; y++ {
			for x := 0; x < w && ok; x++ {
				cx, cy := canonicalOf(sym, x, y, w, h)
				i, j := y*w+x, cy*w+cx
				ok = m.NaturalGold[i] == m.NaturalGold[j] && m.NaturalEnergy[i] == m.NaturalEnergy[j] && m.NaturalCost[i] == m.NaturalCost[j]
			}
		}
		if ok {
			best = sym
			break
		}
	}
	return best
}

// encodeMap returns m as a header's explicit map: its strongest symmetry,
// then the stored cells' values (openLegacy).
func encodeMap(m *Map) []byte {
	sym := mapSymmetry(m)
	raw := []byte{sym}
	for _, vs := range [][]int64{m.NaturalGold, m.NaturalEnergy, m.NaturalCost} {
		for y := 0; y < m.Height; y++ {
			for x := 0; x < m.Width; x++ {
				if storedCell(sym, x, y, m.Width, m.Height) {
					raw = binary.AppendUvarint(raw, uint64(vs[y*m.Width+x]))
				}
			}
		}
	}
	return raw
}

// decodeMap reads encodeMap's bytes for a w×h map.
func decodeMap(b []byte, w, h int) (*Map, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("map blob without its symmetry")
	}
	sym := b[0]
	if sym > symEight || (sym == symEight && w != h) {
		return nil, fmt.Errorf("map blob symmetry %d", sym)
	}
	m := NewMap(w, h)
	rd := bytes.NewReader(b[1:])
	for _, vs := range [][]int64{m.NaturalGold, m.NaturalEnergy, m.NaturalCost} {
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				if !storedCell(sym, x, y, w, h) {
					continue
				}
				v, err := binary.ReadUvarint(rd)
				if err != nil || v > MaxNatural {
					return nil, fmt.Errorf("map blob value at (%d,%d)", x, y)
				}
				vs[y*w+x] = int64(v)
			}
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				cx, cy := canonicalOf(sym, x, y, w, h)
				vs[y*w+x] = vs[cy*w+cx]
			}
		}
	}
	if rd.Len() != 0 {
		return nil, fmt.Errorf("map blob has %d trailing bytes", rd.Len())
	}
	return m, nil
}
