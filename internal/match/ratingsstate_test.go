package match

import (
	"bytes"
	"errors"
	"slices"
	"testing"
)

// TestRatingsStateRoundTrip: a Ratings encoded after some games and
// decoded counts the rest of the games exactly as the original does, and
// its encoding is the original's.
func TestRatingsStateRoundTrip(t *testing.T) {
	games := ratingGames(400)
	for _, cut := range []int{0, 1, 57, 200} {
		var r Ratings
		for _, g := range games[:cut] {
			r.Add(g)
		}
		b, err := r.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var d Ratings
		if err := d.UnmarshalBinary(b); err != nil {
			t.Fatalf("after %d games: %v", cut, err)
		}
		if b2, _ := d.MarshalBinary(); !bytes.Equal(b, b2) {
			t.Fatalf("after %d games: the decoded state encodes otherwise", cut)
		}
		for _, g := range games[cut:] {
			r.Add(g)
			d.Add(g)
		}
		if !slices.Equal(r.Standings(), d.Standings()) {
			t.Fatalf("after %d games decoded: %+v\nwant %+v", cut, d.Standings(), r.Standings())
		}
		if want := Standings(games); !slices.Equal(d.Standings(), want) {
			t.Fatalf("decoded and counted on: not Standings of every game")
		}
		for _, s := range r.Standings() {
			if e, ok := d.Entrant(s.Bot); !ok || e != s {
				t.Fatalf("Entrant(%q) = %+v %v, want %+v", s.Bot, e, ok, s)
			}
		}
	}
}

// TestRatingsStateRefusesDamage: every truncation and a few damaged
// encodings are refused with ErrRatingsState, the Ratings left as it was.
func TestRatingsStateRefusesDamage(t *testing.T) {
	var r Ratings
	for _, g := range ratingGames(50) {
		r.Add(g)
	}
	b, _ := r.MarshalBinary()
	var keep Ratings
	keep.Add(ratingGames(1)[0])
	before := keep.Standings()
	bad := [][]byte{nil, []byte("RWRT"), append([]byte("RWRT\x02"), b[5:]...), append(slices.Clone(b), 0)}
	for n := 0; n < len(b); n++ {
		bad = append(bad, b[:n])
	}
	// σ of the first entrant set to 0; its name repeated as the second's.
	sigma := slices.Clone(b)
	off := 5 + 1 + 1 + int(b[6]) // magic, version, count, name length, name
	for range 3 {
		for sigma[off]&0x80 != 0 {
			off++
		}
		off++
	}
	copy(sigma[off+16:off+24], make([]byte, 8))
	bad = append(bad, sigma)
	for _, d := range bad {
		err := keep.UnmarshalBinary(d)
		if !errors.Is(err, ErrRatingsState) {
			t.Fatalf("%d bytes %q: err %v, want ErrRatingsState", len(d), d, err)
		}
		if !slices.Equal(keep.Standings(), before) {
			t.Fatal("a refused state changed the Ratings")
		}
	}
}

// FuzzRatingsState: any bytes decode or are refused, never a panic; what
// decodes encodes back to the same bytes.
func FuzzRatingsState(f *testing.F) {
	var r Ratings
	for _, g := range ratingGames(20) {
		r.Add(g)
	}
	b, _ := r.MarshalBinary()
	f.Add(b)
	f.Add([]byte("RWRT\x01\x00"))
	f.Add([]byte("RWRT\x01\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var d Ratings
		if err := d.UnmarshalBinary(data); err != nil {
			if !errors.Is(err, ErrRatingsState) {
				t.Fatalf("error %v does not wrap ErrRatingsState", err)
			}
			return
		}
		out, _ := d.MarshalBinary()
		if !bytes.Equal(out, data) {
			t.Fatalf("decoded %q, encodes as %q", data, out)
		}
		d.Standings()
	})
}
