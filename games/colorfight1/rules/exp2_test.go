package rules

import (
	"math"
	"testing"

	"github.com/rewind-game/rewind/engine/rng"
)

// TestExp2CorrectlyRounded: Exp2 equals 2^x computed at 320 bits and
// rounded once, on inputs spread over the range the rules evaluate
// ((−d)/30 for d up to 4000 s), on exact dyadic inputs and on integers.
func TestExp2CorrectlyRounded(t *testing.T) {
	src := rng.New(1)
	for i := range 40000 {
		var x float64
		switch i % 4 {
		case 0:
			x = -float64(src.Uint64()>>11) / (1 << 53) * 134
		case 1:
			x = -math.Ldexp(float64(src.Uint64()>>11)/(1<<53), -int(src.Uint64()%40))
		case 2:
			d := float64(src.Uint64()%16000000) / 4000 // a time difference in ticks of 0.25 ms
			x = (-d) / 30.0
		default:
			x = -float64(src.Uint64()%200000) / 64
		}
		if got, want := Exp2(x), exp2Big(x); got != want {
			t.Fatalf("Exp2(%x) = %x, want %x", x, got, want)
		}
	}
	for _, c := range [][2]float64{{0, 1}, {-1, 0.5}, {-133, 0x1p-133}, {1, 2}, {0.5, math.Sqrt2}} {
		if got := Exp2(c[0]); got != c[1] {
			t.Errorf("Exp2(%v) = %v, want %v", c[0], got, c[1])
		}
	}
}

// TestPow2Exceptions: a Pow2 returns its table's value on its inputs and
// Exp2 elsewhere.
func TestPow2Exceptions(t *testing.T) {
	p := NewPow2([]float64{-0.5, -2.25}, []float64{1, 2})
	if p.Of(-0.5) != 1 || p.Of(-2.25) != 2 || p.Of(-1) != 0.5 || p.Of(-0.25) != Exp2(-0.25) {
		t.Fatal("a Pow2 does not use its table")
	}
	var none *Pow2
	if none.Of(-0.5) != math.Sqrt2/2 {
		t.Fatal("a nil Pow2 is not Exp2")
	}
}

func BenchmarkExp2(b *testing.B) {
	x := -0.123456789
	s := 0.0
	for i := 0; i < b.N; i++ {
		s += Exp2(x)
		x -= 1e-7
	}
	_ = s
}
