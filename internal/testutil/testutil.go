// Package testutil holds helpers shared by the project's tests.
package testutil

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"
)

// ReadFile returns the contents of the file at path, failing the test on
// any error.
func ReadFile(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// Gunzip returns the decompressed contents of the gzip data gz, failing
// the test on any error.
func Gunzip(tb testing.TB, gz []byte) []byte {
	tb.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		tb.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// GunzipFile returns the decompressed contents of the gzip file at path,
// failing the test on any error.
func GunzipFile(tb testing.TB, path string) []byte {
	tb.Helper()
	return Gunzip(tb, ReadFile(tb, path))
}
