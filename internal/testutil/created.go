package testutil

import (
	"os"
	"testing"
	"time"

	"github.com/rewind-game/rewind/replay"
)

// SetCreated rewrites the .rwd at path as if it had been recorded at
// created (replay.SetCreated), failing the test when it cannot.
func SetCreated(tb testing.TB, path string, created time.Time) {
	tb.Helper()
	out, err := replay.SetCreated(ReadFile(tb, path), created)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		tb.Fatal(err)
	}
}
