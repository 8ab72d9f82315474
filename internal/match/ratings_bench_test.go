package match

import "testing"

// BenchmarkRatingsAdd: one 4-seat game added to standings of 50 bots
// (Elo's 6 duels and one Weng–Lin update).
func BenchmarkRatingsAdd(b *testing.B) {
	games := ratingGames(1000)
	var r Ratings
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r.Add(games[i%len(games)])
	}
}
