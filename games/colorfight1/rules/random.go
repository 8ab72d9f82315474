package rules

import "github.com/rewind-game/rewind/engine/rng"

// Python 2.7's random module, as far as the reference draws from it
// (RULES §12.3): the Mersenne Twister of engine/rng, seeded as
// random.seed(seed) seeds it, getrandbits(30) for the game id and
// Python 2.7's random.shuffle for base relocations.

// newPythonRandom returns the generator random.seed(seed) leaves, for a
// non-negative integer seed (init_by_array with the seed's 32-bit words,
// least significant first).
func newPythonRandom(seed uint64) *rng.MT19937 {
	key := []uint32{uint32(seed)}
	if hi := uint32(seed >> 32); hi != 0 {
		key = append(key, hi)
	}
	m := &rng.MT19937{}
	m.SeedArray(key)
	return m
}

// shuffle2 permutes d as Python 2.7's random.shuffle(d) does: for i from
// len(d)−1 down to 1, j = int(random() · (i+1)), swap d[i] and d[j].
// (Python 3's shuffle draws differently.)
func shuffle2(m *rng.MT19937, d []direction) {
	for i := len(d) - 1; i > 0; i-- {
		j := int(float64(m.Random() * float64(i+1)))
		d[i], d[j] = d[j], d[i]
	}
}

// direction is an offset (dx, dy) of a neighbour.
type direction struct{ dx, dy int }

// relocationDirections is MoveBase's list before its shuffle.
var relocationDirections = [4]direction{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
