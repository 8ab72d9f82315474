// Package cfrtest helps tests make official ColorfightII replays of their
// own from existing ones (altered cases of a real or conformance replay).
package cfrtest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// Rewrite decodes the .cfr at path, lets edit change each frame in turn
// (frame 0 first), and returns the frames re-encoded with the file's own
// header. Any error fails tb.
func Rewrite(tb testing.TB, path string, edit func(f *colorfight2.Frame)) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := cfr.NewDecoder(bytes.NewReader(b))
	if err != nil {
		tb.Fatal(err)
	}
	var out bytes.Buffer
	enc, err := cfr.NewEncoder(&out, d.Header())
	if err != nil {
		tb.Fatal(err)
	}
	var f colorfight2.Frame
	for {
		err := d.Next(&f)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		edit(&f)
		if err := enc.WriteFrame(&f); err != nil {
			tb.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		tb.Fatal(err)
	}
	return out.Bytes()
}

// Open opens the official replay at path for a test: the file and the
// decoder are closed when the test ends. Any error fails tb.
func Open(tb testing.TB, path string) *cfr.Decoder {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := cfr.NewDecoder(f)
	if err != nil {
		f.Close()
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		d.Close()
		f.Close()
	})
	return d
}

// Frames decodes every frame of the official replay at path, frame 0
// first. Any error fails tb.
func Frames(tb testing.TB, path string) []colorfight2.Frame {
	tb.Helper()
	d := Open(tb, path)
	var out []colorfight2.Frame
	for {
		var f colorfight2.Frame
		err := d.Next(&f)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, f)
	}
}
