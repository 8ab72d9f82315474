package rating

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Rating is a Weng–Lin skill estimate: a normal belief N(Mu, Sigma²)
// about the player's skill.
type Rating struct {
	Mu, Sigma float64
}

// Ordinal is the rating's conservative score μ − 3σ: the skill the player
// exceeds with about 99.9% belief. It starts at 0 (25 − 3·25/3) and, while
// σ shrinks, may rise even after a loss. Standings are ordered by it.
func (r Rating) Ordinal() float64 {
	return r.Mu - float64(3*r.Sigma)
}

// Model is the Weng–Lin Bayesian approximation with the Plackett–Luce
// model of a game's ranking (Weng & Lin 2011, "A Bayesian Approximation
// Method for Online Ranking", JMLR 12, Algorithm 4), as OpenSkill
// (openskill.js, openskill.py) implements it. Plackett–Luce rates a whole
// ranking of any number of seats in O(n²) as one observation (a seat is
// "chosen first" among those it beat), where the Bradley–Terry variants
// sum independent pairwise duels; it is OpenSkill's default, so its
// published values check this code, and ties are part of the model
// (A_q below).
type Model struct {
	// Mu and Sigma are a new player's rating (OpenSkill: 25, 25/3).
	Mu, Sigma float64
	// Beta is the spread of a game's performance around skill
	// (OpenSkill: 25/6, half the prior σ).
	Beta float64
	// Tau is the skill's drift between games: every σ becomes
	// √(σ² + τ²) before a game is rated, so σ never settles at 0 and a
	// bot that improves can still move (openskill.py: 25/300; the
	// published openskill.js values predate it: τ = 0).
	Tau float64
	// Kappa is the least factor a game may shrink σ² by (OpenSkill:
	// 0.0001), so σ stays positive.
	Kappa float64
}

// Default is rewind's model: OpenSkill's defaults.
var Default = Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Tau: 25.0 / 300, Kappa: 0.0001}

// New returns a new player's rating.
func (m Model) New() Rating {
	return Rating{Mu: m.Mu, Sigma: m.Sigma}
}

// Rate returns the ratings of one game's players after it: teams[i] are
// the players of team i, ranks[i] its place (lower is better, equal places
// tie; any integers). teams is not changed. A game of at least 2 teams,
// each of at least one player, with one rank per team and finite
// positive σ, is required; otherwise Rate returns an error.
//
// With team i's μ_i = Σ μ and σ_i² = Σ σ² over its players (σ after τ):
//
//	c     = √(Σ_i (σ_i² + β²))
//	C_q   = Σ_{s: r(s) ≥ r(q)} e^{μ_s/c}        A_q = |{s: r(s) = r(q)}|
//	p_iq  = e^{μ_i/c} / C_q
//	Ω_i   = σ_i²/c  · Σ_{q: r(q) ≤ r(i)} ([q = i] − p_iq) / A_q
//	Δ_i   = γ_i σ_i²/c² · Σ_{q: r(q) ≤ r(i)} p_iq (1 − p_iq) / A_q,   γ_i = σ_i/c
//
// and each player j of team i moves to μ_j + σ_j²/σ_i² · Ω_i and
// σ_j · √max(1 − σ_j²/σ_i² · Δ_i, κ).
func (m Model) Rate(teams [][]Rating, ranks []int) ([][]Rating, error) {
	if len(teams) < 2 {
		return nil, fmt.Errorf("rating: a game of %d teams, want at least 2", len(teams))
	}
	if len(ranks) != len(teams) {
		return nil, fmt.Errorf("rating: %d ranks for %d teams", len(ranks), len(teams))
	}
	if !(m.Beta >= 0) || !(m.Tau >= 0) || !(m.Kappa > 0) || math.IsInf(m.Beta+m.Tau+m.Kappa, 0) {
		return nil, errors.New("rating: model parameters must be finite, β and τ ≥ 0, κ > 0")
	}
	k := len(teams)
	out := make([][]Rating, k)
	mu := make([]float64, k)
	sig2 := make([]float64, k)
	tau2 := float64(m.Tau * m.Tau)
	for i, team := range teams {
		if len(team) == 0 {
			return nil, fmt.Errorf("rating: team %d has no players", i+1)
		}
		out[i] = make([]Rating, len(team))
		for j, p := range team {
			if !(p.Sigma > 0) || math.IsInf(p.Sigma, 0) || math.IsNaN(p.Mu) || math.IsInf(p.Mu, 0) {
				return nil, fmt.Errorf("rating: team %d player %d: rating (%v, %v) is not finite with σ > 0", i+1, j+1, p.Mu, p.Sigma)
			}
			s := math.Sqrt(float64(p.Sigma*p.Sigma) + tau2)
			out[i][j] = Rating{Mu: p.Mu, Sigma: s}
			mu[i] += p.Mu
			sig2[i] += float64(s * s)
		}
	}
	beta2 := float64(m.Beta * m.Beta)
	var c2 float64
	for i := range teams {
		c2 += sig2[i] + beta2
	}
	c := math.Sqrt(c2)
	// e^{μ_i/c} enters only as ratios, so each is taken relative to the
	// largest: e^{(μ_i − max μ)/c} ≤ 1 never overflows, whatever the μ.
	top := slices.Max(mu)
	e := make([]float64, k)
	for i := range teams {
		e[i] = exp((mu[i] - top) / c)
	}
	sumQ := make([]float64, k)
	a := make([]float64, k)
	for q := range teams {
		for s := range teams {
			if ranks[s] >= ranks[q] {
				sumQ[q] += e[s]
			}
			if ranks[s] == ranks[q] {
				a[q]++
			}
		}
	}
	for i := range teams {
		var omega, delta float64
		for q := range teams {
			if ranks[q] > ranks[i] {
				continue
			}
			p := e[i] / sumQ[q]
			delta += float64(p*(1-p)) / a[q]
			if q == i {
				omega += (1 - p) / a[q]
			} else {
				omega -= p / a[q]
			}
		}
		omega = float64(omega*sig2[i]) / c
		gamma := math.Sqrt(sig2[i]) / c
		delta = float64(gamma*float64(delta*sig2[i])) / c2
		for j, p := range out[i] {
			w := float64(p.Sigma*p.Sigma) / sig2[i]
			out[i][j] = Rating{
				Mu:    p.Mu + float64(w*omega),
				Sigma: float64(p.Sigma * math.Sqrt(math.Max(1-float64(w*delta), m.Kappa))),
			}
		}
	}
	return out, nil
}
