package rules_test

import (
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight1/bots"
	"github.com/rewind-game/rewind/games/colorfight1/rules"
)

// builtinsMatch is a game of seed 9 played by the built-ins, seat p
// by bots.Builtins[p%len] seeded p: the game the tests and the
// benchmarks of this package play.
type builtinsMatch struct {
	g    engine.Game
	ss   []engine.Strategy
	cmds [][]string
}

// newBuiltinsMatch starts a match of players built-ins limited to ticks.
func newBuiltinsMatch(tb testing.TB, players, ticks int) *builtinsMatch {
	tb.Helper()
	g, err := rules.Ruleset.New(9, engine.Settings{Players: players, MaxTurns: ticks})
	if err != nil {
		tb.Fatal(err)
	}
	return &builtinsMatch{g: g, ss: builtins(players), cmds: make([][]string, players)}
}

// builtins returns n strategies, seat p's bots.Builtins[p%len] seeded p.
func builtins(n int) []engine.Strategy {
	ss := make([]engine.Strategy, n)
	for p := range ss {
		ss[p] = bots.Builtins[p%len(bots.Builtins)].New(uint64(p))
	}
	return ss
}

// tick asks every seat for its commands and plays them.
func (m *builtinsMatch) tick() {
	for p := range m.ss {
		m.cmds[p] = m.ss[p].Commands(m.g, p, m.cmds[p][:0])
	}
	m.g.Round(m.cmds)
}
