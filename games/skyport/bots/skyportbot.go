// Package skyportbot holds the built-in Skyport strategies, played in
// the process through the seam (engine.Strategy).
//
// Contracts:
//
//   - Commands writes what a real bot would send on its socket during its
//     turn: raw JSON lines, each one line. In the loadout phase (the
//     seam's first Players() Rounds, skyport.Game) that is one loadout
//     line; afterwards up to three action lines.
//   - A strategy is asked only for the player whose turn it is
//     (engine.Active); for any other player, and for a game that is not a
//     *skyport.Game, it adds nothing.
//   - Determinism: choices are a function of the seed given to New and
//     of the states shown; randomness comes only from engine/rng. No
//     floats, clocks or map iteration.
//   - Strategies read the whole state (skyport.State): Skyport's
//     gamestate shows every player and tile; the strategies also read
//     the units left on resource tiles, which the gamestate omits, only
//     to skip tiles already mined out (shown as grass anyway).
package bots

import (
	"slices"
	"strconv"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/rng"
	skyport "github.com/rewind-game/rewind/games/skyport/rules"
)

// Names lists the built-in strategies.
var Names = []string{"random", "miner", "hunter", "artillery"}

// Docs says in one line how each strategy plays, in Names order.
var Docs = []string{
	"a random loadout, then three random actions a turn (moves, mining, upgrades, shots in random directions)",
	"laser and mortar; walks to the nearest resource, mines it, upgrades whenever it can afford to, lasers anyone in line",
	"laser and droid; closes in on the nearest opponent and fires as early in the turn as it can",
	"mortar and laser; keeps two to four tiles away and shells, mines explosium to upgrade the mortar",
}

// Builtins are the strategies as the registry lists them (package
// rulesets), in the order a match seats them by default: the three real
// strategies, then random.
var Builtins = []engine.Builtin{builtin("hunter"), builtin("artillery"), builtin("miner"), builtin("random")}

func builtin(name string) engine.Builtin {
	doc := ""
	for i, n := range Names {
		if n == name {
			doc = Docs[i]
		}
	}
	return engine.Builtin{Name: name, Doc: doc, New: func(seed uint64) engine.Strategy {
		s, _ := New(name, seed)
		return s
	}}
}

// New returns the strategy called name with its choices drawn from
// seed, or false for an unknown name.
func New(name string, seed uint64) (engine.Strategy, bool) {
	b := &bot{name: name, r: rng.New(seed)}
	switch name {
	case "random":
		b.plan = (*bot).random
	case "miner":
		b.plan = (*bot).miner
	case "hunter":
		b.plan = (*bot).hunter
	case "artillery":
		b.plan = (*bot).artillery
	default:
		return engine.Strategy{}, false
	}
	return engine.Strategy{Name: name, Commands: b.Commands}, true
}

type bot struct {
	name string
	r    *rng.Source
	plan func(*bot, *turn)
}

// Commands appends player p's lines for the next Round of g.
func (b *bot) Commands(g engine.Game, p int, dst []string) []string {
	sg, ok := g.(*skyport.Game)
	if !ok || g.Over() || sg.Active() != p {
		return dst
	}
	st := sg.State
	if st.InLoadout() {
		var a, c skyport.Weapon
		switch b.name {
		case "miner":
			a, c = skyport.Laser, skyport.Mortar
		case "hunter":
			a, c = skyport.Laser, skyport.Droid
		case "artillery":
			a, c = skyport.Mortar, skyport.Laser
		default:
			a = skyport.Weapon(1 + b.r.Intn(3))
			c = skyport.Weapon(1 + (int(a)-1+1+b.r.Intn(2))%3)
		}
		return append(dst, `{"message":"loadout","primary-weapon":"`+a.String()+`","secondary-weapon":"`+c.String()+`"}`)
	}
	pl := st.PlayerRef(p)
	t := &turn{st: st, me: p, j: pl.J, k: pl.K, d: st.Size()}
	b.plan(b, t)
	return append(dst, t.lines...)
}

// turn is a plan being built: the position after the planned moves.
type turn struct {
	st    *skyport.State
	me    int
	j, k  int
	d     int
	lines []string
	shot  bool
}

func (t *turn) full() bool { return t.shot || len(t.lines) >= 3 }

func (t *turn) move(d skyport.Dir) {
	t.lines = append(t.lines, `{"message":"action","type":"move","direction":"`+d.String()+`"}`)
	dj, dk := d.Delta()
	t.j, t.k = t.j+dj, t.k+dk
}

func (t *turn) mine() { t.lines = append(t.lines, `{"message":"action","type":"mine"}`) }

func (t *turn) upgrade(w skyport.Weapon) {
	t.lines = append(t.lines, `{"message":"action","type":"upgrade","weapon":"`+w.String()+`"}`)
}

func (t *turn) laser(d skyport.Dir) {
	t.lines = append(t.lines, `{"message":"action","type":"laser","direction":"`+d.String()+`"}`)
	t.shot = true
}

func (t *turn) mortar(dj, dk int) {
	t.lines = append(t.lines, `{"message":"action","type":"mortar","coordinates":"`+strconv.Itoa(dj)+","+strconv.Itoa(dk)+`"}`)
	t.shot = true
}

func (t *turn) droid(seq []skyport.Dir) {
	s := `{"message":"action","type":"droid","sequence":[`
	for i, d := range seq {
		if i > 0 {
			s += ","
		}
		s += `"` + d.String() + `"`
	}
	t.lines = append(t.lines, s+`]}`)
	t.shot = true
}

func (t *turn) self() *skyport.Player { return t.st.PlayerRef(t.me) }

func (t *turn) onSpawn() bool { return t.st.Tile(t.j, t.k) == skyport.Spawn }

// target reports whether a hit on (j, k) would hurt an opponent.
func (t *turn) target(j, k int) bool {
	o := t.st.Occupant(j, k)
	if o < 0 || o == t.me || t.st.Tile(j, k) == skyport.Spawn {
		return false
	}
	return t.st.PlayerRef(o).Alive()
}

// free reports whether the actor could step onto (j, k) now.
func (t *turn) free(j, k int) bool {
	c := t.st.Tile(j, k)
	if c != skyport.Grass && c != skyport.Rubidium && c != skyport.Explosium && c != skyport.Scrap {
		return false
	}
	o := t.st.Occupant(j, k)
	return o < 0 || o == t.me
}

// laserDir returns a direction in which a laser from the planned
// position hits an opponent.
func (t *turn) laserDir() (skyport.Dir, bool) {
	lvl := t.self().Level(skyport.Laser)
	if lvl == 0 || t.onSpawn() {
		return 0, false
	}
	rng := 4 + lvl
	m := t.st.Map()
	for d := skyport.Dir(0); d < skyport.NumDirs; d++ {
		j, k := t.j, t.k
		for i := 0; i < rng; i++ {
			nj, nk, ok := m.Neighbor(j, k, d)
			if !ok || t.st.Tile(nj, nk) == skyport.Rock {
				break
			}
			j, k = nj, nk
			if t.target(j, k) {
				return d, true
			}
		}
	}
	return 0, false
}

// mortarAt returns an offset at which a mortar from the planned
// position lands on an opponent two or more tiles away.
func (t *turn) mortarAt() (int, int, bool) {
	lvl := t.self().Level(skyport.Mortar)
	if lvl == 0 || t.onSpawn() {
		return 0, 0, false
	}
	rng := 1 + lvl
	for p := 0; p < t.st.Players(); p++ {
		o := t.st.PlayerRef(p)
		if p == t.me || !t.target(o.J, o.K) {
			continue
		}
		if d := skyport.Distance(t.j, t.k, o.J, o.K); d >= 2 && d <= rng {
			return o.J - t.j, o.K - t.k, true
		}
	}
	return 0, 0, false
}

// droidPath returns a droid walk from the planned position that ends on
// an opponent at least two tiles away.
func (t *turn) droidPath() ([]skyport.Dir, bool) {
	lvl := t.self().Level(skyport.Droid)
	if lvl == 0 || t.onSpawn() {
		return nil, false
	}
	return t.walk(2, 2+lvl, t.droidCanEnter, t.target)
}

// droidCanEnter reports whether a droid may walk onto (j, k): any tile
// but a spawn, a rock or the void.
func (t *turn) droidCanEnter(j, k int) bool {
	c := t.st.Tile(j, k)
	return c != skyport.Spawn && c != skyport.Rock && c != skyport.Void
}

// stepToward returns the first step of a shortest walk from the planned
// position to a tile goal accepts (not the current one), over tiles the
// actor can enter.
func (t *turn) stepToward(goal func(j, k int) bool) (skyport.Dir, bool) {
	seq, ok := t.walk(1, -1, t.free, goal)
	if !ok {
		return 0, false
	}
	return seq[0], true
}

// walk returns a shortest walk from the planned position, over tiles
// enter accepts, to the first tile goal accepts that is at least
// minSteps and at most maxSteps (-1: any number) steps away, searched
// breadth first with the neighbours in direction order.
func (t *turn) walk(minSteps, maxSteps int, enter, goal func(j, k int) bool) ([]skyport.Dir, bool) {
	D := t.d
	m := t.st.Map()
	prev := make([]int, D*D)
	dist := make([]int, D*D)
	for i := range dist {
		dist[i] = -1
	}
	start := t.j*D + t.k
	dist[start] = 0
	q := []int{start}
	for len(q) > 0 {
		c := q[0]
		q = q[1:]
		cj, ck := c/D, c%D
		if dist[c] >= minSteps && goal(cj, ck) {
			var seq []skyport.Dir
			for x := c; x != start; x = prev[x] / 8 {
				seq = append(seq, skyport.Dir(prev[x]%8))
			}
			slices.Reverse(seq)
			return seq, true
		}
		if dist[c] == maxSteps {
			continue
		}
		for d := skyport.Dir(0); d < skyport.NumDirs; d++ {
			nj, nk, ok := m.Neighbor(cj, ck, d)
			if !ok {
				continue
			}
			x := nj*D + nk
			if dist[x] >= 0 || !enter(nj, nk) {
				continue
			}
			dist[x] = dist[c] + 1
			prev[x] = c*8 + int(d)
			q = append(q, x)
		}
	}
	return nil, false
}

// leaveSpawn steps off a spawn tile.
func (t *turn) leaveSpawn() {
	if !t.onSpawn() || t.full() {
		return
	}
	if d, ok := t.stepToward(func(j, k int) bool { return true }); ok {
		t.move(d)
	}
}

// nearestEnemy returns the tiles next to living opponents not on a
// spawn, as a goal.
func (t *turn) nearEnemy(lo, hi int) func(j, k int) bool {
	return func(j, k int) bool {
		for p := 0; p < t.st.Players(); p++ {
			o := t.st.PlayerRef(p)
			if p == t.me || !t.target(o.J, o.K) {
				continue
			}
			if d := skyport.Distance(j, k, o.J, o.K); d >= lo && d <= hi {
				return true
			}
		}
		return false
	}
}

func (b *bot) random(t *turn) {
	for len(t.lines) < 3 {
		d := skyport.Dir(b.r.Intn(int(skyport.NumDirs)))
		switch b.r.Intn(6) {
		case 0, 1:
			t.move(d)
		case 2:
			t.mine()
		case 3:
			t.upgrade(skyport.Weapon(1 + b.r.Intn(3)))
		case 4:
			t.laser(d)
			t.shot = false
		default:
			if b.r.Intn(2) == 0 {
				t.mortar(b.r.Intn(7)-3, b.r.Intn(7)-3)
			} else {
				seq := make([]skyport.Dir, 1+b.r.Intn(5))
				for i := range seq {
					seq[i] = skyport.Dir(b.r.Intn(int(skyport.NumDirs)))
				}
				t.droid(seq)
			}
			t.shot = false
		}
	}
}

// fire shoots the best available weapon from the planned position.
func (t *turn) fire() bool {
	if t.full() {
		return false
	}
	if d, ok := t.laserDir(); ok {
		t.laser(d)
		return true
	}
	if dj, dk, ok := t.mortarAt(); ok {
		t.mortar(dj, dk)
		return true
	}
	if seq, ok := t.droidPath(); ok {
		t.droid(seq)
		return true
	}
	return false
}

// upgrades queues every upgrade the actor can afford.
func (t *turn) upgrades() {
	me := t.self()
	var res [4]int // by weapon: the resource its upgrades cost
	res[skyport.Laser], res[skyport.Mortar], res[skyport.Droid] = me.Rubidium, me.Explosium, me.Scrap
	for _, w := range []skyport.Weapon{me.Primary, me.Secondary} {
		lvl := me.Level(w)
		cost := 4
		if lvl == 2 {
			cost = 5
		}
		if lvl < 3 && res[w] >= cost && !t.full() {
			t.upgrade(w)
			res[w] -= cost
		}
	}
}

func (b *bot) miner(t *turn) {
	t.upgrades()
	t.leaveSpawn()
	if t.fire() {
		return
	}
	want := func(j, k int) bool {
		c := t.st.Tile(j, k)
		return (c == skyport.Rubidium || c == skyport.Explosium) && t.st.Units(j, k) > 0
	}
	mined := 0
	for !t.full() {
		if want(t.j, t.k) && mined < t.st.Units(t.j, t.k) {
			t.mine()
			mined++
			continue
		}
		if mined > 0 {
			break
		}
		d, ok := t.stepToward(want)
		if !ok {
			d, ok = t.stepToward(func(j, k int) bool {
				c := t.st.Tile(j, k)
				return c == skyport.Scrap && t.st.Units(j, k) > 0
			})
		}
		if !ok {
			break
		}
		t.move(d)
		if t.fire() {
			return
		}
	}
	if len(t.lines) == 0 {
		t.fire()
	}
}

func (b *bot) hunter(t *turn) {
	t.upgrades()
	t.leaveSpawn()
	for !t.full() {
		if t.fire() {
			return
		}
		d, ok := t.stepToward(t.nearEnemy(1, 1))
		if !ok {
			d, ok = t.stepToward(func(j, k int) bool { return t.free(j, k) && b.r.Intn(4) == 0 })
		}
		if !ok {
			break
		}
		t.move(d)
	}
}

func (b *bot) artillery(t *turn) {
	t.upgrades()
	t.leaveSpawn()
	for !t.full() {
		if dj, dk, ok := t.mortarAt(); ok {
			t.mortar(dj, dk)
			return
		}
		if d, ok := t.laserDir(); ok {
			t.laser(d)
			return
		}
		rng := 1 + t.self().Level(skyport.Mortar)
		if c := t.st.Tile(t.j, t.k); c == skyport.Explosium && t.st.Units(t.j, t.k) > 0 && !t.nearEnemy(0, rng+2)(t.j, t.k) {
			t.mine()
			continue
		}
		d, ok := t.stepToward(t.nearEnemy(2, rng))
		if !ok {
			break
		}
		t.move(d)
	}
}
