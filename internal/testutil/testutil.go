// Package testutil holds helpers shared by the project's tests.
package testutil

import (
	"compress/gzip"
	"io"
	"os"
	"testing"
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
