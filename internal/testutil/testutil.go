// Package testutil holds helpers shared by the project's tests.
package testutil

import (
	"compress/gzip"
	"io"
	"os"
	"testing"

	monadvectors "github.com/rewind-game/rewind/games/monad/vectors"
)

// GunzipFile returns the decompressed contents of the gzip file at path,
// failing the test on any error.
func GunzipFile(tb testing.TB, path string) []byte {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// MonadVector parses the Monad vector command file at path, failing the
// test on any error.
func MonadVector(tb testing.TB, path string) *monadvectors.Vector {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	v, err := monadvectors.ParseVector(b)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return v
}

// MonadStates parses the gzip'd Monad vector states file at path,
// failing the test on any error.
func MonadStates(tb testing.TB, path string) *monadvectors.States {
	tb.Helper()
	st, err := monadvectors.ParseStates(GunzipFile(tb, path))
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return st
}
