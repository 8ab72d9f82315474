package monad

import (
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/enginetest"
)

// TestEngineContracts: the game's registration and rules keep every
// contract of package engine that holds for any game (enginetest).
func TestEngineContracts(t *testing.T) {
	g, ok := engine.About("monad")
	if !ok {
		t.Fatal("not registered")
	}
	enginetest.Run(t, g)
}
