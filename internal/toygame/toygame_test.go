package toygame

import (
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/enginetest"
)

// TestEngineContracts: both toy games keep every contract of package
// engine that holds for any game (enginetest).
func TestEngineContracts(t *testing.T) {
	for _, r := range []engine.Ruleset{Ruleset, Sequential} {
		t.Run(r.ID(), func(t *testing.T) {
			enginetest.Run(t, engine.Registration{Ruleset: r, Name: "Toy", MinPlayers: 1, MaxPlayers: 4,
				MinTurns: 1, MaxTurns: 1000, DefaultTurns: 40, Round: "rounds",
				Bots: []engine.Builtin{{Name: "painter", Doc: "paints where it stands, else walks", New: NewPainter}}})
		})
	}
}
