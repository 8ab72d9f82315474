package index

import (
	"errors"
	"slices"
	"testing"

	"github.com/rewind-game/rewind/internal/match"
)

// FuzzPage: any search text, cursor and filter values give a page or an
// error, never a panic, and a page never holds more rows than its limit.
func FuzzPage(f *testing.F) {
	ix := open(f, f.TempDir())
	var reps []*Replay
	for i := range 40 {
		reps = append(reps, game(i, 5))
	}
	if err := ix.Put(reps); err != nil {
		f.Fatal(err)
	}
	f.Add("b1", `"*`, "eyJ2IjoxLCJwIjoiZyJ9", "winner", "b2", 3)
	f.Add(`NEAR(a b) OR c*`, "", "", "", "", 0)
	f.Add("", "", "e30", "rounds", "", 600)
	f.Fuzz(func(t *testing.T, search, bot, after, sort, winner string, limit int) {
		p, err := ix.Page(Query{Search: search, Bot: bot, After: after, Sort: sort, Winner: winner, Limit: limit, Lost: limit%2 == 0})
		if err != nil {
			return
		}
		want := limit
		if want <= 0 {
			want = DefaultPage
		}
		if len(p.Rows) > min(want, MaxPage) {
			t.Fatalf("%d rows for limit %d", len(p.Rows), limit)
		}
		if _, err := ix.Standings(Query{Search: search, Bot: bot, Winner: winner}); err != nil && len(search) <= MaxSearch {
			t.Fatalf("standings: %v", err)
		}
	})
}

// FuzzKeptState: any bytes decode as a kept standings state or are
// refused with errKeptState, never a panic; what decodes encodes back to
// a state that decodes to the same standings and curves.
func FuzzKeptState(f *testing.F) {
	k := emptyKept()
	for i := range 30 {
		r := game(i, 4)
		if !r.Complete {
			continue
		}
		g := match.GameResult{}
		for _, s := range r.Seats {
			g.Seats = append(g.Seats, match.SeatResult{Bot: s.Key(), Rank: s.Rank, Score: s.Score})
		}
		k.add(0, gameKey{path: r.Path}, g)
	}
	b, err := encodeKept(k)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte("RWKS\x01"))
	e, _ := encodeKept(emptyKept())
	f.Add(e)
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := decodeKept(data)
		if err != nil {
			if !errors.Is(err, errKeptState) {
				t.Fatalf("error %v does not wrap errKeptState", err)
			}
			return
		}
		again, err := encodeKept(d)
		if err != nil {
			t.Fatal(err)
		}
		d2, err := decodeKept(again)
		if err != nil {
			t.Fatalf("re-encoded state refused: %v", err)
		}
		if !slices.Equal(d.out, d2.out) || d.n != d2.n || d.last != d2.last {
			t.Fatal("re-encoded state differs")
		}
		for _, s := range d.out {
			if !slices.Equal(d.rating(s.Bot), d2.rating(s.Bot)) {
				t.Fatalf("curve of %s differs", s.Bot)
			}
		}
		d.clone().add(0, gameKey{path: "z"}, match.GameResult{Seats: []match.SeatResult{{Bot: "x", Rank: 1}, {Bot: "y", Rank: 2}}})
	})
}
