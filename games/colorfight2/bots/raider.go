package bots

import colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"

// raider hunts enemy Homes: capturing one steals a third of its owner's
// gold and strips the owner of every other building. When an enemy Home is
// adjacent it attacks it as soon as it can afford the Home's attack cost
// (saving energy for it when that is within reach); otherwise it expands
// toward the nearest enemy Home, cheap and rich cells first. Spare gold
// above a Home-rebuilding fund goes into gold mines on safe cells.
type raider struct{ core }

func (b *raider) Name() string { return "raider" }

func (b *raider) Start(uid int, seed uint64) error { b.start(uid, seed); return nil }

func (b *raider) Close() error { return nil }

// Raider tuning.
const (
	raidSaveRounds = 12 // save for a Home it can afford within this many rounds
	raidMargin     = 20 // extra energy per Home attack, in percent, when affordable
)

func (b *raider) Commands(f *colorfight2.Frame) ([]string, error) {
	if !b.load(f) {
		return b.finish(), nil
	}
	b.rebuildHome()
	me := b.user(f)
	income := max(me.EnergySource-me.TaxAmount, 1)

	// Raid: the most profitable adjacent enemy Home we can pay for.
	var save int64
	best, bestKey := int32(-1), int64(-1)
	for _, t := range b.targets {
		cl := &f.Cells[t]
		if cl.Building != colorfight2.Home {
			continue
		}
		k := b.cost(t)
		if k > b.energy+raidSaveRounds*income {
			continue // out of reach
		}
		loot := max(b.userGold[cl.Owner-1]/3, 0) + 500 // + the buildings it strips
		if key := ratio(loot, k); key > bestKey {
			best, bestKey = t, key
		}
	}
	if best >= 0 {
		k := b.cost(best)
		if e := k + k*raidMargin/100; e <= b.energy {
			b.attack(best, e)
		} else if k <= b.energy {
			b.attack(best, b.energy)
		} else {
			save = k + k*raidMargin/100
		}
	}

	// Expand toward the nearest enemy Home.
	b.cands = b.cands[:0]
	budget := b.energy
	if save > 0 {
		budget = min(budget, income/4) // a trickle while saving
	}
	for _, t := range b.targets {
		cl := &f.Cells[t]
		if cl.Building == colorfight2.Home {
			continue
		}
		k := b.cost(t)
		if k > budget {
			continue
		}
		bonus := int64(0)
		if d := b.nearestEnemyHome(t); d >= 0 {
			bonus = max(0, 40-2*d)
		}
		b.cands = append(b.cands, cand{t, ratio(b.value(t)+bonus, k)})
	}
	b.sortCands()
	for _, c := range b.cands {
		if k := b.cost(c.i); k <= budget {
			if b.attack(c.i, k) {
				budget -= k
			}
		}
	}

	// Gold above the Home fund goes into mines.
	left := int64(max(horizon-f.Turn, 0))
	if b.tech > 0 {
		for _, i := range b.own {
			if b.gold < homeCost+buildingCost {
				break
			}
			cl := &f.Cells[i]
			if cl.Building != colorfight2.BuildingNone || cl.NaturalGold*left < 2*buildingCost || cl.NaturalGold < 6 {
				continue
			}
			if own, _, _ := b.around(i); own < 4 {
				continue
			}
			b.build(i, colorfight2.GoldMine)
		}
	}
	return b.finish(), nil
}

// nearestEnemyHome returns the Manhattan distance from cell i to the
// nearest enemy Home, or -1 if there is none.
func (b *raider) nearestEnemyHome(i int32) int64 {
	best := int64(-1)
	w := int64(b.w)
	x, y := int64(i)%w, int64(i)/w
	for _, h := range b.enemyHomes {
		hx, hy := int64(h)%w, int64(h)/w
		d := abs(hx-x) + abs(hy-y)
		if best < 0 || d < best {
			best = d
		}
	}
	return best
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
