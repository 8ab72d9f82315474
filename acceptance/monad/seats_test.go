package monad_test

import (
	"testing"

	"github.com/rewind-game/rewind/internal/clitest"
)

// TestSeatsNumberedFromOne: play's, analyze's and the report's tables of
// a Monad game number the seats from 1, as `rewind info` and `--bot
// SEAT=…` do: the seat of "2_miner" is 2.
func TestSeatsNumberedFromOne(t *testing.T) {
	clitest.CheckSeatsNumbered(t, "monad", map[string]int{"1_expander": 1, "2_miner": 2, "3_rusher": 3})
}
