package cfr

import (
	"bytes"
	"io"
	"testing"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// BenchmarkDecode decodes every frame of c03.cfr (8 players, 500 turns,
// about 800 KB of gzip) per iteration.
func BenchmarkDecode(b *testing.B) {
	data := readShared(b, "conformance/c03.cfr")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var f colorfight2.Frame
	for b.Loop() {
		d, err := NewDecoder(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			err := d.Next(&f)
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 501 {
			b.Fatalf("%d frames", n)
		}
	}
}

// BenchmarkDecodeJSON decodes every frame of c03's decompressed JSON: the
// parsing alone, without gzip.
func BenchmarkDecodeJSON(b *testing.B) {
	data := gunzip(b, readShared(b, "conformance/c03.cfr"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var f colorfight2.Frame
	for b.Loop() {
		d, err := NewDecoder(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		for {
			err := d.Next(&f)
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
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
		for i := range frames {
			if err := e.WriteFrame(&frames[i]); err != nil {
				b.Fatal(err)
			}
		}
		if err := e.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
