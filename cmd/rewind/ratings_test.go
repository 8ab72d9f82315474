package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
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
// each bot's Weng–Lin μ − 3σ, μ and σ, ordered by μ − 3σ; --format json
// and csv give the same standings with every field; a bad --format is
// exit 2.
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
	_, table := parseStandings(t, out)

	// Run again (every game kept) with --format json and csv: the same
	// standings, every field, in the same order; the summary on stderr.
	args := []string{"tournament", "--bot", "greedy", "--bot", "random", "--bot", "economist", "--games", "6",
		"--parallel", "2", "--turns", "200", "--seed", "7", "--dir", dir}
	js := runRewindStdout(t, append(args, "--format", "json")...)
	var doc analysis.StandingsJSON
	if err := json.Unmarshal([]byte(js.stdout), &doc); err != nil || js.code != 0 {
		t.Fatalf("--format json: exit %d, %v\n%s%s", js.code, err, js.stdout, js.stderr)
	}
	if !strings.Contains(js.stderr, "6 games (6 already played") || doc.Game != "colorfight2" || doc.Score != "gold" || len(doc.Standings) != 3 {
		t.Fatalf("--format json:\n%s\nstderr %s", js.stdout, js.stderr)
	}
	for i, s := range doc.Standings {
		r := table[i]
		cells := map[string]string{"bot": strconv.Quote(s.Bot), "rank": strconv.Itoa(s.Rank), "mu-3sigma": fmt.Sprintf("%.2f", s.Mu3Sigma),
			"mu": fmt.Sprintf("%.2f", s.Mu), "sigma": fmt.Sprintf("%.2f", s.Sigma), "elo": fmt.Sprintf("%.0f", s.Elo), "games": strconv.Itoa(s.Games)}
		for c, v := range cells {
			if r[c] != v {
				t.Errorf("json standing %d %s = %s, the table says %s", i+1, c, v, r[c])
			}
		}
	}
	cs := runRewindStdout(t, append(args, "--format", "csv")...)
	recs, err := csv.NewReader(strings.NewReader(cs.stdout)).ReadAll()
	if err != nil || cs.code != 0 || len(recs) != 4 || !slices.Equal(recs[0], analysis.StandingsCSVColumns) {
		t.Fatalf("--format csv: exit %d, %v\n%s%s", cs.code, err, cs.stdout, cs.stderr)
	}
	for i, rec := range recs[1:] {
		s := doc.Standings[i]
		want := []string{strconv.Itoa(s.Rank), s.Bot, strconv.Itoa(s.Games), strconv.Itoa(s.Wins)}
		for k, v := range map[int]float64{8: s.Mu3Sigma, 9: s.Mu, 10: s.Sigma, 11: s.Elo} {
			if got, _ := strconv.ParseFloat(rec[k], 64); got != v {
				t.Errorf("csv row %d %s = %s, json %v", i+1, recs[0][k], rec[k], v)
			}
		}
		if !slices.Equal(rec[:4], want) {
			t.Errorf("csv row %v, json %v", rec, s)
		}
	}
	if bad := runRewindStdout(t, append(args, "--format", "xml")...); bad.code != 2 || !strings.Contains(bad.stderr, "--format") {
		t.Errorf("--format xml: exit %d, %s", bad.code, bad.stderr)
	}
}

// pageStandings reads the standings table of a library page (the
// standings page or a bot's): per row, in order, the bot and its rating
// cells by data-col.
func pageStandings(page string) []map[string]string {
	var out []map[string]string
	row := regexp.MustCompile(`(?s)<tr data-bot="([^"]*)">(.*?)</tr>`)
	cell := regexp.MustCompile(`<td class="num" data-col="([^"]+)">([^<]*)</td>`)
	for _, m := range row.FindAllStringSubmatch(page, -1) {
		r := map[string]string{"bot": html.UnescapeString(m[1])}
		for _, c := range cell.FindAllStringSubmatch(m[2], -1) {
			r[c[1]] = c[2]
		}
		out = append(out, r)
	}
	return out
}

// TestLibraryRatingsOverHTTP: rewind serve on a tournament's folder: the
// standings page shows each bot's μ − 3σ, μ and σ beside its Elo,
// ordered by μ − 3σ, with the values rewind analyze DIR prints for the
// folder; a bot's page shows its row. The library counts games in game
// order (creation time, then file name), analyze DIR in path order, and
// the queue hands a tournament's games out in any order: the replays are
// renamed into game order first, so that both orders agree.
func TestLibraryRatingsOverHTTP(t *testing.T) {
	tdir, dir := t.TempDir(), t.TempDir()
	out, err := runCLIOut(t, "tournament", "--bot", "greedy", "--bot", "random", "--bot", "economist", "--games", "5",
		"--parallel", "2", "--turns", "200", "--seed", "11", "--dir", tdir)
	if err != nil {
		t.Fatalf("tournament: %v\n%s", err, out)
	}
	played, _ := filepath.Glob(filepath.Join(tdir, "game-*.rwd"))
	slices.SortStableFunc(played, func(a, b string) int { return source.Created(a).Compare(source.Created(b)) })
	for i, p := range played {
		if err := os.Rename(p, filepath.Join(dir, fmt.Sprintf("g%02d.rwd", i))); err != nil {
			t.Fatal(err)
		}
	}
	out, err = runCLIOut(t, "analyze", dir, "--format", "table")
	if err != nil {
		t.Fatalf("analyze: %v\n%s", err, out)
	}
	_, printed := parseStandings(t, out)
	base := serveForTest(t, "serve "+dir, &serveOptions{dir: dir, stderr: &bytes.Buffer{}}, runServe)
	get := func(path string) string {
		t.Helper()
		code, b := testutil.Get(t, base+path)
		if code != http.StatusOK {
			t.Fatalf("GET %s: %d\n%s", path, code, b)
		}
		return string(b)
	}
	// The first sync may still be reading the folder: wait until the page
	// rates every game (15 seat-games) and is current.
	var rows []map[string]string
	deadline := time.Now().Add(2 * time.Minute)
	for {
		page := get("/standings")
		rows = pageStandings(page)
		games := 0
		for _, r := range regexp.MustCompile(`<td class="num">(\d+)</td>\s*<td class="num">\d+</td>\s*<td class="num">[\d.]+</td>`).FindAllStringSubmatch(page, -1) {
			n, _ := strconv.Atoi(r[1])
			games += n
		}
		if games == 15 && !strings.Contains(page, "being computed again") {
			if !strings.Contains(page, "μ − 3σ") {
				t.Fatalf("no μ − 3σ column head:\n%s", page)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the standings never rated the 5 games (%d seat-games):\n%s", games, page)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(rows) != len(printed) || len(rows) != 3 {
		t.Fatalf("page rows %v, analyze printed %v", rows, printed)
	}
	for i, r := range rows {
		p := printed[i]
		if r["bot"] != strings.Trim(p["bot"], `"`) {
			t.Errorf("row %d: page %q, analyze %s", i+1, r["bot"], p["bot"])
		}
		for _, c := range []string{"mu-3sigma", "mu", "sigma", "elo"} {
			if r[c] == "" || r[c] != p[c] {
				t.Errorf("%s %s: page %q, analyze DIR %q", r["bot"], c, r[c], p[c])
			}
		}
	}
	// The last bot's page gives its rank in the standings.
	last := rows[len(rows)-1]["bot"]
	if page := get("/bot/" + last); !regexp.MustCompile(`<tr data-bot="` + regexp.QuoteMeta(last) + `">\s*<td class="num">3</td>`).MatchString(page) {
		t.Errorf("the bot page of %s, third in the standings, does not rank it 3:\n%s", last, page)
	}
	bot := rows[0]["bot"]
	mine := pageStandings(get("/bot/" + bot))
	if len(mine) != 1 || mine[0]["mu-3sigma"] != rows[0]["mu-3sigma"] || mine[0]["sigma"] != rows[0]["sigma"] {
		t.Errorf("the bot page of %s shows %v, the standings %v", bot, mine, rows[0])
	}
}
