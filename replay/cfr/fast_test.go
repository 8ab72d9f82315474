package cfr

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine/colorfight2"
)

// slowInt is the obvious version of fastInt.
func slowInt(b []byte, i int) (int64, int) {
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	start := i
	var v int64
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		v = v*10 + int64(b[i]-'0')
	}
	n := i - start
	if n == 0 || n > 18 || i >= len(b) || (n > 1 && b[start] == '0') {
		return 0, 0
	}
	if neg {
		v = -v
	}
	return v, i
}

// TestFastInt compares fastInt (8 bytes at a time) with slowInt on random
// numbers, near-numbers and buffer ends.
func TestFastInt(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	tails := []string{"", ",", "]", "}", ",,,,,,,,,,,", "]]]]]]]]]]]]", ".5,,,,,,,,,", "e5,,,,,,,,", "x", "\xff\xff\xff\xff\xff\xff\xff\xff"}
	for k := 0; k < 100000; k++ {
		var s string
		switch k % 4 {
		case 0:
			s = strconv.FormatInt(r.Int63n(10000), 10)
		case 1:
			s = strconv.FormatInt(r.Int63()>>uint(r.Intn(63)), 10)
		case 2:
			s = "-" + strconv.FormatInt(r.Int63n(1000000000), 10)
		case 3:
			b := make([]byte, r.Intn(22))
			for j := range b {
				b[j] = "0123456789-.e/:"[r.Intn(15)]
			}
			s = string(b)
		}
		for _, tail := range tails {
			in := []byte("[" + s + tail)
			v, j := fastInt(in, 1)
			if wv, wj := slowInt(in, 1); v != wv || j != wj {
				t.Fatalf("fastInt(%q) = %d, %d; want %d, %d", in, v, j, wv, wj)
			}
		}
	}
}

// TestFastCellAgrees: whenever fastCell takes a cell, readCell reads the
// same text to the same values and length.
func TestFastCellAgrees(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	base := []string{
		`[101,0,[" ",1],1,9,0,[2,3],1,9,101]`, `[2010]`, `[633,494]`, `[102,0,["f",2],2,8,1]`,
		`[4300,748,["h",3],30,30,7,[2,3]]`, `[]`, `[-5,0]`, `[1,2,["g",1],4,5,6,[2,3],7,8,9]`,
	}
	const alphabet = `0123456789-,[]" hgefx.e`
	taken := 0
	for k := 0; k < 50000; k++ {
		b := []byte(base[r.Intn(len(base))])
		for m := r.Intn(3); m > 0 && len(b) > 0; m-- { // mutate a byte, or cut
			switch i := r.Intn(len(b)); r.Intn(3) {
			case 0:
				b[i] = alphabet[r.Intn(len(alphabet))]
			case 1:
				b = append(b[:i], b[i+1:]...)
			default:
				b = b[:i]
			}
		}
		full := r.Intn(2) == 0
		in := append(b, ',', ' ')
		if r.Intn(4) == 0 {
			in = b // the buffer ends with the text
		}
		var fc colorfight2.FrameCell
		k := fastCell(in, &fc, 2, 3, full)
		if k == 0 {
			continue
		}
		taken++
		var sc colorfight2.FrameCell
		d := &Decoder{s: newScanner(strings.NewReader(string(in)))}
		if err := d.readCell(&sc, 2, 3, full); err != nil {
			t.Fatalf("fastCell took %q (full %v), readCell: %v", in[:k], full, err)
		}
		if sc != fc || d.s.offset() != int64(k) {
			t.Fatalf("%q: fastCell %+v (%d bytes), readCell %+v (%d bytes)", in, fc, k, sc, d.s.offset())
		}
	}
	if taken < 2000 {
		t.Errorf("fastCell took only %d cells", taken)
	}
}
