package rules

// Hash constants: FNV-1a 64-bit offset basis and prime.
const (
	hashOffset = 14695981039346656037
	hashPrime  = 1099511628211
)

// Hash returns a stable 64-bit hash of everything that determines the
// game's future: the same state always hashes the same, on every platform
// and in every version of this package that plays the same ruleset.
//
// Definition. Let mix(h, v) = (h XOR uint64(v)) * 1099511628211 (mod 2^64),
// where v is an int64 taken as two's-complement uint64 — FNV-1a applied to
// whole 64-bit words. Start from h = 14695981039346656037 and mix, in order:
//
//  1. width, height, max_turn, max_player, turn, number of players;
//  2. for every cell in row-major order (index y*width+x): owner uid (0 =
//     none), building (0 none, 1 Home, 2 GoldMine, 3 EnergyWell, 4
//     Fortress), level (0 when no building), force_field, natural_gold,
//     natural_energy, natural_cost;
//  3. for every player in uid order: uid, energy, gold, tech_level,
//     building_home (0/1), dead (0/1), cell count, gold_source,
//     energy_source, the four building counts (Home, GoldMine, EnergyWell,
//     Fortress), tax, tax_level, and the energy at the last cell scan
//     (what the player's Homes store; 0 before the first round).
//
// Then return h XOR (h >> 32). Player names are not hashed: they do not
// affect play. Pending attacks are not hashed: between rounds there are none.
func (s *State) Hash() uint64 {
	h := uint64(hashOffset)
	mix := func(v int64) { h = (h ^ uint64(v)) * hashPrime }
	mix(int64(s.cfg.Width))
	mix(int64(s.cfg.Height))
	mix(int64(s.cfg.MaxTurn))
	mix(int64(s.cfg.MaxPlayer))
	mix(int64(s.turn))
	mix(int64(len(s.users)))
	for i := range s.cells {
		c, l := &s.cells[i], &s.land[i]
		mix(int64(c.owner))
		mix(int64(c.building))
		mix(int64(c.level))
		mix(int64(c.ff))
		mix(int64(l.ng))
		mix(int64(l.ne))
		mix(int64(l.nc))
	}
	for i := range s.users {
		u := &s.users[i]
		mix(int64(u.uid))
		mix(u.energy)
		mix(u.gold)
		mix(u.techLevel)
		mix(b2i(u.buildingHome))
		mix(b2i(u.dead))
		mix(u.cells)
		mix(u.goldSource)
		mix(u.energySource)
		for b := Home; b < NumBuildings; b++ {
			mix(u.buildings[b])
		}
		mix(u.tax)
		mix(u.taxLevel)
		mix(u.scanEnergy)
	}
	return h ^ (h >> 32)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
