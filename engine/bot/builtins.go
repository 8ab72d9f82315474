package bot

import (
	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/colorfight2"
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
	return engine.Builtin{Name: name, Doc: doc, New: func(seed uint64) engine.Strategy {
		b, _ := Builtin(name)
		return &strategy{b: b, seed: seed}
	}}
}

// strategy plays a Bot through the seam: it starts the bot as uid p+1 of
// its first call with the seed it was made with (match.BuiltinPlayer's:
// the seat's BotSeed), and shows it the game's Frame.
type strategy struct {
	b       Bot
	seed    uint64
	started bool
}

func (s *strategy) Name() string { return s.b.Name() }

// Commands appends the bot's commands for player p of g, a
// *colorfight2.Game (none for any other game).
func (s *strategy) Commands(g engine.Game, p int, dst []string) []string {
	cg, ok := g.(*colorfight2.Game)
	if !ok {
		return dst
	}
	if !s.started {
		s.started = true
		if s.b.Start(p+1, s.seed) != nil {
			return dst
		}
	}
	cs, err := s.b.Commands(cg.Frame())
	if err != nil {
		return dst
	}
	return append(dst, cs...)
}
