package rating

import (
	"math"
	"testing"
)

// TestEloExpected: equal ratings expect 0.5; 400 points ahead expect
// 10/11 (the definition's 1/(1+10^-1)).
func TestEloExpected(t *testing.T) {
	if e := EloExpected(1500, 1500); e != 0.5 {
		t.Errorf("expected score at equal ratings = %v, want 0.5", e)
	}
	if e := EloExpected(1900, 1500); math.Abs(e-10.0/11) > 1e-15 {
		t.Errorf("expected score 400 ahead = %v, want 10/11", e)
	}
}

// TestEloDeltas: a 2-player win from 1500 each moves K/2 each way; a pair
// that does not count moves nothing; the deltas sum to 0.
func TestEloDeltas(t *testing.T) {
	d := EloDeltas([]float64{1500, 1500}, func(a, b int) (float64, bool) { return 1, true })
	if d[0] != EloK/2 || d[1] != -EloK/2 {
		t.Errorf("deltas = %v, want ±%v", d, EloK/2)
	}
	d = EloDeltas([]float64{1500, 1600, 1700}, func(a, b int) (float64, bool) { return 0.5, a != 0 || b != 1 })
	if math.Abs(d[0]+d[1]+d[2]) > 1e-12 || d[0] <= 0 || d[2] >= 0 {
		t.Errorf("deltas = %v: want the draws to move 1500 up, 1700 down, summing to 0", d)
	}
}

// TestRateExtremeRatings: ratings far from any real bot's (μ of ±1e6)
// still rate to finite numbers, the winner up, the loser down.
func TestRateExtremeRatings(t *testing.T) {
	out, err := Default.Rate(solo(Rating{1e6, 1}, Rating{-1e6, 1}, fresh), []int{3, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, team := range out {
		if r := team[0]; math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || math.IsNaN(r.Sigma) || !(r.Sigma > 0) {
			t.Errorf("team %d: %+v", i+1, r)
		}
	}
	if out[1][0].Mu <= -1e6 || out[0][0].Mu >= 1e6 {
		t.Errorf("the upset moved the wrong way: %+v", out)
	}
}

// TestRateRefusesBadInput: a game Rate cannot rate is an error, never a
// panic or a NaN.
func TestRateRefusesBadInput(t *testing.T) {
	for name, c := range map[string]struct {
		m     Model
		teams [][]Rating
		ranks []int
	}{
		"one team":     {Default, solo(fresh), []int{1}},
		"no teams":     {Default, nil, nil},
		"rank count":   {Default, solo(fresh, fresh), []int{1}},
		"empty team":   {Default, [][]Rating{{fresh}, {}}, []int{1, 2}},
		"zero sigma":   {Default, solo(fresh, Rating{25, 0}), []int{1, 2}},
		"NaN mu":       {Default, solo(fresh, Rating{math.NaN(), 1}), []int{1, 2}},
		"inf sigma":    {Default, solo(fresh, Rating{25, math.Inf(1)}), []int{1, 2}},
		"zero kappa":   {Model{25, 1, 1, 0, 0}, solo(fresh, fresh), []int{1, 2}},
		"negative tau": {Model{25, 1, 1, -1, 1e-4}, solo(fresh, fresh), []int{1, 2}},
	} {
		if _, err := c.m.Rate(c.teams, c.ranks); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
