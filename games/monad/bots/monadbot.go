// Package monadbot holds the built-in Monad strategies and the Bot
// interface through which a Monad match asks a player for its commands.
//
// # Contracts
//
// A Bot plays one player of one game. The runner calls Start once, then
// Commands once per turn with the state the turn starts from, then Close.
// Calls are never concurrent.
//
//   - Determinism: a bot's commands are a function of the player and seed
//     given to Start and of the states it has been shown. Built-ins draw
//     randomness only from engine/rng seeded with that seed; they never use
//     math/rand, the clock, goroutines, floats or map iteration order.
//   - States: Commands must not retain or modify the state it is given.
//     Monad is a game of full information, so a bot sees the whole state.
//   - Commands: each returned string is one command object in the
//     reference's shape, {"l": [x, y], "c": "MOVE"|"BUILD"|"MINE", "d":
//     1..7, "n": count}, parsed with monad.ParseCommand and applied like
//     anyone's. The built-ins reuse the returned slice on their next call.
//   - Errors: an error from Start or Commands means the bot is broken (the
//     built-ins never return one).
package bots

import (
	"fmt"
	"strings"

	"github.com/rewind-game/rewind/engine/rng"
	monad "github.com/rewind-game/rewind/games/monad/rules"
)

// Bot decides one Monad player's commands each turn.
type Bot interface {
	// Name identifies the strategy ("miner") or the external command.
	Name() string
	// Start is called once before the first turn with the player (0-based)
	// and a seed derived from the match seed.
	Start(player int, seed uint64) error
	// Commands returns the commands for the turn that follows s.
	Commands(s *monad.State) ([]string, error)
	// Close releases resources (no-op for built-ins).
	Close() error
}

// builtins lists the built-in strategies, sorted by name.
var builtins = []struct {
	name string
	new  func() Bot
}{
	{"expander", func() Bot { return &core{name: "expander", plan: (*core).expand} }},
	{"idle", func() Bot { return &core{name: "idle", plan: func(*core, *monad.State) {}} }},
	{"miner", func() Bot { return &core{name: "miner", plan: (*core).mine} }},
	{"rusher", func() Bot { return &core{name: "rusher", plan: (*core).rush} }},
}

// Builtin returns a fresh instance of the built-in strategy called name.
// The error for an unknown name lists the valid ones.
func Builtin(name string) (Bot, error) {
	for _, b := range builtins {
		if b.name == name {
			return b.new(), nil
		}
	}
	return nil, fmt.Errorf("monadbot: unknown built-in %q (valid: %s)", name, strings.Join(BuiltinNames(), ", "))
}

// BuiltinNames returns the names of the built-in strategies, sorted.
func BuiltinNames() []string {
	names := make([]string, len(builtins))
	for i, b := range builtins {
		names[i] = b.name
	}
	return names
}

// dirs are the six moving directions.
var dirs = [6]monad.Dir{monad.East, monad.West, monad.NorthEast, monad.NorthWest, monad.SouthEast, monad.SouthWest}

// Distance is the number of steps between two cells of Monad's hex map
// (even rows shifted right), off-map cells included.
func Distance(x1, y1, x2, y2 int) int {
	q1, q2 := x1-(y1+(y1&1))/2, x2-(y2+(y2&1))/2
	dq, dr := q1-q2, y1-y2
	return (abs(dq) + abs(dr) + abs(dq+dr)) / 2
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// core is what every built-in shares: its player, its random source, the
// command buffer and a plan that fills it.
type core struct {
	name string
	me   int
	r    *rng.Source
	out  []string
	buf  []byte
	plan func(*core, *monad.State)
}

func (c *core) Name() string { return c.name }

func (c *core) Start(player int, seed uint64) error {
	c.me, c.r = player, rng.New(seed)
	return nil
}

func (c *core) Close() error { return nil }

func (c *core) Commands(s *monad.State) ([]string, error) {
	c.out = c.out[:0]
	c.plan(c, s)
	return c.out, nil
}

// emit adds one command.
func (c *core) emit(x, y int, kind monad.Kind, d monad.Dir, n int) {
	c.buf = monad.Command{X: x, Y: y, Kind: kind, Dir: d, Count: int64(n)}.AppendText(c.buf[:0])
	c.out = append(c.out, string(c.buf))
}

// eachOwn calls f for every cell where the player has units, in row order.
func (c *core) eachOwn(s *monad.State, f func(x, y, units int)) {
	for y := 0; y < monad.Height; y++ {
		for x := 0; x < monad.Width; x++ {
			if p, u := s.Occupant(x, y); p == c.me && u > 0 {
				f(x, y, u)
			}
		}
	}
}

// tryBuild builds a hive on (x, y) when the player can afford one and the
// cell has none; it reports whether it did.
func (c *core) tryBuild(s *monad.State, x, y int, budget *int64) bool {
	if *budget < monad.HiveCost {
		return false
	}
	if _, _, ok := s.Hive(x, y); ok {
		return false
	}
	*budget -= monad.HiveCost
	c.emit(x, y, monad.KindBuild, monad.None, 1)
	return true
}

// nearestOwnHive is the distance from (x, y) to the player's nearest hive.
func (c *core) nearestOwnHive(s *monad.State, x, y int) int {
	best := 1 << 30
	for hy := 0; hy < monad.Height; hy++ {
		for hx := 0; hx < monad.Width; hx++ {
			if o, _, ok := s.Hive(hx, hy); ok && o == c.me {
				best = min(best, Distance(x, y, hx, hy))
			}
		}
	}
	return best
}

// expand spreads out: every cell keeps one unit mining and sends the rest
// to the neighbour with the fewest units of its own and the most resource,
// never onto an enemy; it builds a hive where it stands at least 3 steps
// from its own hives.
func (c *core) expand(s *monad.State) {
	budget := s.Stats(c.me).Resources
	c.eachOwn(s, func(x, y, u int) {
		if c.nearestOwnHive(s, x, y) >= 3 && c.tryBuild(s, x, y, &budget) {
			return
		}
		if u < 2 {
			return
		}
		best, bestScore := monad.Dir(0), -1<<30
		off := c.r.Intn(6)
		for k := range dirs {
			d := dirs[(k+off)%6]
			nx, ny := monad.Neighbor(x, y, d)
			if !monad.OnMap(nx, ny) {
				continue
			}
			p, n := s.Occupant(nx, ny)
			if p >= 0 && p != c.me {
				continue
			}
			score := s.Resource(nx, ny) - 20*n
			if score > bestScore {
				best, bestScore = d, score
			}
		}
		if best != 0 {
			c.emit(x, y, monad.KindMove, best, u-1)
		}
	})
}

// mine stays put and mines with every unit; half a stack moves only to a
// richer empty neighbour, all of it off an exhausted cell. It builds a hive on every cell it can afford (richest cells
// first in row order), so its economy compounds.
func (c *core) mine(s *monad.State) {
	budget := s.Stats(c.me).Resources
	c.eachOwn(s, func(x, y, u int) {
		if c.tryBuild(s, x, y, &budget) {
			return
		}
		here := s.Resource(x, y)
		for _, d := range dirs {
			nx, ny := monad.Neighbor(x, y, d)
			if !monad.OnMap(nx, ny) {
				continue
			}
			if p, _ := s.Occupant(nx, ny); p >= 0 {
				continue
			}
			if s.Resource(nx, ny) > here+10 && u > 1 {
				c.emit(x, y, monad.KindMove, d, u/2)
				return
			}
		}
		if here == 0 {
			off := c.r.Intn(6)
			for k := range dirs {
				d := dirs[(k+off)%6]
				if monad.OnMap(monad.Neighbor(x, y, d)) {
					c.emit(x, y, monad.KindMove, d, u)
					return
				}
			}
		}
		c.emit(x, y, monad.KindMine, monad.None, u)
	})
}

// rush builds an economy as the miner does for RushAfter turns, then
// marches every unit but one per own hive to the staging cell next to the
// nearest enemy hive, and attacks from there once the stack there can take
// the hive as it stands. It builds no more hives once it marches.
func (c *core) rush(s *monad.State) {
	if s.Turn() < RushAfter {
		c.mine(s)
		return
	}
	tx, ty, best := 0, 0, 1<<30
	home := monad.StartPositions[s.Players()-1][c.me]
	for hy := 0; hy < monad.Height; hy++ {
		for hx := 0; hx < monad.Width; hx++ {
			if o, _, ok := s.Hive(hx, hy); ok && o != c.me {
				if d := Distance(home[0], home[1], hx, hy); d < best {
					best, tx, ty = d, hx, hy
				}
			}
		}
	}
	if best == 1<<30 {
		return
	}
	// The staging cell: the target's on-map neighbour nearest home.
	sx, sy, sd := tx, ty, 1<<30
	for _, d := range dirs {
		nx, ny := monad.Neighbor(tx, ty, d)
		if dd := Distance(nx, ny, home[0], home[1]); monad.OnMap(nx, ny) && dd < sd {
			sx, sy, sd = nx, ny, dd
		}
	}
	c.eachOwn(s, func(x, y, u int) {
		n := u
		if o, _, ok := s.Hive(x, y); ok && o == c.me {
			n = u - 1 // a guard stays
		}
		if x == sx && y == sy {
			_, there := s.Occupant(tx, ty)
			if u > there+monad.DefenseRating+1 {
				c.emit(x, y, monad.KindMove, stepToward(x, y, tx, ty, 0), u)
			} else {
				c.emit(x, y, monad.KindMine, monad.None, u)
			}
			return
		}
		if n < 1 {
			c.emit(x, y, monad.KindMine, monad.None, u)
			return
		}
		c.emit(x, y, monad.KindMove, stepToward(x, y, sx, sy, c.r.Intn(6)), n)
	})
}

// RushAfter is the turn at which the rusher stops building and marches.
const RushAfter = 60

// stepToward is the direction of a step from (x, y) that brings it
// nearest (tx, ty), trying directions from dirs[off] on; None if no step
// gets nearer.
func stepToward(x, y, tx, ty, off int) monad.Dir {
	best, bestD := monad.None, Distance(x, y, tx, ty)
	for k := range dirs {
		d := dirs[(k+off)%6]
		nx, ny := monad.Neighbor(x, y, d)
		if !monad.OnMap(nx, ny) {
			continue
		}
		if dd := Distance(nx, ny, tx, ty); dd < bestD {
			best, bestD = d, dd
		}
	}
	return best
}
