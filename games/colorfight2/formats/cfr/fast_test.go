package cfr

import (
	"math/rand"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// TestFastInt compares fastInt (8 bytes at a time) with plainInt on random
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
			if wv, wj := plainInt(in, 1); v != wv || j != wj {
				t.Fatalf("fastInt(%q) = %d, %d; want %d, %d", in, v, j, wv, wj)
			}
		}
	}
}

// mutate makes zero to two random edits of b: a byte replaced by one of
// alphabet, a byte removed, or the text cut there.
func mutate(r *rand.Rand, b []byte, alphabet string) []byte {
	for m := r.Intn(3); m > 0 && len(b) > 0; m-- {
		switch i := r.Intn(len(b)); r.Intn(3) {
		case 0:
			b[i] = alphabet[r.Intn(len(alphabet))]
		case 1:
			b = append(b[:i], b[i+1:]...)
		default:
			b = b[:i]
		}
	}
	return b
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
		b = mutate(r, b, alphabet)
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

// TestFastUserAgrees: whenever fastUser takes a user object, readUser reads
// the same text to the same user and length.
func TestFastUserAgrees(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	base := []string{
		`{"uid":1,"username":"xD","verified":false,"ranking":0,"energy":1010,"gold":10,"dead":false,"energy_source":10,"gold_source":10,"tech_level":1,"tax_level":0,"tax_amount":0,"building_number":{"home":1},"cell_number":1}`,
		`{"uid":5,"username":"nullptr","verified":true,"ranking":1.000000082740371e-8,"energy":-1,"gold":465855,"dead":true,"energy_source":0,"gold_source":0,"tech_level":0,"tax_level":3,"tax_amount":77,"building_number":{"fortress":2,"gold_mine":3,"energy_well":4,"home":1},"cell_number":0}`,
		`{"uid":2,"username":"a b","verified":false,"ranking":-17.5E+3,"energy":0,"gold":0,"dead":false,"energy_source":0,"gold_source":0,"tech_level":1,"tax_level":0,"tax_amount":0,"building_number":{},"cell_number":1}`,
	}
	const alphabet = `0123456789-,{}:" hgefx.eE\u`
	taken := 0
	for k := 0; k < 50000; k++ {
		b := []byte(base[r.Intn(len(base))])
		b = mutate(r, b, alphabet)
		in := append(b, ',', ' ')
		if r.Intn(4) == 0 {
			in = b
		}
		var fu colorfight2.FrameUser
		n := fastUser(in, &fu)
		if n == 0 {
			continue
		}
		taken++
		var su colorfight2.FrameUser
		d := &Decoder{s: newScanner(strings.NewReader(string(in)))}
		if _, _, err := d.readUser(&su, false); err != nil {
			t.Fatalf("fastUser took %q, readUser: %v", in[:n], err)
		}
		if !slices.Equal(fu.BuildingOrder, su.BuildingOrder) || d.s.offset() != int64(n) {
			t.Fatalf("%q: fastUser order %v (%d bytes), readUser order %v (%d bytes)", in, fu.BuildingOrder, n, su.BuildingOrder, d.s.offset())
		}
		fu.BuildingOrder, su.BuildingOrder = nil, nil
		if !reflect.DeepEqual(fu, su) {
			t.Fatalf("%q:\nfastUser %+v\nreadUser %+v", in, fu, su)
		}
	}
	if taken < 2000 {
		t.Errorf("fastUser took only %d users", taken)
	}
}
