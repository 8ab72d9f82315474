package rng

import (
	"math"
	"testing"
)

// The expected values below were printed by CPython 3.11.7's random module
// (random.seed(n) then the calls named), not computed with this package.

func TestMT19937Seed42(t *testing.T) {
	m := NewMT19937(42)
	if got, want := m.Random(), 0.6394267984578837; got != want {
		t.Fatalf("random.seed(42); random.random() = %v, want %v", got, want)
	}
	want := []int64{1, 5, 4, 4, 3, 2, 9, 2, 10, 7}
	for i, w := range want {
		if got := m.Randint(1, 10); got != w {
			t.Errorf("randint(1, 10) #%d = %d, want %d", i, got, w)
		}
	}
}

func TestMT19937Uint32Seed0(t *testing.T) {
	m := NewMT19937(0)
	for i, w := range []uint32{3626764237, 1654615998, 3255389356} {
		if got := m.Uint32(); got != w {
			t.Errorf("getrandbits(32) #%d = %d, want %d", i, got, w)
		}
	}
}

func TestMT19937NegativeSeedAndWideDraws(t *testing.T) {
	m := NewMT19937(-12345678901234) // CPython seeds with |n|
	for i, w := range []int64{1, 35, 9, 27, 33} {
		if got := m.Randint(0, 50); got != w {
			t.Errorf("randint(0, 50) #%d = %d, want %d", i, got, w)
		}
	}
	if got, want := m.Getrandbits(64), uint64(17807856218311838009); got != want {
		t.Errorf("getrandbits(64) = %d, want %d", got, want)
	}
	if got, want := m.Randint(-5, 1<<40), int64(1085416877694); got != want {
		t.Errorf("randint(-5, 2**40) = %d, want %d", got, want)
	}
}

func TestMT19937ShuffleChoice(t *testing.T) {
	m := NewMT19937(math.MaxInt64)
	x := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	m.Shuffle(len(x), func(i, j int) { x[i], x[j] = x[j], x[i] })
	want := []int{4, 1, 9, 8, 6, 0, 3, 7, 2, 5}
	for i := range want {
		if x[i] != want[i] {
			t.Fatalf("shuffle = %v, want %v", x, want)
		}
	}
	if got := "abcdefg"[m.Choice(7)]; got != 'e' {
		t.Errorf("choice('abcdefg') = %c, want e", got)
	}
	if got, want := m.Random(), 0.7665520242910694; got != want {
		t.Errorf("random() = %v, want %v", got, want)
	}
}

func TestMT19937RandintSingleValueConsumesDraws(t *testing.T) {
	m := NewMT19937(7)
	for i := 0; i < 2; i++ {
		if got := m.Randint(0, 0); got != 0 {
			t.Fatalf("randint(0, 0) = %d", got)
		}
	}
	if got, want := m.Random(), 0.3948234964231735; got != want {
		t.Errorf("random() after two randint(0, 0) = %v, want %v", got, want)
	}
}

func TestMT19937RandomIsExact(t *testing.T) {
	m := NewMT19937(1)
	for i := 0; i < 1000; i++ {
		c := m.Clone()
		n := c.Random53()
		f := m.Random()
		if uint64(f*(1<<53)) != n || f >= 1 {
			t.Fatalf("Random() = %v is not Random53() = %d / 2^53", f, n)
		}
	}
}
