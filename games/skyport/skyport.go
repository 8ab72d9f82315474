// Package skyport registers Skyport (Rev 1: a hex duel for 2–8 players on
// a diamond map, one player acting at a time, bit-exact with its reference
// server) with the engine: its rules (games/skyport/rules), built-in bots,
// conformance vectors, the reference's .jsn recordings and its TCP
// protocol. A program that imports it (games/all does) plays, records,
// reads and serves the game.
package skyport

import (
	_ "embed"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/skyport/bots"
	"github.com/rewind-game/rewind/games/skyport/formats/jsn"
	"github.com/rewind-game/rewind/games/skyport/protocol"
	"github.com/rewind-game/rewind/games/skyport/rules"
	"github.com/rewind-game/rewind/games/skyport/vectors"
)

// boardScript is the game's painter on the replay page.
//
//go:embed board.js
var boardScript []byte

func init() {
	engine.Register(engine.Registration{
		Ruleset: rules.Ruleset,
		Name:    "Skyport",
		// One round is one player-turn; the limit counts the players'
		// loadout rounds too (docs/skyport.md).
		MinPlayers: 2, MaxPlayers: rules.MaxPlayers,
		MinTurns: rules.MaxPlayers + 1, MaxTurns: 100000, DefaultTurns: rules.DefaultMaxTurns,
		Round: "turns",
		Bots:  bots.Builtins,
		Vectors: &engine.Vectors{Input: ".input.json", Expected: ".states.json.gz", Conform: vectors.Conform,
			ProbesFile: "probes.json", CheckProbes: vectors.Probes, Sniff: vectors.Sniff},
		Formats:      []engine.Format{{Name: jsn.Name, Exts: []string{".jsn"}, Sniff: jsn.Sniff, Open: jsn.Open}},
		Protocol:     protocol.Server{},
		SetupFromMap: rules.SetupFromMap,
		BoardScript:  boardScript,
	})
}
