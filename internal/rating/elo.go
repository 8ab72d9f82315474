package rating

// EloStart is every entrant's Elo before its first game; EloK the
// K-factor of one game.
const (
	EloStart = 1500.0
	EloK     = 32.0
)

// ln10over400 is ln(10)/400: 10^(d/400) = e^(d·ln10/400).
const ln10over400 = 2.302585092994045684017991454684364208 / 400

// EloExpected is the expected score of a player rated a against one rated
// b: 1/(1+10^((b−a)/400)).
func EloExpected(a, b float64) float64 {
	return 1 / (1 + exp(float64((b-a)*ln10over400)))
}

// EloDeltas returns how one game moves each seat's Elo, before[k] being
// seat k's rating before the game. The game is scored as all pairwise
// duels between seats: duel(a, b) returns seat a's score against seat b
// (1 win, 0.5 draw, 0 loss) and whether the pair counts at all (two seats
// of one entrant do not). Each duel moves both ratings by
// K/(n−1)·(score − expected), K = EloK and n the number of seats, with
// every expected score from the ratings before the game.
func EloDeltas(before []float64, duel func(a, b int) (score float64, counts bool)) []float64 {
	n := len(before)
	delta := make([]float64, n)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			score, ok := duel(a, b)
			if !ok {
				continue
			}
			d := float64(EloK/float64(n-1)) * (score - EloExpected(before[a], before[b]))
			delta[a] += d
			delta[b] -= d
		}
	}
	return delta
}
