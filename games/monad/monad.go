// Package monad registers Monad (Si32: units mine, move, fight and build
// hives on a 20×20 hex map, played as its reference engine plays it) with
// the engine: its rules (games/monad/rules), built-in bots, conformance
// vectors and the reference engine's logs. A program that imports it
// (games/all does) plays, records and reads the game.
package monad

import (
	_ "embed"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/monad/bots"
	"github.com/rewind-game/rewind/games/monad/formats/monadlog"
	"github.com/rewind-game/rewind/games/monad/rules"
	"github.com/rewind-game/rewind/games/monad/vectors"
)

// boardScript is the game's painter on the replay page.
//
//go:embed board.js
var boardScript []byte

func init() {
	engine.Register(engine.Registration{
		Ruleset:    rules.Ruleset,
		Name:       "Monad",
		MinPlayers: 2, MaxPlayers: rules.MaxPlayers, DefaultPlayers: 3,
		MinTurns: 1, MaxTurns: rules.MaxMaxTurns, DefaultTurns: rules.DefaultMaxTurns,
		Round:   "turns",
		Bots:    bots.Builtins,
		Vectors: &engine.Vectors{Input: ".commands.json", Expected: ".states.json.gz", Conform: vectors.Conform},
		// A reference log is named replay.json or NAME.mp.gz: endings
		// other files have (a notes.json is no replay), so its listers
		// sniff the content.
		Formats: []engine.Format{{Name: monadlog.Name, Exts: []string{".json", ".mp.gz"}, SharedExts: true,
			DecodeBytes: monadlog.DecodeBytes, Sniff: monadlog.Sniff, Open: monadlog.Open}},
		BoardScript: boardScript,
	})
}
