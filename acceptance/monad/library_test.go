package monad_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
)

// serveLine is the line `rewind serve DIR` prints once it listens, its
// base URL the submatch.
var serveLine = regexp.MustCompile(` at (http://[^/\s]+)\S*  \(Ctrl-C stops\)$`)

// goldCell is a library row's winner amount: the number and its unit.
var goldCell = regexp.MustCompile(`<span class="gold">(-?\d+) ([^<]*)</span>`)

// finalAmount re-simulates the replay at path (source.OpenStream) and
// returns its winner's (the last frame's first ranked) final value of
// the metric named metric.
func finalAmount(t *testing.T, path, metric string) int64 {
	t.Helper()
	_, values, ranking := finalFrame(t, path, metric)
	return values[ranking[0]]
}

// finalValues is each bot's final value of metric in the replay at path.
func finalValues(t *testing.T, path, metric string) map[string]int64 {
	t.Helper()
	bots, values, _ := finalFrame(t, path, metric)
	out := map[string]int64{}
	for p, b := range bots {
		out[b] = values[p]
	}
	return out
}

// finalFrame reads the replay at path (source.OpenStream) to its end and
// returns its players' bots, their final values of metric and the final
// ranking.
func finalFrame(t *testing.T, path, metric string) (bots []string, values []int64, ranking []int) {
	t.Helper()
	s, err := source.OpenStream(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m := slices.IndexFunc(s.Meta().Metrics, func(x engine.Metric) bool { return x.Name == metric })
	if m < 0 {
		t.Fatalf("%s: no metric %q", path, metric)
	}
	for _, p := range s.Meta().Players {
		bots = append(bots, p.Bot)
	}
	var f engine.Frame
	testutil.EachFrame(t, &f, s.Next, func(int) {
		ranking = append(ranking[:0], f.Ranking...)
		values = values[:0]
		for _, v := range f.Values {
			values = append(values, v[m])
		}
	})
	if len(ranking) == 0 {
		t.Fatalf("%s: no ranking", path)
	}
	return bots, values, ranking
}

// TestMonadIndexedLibraryUnits is a user's path to a library of Monad
// games: `rewind index DIR`, then `rewind serve DIR`, whose page lists
// from that index. A Monad .rwd keeps its players' resources in its footer
// (Monad's own codec: engine.FooterIndex), so its row's winner amount is
// the winner's final resources, said "resources"; a Monad reference log
// counts hives, so its row says "hives". Both a recording played now and
// one written before Monad moved onto the generic path
// (testdata/legacy-4p.rwd).
func TestMonadIndexedLibraryUnits(t *testing.T) {
	log := filepath.Join("..", "..", "testdata", "monad", "official", "m05.replay.json")
	if !fileExists(log) {
		t.Skip("no testdata/monad/official/m05.replay.json")
	}
	dir := t.TempDir()
	cp := func(src, name string) {
		b := testutil.ReadFile(t, src)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cp(log, "m05.replay.json")
	cp(legacyFile, "legacy.rwd")
	if out, code := clitest.Run(t, "play", "--game", "monad", "--seed", "5", "--turns", "80", "--bot", "expander", "--bot", "miner", "--bot", "rusher",
		"-o", filepath.Join(dir, "played.rwd")); code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	if out, code := clitest.Run(t, "index", dir); code != 0 {
		t.Fatalf("index: status %d\n%s", code, out)
	}
	base := clitest.Start(t, serveLine, "serve", dir, "--addr", "127.0.0.1:0")
	res, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /: %d %v", res.StatusCode, err)
	}
	page := string(b)
	if !strings.Contains(page, `data-indexed="1"`) {
		t.Fatal("the library page is not the indexed listing")
	}
	// Each row's winner amount, by replay.
	got := map[string]string{}
	for _, row := range strings.Split(page, "<tr")[1:] {
		id := regexp.MustCompile(`data-id="([^"]*)"`).FindStringSubmatch(row)
		g := goldCell.FindStringSubmatch(row)
		if id != nil && g != nil {
			got[id[1]] = g[1] + " " + g[2]
		}
	}
	// /api/library says the same, with the unit in its own field.
	res, err = http.Get(base + "/api/library")
	if err != nil {
		t.Fatal(err)
	}
	var api struct {
		Rows []struct {
			ID         string `json:"id"`
			WinnerGold int64  `json:"winner_gold"`
			Unit       string `json:"unit"`
		} `json:"rows"`
	}
	err = json.NewDecoder(res.Body).Decode(&api)
	res.Body.Close()
	if err != nil {
		t.Fatalf("/api/library: %v", err)
	}
	apiGot := map[string]string{}
	for _, r := range api.Rows {
		apiGot[r.ID] = strconv.FormatInt(r.WinnerGold, 10) + " " + r.Unit
	}
	for _, c := range []struct{ file, metric string }{
		{"played.rwd", "resources"},
		{"legacy.rwd", "resources"},
		{"m05.replay.json", "hives"},
	} {
		want := strconv.FormatInt(finalAmount(t, filepath.Join(dir, c.file), c.metric), 10) + " " + c.metric
		if got[c.file] != want {
			t.Errorf("%s: the library says %q for its winner, want %q", c.file, got[c.file], want)
		}
		if apiGot[c.file] != want {
			t.Errorf("%s: /api/library says %q for its winner, want %q", c.file, apiGot[c.file], want)
		}
	}
	// The standings' "mean hives" counts the hives of the games that keep
	// them (the reference log's players), never a .rwd's resources: a bot
	// that played only in .rwd files has no mean hives ("–").
	res, err = http.Get(base + "/standings")
	if err != nil {
		t.Fatal(err)
	}
	b, err = io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /standings: %d %v", res.StatusCode, err)
	}
	_, table, ok := strings.Cut(string(b), `data-game="Monad"`)
	if !ok {
		t.Fatal("the standings page has no Monad table")
	}
	table, _, _ = strings.Cut(table, "</table>")
	if !strings.Contains(table, "Mean hives") {
		t.Errorf("the Monad table's score column is not hives:\n%s", table)
	}
	cell := regexp.MustCompile(`<tr data-bot="([^"]*)">(?:\s*<td[^>]*>.*?</td>){4}\s*<td[^>]*>[^<]*</td>\s*<td class="num">([^<]*)</td>`)
	mean := map[string]string{}
	for _, m := range cell.FindAllStringSubmatch(table, -1) {
		mean[m[1]] = m[2]
	}
	logHives := finalValues(t, filepath.Join(dir, "m05.replay.json"), "hives")
	for _, bot := range []string{"expander", "miner", "rusher"} {
		if mean[bot] != "–" {
			t.Errorf("%s played in .rwd files only: mean hives %q, want –", bot, mean[bot])
		}
	}
	for bot, hives := range logHives {
		if want := strconv.FormatInt(hives, 10); mean[bot] != want {
			t.Errorf("%s: mean hives %q, want %s (its hives in the reference log)", bot, mean[bot], want)
		}
	}
	if len(logHives) == 0 {
		t.Error("no player of the reference log")
	}
}
