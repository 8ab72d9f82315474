// Package bots holds ColorFight v1's built-in strategies. Each plays one
// seat of a rules.Game: it joins under its strategy's name (seat p at
// tick 3p, so every seat but the first joins mid-game; a seat is one
// join, so a bot whose player died sends nothing more), then sends at most
// one action per tick while its cooldown allows.
package bots

import (
	"strconv"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/rng"
	"github.com/rewind-game/rewind/games/colorfight1/rules"
)

// Builtins are the strategies in the order a match seats them.
var Builtins = []engine.Builtin{
	builtin("expander", "takes the adjacent cell that is quickest to take, gold and energy cells first", expander),
	builtin("economist", "goes for gold and energy cells, builds bases when it has the gold, multiattacks when rich", economist),
	builtin("aggressor", "attacks the enemy cells and bases next to it, boosting and blasting with its energy", aggressor),
	builtin("random", "attacks a random cell next to its own, now and then boosted", random),
}

type strategy func(b *bot, g *rules.Game, p int) string

type bot struct {
	// join is the bot's /joingame: it joins under its strategy's name.
	join string
	src  *rng.Source
	play strategy
}

func builtin(name, doc string, play strategy) engine.Builtin {
	return engine.Builtin{Name: name, Doc: doc, New: func(seed uint64) engine.Strategy {
		b := &bot{join: `/joingame {"name":"` + name + `"}`, src: rng.New(seed), play: play}
		return engine.Strategy{Name: name, Commands: b.commands}
	}}
}

func (b *bot) commands(eg engine.Game, p int, dst []string) []string {
	g, ok := eg.(*rules.Game)
	if !ok {
		return dst
	}
	s := g.State
	if g.UID(p) == 0 {
		if !g.Joined(p) && g.Turn() >= 3*p {
			return append(dst, b.join)
		}
		return dst
	}
	u := s.User(g.UID(p))
	if u == nil || u.DeadTime != 0 || u.CDTime > g.NextNow() {
		return dst
	}
	if c := b.play(b, g, p); c != "" {
		dst = append(dst, c)
	}
	return dst
}

// target is a cell a seat may attack: not its own, not being taken, next
// to one of its cells.
type target struct {
	id, adj int
	cost    float64
}

// targets lists the cells uid may attack, in ascending id.
func targets(s *rules.State, uid int, dst []target) []target {
	now := s.Now()
	for id := range s.Cells {
		c := &s.Cells[id]
		if c.IsTaking || int(c.Owner) == uid {
			continue
		}
		x, y := id%rules.Width, id/rules.Width
		adj := 0
		for _, d := range [4][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
			nx, ny := x+d[0], y+d[1]
			if nx >= 0 && nx < rules.Width && ny >= 0 && ny < rules.Height && int(s.Cells[nx+rules.Width*ny].Owner) == uid {
				adj++
			}
		}
		if adj == 0 {
			continue
		}
		dst = append(dst, target{id: id, adj: adj, cost: s.TakeTime(c, now) * min(1, 1-0.25*float64(adj-1))})
	}
	return dst
}

func attack(id int, boost bool) string {
	return `/attack {"cellx":` + strconv.Itoa(id%rules.Width) + `,"celly":` + strconv.Itoa(id/rules.Width) + `,"boost":` + strconv.FormatBool(boost) + `}`
}

func cellBody(ep string, id int) string {
	return ep + ` {"cellx":` + strconv.Itoa(id%rules.Width) + `,"celly":` + strconv.Itoa(id/rules.Width) + `}`
}

// best is the target with the lowest score, the lowest id on a tie.
func best(ts []target, score func(t target) float64) (target, bool) {
	if len(ts) == 0 {
		return target{}, false
	}
	bi, bs := 0, score(ts[0])
	for i := 1; i < len(ts); i++ {
		if sc := score(ts[i]); sc < bs {
			bi, bs = i, sc
		}
	}
	return ts[bi], true
}

// attackCheapest attacks the target of ts that costs the least, a gold
// or energy cell's cost divided by discount; "" when there is none.
func attackCheapest(s *rules.State, ts []target, discount float64) string {
	t, ok := best(ts, func(t target) float64 {
		c := t.cost
		if s.Cells[t.id].Type != rules.Normal {
			c /= discount
		}
		return c
	})
	if !ok {
		return ""
	}
	return attack(t.id, false)
}

func expander(b *bot, g *rules.Game, p int) string {
	s := g.State
	return attackCheapest(s, targets(s, g.UID(p), nil), 3)
}

func economist(b *bot, g *rules.Game, p int) string {
	s := g.State
	u := s.User(g.UID(p))
	now := s.Now()
	if u.Gold >= 60 && u.BuildCDTime <= now && u.Bases < 3 {
		for id := range s.Cells {
			c := &s.Cells[id]
			if int(c.Owner) == u.ID && !c.IsTaking && !c.Base && b.src.Intn(8) == 0 {
				return cellBody("/buildbase", id)
			}
		}
	}
	ts := targets(s, u.ID, nil)
	if u.Gold >= 40 && (u.Bases >= 3 || u.Gold >= 80) && len(ts) > 0 {
		return cellBody("/multiattack", ts[b.src.Intn(len(ts))].id)
	}
	return attackCheapest(s, ts, 10)
}

func aggressor(b *bot, g *rules.Game, p int) string {
	s := g.State
	u := s.User(g.UID(p))
	uid := int32(u.ID)
	if u.Energy >= 30 {
		for id := range s.Cells {
			c := &s.Cells[id]
			if c.Owner != uid {
				continue
			}
			x, y := id%rules.Width, id/rules.Width
			enemies := 0
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx >= 0 && nx < rules.Width && ny >= 0 && ny < rules.Height {
						if o := s.Cells[nx+rules.Width*ny].Owner; o != 0 && o != uid {
							enemies++
						}
					}
				}
			}
			if enemies >= 2 {
				return `/blast {"cellx":` + strconv.Itoa(x) + `,"celly":` + strconv.Itoa(y) + `,"direction":"square"}`
			}
		}
	}
	t, ok := best(targets(s, u.ID, nil), func(t target) float64 {
		c := &s.Cells[t.id]
		sc := t.cost
		if c.Type == rules.Energy {
			sc *= 0.3
		}
		if c.Owner != 0 {
			sc *= 0.6
			if c.Base {
				sc *= 0.5
			}
		}
		return sc
	})
	if !ok {
		return ""
	}
	return attack(t.id, u.Energy >= 15 && s.Cells[t.id].Owner != 0 && t.cost > 8)
}

func random(b *bot, g *rules.Game, p int) string {
	ts := targets(g.State, g.UID(p), nil)
	if len(ts) == 0 {
		return ""
	}
	return attack(ts[b.src.Intn(len(ts))].id, b.src.Intn(20) == 0)
}
