// Package simtest re-simulates recordings for the tests of several
// packages: the one loop over a replay.Sim's rounds they share.
package simtest

import (
	"errors"
	"io"
	"os"
	"testing"

	"github.com/rewind-game/rewind/replay"
)

// Resimulate opens the recording read from r (named name in failures)
// and steps through all its rounds, calling round after each one when it
// is not nil. It returns the Sim at the end of the recording, with its
// last game state; the Sim is closed when the test ends. Opening or
// re-simulating errors fail the test.
func Resimulate(tb testing.TB, name string, r io.Reader, round func(*replay.Sim)) *replay.Sim {
	tb.Helper()
	sim, err := replay.OpenSim(r)
	if err != nil {
		tb.Fatalf("opening %s: %v", name, err)
	}
	tb.Cleanup(func() { sim.Close() })
	for {
		err := sim.Next()
		if errors.Is(err, io.EOF) {
			return sim
		}
		if err != nil {
			tb.Fatalf("re-simulating %s: %v", name, err)
		}
		if round != nil {
			round(sim)
		}
	}
}

// ResimulateFile is Resimulate of the recording at path.
func ResimulateFile(tb testing.TB, path string, round func(*replay.Sim)) *replay.Sim {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	return Resimulate(tb, path, f, round)
}
