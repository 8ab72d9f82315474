package cfrstream_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrstream"
	"github.com/rewind-game/rewind/internal/testutil"
)

// benchStream reads every frame of conformance vector c03 (500 rounds)
// through the stream open gives; with inferred, every round after frame 0
// must have its commands.
func benchStream(b *testing.B, open func(io.Reader) (engine.Stream, error), inferred bool) {
	data := testutil.ReadFile(b, "../../../../../testdata/conformance/c03.cfr")
	b.ReportAllocs()
	var f engine.Frame
	for b.Loop() {
		s, err := open(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		n := testutil.EachFrame(b, &f, s.Next, func(n int) {
			if inferred && n > 0 && !f.CommandsKnown {
				b.Fatalf("turn %d: not explained", n)
			}
		})
		s.Close()
		if n != 501 {
			b.Fatalf("%d frames", n)
		}
	}
}

// BenchmarkOpen streams c03.cfr as Open reads it: decoded, each frame
// loaded and described, with its figures.
func BenchmarkOpen(b *testing.B) { benchStream(b, cfrstream.Open, false) }

// BenchmarkOpenInferred streams c03.cfr as OpenInferred reads it: Open's
// frames with every round's commands inferred.
func BenchmarkOpenInferred(b *testing.B) { benchStream(b, cfrstream.OpenInferred, true) }
