package bots

import (
	"slices"
	"strconv"

	"github.com/rewind-game/rewind/engine/rng"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// horizon is the game length the built-ins plan for (frames do not carry
// max_turn).
const horizon = colorfight2.DefaultMaxTurn

// Building costs and upgrade costs of RULES.md.
const (
	homeCost     = 1000
	buildingCost = 200
)

// upgradeGold[L] is the gold needed to take a non-Home building from level
// L to L+1; a Home needs homeUpgrade[L] gold and as much energy.
var (
	upgradeGold = [3]int64{0, 400, 600}
	homeUpgrade = [3]int64{0, 1000, 2000}
)

// bracket returns the tax the n-th cell (or n-th mine/well) adds per round:
// T(n) - T(n-1), 0 for n <= 75, 1 up to 150, 2 up to 225, and so on.
func bracket(n int64) int64 {
	if n <= 0 {
		return 0
	}
	return (n - 1) / 75
}

// cand is a scored candidate cell; larger keys are better.
type cand struct {
	i   int32
	key int64
}

// byKeyDesc orders candidates by descending key, then ascending index.
func byKeyDesc(a, b cand) int {
	if a.key != b.key {
		if a.key > b.key {
			return -1
		}
		return 1
	}
	return int(a.i) - int(b.i)
}

// core is what every built-in shares: identity, randomness, an analysis of
// the current frame and the command writer. Everything is reused from
// round to round.
type core struct {
	uid int
	r   rng.Source

	// Valid during one Commands call.
	f          *colorfight2.Frame
	w, h       int
	energy     int64 // what is left to spend this round
	gold       int64
	tech       int64
	cells      int64
	mw         int64   // gold mines + energy wells
	home       int32   // own Home cell, -1 if none
	own        []int32 // own cells
	targets    []int32 // cells not owned by us with an own neighbour
	enemyHomes []int32 // Homes of other players
	userEnergy []int64 // energy of uid i+1 as the frame shows it
	userGold   []int64
	mark       []uint32 // mark[i] == stamp: i is already in targets
	stamp      uint32
	cands      []cand
	nb         [4]int32
	out        []byte
	ends       []int
	cmds       []string
	fortresses int64
	homeLevel  int64
	isAttacked []uint32 // isAttacked[i] == stamp: attacked this round
}

func (c *core) start(uid int, seed uint64) {
	c.uid = uid
	c.r = *rng.New(seed)
}

// load analyses f for this round. It returns false when the bot should send
// nothing: the player is not in the frame or owns no cell.
func (c *core) load(f *colorfight2.Frame) bool {
	c.f = f
	c.out, c.ends = c.out[:0], c.ends[:0]
	c.own, c.targets, c.enemyHomes = c.own[:0], c.targets[:0], c.enemyHomes[:0]
	c.userEnergy, c.userGold = c.userEnergy[:0], c.userGold[:0]
	c.home = -1
	var me *colorfight2.FrameUser
	for i := range f.Users {
		u := &f.Users[i]
		for int64(len(c.userEnergy)) < u.UID {
			c.userEnergy = append(c.userEnergy, 0)
			c.userGold = append(c.userGold, 0)
		}
		if u.UID >= 1 {
			c.userEnergy[u.UID-1] = u.Energy
			c.userGold[u.UID-1] = u.Gold
		}
		if u.UID == int64(c.uid) {
			me = u
		}
	}
	if me == nil || me.Dead || me.CellNumber <= 0 || f.Width <= 0 || len(f.Cells) != f.Width*f.Height {
		return false
	}
	c.w, c.h = f.Width, f.Height
	c.energy, c.gold, c.tech, c.cells = me.Energy, me.Gold, me.TechLevel, me.CellNumber
	c.mw = me.Buildings[colorfight2.GoldMine] + me.Buildings[colorfight2.EnergyWell]
	c.fortresses = me.Buildings[colorfight2.Fortress]
	c.homeLevel = 0
	n := len(f.Cells)
	if len(c.mark) != n {
		c.mark = make([]uint32, n)
		c.isAttacked = make([]uint32, n)
		c.stamp = 0
	}
	c.stamp++
	if c.stamp == 0 { // wrapped: clear
		clear(c.mark)
		clear(c.isAttacked)
		c.stamp = 1
	}
	uid := int64(c.uid)
	for i := range f.Cells {
		cl := &f.Cells[i]
		if cl.Owner == uid {
			c.own = append(c.own, int32(i))
			if cl.Building == colorfight2.Home {
				c.home = int32(i)
				c.homeLevel = cl.Level
			}
		} else if cl.Building == colorfight2.Home && cl.Owner != 0 {
			c.enemyHomes = append(c.enemyHomes, int32(i))
		}
	}
	for _, i := range c.own {
		for _, j := range c.neighbours(i) {
			if f.Cells[j].Owner != uid && c.mark[j] != c.stamp {
				c.mark[j] = c.stamp
				c.targets = append(c.targets, j)
			}
		}
	}
	return len(c.own) > 0
}

// user returns this bot's player in f; load must have returned true.
func (c *core) user(f *colorfight2.Frame) *colorfight2.FrameUser {
	for i := range f.Users {
		if f.Users[i].UID == int64(c.uid) {
			return &f.Users[i]
		}
	}
	return nil
}

// neighbours returns the in-map neighbours of cell i (N, S, W, E), in a
// buffer reused by the next call.
func (c *core) neighbours(i int32) []int32 {
	w := int32(c.w)
	x, y := i%w, i/w
	n := 0
	if y > 0 {
		c.nb[n] = i - w
		n++
	}
	if y < int32(c.h)-1 {
		c.nb[n] = i + w
		n++
	}
	if x > 0 {
		c.nb[n] = i - 1
		n++
	}
	if x < w-1 {
		c.nb[n] = i + 1
		n++
	}
	return c.nb[:n]
}

// around counts cell i's neighbours that are ours, enemy (owned by
// someone else) and unowned.
func (c *core) around(i int32) (own, enemy, free int) {
	uid := int64(c.uid)
	for _, j := range c.neighbours(i) {
		switch o := c.f.Cells[j].Owner; {
		case o == uid:
			own++
		case o == 0:
			free++
		default:
			enemy++
		}
	}
	return
}

// cost returns the energy an attack on cell i needs to be sure of
// capturing it if nobody else attacks it. For an enemy Home this is an
// upper bound: its cost is computed with its owner's energy at the cell
// scan, which can only have dropped from what the frame shows.
func (c *core) cost(i int32) int64 {
	cl := &c.f.Cells[i]
	k := cl.AttackCost
	if cl.Building == colorfight2.Home && cl.Owner != int64(c.uid) && cl.Owner >= 1 && int(cl.Owner) <= len(c.userEnergy) {
		if b := (1000 + c.userEnergy[cl.Owner-1] + cl.ForceField) * cl.Level; b > k {
			k = b
		}
	}
	return max(k, 0)
}

// value returns the natural gold plus energy of cell i.
func (c *core) value(i int32) int64 {
	cl := &c.f.Cells[i]
	return cl.NaturalGold + cl.NaturalEnergy
}

// attack writes "a x y e" and spends e energy. It does nothing if e is
// negative or more than what is left, or if i was already attacked.
func (c *core) attack(i int32, e int64) bool {
	if e < 0 || e > c.energy || c.isAttacked[i] == c.stamp {
		return false
	}
	c.isAttacked[i] = c.stamp
	c.energy -= e
	c.out = append(c.out, 'a', ' ')
	c.out = c.xy(c.out, i)
	c.out = append(c.out, ' ')
	c.out = strconv.AppendInt(c.out, e, 10)
	c.ends = append(c.ends, len(c.out))
	return true
}

// build writes "b x y letter" and pays for it; the caller checks the rules.
func (c *core) build(i int32, b colorfight2.Building) {
	if b == colorfight2.Home {
		c.gold -= homeCost
	} else {
		c.gold -= buildingCost
	}
	c.out = append(c.out, 'b', ' ')
	c.out = c.xy(c.out, i)
	c.out = append(c.out, ' ', b.Letter())
	c.ends = append(c.ends, len(c.out))
}

// upgrade writes "u x y" for the building on cell i and pays for it; the
// caller checks the rules.
func (c *core) upgrade(i int32) {
	cl := &c.f.Cells[i]
	if cl.Building == colorfight2.Home {
		c.gold -= homeUpgrade[cl.Level]
		c.energy -= homeUpgrade[cl.Level]
	} else {
		c.gold -= upgradeGold[cl.Level]
	}
	c.out = append(c.out, 'u', ' ')
	c.out = c.xy(c.out, i)
	c.ends = append(c.ends, len(c.out))
}

func (c *core) xy(b []byte, i int32) []byte {
	b = strconv.AppendInt(b, int64(int(i)%c.w), 10)
	b = append(b, ' ')
	return strconv.AppendInt(b, int64(int(i)/c.w), 10)
}

// canUpgrade reports whether the building on own cell i can be upgraded
// with what is left this round.
func (c *core) canUpgrade(i int32) bool {
	cl := &c.f.Cells[i]
	if cl.Owner != int64(c.uid) || cl.Building == colorfight2.BuildingNone || cl.Level >= 3 || cl.Level < 1 {
		return false
	}
	if cl.Building == colorfight2.Home {
		g := homeUpgrade[cl.Level]
		return c.gold >= g && c.energy >= g
	}
	return cl.Level < c.tech && c.gold >= upgradeGold[cl.Level]
}

// rebuildHome builds a Home when the player has none and can pay for it,
// on the own empty cell with the most own neighbours (ties: lowest index).
func (c *core) rebuildHome() {
	if c.tech != 0 || c.gold < homeCost {
		return
	}
	best, bestOwn := int32(-1), -1
	for _, i := range c.own {
		if c.f.Cells[i].Building != colorfight2.BuildingNone {
			continue
		}
		if o, _, _ := c.around(i); o > bestOwn {
			best, bestOwn = i, o
		}
	}
	if best >= 0 {
		c.build(best, colorfight2.Home)
	}
}

// finish returns the commands written this round. All strings share one
// allocation; the slice is reused by the next round.
func (c *core) finish() []string {
	c.f = nil
	c.cmds = c.cmds[:0]
	if len(c.ends) == 0 {
		return nil
	}
	s := string(c.out)
	start := 0
	for _, e := range c.ends {
		c.cmds = append(c.cmds, s[start:e])
		start = e
	}
	return c.cmds
}

// sortCands sorts c.cands best first; ties keep ascending cell index.
func (c *core) sortCands() {
	slices.SortFunc(c.cands, byKeyDesc)
}

// ratio returns num/den scaled by 2^20, with den taken as at least 1.
func ratio(num, den int64) int64 {
	return (num << 20) / max(den, 1)
}
