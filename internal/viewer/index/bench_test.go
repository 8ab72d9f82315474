package index

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchIndex opens a synthetic index of n replays (rows generated, not
// files: game(i, 50), 50 bots, 4 seats each), built once and kept in the
// temporary folder between runs (it takes minutes at a million).
func benchIndex(b *testing.B, n int) *Index {
	b.Helper()
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("rewind-index-bench-%d", n))
	ix, _, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	have, err := ix.Count()
	if err != nil {
		b.Fatal(err)
	}
	for i := have; i < n; i += 10000 {
		var reps []*Replay
		for j := i; j < min(n, i+10000); j++ {
			reps = append(reps, game(j, 50))
		}
		if err := ix.Put(reps); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := ix.db.Exec("PRAGMA optimize; ANALYZE"); err != nil {
		b.Fatal(err)
	}
	return ix
}

const benchN = 1_000_000

func benchPage(b *testing.B, q Query) {
	ix := benchIndex(b, benchN)
	b.ResetTimer()
	for b.Loop() {
		p, err := ix.Page(q)
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Rows) != q.Limit {
			b.Fatalf("%d rows", len(p.Rows))
		}
	}
}

func BenchmarkFirstPage(b *testing.B)       { benchPage(b, Query{Limit: 100}) }
func BenchmarkFirstPageRounds(b *testing.B) { benchPage(b, Query{Sort: "rounds", Limit: 100}) }
func BenchmarkFilterBot(b *testing.B)       { benchPage(b, Query{Bot: "b17", Limit: 100}) }
func BenchmarkFilterBotLost(b *testing.B)   { benchPage(b, Query{Bot: "b17", Lost: true, Limit: 100}) }
func BenchmarkSearchName(b *testing.B)      { benchPage(b, Query{Search: "3_b17", Limit: 100}) }

// BenchmarkNextPage lists the page after the first 100 (keyset).
func BenchmarkNextPage(b *testing.B) {
	ix := benchIndex(b, benchN)
	p, err := ix.Page(Query{Limit: 100})
	if err != nil {
		b.Fatal(err)
	}
	benchPage(b, Query{Limit: 100, After: p.Next})
}

// BenchmarkStandings is the library's standings once computed (kept);
// BenchmarkStandingsCold computes them afresh (as after a change before
// the last game counted); BenchmarkStandingsAfterPut after one new game
// (its path after every other) was added: it is counted into the kept
// standings.
func BenchmarkStandings(b *testing.B) {
	ix := benchIndex(b, benchN)
	if _, err := ix.Standings(Query{}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if st, err := ix.Standings(Query{}); err != nil || len(st) != 50 {
			b.Fatal(len(st), err)
		}
	}
}

func BenchmarkStandingsCold(b *testing.B) {
	ix := benchIndex(b, benchN)
	b.ResetTimer()
	for b.Loop() {
		if st, err := ix.recompute(); err != nil || len(st) != 50 {
			b.Fatal(len(st), err)
		}
	}
}

func BenchmarkStandingsAfterPut(b *testing.B) {
	ix := benchIndex(b, benchN)
	st, err := ix.Standings(Query{})
	if err != nil {
		b.Fatal(err)
	}
	games := 0
	for _, s := range st {
		games += s.Games
	}
	var added []string
	b.Cleanup(func() {
		if err := ix.Delete(added); err != nil {
			b.Error(err)
		}
	})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		r := game(1, 50) // complete
		r.Path = fmt.Sprintf("z/%07d.rwd", i)
		if err := ix.Put([]*Replay{r}); err != nil {
			b.Fatal(err)
		}
		added = append(added, r.Path)
		b.StartTimer()
		st, err := ix.Standings(Query{})
		if err != nil || !ix.StandingsFresh() {
			b.Fatal(err, ix.StandingsFresh())
		}
		n := 0
		for _, s := range st {
			n += s.Games
		}
		if n != games+4*(i+1) {
			b.Fatalf("%d seat-games, want %d", n, games+4*(i+1))
		}
	}
}

// BenchmarkBotTable reads the per-bot counts the triggers keep (games,
// wins, mean rank and score: the leaderboard without Elo).
func BenchmarkBotTable(b *testing.B) {
	ix := benchIndex(b, benchN)
	b.ResetTimer()
	for b.Loop() {
		rows, err := ix.db.Query("SELECT key, games, wins, sum_rank, sum_score FROM bots ORDER BY wins DESC")
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for rows.Next() {
			n++
		}
		rows.Close()
		if n != 50 {
			b.Fatal(n)
		}
	}
}
