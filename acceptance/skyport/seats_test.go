package skyport_test

import (
	"testing"

	"github.com/rewind-game/rewind/internal/clitest"
)

// TestSeatsNumberedFromOne: play's, analyze's and the report's tables of
// a Skyport game number the seats from 1, as `rewind info` and `--bot
// SEAT=…` do: the seat of "2_artillery" is 2.
func TestSeatsNumberedFromOne(t *testing.T) {
	clitest.CheckSeatsNumbered(t, "skyport", map[string]int{"1_hunter": 1, "2_artillery": 2, "3_miner": 3, "4_random": 4})
}
