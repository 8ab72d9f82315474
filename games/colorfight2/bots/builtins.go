package bots

import (
	"github.com/rewind-game/rewind/engine"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// Builtins are the built-in strategies as the registry lists them
// (package rulesets) for matches played through the seam, in the order a
// match seats them by default (BuiltinNames').
var Builtins = []engine.Builtin{
	builtin("economist", "expands moderately and invests its gold in mines, Home upgrades, then building upgrades"),
	builtin("greedy", "expands as fast as it can toward the richest cells and builds nothing"),
	builtin("raider", "hunts enemy Homes, whose capture steals a third of their owner's gold"),
	builtin("random", "attacks random adjacent cells and now and then builds at random"),
	builtin("runtimeterrors", "the greedy expander of the RuntimeTerrors team's official replays"),
	builtin("turtle", "grows slowly, fortifies its border and defends its threatened cells"),
}

func builtin(name, doc string) engine.Builtin {
	newBot := func() engine.ViewBot[*colorfight2.Frame] {
		b, _ := Builtin(name)
		return engine.ViewBot[*colorfight2.Frame]{Start: b.Start, Commands: b.Commands}
	}
	return engine.ViewBuiltin(name, doc, newBot, view)
}

// view shows a bot the frame of a *colorfight2.Game (none of any other
// game) and starts it as uid p+1, as ColorfightII's bots always were.
func view(g engine.Game, p int) (*colorfight2.Frame, int, bool) {
	cg, ok := g.(*colorfight2.Game)
	if !ok {
		return nil, 0, false
	}
	return cg.Frame(), p + 1, true
}
