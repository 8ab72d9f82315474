package bots

import colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"

// greedy expands as fast as it can: every round it attacks the adjacent
// cells with the best (natural_gold+natural_energy)/attack_cost, each with
// exactly its attack cost, until its energy runs out. It builds nothing
// but a Home when it has lost its own.
type greedy struct{ core }

func (b *greedy) Name() string { return "greedy" }

func (b *greedy) Start(uid int, seed uint64) error { b.start(uid, seed); return nil }

func (b *greedy) Close() error { return nil }

func (b *greedy) Commands(f *colorfight2.Frame) ([]string, error) {
	if !b.load(f) {
		return b.finish(), nil
	}
	b.rebuildHome()
	b.cands = b.cands[:0]
	for _, t := range b.targets {
		if k := b.cost(t); k <= b.energy {
			// Random low bits break ties between equally good cells.
			b.cands = append(b.cands, cand{t, ratio(b.value(t), k)<<4 | int64(b.r.Intn(16))})
		}
	}
	b.sortCands()
	for _, c := range b.cands {
		if b.energy <= 0 {
			break
		}
		if k := b.cost(c.i); k <= b.energy {
			b.attack(c.i, k)
		}
	}
	return b.finish(), nil
}
