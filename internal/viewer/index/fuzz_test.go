package index

import (
	"testing"
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
