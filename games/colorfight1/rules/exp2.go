package rules

import (
	"math"
	"math/big"
	"slices"
)

// This file holds 2^x as the reference computes it (RULES §12.5): the
// reference's `2 ** x` is C pow(2.0, x) of glibc 2.36 (x86-64, FMA
// variant), which is not correctly rounded. Exp2 is the correctly
// rounded 2^x; a Pow2 adds a table of the inputs where glibc's result
// differs from it (a vector's pow_exceptions), which together give
// glibc's value on every input the vectors evaluate.
//
// Exp2 works in double-double arithmetic (about 106 bits) built from
// exact IEEE operations only (Dekker's product, Knuth's sum; no FMA, so
// that GOARCH=386 gives the same bits), with an error bound; an input
// whose result lies too close to a rounding boundary for that bound is
// recomputed with math/big at 320 bits. Every float64 product below that
// must round on its own is written float64(a*b), which the Go
// specification guarantees is not fused with a following addition.

// Exp2 returns 2^x correctly rounded to nearest even, for the inputs the
// rules evaluate (x ≤ 0 with 2^x a normal number; any finite x whose
// 2^x is a normal float64 works).
func Exp2(x float64) float64 {
	if x != x || math.IsInf(x, 0) {
		return math.Exp2(x)
	}
	n := math.RoundToEven(x)
	if n == x {
		return math.Ldexp(1, int(n))
	}
	if n < -960 || n > 960 { // near the ends of the exponent range
		return exp2Big(x)
	}
	// r = x − n and s = r − k/64 are exact: n is the nearest integer,
	// k/64 the nearest multiple of 1/64, and both differences are
	// multiples of x's ulp small enough to have 53 bits.
	r := x - n // |r| ≤ 1/2
	k := int(math.RoundToEven(r * 64))
	s := r - float64(k)/64 // |s| ≤ 1/128
	// u = s·ln 2 in double-double.
	uh, ul := twoProd(s, ln2Hi)
	ul += float64(s * ln2Lo)
	uh, ul = fastTwoSum(uh, ul)
	// exp(u) = Σ u^i/i!, i ≤ 11, by Horner: the terms from u^6 on
	// (below 2^-48 of the sum) in float64, the rest in double-double.
	q := invFact[len(invFact)-1][0]
	for i := len(invFact) - 2; i >= 6; i-- {
		q = float64(q*uh) + invFact[i][0]
	}
	ph, pl := q, 0.0
	for i := 5; i >= 0; i-- {
		ph, pl = ddMul(ph, pl, uh, ul)
		ph, pl = ddAdd(ph, pl, invFact[i][0], invFact[i][1])
	}
	t := exp2Table[k+32]
	ph, pl = ddMul(ph, pl, t[0], t[1])
	ph, pl = math.Ldexp(ph, int(n)), math.Ldexp(pl, int(n))
	// The true value is within ph+pl ± e: if both ends round alike,
	// that is the correctly rounded result.
	e := math.Abs(ph) * 0x1p-96
	if a, b := ph+(pl-e), ph+(pl+e); a == b {
		return a
	}
	return exp2Big(x)
}

const (
	ln2Hi = 0x1.62e42fefa39efp-01
	ln2Lo = 0x1.abc9e3b39803fp-56
)

// twoProd returns a·b as hi + lo exactly (Dekker).
func twoProd(a, b float64) (hi, lo float64) {
	hi = float64(a * b)
	ah, al := split(a)
	bh, bl := split(b)
	lo = float64(float64(float64(float64(ah*bh)-hi)+float64(ah*bl))+float64(al*bh)) + float64(al*bl)
	return hi, lo
}

// split splits a into two halves of 26 bits each, a = hi + lo.
func split(a float64) (hi, lo float64) {
	c := float64(134217729 * a) // 2^27 + 1
	hi = c - (c - a)
	return hi, a - hi
}

// twoSum returns a+b as s + e exactly (Knuth).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return s, e
}

// fastTwoSum is twoSum for |a| ≥ |b|.
func fastTwoSum(a, b float64) (s, e float64) {
	s = a + b
	return s, b - (s - a)
}

func ddAdd(ah, al, bh, bl float64) (float64, float64) {
	s, e := twoSum(ah, bh)
	t, f := twoSum(al, bl)
	e += t
	s, e = fastTwoSum(s, e)
	e += f
	return fastTwoSum(s, e)
}

func ddMul(ah, al, bh, bl float64) (float64, float64) {
	p, e := twoProd(ah, bh)
	e += float64(ah*bl) + float64(al*bh)
	return fastTwoSum(p, e)
}

// exp2Table[k+32] is 2^(k/64) in double-double, k = −32..32; invFact[i]
// is 1/i! in double-double, i = 0..11.
var exp2Table, invFact = tables()

func tables() (t [65][2]float64, f [12][2]float64) {
	for i := range t {
		v := bigExp2(new(big.Float).SetPrec(bigPrec).Quo(big.NewFloat(float64(i-32)).SetPrec(bigPrec), big.NewFloat(64)))
		t[i] = ddOf(v)
	}
	fact := new(big.Float).SetPrec(bigPrec).SetInt64(1)
	for i := range f {
		if i > 0 {
			fact.Mul(fact, new(big.Float).SetInt64(int64(i)))
		}
		f[i] = ddOf(new(big.Float).SetPrec(bigPrec).Quo(new(big.Float).SetPrec(bigPrec).SetInt64(1), fact))
	}
	return t, f
}

// ddOf rounds v to a double-double.
func ddOf(v *big.Float) [2]float64 {
	hi, _ := v.Float64()
	lo, _ := new(big.Float).SetPrec(bigPrec).Sub(v, new(big.Float).SetFloat64(hi)).Float64()
	return [2]float64{hi, lo}
}

const bigPrec = 320

// exp2Big is 2^x computed at bigPrec bits and rounded once.
func exp2Big(x float64) float64 {
	v, _ := bigExp2(new(big.Float).SetPrec(bigPrec).SetFloat64(x)).Float64()
	return v
}

// bigLn2 is ln 2 at bigPrec bits: 2·atanh(1/3) = Σ 2/((2i+1)·3^(2i+1)).
var bigLn2 = func() *big.Float {
	sum := new(big.Float).SetPrec(bigPrec)
	p := new(big.Float).SetPrec(bigPrec).Quo(big.NewFloat(2), big.NewFloat(3)) // 2/3^(2i+1)
	nine := big.NewFloat(9)
	for i := int64(0); i < 200; i++ {
		term := new(big.Float).SetPrec(bigPrec).Quo(p, new(big.Float).SetInt64(2*i+1))
		sum.Add(sum, term)
		p.Quo(p, nine)
	}
	return sum
}()

// bigExp2 returns 2^x at bigPrec bits: 2^n · exp(r·ln 2) with x = n + r,
// the exponential by its series on (r·ln 2)/2^16 squared 16 times.
func bigExp2(x *big.Float) *big.Float {
	fl, _ := x.Float64()
	n := math.Floor(fl)
	r := new(big.Float).SetPrec(bigPrec).Sub(x, big.NewFloat(n))
	y := new(big.Float).SetPrec(bigPrec).Mul(r, bigLn2)
	y.SetMantExp(y, -16)
	sum := new(big.Float).SetPrec(bigPrec).SetInt64(1)
	term := new(big.Float).SetPrec(bigPrec).SetInt64(1)
	for i := int64(1); i < 40; i++ {
		term.Mul(term, y)
		term.Quo(term, new(big.Float).SetInt64(i))
		sum.Add(sum, term)
	}
	for range 16 {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(n))
}

// Pow2 is the reference's `2 ** x`: Exp2, except on the inputs of its
// exception table, where it is the value the table gives (the reference
// machine's pow where it is not correctly rounded). The zero Pow2 is the
// correctly rounded 2^x.
type Pow2 struct {
	x []uint64 // the inputs' bits, ascending
	y []float64
}

// NewPow2 returns the Pow2 whose exceptions are y[i] at x[i]. It panics
// when the lengths differ.
func NewPow2(x, y []float64) *Pow2 {
	if len(x) != len(y) {
		panic("colorfight1: pow exceptions of unequal lengths")
	}
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		ba, bb := math.Float64bits(x[a]), math.Float64bits(x[b])
		switch {
		case ba < bb:
			return -1
		case ba > bb:
			return 1
		}
		return 0
	})
	p := &Pow2{x: make([]uint64, len(x)), y: make([]float64, len(x))}
	for i, j := range idx {
		p.x[i], p.y[i] = math.Float64bits(x[j]), y[j]
	}
	return p
}

// Of returns 2^x as the reference computes it.
func (p *Pow2) Of(x float64) float64 {
	if p != nil && len(p.x) > 0 {
		if i, ok := slices.BinarySearch(p.x, math.Float64bits(x)); ok {
			return p.y[i]
		}
	}
	return Exp2(x)
}
