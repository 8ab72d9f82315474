// Package colorfight1 registers ColorFight v1 (the real-time predecessor
// of ColorfightII: a 30×30 map, attacks that take seconds, gold and
// energy cells, bases, boosts, blasts and multiattacks, played on a
// fixed tick, bit-exact with its reference server) with the engine: its
// rules (games/colorfight1/rules), built-in bots and conformance
// vectors. A program that imports it (games/all does) plays and records
// the game.
package colorfight1

import (
	_ "embed"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight1/bots"
	"github.com/rewind-game/rewind/games/colorfight1/protocol"
	"github.com/rewind-game/rewind/games/colorfight1/rules"
	"github.com/rewind-game/rewind/games/colorfight1/vectors"
)

// boardScript is the game's painter on the replay page.
//
//go:embed board.js
var boardScript []byte

func init() {
	engine.Register(engine.Registration{
		Ruleset: rules.Ruleset,
		Name:    "ColorFight",
		// A turn is one tick; seats join mid-game (rules.Game).
		MinPlayers: 1, MaxPlayers: rules.MaxPlayers, DefaultPlayers: 4,
		MinTurns: 1, MaxTurns: rules.MaxMaxTurns, DefaultTurns: rules.DefaultMaxTurns,
		Round:   "ticks",
		Bots:    bots.Builtins,
		Vectors: &engine.Vectors{Input: vectors.Input, Expected: vectors.Expected, Conform: vectors.Conform},
		// The reference's HTTP endpoints, on the tick (rewind server).
		Protocol:    protocol.Server{},
		BoardScript: boardScript,
		// A seat is named by its player's /joingame (rules.Game.PlayerName).
		NamedInPlay: true,
	})
}
