package bots

import colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"

// randomBot attacks a few random adjacent cells with random energy and now
// and then builds a random building on a random own cell.
type randomBot struct{ core }

func (b *randomBot) Name() string { return "random" }

func (b *randomBot) Start(uid int, seed uint64) error { b.start(uid, seed); return nil }

func (b *randomBot) Close() error { return nil }

var randomLetters = [...]colorfight2.Building{colorfight2.GoldMine, colorfight2.EnergyWell, colorfight2.Fortress}

func (b *randomBot) Commands(f *colorfight2.Frame) ([]string, error) {
	if !b.load(f) {
		return b.finish(), nil
	}
	b.rebuildHome()
	if n := len(b.targets); n > 0 && b.energy > 0 {
		k := b.r.Intn(5)
		for ; k > 0 && b.energy > 0; k-- {
			t := b.targets[b.r.Intn(n)]
			limit := min(b.energy, 2*b.cost(t)+1, 1<<30)
			b.attack(t, int64(b.r.Intn(int(limit)+1)))
		}
	}
	if b.tech > 0 && b.gold >= buildingCost && b.r.Intn(8) == 0 {
		i := b.own[b.r.Intn(len(b.own))]
		if f.Cells[i].Building == colorfight2.BuildingNone {
			b.build(i, randomLetters[b.r.Intn(len(randomLetters))])
		} else if b.canUpgrade(i) && b.r.Intn(2) == 0 {
			b.upgrade(i)
		}
	}
	return b.finish(), nil
}
