package cfr

import (
	"bytes"
	"io"
	"testing"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/testutil"
)

// BenchmarkDecode decodes every frame of c03.cfr (8 players, 500 turns,
// about 800 KB of gzip) per iteration.
func BenchmarkDecode(b *testing.B) {
	benchDecode(b, readShared(b, "conformance/c03.cfr"), 501)
}

// BenchmarkDecodeJSON decodes every frame of c03's decompressed JSON: the
// parsing alone, without gzip.
func BenchmarkDecodeJSON(b *testing.B) {
	benchDecode(b, testutil.Gunzip(b, readShared(b, "conformance/c03.cfr")), 501)
}

// benchDecode decodes every frame of data per iteration, failing b unless
// there are frames of them.
func benchDecode(b *testing.B, data []byte, frames int) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var f colorfight2.Frame
	for b.Loop() {
		d, err := NewDecoder(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if n := drain(b, d, &f, nil); n != frames {
			b.Fatalf("%d frames, want %d", n, frames)
		}
	}
}

// BenchmarkEncode re-encodes the frames of c03.cfr (gzip output).
func BenchmarkEncode(b *testing.B) {
	_, frames, err := decodeAll(readShared(b, "conformance/c03.cfr"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		e, err := NewEncoder(io.Discard, Header{})
		if err != nil {
			b.Fatal(err)
		}
		writeFrames(b, e, frames)
	}
}
