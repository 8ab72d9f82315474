package analysis_test

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/replay"
)

// copyFile copies testdata file src to dir/name.
func copyFile(t *testing.T, src, dir, name string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMonadCorpus: a folder mixing Monad .rwd recordings, official Monad
// logs (both forms, found by content), a ColorfightII replay, broken files
// of both games and unrelated files is analysed game by game; the Monad
// standings are exactly match.Standings of the results a tournament makes
// from the engine's final states (crashed players sharing the last rank
// included), ColorfightII's are left apart, and the CSV has one row per
// (game, player) with its ruleset.
func TestMonadCorpus(t *testing.T) {
	dir := t.TempDir()
	crash := func(turn int, s *monad.State, r *monad.Round) {
		if turn >= 40 {
			r.Crashed[2] = true
		}
		if turn >= 60 {
			r.Crashed[3] = true
		}
	}
	recs := []struct {
		name  string
		seed  int64
		sc    script
		bots  []string
		state *monad.State
	}{
		{name: "a.rwd", seed: 5, bots: []string{"miner", "rusher", "expander"}},
		{name: "b.rwd", seed: 6, bots: []string{"rusher", "expander", "miner"}},
		{name: "c.rwd", seed: 7, sc: crash, bots: []string{"expander", "miner", "rusher", "idle"}},
	}
	for i := range recs {
		g := recordMonadGame(t, recs[i].seed, 150, recs[i].sc, recs[i].bots...)
		recs[i].state = g.turns[len(g.turns)-1].state
		if err := os.WriteFile(filepath.Join(dir, recs[i].name), g.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if i == 0 { // a copy cut short: analysed up to its last whole turn
			if err := os.WriteFile(filepath.Join(dir, "cut.rwd"), g.data[:len(g.data)*2/3], 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !recs[2].state.Stats(2).Crashed || !recs[2].state.Stats(3).Crashed {
		t.Fatal("the crash script did not crash players 2 and 3")
	}
	copyFile(t, "../testdata/monad/official/m05.replay.json", dir, "m05.replay.json")
	copyFile(t, "../testdata/monad/official/m05.mp.gz", dir, "m05-log") // no telling name: found by content
	copyFile(t, "../testdata/conformance/c06.cfr", dir, "cf.cfr")
	log, _ := os.ReadFile("../testdata/monad/official/m05.replay.json")
	os.WriteFile(filepath.Join(dir, "broken.replay.json"), log[:len(log)/3], 0o644)
	os.WriteFile(filepath.Join(dir, "junk.rwd"), []byte("RWD1 not a replay"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.json"), []byte(`{"game":"monad","turns":3}`), 0o644)
	os.WriteFile(filepath.Join(dir, "readme.txt"), []byte("ignored"), 0o644)

	files, err := analysis.ReplayFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	want := []string{"a.rwd", "b.rwd", "broken.replay.json", "c.rwd", "cf.cfr", "cut.rwd", "junk.rwd", "m05-log", "m05.replay.json"}
	if !slices.Equal(names, want) {
		t.Fatalf("ReplayFiles = %q, want %q", names, want)
	}
	games := analysis.AnalyzeFiles(files, 3, nil)
	byName := map[string]*analysis.Game{}
	for i := range games {
		byName[filepath.Base(games[i].Path)] = &games[i]
	}
	for _, bad := range []string{"broken.replay.json", "junk.rwd"} {
		g := byName[bad]
		if g.Err == nil || g.Analysis != nil || g.Monad != nil || g.Ruleset() != "" || !strings.Contains(g.Err.Error(), bad) {
			t.Errorf("%s: %+v, want an error naming the file", bad, g)
		}
	}
	if g := byName["cf.cfr"]; g.Err != nil || g.Ruleset() != replay.RulesetColorfight2 {
		t.Fatalf("cf.cfr: %+v", g)
	}
	if g := byName["cut.rwd"]; g.Err != nil || g.Monad == nil || g.Monad.Truncated == nil {
		t.Fatalf("cut.rwd: %+v, want a Monad analysis cut short", g)
	}
	for _, n := range []string{"a.rwd", "b.rwd", "c.rwd", "cut.rwd", "m05-log", "m05.replay.json"} {
		g := byName[n]
		if g.Err != nil || g.Ruleset() != monad.RulesetID {
			t.Fatalf("%s: %+v", n, g)
		}
		if g.Monad.Series != nil || g.Monad.Events != nil || g.Monad.Leader != nil {
			t.Errorf("%s: a corpus game keeps its series", n)
		}
		whole, err := analysis.AnalyzeMonadFile(g.Path)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(whole.Final, g.Monad.Final) || !slices.Equal(whole.Ranking, g.Monad.Ranking) || whole.Winner != g.Monad.Winner {
			t.Errorf("%s: corpus analysis differs from the file's own", n)
		}
	}

	// The Monad standings are a tournament's, from the engine's states.
	var rs []match.GameResult
	for i, r := range recs {
		rs = append(rs, match.MonadGameResult(i, uint64(r.seed), r.name, r.bots, r.state.Ranking(), r.state.Stats))
	}
	only := []analysis.Game{*byName["a.rwd"], *byName["b.rwd"], *byName["c.rwd"]}
	got, wantSt := analysis.Standings(only, monad.RulesetID), match.Standings(rs)
	if !reflect.DeepEqual(got, wantSt) {
		t.Fatalf("standings\n got %+v\nwant %+v", got, wantSt)
	}
	if len(analysis.Standings(only, replay.RulesetColorfight2)) != 0 {
		t.Error("Monad games counted in ColorfightII's standings")
	}
	// c.rwd: rusher and idle crashed and share the last rank (the count of
	// those not crashed + 1).
	res := byName["c.rwd"].Monad.GameResult(2, "c.rwd")
	if res.Seats[2].Rank != 3 || res.Seats[3].Rank != 3 || res.Seats[3].Bot != "idle" {
		t.Errorf("crashed seats %+v", res.Seats)
	}

	// Wins: every game's sole leader, the analysis' Winner, counted per bot.
	all := analysis.Standings(games, monad.RulesetID)
	wins, seats := map[string]int{}, 0
	for _, g := range games {
		if g.Monad == nil {
			continue
		}
		if g.Monad.Winner < 0 || g.Monad.Winner != g.Monad.Ranking[0] {
			t.Fatalf("%s: winner %d, ranking %v", g.Path, g.Monad.Winner, g.Monad.Ranking)
		}
		wins[g.Monad.BotKey(g.Monad.Winner)]++
		seats += g.Monad.Players()
	}
	total := 0
	for _, s := range all {
		total += s.Games
		if s.Wins != wins[s.Bot] {
			t.Errorf("%s: %d wins, the games' winners say %d", s.Bot, s.Wins, wins[s.Bot])
		}
	}
	if total != seats {
		t.Errorf("standings count %d seats, want %d", total, seats)
	}
	if cf := analysis.Standings(games, replay.RulesetColorfight2); len(cf) != len(byName["cf.cfr"].Analysis.Summary.Ranking) {
		t.Errorf("ColorfightII standings %+v", cf)
	}
	var tb bytes.Buffer
	if err := analysis.WriteRulesetStandings(&tb, monad.RulesetID, all); err != nil || !strings.Contains(tb.String(), "mean resources") || !strings.Contains(tb.String(), `"p1-chaos"`) {
		t.Errorf("standings table (%v):\n%s", err, tb.String())
	}

	// The CSV: one row per (game, player), its ruleset, Monad's final facts.
	var buf bytes.Buffer
	if err := analysis.WriteCorpusCSV(&buf, games); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	if !slices.Equal(rows[0], analysis.CorpusColumns) || rows[0][0] != "game" || rows[0][1] != "ruleset" {
		t.Fatalf("header %v", rows[0])
	}
	perGame := map[string]int{}
	for _, r := range rows[1:] {
		if len(r) != len(analysis.CorpusColumns) {
			t.Fatalf("row %v", r)
		}
		g := byName[r[col["game"]]]
		perGame[r[col["game"]]]++
		if r[col["ruleset"]] != g.Ruleset() {
			t.Errorf("row %v: ruleset, want %s", r, g.Ruleset())
		}
		if g.Monad == nil {
			if r[col["units"]] != "" || r[col["hives"]] != "" {
				t.Errorf("ColorfightII row %v has Monad columns", r)
			}
			continue
		}
		uid, _ := strconv.Atoi(r[col["uid"]])
		p := uid - 1
		fin := g.Monad.Final[p]
		if r[col["gold"]] != strconv.FormatInt(fin.Resources, 10) || r[col["cells"]] != strconv.Itoa(fin.Cells) ||
			r[col["units"]] != strconv.FormatInt(fin.Units, 10) || r[col["hives"]] != strconv.Itoa(fin.Hives) ||
			r[col["username"]] != g.Monad.Name(p) || r[col["rounds"]] != strconv.Itoa(g.Monad.Turns) || r[col["energy"]] != "" {
			t.Errorf("row %v disagrees with the analysis (final %+v)", r, fin)
		}
	}
	for n, g := range byName {
		want := 0
		switch {
		case g.Monad != nil:
			want = g.Monad.Players()
		case g.Analysis != nil:
			want = len(g.Analysis.Summary.Ranking)
		}
		if perGame[n] != want {
			t.Errorf("%s: %d rows, want %d", n, perGame[n], want)
		}
	}
}
