package monadbot

import (
	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/monad"
)

// Builtins are the built-in strategies as the registry lists them
// (package rulesets) for matches played through the seam, in the order a
// match seats them by default: expander, miner, rusher, then idle.
var Builtins = []engine.Builtin{
	builtin("expander", "spreads out, one unit mining per cell, and builds hives 3 steps from its own"),
	builtin("miner", "stays put and mines with every unit, building a hive wherever it can afford one"),
	builtin("rusher", "builds an economy like the miner, then marches on the nearest enemy hive"),
	builtin("idle", "sends no commands (a baseline)"),
}

func builtin(name, doc string) engine.Builtin {
	return engine.Builtin{Name: name, Doc: doc, New: func(seed uint64) engine.Strategy {
		b, _ := Builtin(name)
		return &strategy{b: b, seed: seed}
	}}
}

// strategy plays a Bot through the seam: it starts the bot with the
// player of its first call and the seed it was made with, as a Monad
// match started its bots, and reads the game's State.
type strategy struct {
	b       Bot
	seed    uint64
	started bool
}

func (s *strategy) Name() string { return s.b.Name() }

// Commands appends the bot's commands for player p of g, a *monad.Game
// (none for any other game).
func (s *strategy) Commands(g engine.Game, p int, dst []string) []string {
	mg, ok := g.(*monad.Game)
	if !ok {
		return dst
	}
	if !s.started {
		s.started = true
		if s.b.Start(p, s.seed) != nil {
			return dst
		}
	}
	cs, err := s.b.Commands(mg.State)
	if err != nil {
		return dst
	}
	return append(dst, cs...)
}
