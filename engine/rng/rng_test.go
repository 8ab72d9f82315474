package rng

import (
	"fmt"
	"testing"
)

// The expected values in these known-answer tests were computed independently
// with a direct Python 3 transcription of the algorithm in the package
// documentation (arbitrary-precision integers masked to 64 bits), not with
// this package. 0xe220a8397b1dcdaf is also the published first SplitMix64
// output for seed 0.

func TestUint64KnownAnswers(t *testing.T) {
	cases := []struct {
		seed uint64
		want []uint64
	}{
		{0, []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f, 0xf88bb8a8724c81ec, 0x1b39896a51a8749b}},
		{42, []uint64{0xbdd732262feb6e95, 0x28efe333b266f103, 0x47526757130f9f52, 0x581ce1ff0e4ae394, 0x09bc585a244823f2}},
	}
	for _, c := range cases {
		s := New(c.seed)
		for i, w := range c.want {
			if got := s.Uint64(); got != w {
				t.Errorf("seed %d output %d: got %#x, want %#x", c.seed, i, got, w)
			}
		}
	}
}

func TestZeroValueEqualsNew0(t *testing.T) {
	var z Source
	n := New(0)
	for i := 0; i < 10; i++ {
		if a, b := z.Uint64(), n.Uint64(); a != b {
			t.Fatalf("output %d: zero value %#x, New(0) %#x", i, a, b)
		}
	}
}

func TestIntnKnownAnswers(t *testing.T) {
	// Python 3, same transcription as above.
	check := func(seed uint64, n int, want []int) {
		t.Helper()
		s := New(seed)
		for i, w := range want {
			if got := s.Intn(n); got != w {
				t.Errorf("seed %d Intn(%d) #%d: got %d, want %d", seed, n, i, got, w)
			}
		}
	}
	check(42, 10, []int{3, 1, 8, 4, 0, 2, 5, 8, 5, 4})
	check(7, 6, []int{3, 0, 0, 3, 4, 3, 4, 0, 5, 5})
}

func TestIntnRejection(t *testing.T) {
	// For n = 2^63+1 the threshold is 2^63-1, so about half of all draws are
	// rejected; check that a rejected draw is skipped, not reduced.
	n := uint64(1)<<63 + 1
	threshold := -n % n
	ref := New(3)
	s := New(3)
	for i := 0; i < 100; i++ {
		var want uint64
		for {
			v := ref.Uint64()
			if v >= threshold {
				want = v % n
				break
			}
		}
		if got := s.uniform(n); got != want {
			t.Fatalf("draw %d: got %d, want %d", i, got, want)
		}
	}
}

func TestIntnRangeAndUniformity(t *testing.T) {
	s := New(12345)
	for _, n := range []int{1, 2, 3, 7, 10, 100} {
		const per = 2000
		counts := make([]int, n)
		for i := 0; i < per*n; i++ {
			v := s.Intn(n)
			if v < 0 || v >= n {
				t.Fatalf("Intn(%d) = %d out of range", n, v)
			}
			counts[v]++
		}
		// Each bucket has mean 2000 and sd < 45; allow +-10%.
		for v, c := range counts {
			if c < per*9/10 || c > per*11/10 {
				t.Errorf("Intn(%d): value %d drawn %d times, want about %d", n, v, c, per)
			}
		}
	}
}

func TestIntnPanics(t *testing.T) {
	for _, n := range []int{0, -1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Intn(%d) did not panic", n)
				}
			}()
			New(1).Intn(n)
		}()
	}
}

func TestRange(t *testing.T) {
	s := New(9)
	seen := map[int]bool{}
	for i := 0; i < 10000; i++ {
		v := s.Range(-3, 4)
		if v < -3 || v > 4 {
			t.Fatalf("Range(-3, 4) = %d", v)
		}
		seen[v] = true
	}
	if len(seen) != 8 {
		t.Errorf("Range(-3, 4) hit %d distinct values, want 8", len(seen))
	}
	if v := s.Range(5, 5); v != 5 {
		t.Errorf("Range(5, 5) = %d", v)
	}
	// Range(lo, hi) is defined as lo + Intn(hi-lo+1).
	a, b := New(77), New(77)
	for i := 0; i < 100; i++ {
		if x, y := a.Range(600, 1499), 600+b.Intn(900); x != y {
			t.Fatalf("Range(600, 1499) = %d, 600+Intn(900) = %d", x, y)
		}
	}
	// The extreme bounds must not overflow.
	maxInt := int(^uint(0) >> 1)
	minInt := -maxInt - 1
	for i := 0; i < 100; i++ {
		if v := s.Range(minInt, maxInt); v < minInt || v > maxInt {
			t.Fatal("unreachable")
		}
		if v := s.Range(maxInt-1, maxInt); v != maxInt-1 && v != maxInt {
			t.Fatalf("Range(max-1, max) = %d", v)
		}
		if v := s.Range(minInt, minInt+1); v != minInt && v != minInt+1 {
			t.Fatalf("Range(min, min+1) = %d", v)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Range(2, 1) did not panic")
		}
	}()
	s.Range(2, 1)
}

func TestShufflePermutation(t *testing.T) {
	s := New(5)
	for _, n := range []int{0, 1, 2, 10, 100} {
		a := make([]int, n)
		for i := range a {
			a[i] = i
		}
		s.Shuffle(n, func(i, j int) { a[i], a[j] = a[j], a[i] })
		seen := make([]bool, n)
		for _, v := range a {
			if v < 0 || v >= n || seen[v] {
				t.Fatalf("Shuffle(%d) gave %v, not a permutation", n, a)
			}
			seen[v] = true
		}
	}
}

func TestShuffleKnownAnswer(t *testing.T) {
	// Python 3, same transcription as above.
	a := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	New(42).Shuffle(len(a), func(i, j int) { a[i], a[j] = a[j], a[i] })
	want := []int{0, 9, 5, 8, 6, 4, 7, 2, 1, 3}
	if fmt.Sprint(a) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", a, want)
	}
}

func TestShuffleSwapSequence(t *testing.T) {
	// swap is called n-1 times with i = n-1, ..., 1 and j = Intn(i+1).
	ref := New(11)
	var calls int
	i0 := 7
	New(11).Shuffle(8, func(i, j int) {
		if i != i0 {
			t.Fatalf("swap i = %d, want %d", i, i0)
		}
		if w := ref.Intn(i + 1); j != w {
			t.Fatalf("swap(%d, %d), want j = %d", i, j, w)
		}
		i0--
		calls++
	})
	if calls != 7 {
		t.Errorf("swap called %d times, want 7", calls)
	}
}

func ExampleSource_Intn() {
	s := New(42)
	rolls := make([]int, 10)
	for i := range rolls {
		rolls[i] = s.Intn(10)
	}
	fmt.Println(rolls)
	// Output: [3 1 8 4 0 2 5 8 5 4]
}
