package monad_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
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
		// ColorfightII's table has 11 columns (mean gold and cells), every
		// other game's 10 (mean score); the last four are the ratings
		// (mu-3sigma, mu, sigma, elo).
		if len(f) != 11 && len(f) != 10 || !strings.HasPrefix(f[1], `"`) {
			break
		}
		rows[f[1]] = strings.Join(f[2:], " ")
	}
	return rows
}

// standingsHeading is the line that heads a game's standings table in
// analyze DIR's output ("Monad: 4 games").
var standingsHeading = regexp.MustCompile(`^\S.*: \d+ games$`)

// splitCSV separates, in the output of analyze DIR --format csv (stdout
// and stderr interleaved as written), the CSV (stdout) from the rest
// (stderr): the notices of skipped, cut or uncached files, printed before
// the CSV, and the standings tables, printed after it.
func splitCSV(out string) (csvText, stderr string) {
	var c, e strings.Builder
	tables := false
	for _, l := range strings.SplitAfter(out, "\n") {
		line := strings.TrimRight(l, "\n")
		tables = tables || standingsHeading.MatchString(line)
		if tables || strings.HasPrefix(line, "skipped ") || strings.HasPrefix(line, "warning: ") || strings.HasPrefix(line, "note: ") {
			e.WriteString(l)
		} else {
			c.WriteString(l)
		}
	}
	return c.String(), e.String()
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
	mdir, cdir := filepath.Join(tmp, "m"), filepath.Join(tmp, "c")
	mout, code := clitest.Run(t, "tournament", "--game", "monad", "--turns", "120", "--seed", "4", "--games", "3", "--parallel", "2", "--dir", mdir)
	if code != 0 {
		t.Fatalf("tournament --game monad: status %d\n%s", code, mout)
	}
	if out, code := clitest.Run(t, "tournament", "--bot", "greedy", "--bot", "random", "--turns", "200", "--seed", "3", "--games", "2", "--parallel", "2", "--dir", cdir); code != 0 {
		t.Fatalf("tournament: status %d\n%s", code, out)
	}
	os.Mkdir(dir, 0o755)
	cp := func(src, name string) {
		b := testutil.ReadFile(t, src)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	monadFiles := []string{"m0.rwd", "m1.rwd", "m2.rwd", "m05.replay.json"}
	for i := 0; i < 3; i++ {
		cp(filepath.Join(mdir, "game-000"+string(rune('0'+i))+".rwd"), monadFiles[i])
	}
	cp(filepath.Join(cdir, "game-0000.rwd"), "c0.rwd")
	cp(filepath.Join(cdir, "game-0001.rwd"), "c1.rwd")
	cp("../../testdata/monad/official/m05.replay.json", "m05.replay.json")
	os.WriteFile(filepath.Join(dir, "corrupt.rwd"), []byte("RWD1\x00\x00garbage"), 0o644)

	// The binary's stdout and stderr are one output: the tables and the
	// notice of the skipped file, which makes the status 1
	// (docs/exit-codes.md).
	o, code := clitest.Run(t, "analyze", dir, "--format", "table", "--parallel", "2")
	if code != 1 {
		t.Fatalf("analyze DIR: status %d, want 1 (a file skipped)\n%s", code, o)
	}
	if !strings.Contains(o, "ColorfightII: 2 games\n") || !strings.Contains(o, "Monad: 4 games\n") || !strings.Contains(o, "6 replays analyzed, 1 skipped\n") {
		t.Fatalf("output:\n%s", o)
	}
	// One count for the folder: a skipped file belongs to no game's table.
	if n := strings.Count(o, "replays analyzed"); n != 1 {
		t.Errorf("%d lines count the replays analyzed, want 1:\n%s", n, o)
	}
	if !strings.Contains(o, "skipped "+filepath.Join(dir, "corrupt.rwd")+":") {
		t.Errorf("the corrupt file is not reported by name:\n%s", o)
	}
	cf := standingsRows(t, o, "ColorfightII: 2 games")
	if len(cf) != 2 || !strings.HasPrefix(cf[`"greedy"`], "2 ") {
		t.Errorf("ColorfightII table %v", cf)
	}

	// The Monad table holds the tournament's rows for its bots.
	mon := standingsRows(t, o, "Monad: 4 games")
	tour := standingsRows(t, mout, "")
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
		js, code := clitest.Run(t, "analyze", filepath.Join(dir, f), "--format", "json")
		if code != 0 {
			t.Fatalf("analyze %s: status %d\n%s", f, code, js)
		}
		var a struct {
			Winner  int
			Players []struct{ Name, Bot string }
		}
		if err := json.Unmarshal([]byte(js), &a); err != nil {
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

	// CSV of the mixed folder: ColorfightII's rows (its own columns); the
	// Monad games are said to be left out.
	out, code := clitest.Run(t, "analyze", dir, "--format", "csv", "--parallel", "1")
	if code != 1 {
		t.Fatalf("analyze DIR --format csv: status %d\n%s", code, out)
	}
	csvText, errOut := splitCSV(out)
	perGame := func(csvText string) map[string]int {
		rows, err := csv.NewReader(strings.NewReader(csvText)).ReadAll()
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
		return per
	}
	if per, want := perGame(csvText), map[string]int{"c0.rwd colorfight2": 2, "c1.rwd colorfight2": 2}; fmt.Sprint(per) != fmt.Sprint(want) {
		t.Errorf("rows per game %v, want %v", per, want)
	}
	if !strings.Contains(errOut, "4 replays of other games left out of the CSV") || !strings.Contains(errOut, "corrupt.rwd") {
		t.Errorf("stderr:\n%s", errOut)
	}

	// CSV of the Monad games alone: the generic corpus CSV, one row per
	// (game, player).
	mdirOnly := filepath.Join(t.TempDir(), "monad")
	os.MkdirAll(mdirOnly, 0o755)
	for _, name := range monadFiles {
		b := testutil.ReadFile(t, filepath.Join(dir, name))
		os.WriteFile(filepath.Join(mdirOnly, name), b, 0o644)
	}
	out, code = clitest.Run(t, "analyze", mdirOnly, "--format", "csv", "--parallel", "1")
	if code != 0 {
		t.Fatalf("analyze DIR --format csv: status %d\n%s", code, out)
	}
	csvText, errOut = splitCSV(out)
	want := map[string]int{"m0.rwd monad": 3, "m1.rwd monad": 3, "m2.rwd monad": 3, "m05.replay.json monad": 2}
	if per := perGame(csvText); fmt.Sprint(per) != fmt.Sprint(want) {
		t.Errorf("rows per game %v, want %v", per, want)
	}
	if !strings.Contains(errOut, "Monad: 4 games") {
		t.Errorf("stderr:\n%s", errOut)
	}
}

// TestMonadReportCLI: report writes the generic HTML report of a Monad
// recording and of a reference log: a chart per metric, the outcome, the
// game's events.
func TestMonadReportCLI(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "m.rwd")
	if out, code := clitest.Run(t, "play", "--game", "monad", "--seed", "2", "--turns", "150", "-o", rwd); code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	for _, c := range []struct {
		in     string
		charts int
	}{{rwd, 6}, {"../../testdata/monad/official/m05.replay.json", 6}} {
		html := filepath.Join(dir, filepath.Base(c.in)+".html")
		out, code := clitest.Run(t, "report", c.in, "-o", html)
		if code != 0 || !strings.Contains(out, "wrote "+html) {
			t.Fatalf("report %s: status %d\n%s", c.in, code, out)
		}
		b := testutil.ReadFile(t, html)
		page := string(b)
		if n := strings.Count(page, `data-testid="chart"`); n != c.charts {
			t.Errorf("%s: %d charts, want %d", c.in, n, c.charts)
		}
		if !strings.Contains(page, `id="chart-hives"`) || !strings.Contains(page, "monad replay (") || !strings.Contains(page, "in the lead for good since turn") ||
			!strings.Contains(page, `<tr class="ev-hive_built" data-kind="hive_built"`) {
			t.Errorf("%s: the report lacks the hives chart, the outcome or the events", c.in)
		}
	}
}
