package monad_test

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	monad "github.com/rewind-game/rewind/games/monad/rules"
	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil/simtest"
)

// monadFinal re-simulates a Monad recording to its end through the seam
// (replay.Sim) and returns the last state.
func monadFinal(t *testing.T, path string) *monad.State {
	t.Helper()
	return simtest.ResimulateFile(t, path, nil).Game().(*monad.Game).State
}

// TestMonadAnalyzeCLI: analyze on a played Monad recording gives the
// generic analysis: the ranking with every metric's final value, JSON with
// a series per metric equal to the re-simulated state and the game's
// events, and CSV; export to .cfr refuses it naming analyze.
func TestMonadAnalyzeCLI(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "m.rwd")
	if out, code := clitest.Run(t, "play", "--game", "monad", "--seed", "3", "--turns", "200", "-o", rwd); code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	st := monadFinal(t, rwd)
	rank := st.Ranking()

	out, code := clitest.Run(t, "analyze", rwd)
	if code != 0 || !strings.Contains(out, "builds a hive at") {
		t.Fatalf("analyze: status %d\n%s", code, out)
	}

	out, code = clitest.Run(t, "analyze", rwd, "--format", "json")
	if code != 0 {
		t.Fatalf("analyze --format json: status %d\n%.400s", code, out)
	}
	var doc struct {
		Analysis string `json:"analysis"`
		Game     string `json:"game"`
		Turns    int    `json:"turns"`
		Ranking  []int  `json:"ranking"`
		Events   []struct {
			Kind string `json:"kind"`
		} `json:"events"`
		Series []struct {
			Name   string    `json:"name"`
			Values [][]int64 `json:"values"`
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("JSON: %v\n%.300s", err, out)
	}
	if doc.Analysis != "generic" || doc.Game != "monad" || doc.Turns != st.Turn() || len(doc.Ranking) != 3 {
		t.Fatalf("JSON analysis %q game %q turns %d ranking %v", doc.Analysis, doc.Game, doc.Turns, doc.Ranking)
	}
	for i, r := range rank {
		if doc.Ranking[i] != r.Player {
			t.Fatalf("JSON ranking %v, the game's %+v", doc.Ranking, rank)
		}
	}
	kinds := map[string]int{}
	for _, e := range doc.Events {
		kinds[e.Kind]++
	}
	if kinds["hive_built"] == 0 {
		t.Errorf("no hive_built event: %v", kinds)
	}
	checked := 0
	for _, s := range doc.Series {
		for p := 0; p < 3; p++ {
			var want int64
			switch s.Name {
			case "units":
				want = st.Stats(p).Units
			case "hives":
				want = int64(st.Stats(p).Hives)
			case "resources":
				want = st.Stats(p).Resources
			default:
				continue
			}
			checked++
			if got := s.Values[p][st.Turn()]; got != want {
				t.Fatalf("JSON %s of player %d at the end: %d, want %d", s.Name, p, got, want)
			}
		}
	}
	if checked != 9 {
		t.Fatalf("JSON series %+v", doc.Series)
	}

	out, code = clitest.Run(t, "analyze", rwd, "--format", "csv")
	if code != 0 {
		t.Fatalf("analyze --format csv: status %d\n%.400s", code, out)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || !strings.HasPrefix(out, "turn,player,name,resources,units,hives") || len(rows) != 1+3*(st.Turn()+1) {
		t.Fatalf("CSV: %v\n%.300s", err, out)
	}

	out, code = clitest.Run(t, "export", rwd, "-o", filepath.Join(dir, "e.cfr"))
	if code == 0 || !strings.Contains(out, "a .cfr holds ColorfightII games only") {
		t.Errorf("export on a Monad replay: status %d\n%s", code, out)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("refused commands wrote files: %v", ents)
	}

	// fork plays a Monad game on from turn 10 with each seat's own
	// built-in: the new replay verifies on its own, names its parent, and
	// its first 10 turns are the parent's.
	forked := filepath.Join(dir, "f.rwd")
	if out, code = clitest.Run(t, "fork", rwd, "--turn", "10", "-o", forked); code != 0 {
		t.Fatalf("fork on a Monad replay: status %d\n%s", code, out)
	}
	if out, code = clitest.Run(t, "verify", forked); code != 0 {
		t.Fatalf("verify of the fork: status %d\n%s", code, out)
	}
	if out, code = clitest.Run(t, "info", forked); code != 0 || !strings.Contains(out, filepath.Base(rwd)) {
		t.Errorf("info of the fork names no parent %s: status %d\n%s", filepath.Base(rwd), code, out)
	}
	parent, child := streamFrames(t, rwd), streamFrames(t, forked)
	if len(child) <= 10 {
		t.Fatalf("the fork has %d frames", len(child))
	}
	for turn := 0; turn <= 10; turn++ {
		if !slices.Equal(parent[turn].cells, child[turn].cells) || !slices.EqualFunc(parent[turn].commands, child[turn].commands, slices.Equal) {
			t.Fatalf("turn %d of the fork is not the parent's", turn)
		}
	}
	// A reference log is no .rwd: fork refuses it, saying what it takes.
	official := filepath.Join("..", "..", "testdata", "monad", "official", "m05.replay.json")
	if out, code = clitest.Run(t, "fork", official, "--turn", "3", "-o", filepath.Join(dir, "g.rwd")); code == 0 || !strings.Contains(out, "plays on from a .rwd") {
		t.Errorf("fork on a Monad reference log: status %d\n%s", code, out)
	}
}

// TestMonadAnalyzeOfficialLog: analyze reads the reference engine's own
// log as a state stream: shown as recorded, commands known, the events
// its boards show.
func TestMonadAnalyzeOfficialLog(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "monad", "official", "m05.replay.json")
	out, code := clitest.Run(t, "analyze", path, "--format", "json")
	if code != 0 {
		t.Fatalf("analyze: status %d\n%s", code, out)
	}
	var doc struct {
		Game        string `json:"game"`
		Format      string `json:"format"`
		Resimulated bool   `json:"resimulated"`
		Turns       int    `json:"turns"`
		Events      []struct {
			Kind string `json:"kind"`
		} `json:"events"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	built := 0
	for _, e := range doc.Events {
		if e.Kind == "hive_built" {
			built++
		}
	}
	if doc.Game != "monad" || doc.Format != "monad-log" || doc.Resimulated || doc.Turns != 100 || built == 0 {
		t.Fatalf("game %q format %q resimulated %v turns %d, %d hives built", doc.Game, doc.Format, doc.Resimulated, doc.Turns, built)
	}
	out, code = clitest.Run(t, "analyze", path)
	if code != 0 || !strings.Contains(out, "100 turns") {
		t.Fatalf("analyze table of a log: status %d\n%s", code, out)
	}
}
