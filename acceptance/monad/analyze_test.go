package monad_test

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/replay"
)

// monadFinal re-simulates a Monad recording to its end with package
// replay and returns the last state.
func monadFinal(t *testing.T, path string) *monad.State {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := replay.OpenMonad(f)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for {
		if err := g.Next(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	return g.State()
}

// TestMonadAnalyzeCLI: analyze on a played Monad recording prints the
// ranking with the final facts, JSON with every series, and CSV with one
// row per player per turn; export to .cfr refuses it naming analyze (report
// takes it: TestMonadReportCLI; export --html: TestExportMonadHTML).
func TestMonadAnalyzeCLI(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "m.rwd")
	if out, code := clitest.Run(t, "play", "--game", "monad", "--seed", "3", "--turns", "200", "-o", rwd); code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	st := monadFinal(t, rwd)
	rank := st.Ranking()

	out, code := clitest.Run(t, "analyze", rwd)
	if code != 0 {
		t.Fatalf("analyze: status %d\n%s", code, out)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "monad replay (rwd-monad), 3 players, "+strconv.Itoa(st.Turn())+" turns") {
		t.Fatalf("analyze table:\n%s", out)
	}
	// One row per player in rank order: rank, player, name, resources,
	// units, hives, cells, produced, lost, rejected.
	for i, r := range rank {
		f := strings.Fields(lines[2+i])
		s := st.Stats(r.Player)
		want := []int64{int64(i + 1), int64(r.Player), 0, s.Resources, s.Units, int64(s.Hives), int64(s.Cells), s.UnitsProduced, s.UnitsLost, s.Rejected}
		if len(f) != len(want) {
			t.Fatalf("row %q", lines[2+i])
		}
		for j, w := range want {
			if j == 2 {
				continue
			}
			if f[j] != strconv.FormatInt(w, 10) {
				t.Fatalf("row %q: column %d is %s, want %d", lines[2+i], j, f[j], w)
			}
		}
	}
	if !strings.Contains(out, "winner ") || !strings.Contains(out, "events (") || !strings.Contains(out, "builds a hive at") {
		t.Fatalf("analyze table:\n%s", out)
	}

	out, code = clitest.Run(t, "analyze", rwd, "--format", "json")
	if code != 0 {
		t.Fatalf("analyze --format json: status %d\n%.400s", code, out)
	}
	var doc struct {
		Game    string `json:"game"`
		Turns   int    `json:"turns"`
		Ranking []int  `json:"ranking"`
		Series  []struct {
			Name   string    `json:"name"`
			Values [][]int64 `json:"values"`
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("JSON: %v\n%.300s", err, out)
	}
	if doc.Game != "monad" || doc.Turns != st.Turn() || len(doc.Ranking) != 3 || doc.Ranking[0] != rank[0].Player {
		t.Fatalf("JSON game %q turns %d ranking %v", doc.Game, doc.Turns, doc.Ranking)
	}
	for _, s := range doc.Series {
		if s.Name != "units" {
			continue
		}
		for p := 0; p < 3; p++ {
			if got := s.Values[p][st.Turn()]; got != st.Stats(p).Units {
				t.Fatalf("JSON units of player %d at the end: %d, want %d", p, got, st.Stats(p).Units)
			}
		}
	}

	out, code = clitest.Run(t, "analyze", rwd, "--format", "csv")
	if code != 0 {
		t.Fatalf("analyze --format csv: status %d\n%.400s", code, out)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+3*(st.Turn()+1) || rows[0][0] != "turn" || rows[0][4] != "units" {
		t.Fatalf("CSV: %d rows (want %d), header %q", len(rows), 1+3*(st.Turn()+1), rows[0])
	}
	lastRow := rows[len(rows)-1]
	if lastRow[0] != strconv.Itoa(st.Turn()) || lastRow[1] != "2" || lastRow[4] != strconv.FormatInt(st.Stats(2).Units, 10) {
		t.Fatalf("CSV last row %q", lastRow)
	}
	if out, code := clitest.Run(t, "analyze", rwd, "--format", "csv", "--csv", "summary"); code == 0 || !strings.Contains(out, "--csv series") {
		t.Fatalf("--csv summary on Monad: status %d\n%s", code, out)
	}

	for _, args := range [][]string{
		{"export", rwd, "-o", filepath.Join(dir, "e.cfr")},
	} {
		out, code := clitest.Run(t, args...)
		if code == 0 || !strings.Contains(out, "Monad replay") || !strings.Contains(out, "use analyze") {
			t.Errorf("%s on a Monad replay: status %d\n%s", args[0], code, out)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("refused commands wrote files: %v", ents)
	}
}

// TestMonadAnalyzeOfficialLog: analyze reads the reference engine's own
// log, and leaves out what a log does not know.
func TestMonadAnalyzeOfficialLog(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "monad", "official", "m05.replay.json")
	out, code := clitest.Run(t, "analyze", path, "--format", "json")
	if code != 0 {
		t.Fatalf("analyze: status %d\n%s", code, out)
	}
	var doc struct {
		Game     string `json:"game"`
		Counters bool   `json:"counters"`
		Turns    int    `json:"turns"`
		Series   []struct {
			Name string `json:"name"`
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Game != "monad" || doc.Counters || doc.Turns != 100 {
		t.Fatalf("game %q counters %v turns %d", doc.Game, doc.Counters, doc.Turns)
	}
	var names []string
	for _, s := range doc.Series {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, ","); got != "resources,units,hives,cells,resources_mined,hives_built,hives_lost" {
		t.Fatalf("series of a log: %s", got)
	}
	out, code = clitest.Run(t, "analyze", path)
	if code != 0 || strings.Contains(out, "rejected") || !strings.Contains(out, "100 turns") {
		t.Fatalf("analyze table of a log: status %d\n%s", code, out)
	}
}
