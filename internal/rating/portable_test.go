package rating

import (
	"hash/fnv"
	"math"
	"testing"
)

// TestExp: exp agrees with math.Exp to 2 ulp (each is within 1 of e**x) wherever e**x is a normal
// float, and its
// edges are exact.
func TestExp(t *testing.T) {
	for x := -708.0; x < 709.7; x += 0.0137 {
		a, b := exp(x), math.Exp(x)
		if b != 0 && math.Abs(a-b)/b > 0x1p-51 {
			t.Fatalf("exp(%v) = %v, math.Exp %v", x, a, b)
		}
	}
	for _, c := range []struct{ x, want float64 }{
		{0, 1}, {1e-30, 1}, {710, math.Inf(1)}, {-746, 0}, {math.Inf(-1), 0}, {math.Inf(1), math.Inf(1)},
	} {
		if got := exp(c.x); got != c.want {
			t.Errorf("exp(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if !math.IsNaN(exp(math.NaN())) {
		t.Error("exp(NaN) is not NaN")
	}
}

// ratingsDigest rates a fixed series of 300 games of 2 to 8 players
// (ties included) among 12 players, by Weng–Lin and by Elo, and returns
// an FNV-64a of every resulting float's bits.
func ratingsDigest(t *testing.T) uint64 {
	wl := make([]Rating, 12)
	elo := make([]float64, 12)
	for i := range wl {
		wl[i], elo[i] = Default.New(), EloStart
	}
	x := uint64(0x9E3779B97F4A7C15)
	next := func(n int) int {
		x = x*6364136223846793005 + 1442695040888963407
		return int(x>>33) % n
	}
	for g := 0; g < 300; g++ {
		n := 2 + next(7)
		seats := make([]int, 0, n)
		for len(seats) < n {
			p := next(12)
			dup := false
			for _, s := range seats {
				dup = dup || s == p
			}
			if !dup {
				seats = append(seats, p)
			}
		}
		ranks := make([]int, n)
		teams := make([][]Rating, n)
		before := make([]float64, n)
		for k, p := range seats {
			ranks[k] = 1 + next(n)
			teams[k] = []Rating{wl[p]}
			before[k] = elo[p]
		}
		out, err := Default.Rate(teams, ranks)
		if err != nil {
			t.Fatal(err)
		}
		d := EloDeltas(before, func(a, b int) (float64, bool) {
			switch {
			case ranks[a] < ranks[b]:
				return 1, true
			case ranks[a] > ranks[b]:
				return 0, true
			}
			return 0.5, true
		})
		for k, p := range seats {
			wl[p] = out[k][0]
			elo[p] += d[k]
		}
	}
	h := fnv.New64a()
	var b [8]byte
	put := func(f float64) {
		u := math.Float64bits(f)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
	for i := range wl {
		put(wl[i].Mu)
		put(wl[i].Sigma)
		put(elo[i])
	}
	return h.Sum64()
}

// TestSameOnEveryArch: the ratings of a fixed series of games are the
// same bits on every architecture (run it with GOARCH=386 too: the digest
// was taken on amd64).
func TestSameOnEveryArch(t *testing.T) {
	const want = 0xeedf5379982472f9
	if got := ratingsDigest(t); got != want {
		t.Errorf("digest of the ratings = %#x, want %#x", got, uint64(want))
	}
}
