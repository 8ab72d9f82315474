package bots

import colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"

// turtle grows slowly into free land, fortifies its border (fortresses on
// cells facing enemies first, then on cells facing free land), defends its
// threatened cells by attacking them itself (a successful self-attack
// raises the force field, and its energy cancels an enemy's on the same
// cell), upgrades its Home and then its front-line fortresses, and puts
// spare gold into gold mines on interior cells.
type turtle struct{ core }

func (b *turtle) Name() string { return "turtle" }

func (b *turtle) Start(uid int, seed uint64) error { b.start(uid, seed); return nil }

func (b *turtle) Close() error { return nil }

// Turtle tuning.
const (
	turtleMaxCells     = 60
	turtleAttacks      = 2   // attacks per round
	turtleDefends      = 3   // self-defence attacks per round
	turtleDefendBelow  = 120 // defend cells whose force field is below this
	turtleDefendTarget = 300 // force field a self-defence aims for
	turtleFortresses   = 4   // fortresses built per round, at most
)

func (b *turtle) Commands(f *colorfight2.Frame) ([]string, error) {
	if !b.load(f) {
		return b.finish(), nil
	}
	b.rebuildHome()
	left := int64(max(horizon-f.Turn, 0))

	// Self-defence: threatened cells with a weak force field, weakest first.
	b.cands = b.cands[:0]
	for _, i := range b.own {
		cl := &f.Cells[i]
		if cl.Building == colorfight2.Home || cl.Building == colorfight2.Fortress || cl.ForceField >= turtleDefendBelow {
			continue
		}
		if own, enemy, _ := b.around(i); enemy > 0 && own > 0 {
			key := -cl.ForceField
			if cl.Building != colorfight2.BuildingNone {
				key += 1000 // buildings first
			}
			b.cands = append(b.cands, cand{i, key})
		}
	}
	b.sortCands()
	defBudget := b.energy / 2
	n := 0
	for _, c := range b.cands {
		if n >= turtleDefends {
			break
		}
		e := b.cost(c.i) + turtleDefendTarget/2
		if e <= defBudget && b.attack(c.i, e) {
			defBudget -= e
			n++
		}
	}

	if b.tech > 0 {
		b.spendGold(left)
	}

	// Slow growth into free land, cheapest first.
	if b.cells < turtleMaxCells {
		b.cands = b.cands[:0]
		for _, t := range b.targets {
			if f.Cells[t].Owner != 0 {
				continue
			}
			if k := b.cost(t); k <= b.energy/2 {
				b.cands = append(b.cands, cand{t, ratio(b.value(t), k)})
			}
		}
		b.sortCands()
		n := 0
		for _, c := range b.cands {
			if n >= turtleAttacks {
				break
			}
			if b.attack(c.i, b.cost(c.i)) {
				n++
			}
		}
	}
	return b.finish(), nil
}

// spendGold fortifies, upgrades and invests, in that order of priority.
func (b *turtle) spendGold(left int64) {
	f := b.f
	// Fortresses on border cells, enemy-facing first.
	b.cands = b.cands[:0]
	for _, i := range b.own {
		cl := &f.Cells[i]
		if cl.Building != colorfight2.BuildingNone {
			continue
		}
		own, enemy, free := b.around(i)
		if enemy == 0 && free == 0 {
			continue
		}
		key := int64(enemy*100 + free*10 - own)
		b.cands = append(b.cands, cand{i, key})
	}
	b.sortCands()
	built := 0
	frontOnly := b.fortresses >= b.cells/3
	for _, c := range b.cands {
		if built >= turtleFortresses || b.gold < buildingCost {
			break
		}
		if frontOnly && c.key < 100 {
			break
		}
		// Keep gold for the Home upgrade once the front is covered.
		if c.key < 100 && b.homeLevel < 3 && b.homeLevel > 0 && b.gold-buildingCost < homeUpgrade[b.homeLevel] {
			break
		}
		b.build(c.i, colorfight2.Fortress)
		built++
	}

	// Home upgrade, then front-line fortresses.
	if b.home >= 0 && left > 60 && b.canUpgrade(b.home) && b.energy >= homeUpgrade[b.homeLevel]+200 {
		b.upgrade(b.home)
	}
	for _, i := range b.own {
		cl := &f.Cells[i]
		if cl.Building != colorfight2.Fortress || !b.canUpgrade(i) {
			continue
		}
		if _, enemy, _ := b.around(i); enemy > 0 && b.gold-upgradeGold[cl.Level] >= 300 {
			b.upgrade(i)
		}
	}

	// Spare gold into mines on interior cells.
	for _, i := range b.own {
		if b.gold < 600 {
			break
		}
		cl := &f.Cells[i]
		if cl.Building != colorfight2.BuildingNone || cl.NaturalGold*left < 2*buildingCost || cl.NaturalGold < 5 {
			continue
		}
		if own, _, _ := b.around(i); own == 4 {
			b.build(i, colorfight2.GoldMine)
		}
	}
}
