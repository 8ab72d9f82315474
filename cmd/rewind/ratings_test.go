package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// parseStandings parses a standings table as the commands print it
// (analysis.WriteRulesetStandings): its header's columns and, per row,
// the bot and its cells by column name.
func parseStandings(t *testing.T, out string) (cols []string, rows []map[string]string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "rank ") {
			continue
		}
		// Columns are 2+ spaces apart (tabwriter), names may hold one.
		cols = splitColumns(l)
		for _, r := range lines[i+1:] {
			cells := splitColumns(r)
			if len(cells) != len(cols) {
				break
			}
			row := map[string]string{}
			for k, c := range cols {
				row[c] = cells[k]
			}
			rows = append(rows, row)
		}
		return cols, rows
	}
	t.Fatalf("no standings table in:\n%s", out)
	return nil, nil
}

func splitColumns(l string) []string {
	var out []string
	for _, f := range strings.Split(l, "  ") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// checkRatingColumns: the table has mu-3sigma, mu and sigma beside elo,
// each row's mu-3sigma is its mu − 3·sigma (to the printed rounding),
// and the rows are ordered by mu-3sigma, best first. It returns each
// row's sigma.
func checkRatingColumns(t *testing.T, out string, bots int) (sigmas []float64) {
	t.Helper()
	cols, rows := parseStandings(t, out)
	for _, c := range []string{"mu-3sigma", "mu", "sigma", "elo"} {
		found := false
		for _, h := range cols {
			found = found || h == c
		}
		if !found {
			t.Fatalf("no %q column in %q:\n%s", c, cols, out)
		}
	}
	if len(rows) != bots {
		t.Fatalf("%d rows, want %d:\n%s", len(rows), bots, out)
	}
	prev := 1e300
	for _, r := range rows {
		num := func(c string) float64 {
			v, err := strconv.ParseFloat(r[c], 64)
			if err != nil {
				t.Fatalf("%s %q: %v\n%s", c, r[c], err, out)
			}
			return v
		}
		cons, mu, sigma := num("mu-3sigma"), num("mu"), num("sigma")
		if d := cons - (mu - 3*sigma); d > 0.021 || d < -0.021 || sigma <= 0 {
			t.Errorf("row %v: mu-3sigma %v is not mu − 3·sigma:\n%s", r, cons, out)
		}
		sigmas = append(sigmas, sigma)
		if cons > prev {
			t.Errorf("rows not ordered by mu-3sigma:\n%s", out)
		}
		prev = cons
	}
	return sigmas
}

// TestTournamentRatingsThroughCLI: rewind tournament prints, beside Elo,
// each bot's Weng–Lin μ − 3σ, μ and σ, ordered by μ − 3σ.
func TestTournamentRatingsThroughCLI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "t")
	out, err := runCLIOut(t, "tournament", "--bot", "greedy", "--bot", "random", "--bot", "economist", "--games", "6",
		"--parallel", "2", "--turns", "200", "--seed", "7", "--dir", dir)
	if err != nil {
		t.Fatalf("tournament: %v\n%s", err, out)
	}
	for _, s := range checkRatingColumns(t, out, 3) {
		if s >= 25.0/3 {
			t.Errorf("a sigma of %v: the games did not narrow it from 25/3:\n%s", s, out)
		}
	}
}
