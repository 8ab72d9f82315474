package analysis

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
)

// StandingJSON is one bot's line of standings as JSON and CSV give it
// (docs/ratings.md, "Output"): rank is its place (1 = best, by
// mu_3sigma), the means as match.Standing has them (mean_score over its
// scored games), mu, sigma and mu_3sigma its Weng–Lin rating, elo its
// multiplayer Elo.
type StandingJSON struct {
	Rank        int     `json:"rank"`
	Bot         string  `json:"bot"`
	Games       int     `json:"games"`
	Wins        int     `json:"wins"`
	MeanRank    float64 `json:"mean_rank"`
	MeanScore   float64 `json:"mean_score"`
	Scored      int     `json:"scored"`
	MeanMeasure float64 `json:"mean_measure"`
	Mu3Sigma    float64 `json:"mu_3sigma"`
	Mu          float64 `json:"mu"`
	Sigma       float64 `json:"sigma"`
	Elo         float64 `json:"elo"`
}

// StandingsJSON is the standings of one game as JSON: the game's id, the
// names of the metrics its means average (Score: engine.ScoreIndex's;
// Measure: engine.Document.Mean's, "" when the game has none) and the
// bots, best first.
type StandingsJSON struct {
	Game      string         `json:"game"`
	Score     string         `json:"score"`
	Measure   string         `json:"measure"`
	Standings []StandingJSON `json:"standings"`
}

// StandingsCSVColumns are the columns of WriteStandingsCSV, named as
// StandingJSON's fields.
var StandingsCSVColumns = []string{"rank", "bot", "games", "wins", "mean_rank", "mean_score", "scored", "mean_measure", "mu_3sigma", "mu", "sigma", "elo"}

// NewStandingsJSON is st, standings of a game of ruleset (best first), as
// JSON gives them.
func NewStandingsJSON(ruleset string, st []match.Standing) StandingsJSON {
	out := StandingsJSON{Game: ruleset, Score: "score", Standings: make([]StandingJSON, len(st))}
	if r, ok := engine.Lookup(ruleset); ok {
		out.Score = r.Metrics()[engine.ScoreIndex(r)].Name
		if k := match.MeasureIndex(r); k >= 0 {
			out.Measure = r.Metrics()[k].Name
		}
	}
	for i, s := range st {
		out.Standings[i] = StandingJSON{Rank: i + 1, Bot: s.Bot, Games: s.Games, Wins: s.Wins, MeanRank: s.MeanRank,
			MeanScore: s.MeanScore, Scored: s.Scored, MeanMeasure: s.MeanMeasure, Mu3Sigma: s.Conservative, Mu: s.Mu, Sigma: s.Sigma, Elo: s.Elo}
	}
	return out
}

// WriteStandingsJSON writes the standings of a game of ruleset as one
// StandingsJSON object.
func WriteStandingsJSON(w io.Writer, ruleset string, st []match.Standing) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(NewStandingsJSON(ruleset, st))
}

// WriteStandingsCSV writes standings, best first, as CSV with the header
// StandingsCSVColumns; floats in full precision, a bot's name guarded as
// every CSV of rewind's is (a leading = + - @ prefixed with ').
func WriteStandingsCSV(w io.Writer, st []match.Standing) error {
	cw := csv.NewWriter(w)
	cw.Write(StandingsCSVColumns)
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for i, s := range st {
		cw.Write([]string{strconv.Itoa(i + 1), csvSafe(s.Bot), strconv.Itoa(s.Games), strconv.Itoa(s.Wins), f(s.MeanRank), f(s.MeanScore),
			strconv.Itoa(s.Scored), f(s.MeanMeasure), f(s.Conservative), f(s.Mu), f(s.Sigma), f(s.Elo)})
	}
	cw.Flush()
	return cw.Error()
}
