package bots

import (
	"github.com/rewind-game/rewind/engine"
	monad "github.com/rewind-game/rewind/games/monad/rules"
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
	newBot := func() engine.ViewBot[*monad.State] {
		b, _ := Builtin(name)
		return engine.ViewBot[*monad.State]{Start: b.Start, Commands: b.Commands}
	}
	return engine.ViewBuiltin(name, doc, newBot, view)
}

// view shows a bot the State of a *monad.Game (none of any other game)
// and starts it as player p, as Monad's bots always were.
func view(g engine.Game, p int) (*monad.State, int, bool) {
	mg, ok := g.(*monad.Game)
	if !ok {
		return nil, 0, false
	}
	return mg.State, p, true
}
