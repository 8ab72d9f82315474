// Package vectorstest helps tests read the Monad conformance vectors.
package vectorstest

import (
	"os"
	"testing"

	"github.com/rewind-game/rewind/games/monad/vectors"
)

// Vector parses the Monad vector command file at path, failing the test
// on any error.
func Vector(tb testing.TB, path string) *vectors.Vector {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	v, err := vectors.ParseVector(b)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return v
}
