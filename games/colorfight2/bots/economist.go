package bots

import colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"

// economist expands moderately and invests its gold: gold mines (energy
// wells early on, where energy beats gold) on its safest cells, Home
// upgrades once it has enough buildings to upgrade, then building upgrades.
// Every investment must pay for itself before the game ends, and neither
// its cells nor its mines and wells grow past the point where the next tax
// bracket eats the gain.
type economist struct{ core }

func (b *economist) Name() string { return "economist" }

func (b *economist) Start(uid int, seed uint64) error { b.start(uid, seed); return nil }

func (b *economist) Close() error { return nil }

// Economist tuning.
const (
	ecoMaxAttacks  = 6  // attacks per round
	ecoMaxInvest   = 4  // builds and upgrades per round
	ecoHome2Builds = 8  // mines+wells before upgrading the Home to level 2
	ecoHome3Builds = 20 // ... to level 3
	ecoWellUntil   = 200
)

func (b *economist) Commands(f *colorfight2.Frame) ([]string, error) {
	if !b.load(f) {
		return b.finish(), nil
	}
	b.rebuildHome()
	left := int64(max(horizon-f.Turn, 0))
	var saveGold, saveEnergy int64

	if b.tech > 0 {
		// Home upgrade, saved for when the buildings justify it.
		if b.home >= 0 && b.homeLevel < 3 && left > 100 &&
			(b.homeLevel == 1 && b.mw >= ecoHome2Builds || b.homeLevel == 2 && b.mw >= ecoHome3Builds) {
			if b.canUpgrade(b.home) {
				b.upgrade(b.home)
			} else {
				saveGold = homeUpgrade[b.homeLevel]
				saveEnergy = saveGold
			}
		}
		b.invest(left, saveGold)
	}

	// Attacks: gold-weighted value per energy, only cells that still pay
	// after the tax they add.
	b.cands = b.cands[:0]
	budget := b.energy - saveEnergy
	for _, t := range b.targets {
		cl := &f.Cells[t]
		if cl.Building == colorfight2.Home {
			continue
		}
		if k := b.cost(t); k <= budget {
			b.cands = append(b.cands, cand{t, ratio(2*cl.NaturalGold+cl.NaturalEnergy, k)})
		}
	}
	b.takeBest(ecoMaxAttacks, func(i int32, n int) bool {
		if f.Cells[i].NaturalGold <= bracket(b.cells+int64(n)+1) {
			return false
		}
		k := b.cost(i)
		return k <= b.energy-saveEnergy && b.attack(i, k)
	})
	return b.finish(), nil
}

// invest spends gold above save on new mines and wells and on building
// upgrades, best return on gold first.
func (b *economist) invest(left, save int64) {
	f := b.f
	b.cands = b.cands[:0]
	for _, i := range b.own {
		cl := &f.Cells[i]
		var gain, price int64
		switch cl.Building {
		case colorfight2.BuildingNone:
			if _, enemy, _ := b.around(i); enemy > 0 {
				continue // a border cell: it would be taken
			}
			gain, price = cl.NaturalGold, buildingCost
			if f.Turn < ecoWellUntil && cl.NaturalEnergy > cl.NaturalGold+2 {
				gain = cl.NaturalEnergy // a well, worth as much as gold early
			}
			// Tax: one more mine/well beyond a bracket costs gold.
			gain -= bracket(b.mw + 1)
		case colorfight2.GoldMine:
			gain = cl.NaturalGold
		case colorfight2.EnergyWell:
			if f.Turn >= ecoWellUntil {
				continue
			}
			gain = cl.NaturalEnergy
		default:
			continue
		}
		if cl.Building != colorfight2.BuildingNone {
			if cl.Level >= 3 || cl.Level >= b.tech {
				continue
			}
			price = upgradeGold[cl.Level]
		}
		// Pay back with a margin before the end.
		if gain <= 0 || gain*left < price*3/2 {
			continue
		}
		b.cands = append(b.cands, cand{i, ratio(gain, price)})
	}
	b.takeBest(ecoMaxInvest, func(i int32, _ int) bool {
		cl := &f.Cells[i]
		if cl.Building == colorfight2.BuildingNone {
			if b.gold-buildingCost < save {
				return false
			}
			kind := colorfight2.GoldMine
			if f.Turn < ecoWellUntil && cl.NaturalEnergy > cl.NaturalGold+2 {
				kind = colorfight2.EnergyWell
			}
			b.build(i, kind)
			b.mw++
			return true
		}
		if b.canUpgrade(i) && b.gold-upgradeGold[cl.Level] >= save {
			b.upgrade(i)
			return true
		}
		return false
	})
}

// takeBest sorts the candidates best first and offers them to take in
// turn, with the number taken so far, until most have been taken (take
// reports whether it took the cell).
func (b *economist) takeBest(most int, take func(i int32, taken int) bool) {
	b.sortCands()
	n := 0
	for _, c := range b.cands {
		if n >= most {
			break
		}
		if take(c.i, n) {
			n++
		}
	}
}
