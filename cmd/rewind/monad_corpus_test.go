package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// standingsRows returns the rows of the standings table that follows the
// line heading in out (at its start for ""), by bot (its quoted name), each without its rank.
func standingsRows(t *testing.T, out, heading string) map[string]string {
	t.Helper()
	after, ok := out, true
	if heading != "" {
		_, after, ok = strings.Cut(out, heading+"\n")
	}
	if !ok {
		t.Fatalf("no %q in:\n%s", heading, out)
	}
	lines := strings.Split(after, "\n")
	if !strings.HasPrefix(lines[0], "rank ") {
		t.Fatalf("no table after %q:\n%s", heading, out)
	}
	rows := map[string]string{}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) != 8 || !strings.HasPrefix(f[1], `"`) {
			break
		}
		rows[f[1]] = strings.Join(f[2:], " ")
	}
	return rows
}

// TestMonadCorpusCLI: analyze DIR on a folder of 3 games of a Monad
// tournament, 2 of a ColorfightII one, an official Monad log and a
// corrupt file prints one standings table per game; the Monad table is the
// tournament's own (same games, wins, means and Elo per bot) and its wins
// are the winners of analyze FILE on each game; the CSV has one row per
// (game, player) with the game's ruleset; the corrupt file is reported by
// name and the rest analysed.
func TestMonadCorpusCLI(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "corpus")
	var mout bytes.Buffer
	mt := &tournamentOptions{play: playOptions{game: "monad", turns: 120, seed: 4, stdout: &mout}, games: 3, parallel: 2, dir: filepath.Join(tmp, "m")}
	if err := runTournament(context.Background(), mt); err != nil {
		t.Fatal(err)
	}
	ct := &tournamentOptions{play: playOptions{bots: []string{"greedy", "random"}, turns: 200, seed: 3, stdout: io.Discard}, games: 2, parallel: 2, dir: filepath.Join(tmp, "c")}
	if err := runTournament(context.Background(), ct); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(dir, 0o755)
	cp := func(src, name string) {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	monadFiles := []string{"m0.rwd", "m1.rwd", "m2.rwd", "m05.replay.json"}
	for i := 0; i < 3; i++ {
		cp(filepath.Join(mt.dir, "game-000"+string(rune('0'+i))+".rwd"), monadFiles[i])
	}
	cp(filepath.Join(ct.dir, "game-0000.rwd"), "c0.rwd")
	cp(filepath.Join(ct.dir, "game-0001.rwd"), "c1.rwd")
	cp("../../testdata/monad/official/m05.replay.json", "m05.replay.json")
	os.WriteFile(filepath.Join(dir, "corrupt.rwd"), []byte("RWD1\x00\x00garbage"), 0o644)

	var out, errOut bytes.Buffer
	if err := runAnalyze(&analyzeOptions{path: dir, format: "table", parallel: 2, stdout: &out, stderr: &errOut}); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	o := out.String()
	if !strings.Contains(o, "ColorfightII: 2 games\n") || !strings.Contains(o, "Monad: 4 games\n") || !strings.Contains(o, "6 replays analyzed, 1 skipped") {
		t.Fatalf("output:\n%s", o)
	}
	if !strings.Contains(errOut.String(), "skipped "+filepath.Join(dir, "corrupt.rwd")+":") {
		t.Errorf("the corrupt file is not reported by name:\n%s", errOut.String())
	}
	cf := standingsRows(t, o, "ColorfightII: 2 games")
	if len(cf) != 2 || !strings.HasPrefix(cf[`"greedy"`], "2 ") {
		t.Errorf("ColorfightII table %v", cf)
	}

	// The Monad table holds the tournament's rows for its bots.
	mon := standingsRows(t, o, "Monad: 4 games")
	tour := standingsRows(t, mout.String(), "")
	if len(tour) != 3 || len(mon) != 5 {
		t.Fatalf("tournament %v, corpus %v", tour, mon)
	}
	for bot, row := range tour {
		if mon[bot] != row {
			t.Errorf("%s: corpus %q, tournament %q", bot, mon[bot], row)
		}
	}

	// Its wins are the winners of each file analysed on its own.
	wins := map[string]int{}
	for _, f := range monadFiles {
		var js bytes.Buffer
		if err := runAnalyze(&analyzeOptions{path: filepath.Join(dir, f), format: "json", stdout: &js, stderr: io.Discard}); err != nil {
			t.Fatal(err)
		}
		var a struct {
			Winner  int
			Players []struct{ Name, Bot string }
		}
		if err := json.Unmarshal(js.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
		if a.Winner < 0 {
			t.Fatalf("%s has no winner", f)
		}
		key := a.Players[a.Winner].Bot
		if key == "" {
			key = a.Players[a.Winner].Name
		}
		wins[`"`+key+`"`]++
	}
	for bot, row := range mon {
		if f := strings.Fields(row); f[1] != strconv.Itoa(wins[bot]) {
			t.Errorf("%s: %s wins, analyze FILE says %d", bot, f[1], wins[bot])
		}
	}

	// CSV: one row per (game, player), the right ruleset.
	out.Reset()
	errOut.Reset()
	if err := runAnalyze(&analyzeOptions{path: dir, format: "csv", parallel: 1, stdout: &out, stderr: &errOut}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if rows[0][0] != "game" || rows[0][1] != "ruleset" {
		t.Fatalf("header %v", rows[0])
	}
	per := map[string]int{}
	for _, r := range rows[1:] {
		per[r[0]+" "+r[1]]++
	}
	want := map[string]int{"c0.rwd colorfight2": 2, "c1.rwd colorfight2": 2, "m0.rwd monad": 3, "m1.rwd monad": 3, "m2.rwd monad": 3, "m05.replay.json monad": 2}
	if len(per) != len(want) {
		t.Errorf("rows per game %v, want %v", per, want)
	}
	for k, n := range want {
		if per[k] != n {
			t.Errorf("rows per game %v, want %v", per, want)
			break
		}
	}
	if !strings.Contains(errOut.String(), "Monad: 4 games") || !strings.Contains(errOut.String(), "corrupt.rwd") {
		t.Errorf("stderr:\n%s", errOut.String())
	}
}

// TestMonadReportCLI: report writes the HTML report of a Monad recording
// and of a reference log: a chart per series, the outcome, the events.
func TestMonadReportCLI(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "m.rwd")
	if out, err := runCLIOut(t, "play", "--game", "monad", "--seed", "2", "--turns", "150", "-o", rwd); err != nil {
		t.Fatalf("play: %v\n%s", err, out)
	}
	for _, c := range []struct {
		in     string
		charts int
	}{{rwd, 11}, {"../../testdata/monad/official/m05.replay.json", 7}} {
		html := filepath.Join(dir, filepath.Base(c.in)+".html")
		out, err := runCLIOut(t, "report", c.in, "-o", html)
		if err != nil || !strings.Contains(out, "wrote "+html) {
			t.Fatalf("report %s: %v\n%s", c.in, err, out)
		}
		b, err := os.ReadFile(html)
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		if n := strings.Count(page, `data-testid="chart"`); n != c.charts {
			t.Errorf("%s: %d charts, want %d", c.in, n, c.charts)
		}
		if !strings.Contains(page, `id="chart-hives"`) || !strings.Contains(page, "Monad replay (") || !strings.Contains(page, "in the lead for good since turn") ||
			!strings.Contains(page, `<tr class="ev-hive_built" data-kind="hive_built"`) {
			t.Errorf("%s: the report lacks the hives chart, the outcome or the events", c.in)
		}
	}
}
