package rng

// MT19937 is the Mersenne Twister exactly as CPython's random module uses it
// (Modules/_randommodule.c and Lib/random.py), so that a seed gives the same
// draws as `random.seed(seed)` followed by the same calls in Python. It
// exists for games whose reference engine draws from Python's global random
// generator (Monad's map).
//
// # Algorithm
//
// The generator is the reference MT19937 of Matsumoto and Nishimura
// (mt19937ar.c, 2002): 624 words of state, genrand_int32 as the output
// function. Seeding follows CPython's random_seed for an integer argument:
// take |seed|, split it into 32-bit words least significant first (seed 0
// gives the single word 0) and call init_by_array(words), which is
// init_genrand(19650218) followed by the two mixing loops and
// mt[0] = 0x80000000.
//
// The derived draws are CPython's, in integer arithmetic:
//
//   - Getrandbits(k), 1 <= k <= 64: for k <= 32, Uint32() >> (32-k); for
//     larger k, 32-bit words least significant first, the last one shifted
//     right so that k bits are kept in total.
//   - Randbelow(n), n >= 1: k = bit length of n; r = Getrandbits(k) until
//     r < n (Lib/random.py, _randbelow_with_getrandbits).
//   - Randint(a, b) = a + Randbelow(b - a + 1).
//   - Random53() is random.random()'s numerator: a = Uint32() >> 5,
//     b = Uint32() >> 6, a*2^26 + b, an integer in [0, 2^53).
//     Random() = Random53() / 2^53 as a float64: the one floating-point
//     value here, exact, because every integer below 2^53 is a float64 and
//     dividing by a power of two only changes the exponent. It equals
//     CPython's (a*67108864.0 + b) * (1.0/9007199254740992.0) bit for bit.
//   - Shuffle(n, swap): for i = n-1 down to 1, swap(i, Randbelow(i+1))
//     (random.shuffle).
//   - Choice(n) = Randbelow(n), the index random.choice picks in a sequence
//     of length n.
//
// The zero value is not seeded; use NewMT19937.
type MT19937 struct {
	mt  [mtN]uint32
	mti int
}

const (
	mtN       = 624
	mtM       = 397
	mtMatrixA = 0x9908b0df
	mtUpper   = 0x80000000
	mtLower   = 0x7fffffff
)

// NewMT19937 returns the generator in the state Python's random.seed(seed)
// leaves it in, for an integer seed.
func NewMT19937(seed int64) *MT19937 {
	u := uint64(seed)
	if seed < 0 {
		u = -u // two's complement: |math.MinInt64| is 1<<63, exact in uint64
	}
	key := []uint32{uint32(u)}
	if hi := uint32(u >> 32); hi != 0 {
		key = append(key, hi)
	}
	m := &MT19937{}
	m.SeedArray(key)
	return m
}

// SeedArray seeds the generator with init_by_array(key); an empty key is
// treated as the single word 0, as CPython does for seed 0.
func (m *MT19937) SeedArray(key []uint32) {
	if len(key) == 0 {
		key = []uint32{0}
	}
	m.initGenrand(19650218)
	i, j := 1, 0
	k := mtN
	if len(key) > k {
		k = len(key)
	}
	for ; k > 0; k-- {
		m.mt[i] = (m.mt[i] ^ ((m.mt[i-1] ^ (m.mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= mtN {
			m.mt[0] = m.mt[mtN-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = mtN - 1; k > 0; k-- {
		m.mt[i] = (m.mt[i] ^ ((m.mt[i-1] ^ (m.mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= mtN {
			m.mt[0] = m.mt[mtN-1]
			i = 1
		}
	}
	m.mt[0] = 0x80000000
	m.mti = mtN
}

func (m *MT19937) initGenrand(s uint32) {
	m.mt[0] = s
	for i := 1; i < mtN; i++ {
		m.mt[i] = 1812433253*(m.mt[i-1]^(m.mt[i-1]>>30)) + uint32(i)
	}
	m.mti = mtN
}

// Uint32 returns the next 32-bit output (genrand_int32).
func (m *MT19937) Uint32() uint32 {
	if m.mti >= mtN {
		var kk int
		for kk = 0; kk < mtN-mtM; kk++ {
			y := (m.mt[kk] & mtUpper) | (m.mt[kk+1] & mtLower)
			m.mt[kk] = m.mt[kk+mtM] ^ (y >> 1) ^ (mtMatrixA * (y & 1))
		}
		for ; kk < mtN-1; kk++ {
			y := (m.mt[kk] & mtUpper) | (m.mt[kk+1] & mtLower)
			m.mt[kk] = m.mt[kk+(mtM-mtN)] ^ (y >> 1) ^ (mtMatrixA * (y & 1))
		}
		y := (m.mt[mtN-1] & mtUpper) | (m.mt[0] & mtLower)
		m.mt[mtN-1] = m.mt[mtM-1] ^ (y >> 1) ^ (mtMatrixA * (y & 1))
		m.mti = 0
	}
	y := m.mt[m.mti]
	m.mti++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// Getrandbits returns a uniform integer of k bits, 1 <= k <= 64, as
// random.getrandbits(k). It panics for other k.
func (m *MT19937) Getrandbits(k int) uint64 {
	if k < 1 || k > 64 {
		panic("rng: Getrandbits: k outside 1..64")
	}
	if k <= 32 {
		return uint64(m.Uint32() >> (32 - k))
	}
	lo := uint64(m.Uint32())
	hi := uint64(m.Uint32() >> (64 - k))
	return hi<<32 | lo
}

// Randbelow returns a uniform integer in [0, n) as CPython's
// _randbelow_with_getrandbits; it panics if n < 1.
func (m *MT19937) Randbelow(n uint64) uint64 {
	if n < 1 {
		panic("rng: Randbelow: n < 1")
	}
	k := 0
	for v := n; v != 0; v >>= 1 {
		k++
	}
	r := m.Getrandbits(k)
	for r >= n {
		r = m.Getrandbits(k)
	}
	return r
}

// Randint returns a uniform integer in [a, b] as random.randint(a, b); it
// panics if b < a.
func (m *MT19937) Randint(a, b int64) int64 {
	if b < a {
		panic("rng: Randint: empty range")
	}
	return a + int64(m.Randbelow(uint64(b-a)+1))
}

// Random53 returns the integer numerator of random.random(): a value in
// [0, 2^53) that random.random() divides by 2^53.
func (m *MT19937) Random53() uint64 {
	a := uint64(m.Uint32() >> 5)
	b := uint64(m.Uint32() >> 6)
	return a<<26 | b
}

// Random returns random.random(): Random53() / 2^53, exact (see the type's
// documentation).
func (m *MT19937) Random() float64 {
	return float64(m.Random53()) / (1 << 53)
}

// Shuffle permutes n elements as random.shuffle does, calling swap(i, j).
func (m *MT19937) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, int(m.Randbelow(uint64(i)+1)))
	}
}

// Choice returns the index random.choice would pick in a sequence of
// length n >= 1.
func (m *MT19937) Choice(n int) int {
	return int(m.Randbelow(uint64(n)))
}

// Clone returns an independent copy of the generator in its current state.
func (m *MT19937) Clone() *MT19937 {
	c := *m
	return &c
}
