package analysis

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestCorpus: a folder of replays is analyzed in parallel, a broken file is
// reported and left out, the CSV has a row per (game, player) that agrees
// with each game's summary, and the per-bot standings count every seat.
func TestCorpus(t *testing.T) {
	dir := t.TempDir()
	vs := vectors(t)
	for _, v := range vs[:3] {
		b := testutil.ReadFile(t, v.Expected)
		os.WriteFile(filepath.Join(dir, v.Name+".cfr"), b, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "junk.rwd"), []byte("not a replay"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("ignored"), 0o644)
	os.Mkdir(filepath.Join(dir, "dir.cfr"), 0o755)

	files, err := ReplayFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Fatalf("files %v", files)
	}
	calls := 0
	games := AnalyzeDocumentFiles(files, 2, func() { calls++ })
	if calls != 4 {
		t.Fatalf("progress called %d times", calls)
	}
	seats := 0
	for _, g := range games {
		if filepath.Base(g.Path) == "junk.rwd" {
			if g.Err == nil || g.Document != nil {
				t.Fatalf("junk analyzed: %+v", g)
			}
			continue
		}
		if g.Err != nil {
			t.Fatal(g.Err)
		}
		seats += len(g.Document.Summary.Ranking)
	}

	var buf bytes.Buffer
	if err := WriteDocumentCorpusCSV(&buf, games); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var doc *engine.Document
	for _, g := range games {
		if g.Document != nil {
			doc = g.Document.Doc
		}
	}
	if len(rows) != 1+seats || doc == nil || strings.Join(rows[0], ",") != strings.Join(DocumentCorpusColumns(doc), ",") || rows[0][8] != "gold" {
		t.Fatalf("%d rows, header %v", len(rows), rows[0])
	}
	for _, r := range rows[1:] {
		var g *Document
		for _, x := range games {
			if x.Document != nil && filepath.Base(x.Path) == r[0] {
				g = x.Document
			}
		}
		uid, _ := strconv.Atoi(r[5])
		p := g.Player(uid)
		gold, _ := strconv.ParseInt(r[8], 10, 64)
		var st *Standing
		for i := range g.Summary.Ranking {
			if g.Summary.Ranking[i].UID == uid {
				st = &g.Summary.Ranking[i]
			}
		}
		if p == nil || st == nil || gold != get(t, st, "gold") || r[1] != "colorfight2" {
			t.Fatalf("row %v disagrees with the analysis", r)
		}
		if g.G != nil || g.Events != nil {
			t.Fatalf("a corpus game keeps its series")
		}
	}

	st := DocumentStandings(games, "colorfight2")
	total, wins := 0, 0
	for _, s := range st {
		total += s.Games
		wins += s.Wins
	}
	if total != seats || wins != 3 {
		t.Fatalf("standings count %d seats and %d wins, want %d and 3: %+v", total, wins, seats, st)
	}
	buf.Reset()
	if err := WriteRulesetStandings(&buf, "colorfight2", st); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), strconv.Quote(st[0].Bot)) {
		t.Fatalf("standings table:\n%s", buf.String())
	}
}
