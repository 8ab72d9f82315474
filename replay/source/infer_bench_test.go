package source

import (
	"errors"
	"io"
	"testing"

	"github.com/rewind-game/rewind/engine/colorfight2"
)

// BenchmarkInfer reads conformance vector c03 (500 rounds) with its
// commands inferred (Infer), every round's asked for.
func BenchmarkInfer(b *testing.B) {
	b.ReportAllocs()
	var f colorfight2.Frame
	for b.Loop() {
		raw, err := Open("../../testdata/conformance/c03.cfr")
		if err != nil {
			b.Fatal(err)
		}
		src := Infer(raw)
		n := 0
		for ; ; n++ {
			err := src.Next(&f)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if _, _, ok := src.Round(); !ok && n > 0 {
				b.Fatalf("turn %d: not explained", n)
			}
		}
		src.Close()
		if n != 501 {
			b.Fatalf("%d frames", n)
		}
	}
}
