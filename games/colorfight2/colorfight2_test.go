package colorfight2

import (
	"testing"

	"github.com/rewind-game/rewind/engine/enginetest"
)

// TestEngineContracts: the game's registration and rules keep every
// contract of package engine that holds for any game (enginetest).
func TestEngineContracts(t *testing.T) {
	enginetest.RunRegistered(t, "colorfight2")
}
