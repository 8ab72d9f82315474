package rules_test

import "testing"

// TestHashGolden: a game of 8 built-ins (two of each) over 2000 ticks
// ends in a fixed hash, the same on every platform (run under
// GOARCH=386 too): its floats, 2^x and Python's generator included.
func TestHashGolden(t *testing.T) {
	m := newBuiltinsMatch(t, 8, 2000)
	g := m.g
	hashes := []uint64{g.Hash()}
	for !g.Over() {
		m.tick()
		if g.Turn()%500 == 0 {
			hashes = append(hashes, g.Hash())
		}
	}
	want := []uint64{0x6c6c036e6770dd54, 0x1e106a6355634818, 0xbfb9248a1787f495, 0x1e3f1dcaf56a9a16, 0x5846eccf29f484e}
	for i := range want {
		if hashes[i] != want[i] {
			t.Fatalf("hashes %#x, want %#x", hashes, want)
		}
	}
}
