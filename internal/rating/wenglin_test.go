package rating

import (
	"math"
	"testing"
)

// published is one game with the ratings a reference implementation
// publishes for it.
type published struct {
	name   string
	model  Model
	teams  [][]Rating
	ranks  []int
	want   [][]Rating
	source string
}

// noTau is OpenSkill's model as openskill.js 1.x and 2.x published their
// examples: before τ was added to σ (τ = 0).
var noTau = Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Tau: 0, Kappa: 0.0001}

func solo(rs ...Rating) [][]Rating {
	out := make([][]Rating, len(rs))
	for i, r := range rs {
		out[i] = []Rating{r}
	}
	return out
}

var fresh = Rating{25, 25.0 / 3}

// pyModel is the model openskill.py's generated test data
// (tests/models/data/plackettluce.json, commit db1e0a5) was rated with:
// a random prior, the default β = 25/6, τ = 25/300, κ = 0.0001.
var (
	pyModel = Model{Mu: 30.9227929079249, Sigma: 6.478417585666653, Beta: 25.0 / 6, Tau: 25.0 / 300, Kappa: 0.0001}
	pyNew   = pyModel.New()
)

// referenceGames are examples OpenSkill publishes, with its values (to
// every digit it prints):
//   - openskill.js, src/__tests__/rate.test.js (philihp/openskill.js):
//     the 4-player game, reordered ranks, ties, a four-way tie;
//   - openskill.js, src/models/__tests__/plackett-luce.test.js: 2- to
//     5-player free-for-alls of new players;
//   - openskill.py README.md "Usage" (vivekjoshy/openskill.py; the same
//     values in openskill.js's and openskill.ex's READMEs): a 2-vs-2
//     team game;
//   - openskill.py tests/models/data/plackettluce.json ("normal", "ties"),
//     its generated test data for a model with μ = 30.92…, σ = 6.47…
//     and the default β = 25/6, τ = 25/300: checks τ.
var referenceGames = []published{
	{name: "4 players", model: noTau, source: "openskill.js rate.test.js",
		teams: solo(Rating{29.182, 4.782}, Rating{27.174, 4.922}, Rating{16.672, 6.217}, fresh), ranks: []int{1, 2, 3, 4},
		want: solo(Rating{30.209971908310553, 4.764898977359521}, Rating{27.64460833689499, 4.882789305097372},
			Rating{17.403586731283518, 6.100723440599442}, Rating{19.214790707434826, 7.8542613981643985})},
	{name: "reversed 2 players", model: noTau, source: "openskill.js rate.test.js",
		teams: solo(fresh, fresh), ranks: []int{2, 1},
		want: solo(Rating{22.36476861652635, 8.065506316323548}, Rating{27.63523138347365, 8.065506316323548})},
	{name: "misordered ranks", model: noTau, source: "openskill.js rate.test.js",
		teams: solo(fresh, fresh, fresh, fresh), ranks: []int{2, 1, 4, 3},
		want: solo(Rating{26.552824984374855, 8.179213704945203}, Rating{27.795084971874736, 8.263160757613477},
			Rating{20.96265504062538, 8.083731307186588}, Rating{24.68943500312503, 8.083731307186588})},
	{name: "rate ordering", model: noTau, source: "openskill.js rate.test.js",
		teams: solo(Rating{15, 25.0 / 3}, Rating{20, 25.0 / 3}, Rating{25, 25.0 / 3}, Rating{30, 25.0 / 3}), ranks: []int{1, 3, 4, 2},
		want: solo(Rating{18.13094482387197, 8.283124738447958}, Rating{20.40517319790051, 8.107463101775272},
			Rating{20.65608164139383, 8.082178279446465}, Rating{30.80780033683369, 8.154697408620104})},
	{name: "ties", model: noTau, source: "openskill.js rate.test.js",
		teams: solo(Rating{10, 8}, Rating{5, 10}, Rating{0, 12}), ranks: []int{1, 2, 2},
		want: solo(Rating{11.942833056030613, 7.926463661123746}, Rating{2.938193791485662, 9.65347573412201},
			Rating{-1.4023734358082325, 11.323360667700934})},
	{name: "four-way tie", model: noTau, source: "openskill.js rate.test.js",
		teams: solo(fresh, fresh, fresh, fresh), ranks: []int{1, 1, 1, 1},
		want: solo(Rating{25, 8.263160757613477}, Rating{25, 8.263160757613477}, Rating{25, 8.263160757613477}, Rating{25, 8.263160757613477})},
	{name: "ties out of order", model: noTau, source: "openskill.js rate.test.js",
		teams: solo(Rating{15, 25.0 / 3}, Rating{20, 25.0 / 3}, Rating{25, 25.0 / 3}, Rating{30, 25.0 / 3}), ranks: []int{2, 4, 2, 1},
		want: solo(Rating{15.340046366255285, 8.21273604193863}, Rating{18.007807436399276, 8.188629384105589},
			Rating{24.25804790911316, 8.166514496319483}, Rating{32.39409828823228, 8.247276990243211})},
	{name: "3-player free-for-all", model: noTau, source: "openskill.js plackett-luce.test.js",
		teams: solo(fresh, fresh, fresh), ranks: []int{1, 2, 3},
		want: solo(Rating{27.868876552746237, 8.204837030780652}, Rating{25.717219138186557, 8.057829747583874},
			Rating{21.413904309067206, 8.057829747583874})},
	{name: "5-player free-for-all", model: noTau, source: "openskill.js plackett-luce.test.js",
		teams: solo(fresh, fresh, fresh, fresh, fresh), ranks: []int{1, 2, 3, 4, 5},
		want: solo(Rating{27.666666666666668, 8.290556877154474}, Rating{26.833333333333332, 8.240145629781066},
			Rating{25.72222222222222, 8.179996679645559}, Rating{24.055555555555557, 8.111796013701358},
			Rating{20.72222222222222, 8.111796013701358})},
	{name: "3 teams of different sizes", model: noTau, source: "openskill.js plackett-luce.test.js",
		teams: [][]Rating{{fresh, fresh, fresh}, {fresh}, {fresh, fresh}}, ranks: []int{1, 2, 3},
		want: [][]Rating{
			{{25.939870821784513, 8.247641552260456}, {25.939870821784513, 8.247641552260456}, {25.939870821784513, 8.247641552260456}},
			{{27.21366020491262, 8.274321317985242}},
			{{21.84646897330287, 8.213058173195341}, {21.84646897330287, 8.213058173195341}}}},
	{name: "2 vs 2", model: noTau, source: "openskill.py README.md",
		teams: [][]Rating{{fresh, {32.444, 5.123}}, {{43.381, 2.421}, {25.188, 6.211}}}, ranks: []int{1, 2},
		want: [][]Rating{{{28.669648436582808, 8.071520788025197}, {33.83086971107981, 5.062772998705765}},
			{{43.071274808241974, 2.4166900452721256}, {23.149503312339064, 6.1378606973362135}}}},
	{name: "1 vs 2, with τ", model: pyModel, source: "openskill.py plackettluce.json \"normal\"",
		teams: [][]Rating{{pyNew}, {pyNew, pyNew}}, ranks: []int{1, 2},
		want: [][]Rating{{{33.969011487326654, 6.446958847986065}},
			{{27.876574328523148, 6.433659614219379}, {27.876574328523148, 6.433659614219379}}}},
	{name: "4 teams ranked out of order, with τ", model: pyModel, source: "openskill.py plackettluce.json \"ranks\"",
		teams: [][]Rating{{pyNew}, {pyNew, pyNew}, {pyNew}, {pyNew, pyNew}}, ranks: []int{2, 1, 4, 3},
		want: [][]Rating{{{32.77994443000071, 6.450747134006956}},
			{{32.2707505138986, 6.425889055872058}, {32.2707505138986, 6.425889055872058}},
			{{30.08402921805331, 6.430997477977663}},
			{{28.556447469746985, 6.355257645226833}, {28.556447469746985, 6.355257645226833}}}},
}

// TestPublishedValues: Rate gives OpenSkill's published ratings for its
// published games, to 1e-12 in μ and σ (the references print 15–17
// digits; their own tests compare to 1e-4 relative).
func TestPublishedValues(t *testing.T) {
	for _, g := range referenceGames {
		got, err := g.model.Rate(g.teams, g.ranks)
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		for i := range g.want {
			for j, w := range g.want[i] {
				r := got[i][j]
				if math.Abs(r.Mu-w.Mu) > 1e-12 || math.Abs(r.Sigma-w.Sigma) > 1e-12 {
					t.Errorf("%s (%s): team %d player %d = (%.15g, %.15g), published (%.15g, %.15g)",
						g.name, g.source, i+1, j+1, r.Mu, r.Sigma, w.Mu, w.Sigma)
				}
			}
		}
	}
}

// TestPublishedOrdinal: openskill.py's README: ordinal(μ=43.07, σ=2.42)
// is 35.81; openskill.ex's README: 43.071274808241974 − 3·2.4166900452721256
// is 35.821204672425594.
func TestPublishedOrdinal(t *testing.T) {
	if o := (Rating{43.07, 2.42}).Ordinal(); math.Abs(o-35.81) > 1e-9 {
		t.Errorf("ordinal = %v, want 35.81", o)
	}
	if o := (Rating{43.071274808241974, 2.4166900452721256}).Ordinal(); math.Abs(o-35.821204672425594) > 1e-12 {
		t.Errorf("ordinal = %v, want 35.821204672425594", o)
	}
	if o := Default.New().Ordinal(); o != 0 {
		t.Errorf("a new rating's ordinal = %v, want 0", o)
	}
}
