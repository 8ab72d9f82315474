// Package rng is a small, fully specified pseudo-random number generator.
//
// It exists so that a seed means the same sequence forever, on every
// platform and in every language: the algorithm below is the whole contract
// and anyone can reimplement it. It uses integer arithmetic only (no floats),
// has no global state and does not depend on math/rand.
//
// # Algorithm
//
// All arithmetic is on unsigned 64-bit integers, wrapping modulo 2^64.
//
// State: a single uint64, state. New(seed) sets state = seed. The zero value
// of Source is therefore the same generator as New(0).
//
// Uint64 is SplitMix64:
//
//	state += 0x9E3779B97F4A7C15
//	z := state
//	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
//	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
//	return z ^ (z >> 31)
//
// Bounded draws use rejection so that every value is exactly equally likely.
// For a bound m >= 1 (a uint64), uniform(m) is:
//
//	threshold := (0 - m) % m   // == 2^64 mod m
//	loop:
//	    v := Uint64()
//	    if v >= threshold { return v % m }
//
// The number of accepted values, 2^64 - threshold, is a multiple of m, so
// v % m is unbiased. Every rejected v consumes one Uint64 output.
//
// Intn(n) is uniform(uint64(n)), for n >= 1; it panics if n <= 0.
//
// Range(lo, hi) is lo + uniform(hi - lo + 1), the difference computed in
// uint64 arithmetic (exact whenever lo <= hi); it panics if hi < lo. When
// hi - lo + 1 wraps to 0 (lo and hi are the minimum and maximum int on a
// 64-bit platform) the result is the bits of a single Uint64 call.
//
// Shuffle(n, swap) is Fisher–Yates from the top; swap is called even when
// i == j, and Shuffle panics if n < 0:
//
//	for i := n - 1; i >= 1; i-- {
//	    j := Intn(i + 1)
//	    swap(i, j)
//	}
//
// Because bounds are converted to uint64 before any arithmetic, results are
// identical on 32-bit and 64-bit platforms for every argument both accept.
package rng

// Source is a SplitMix64 generator. It is not safe for concurrent use.
// The zero value is valid and equals New(0).
type Source struct {
	state uint64
}

// New returns a Source whose state is seed.
func New(seed uint64) *Source {
	return &Source{state: seed}
}

// Uint64 returns the next SplitMix64 output (see the package documentation).
func (s *Source) Uint64() uint64 {
	s.state += 0x9E3779B97F4A7C15
	z := s.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// uniform returns a value uniform in [0, m) by rejection; m must be >= 1.
func (s *Source) uniform(m uint64) uint64 {
	threshold := -m % m
	for {
		v := s.Uint64()
		if v >= threshold {
			return v % m
		}
	}
}

// Intn returns a value uniform in [0, n), without bias, using rejection as
// specified in the package documentation. It panics if n <= 0.
func (s *Source) Intn(n int) int {
	if n <= 0 {
		panic("rng: Intn called with n <= 0")
	}
	return int(s.uniform(uint64(n)))
}

// Range returns a value uniform in [lo, hi], both ends inclusive, computed as
// lo + uniform(hi-lo+1) (see the package documentation). It panics if hi < lo.
func (s *Source) Range(lo, hi int) int {
	if hi < lo {
		panic("rng: Range called with hi < lo")
	}
	span := uint64(hi) - uint64(lo) + 1
	if span == 0 { // the whole 64-bit int range
		return int(s.Uint64())
	}
	return lo + int(s.uniform(span))
}

// Shuffle permutes n elements with Fisher–Yates: for i from n-1 down to 1 it
// calls swap(i, j) with j = Intn(i+1) (also when i == j). It panics if n < 0.
func (s *Source) Shuffle(n int, swap func(i, j int)) {
	if n < 0 {
		panic("rng: Shuffle called with n < 0")
	}
	for i := n - 1; i >= 1; i-- {
		swap(i, s.Intn(i+1))
	}
}
