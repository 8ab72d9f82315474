package analysis_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rewind-game/rewind/analysis"
)

// A cacheable corpus game, Monad or ColorfightII, comes back from its
// stored form equal; failed and cut-short games are not cacheable.
func TestEncodeDecodeGame(t *testing.T) {
	dir := t.TempDir()
	g := recordMonadGame(t, 5, 150, nil, "miner", "rusher", "expander")
	os.WriteFile(filepath.Join(dir, "m.rwd"), g.data, 0o644)
	os.WriteFile(filepath.Join(dir, "cut.rwd"), g.data[:len(g.data)*2/3], 0o644)
	copyFile(t, "../testdata/monad/official/m05.replay.json", dir, "m05.replay.json")
	copyFile(t, "../testdata/conformance/c03.cfr", dir, "c03.cfr")
	os.WriteFile(filepath.Join(dir, "bad.rwd"), []byte("not a replay"), 0o644)
	files, err := analysis.ReplayFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, game := range analysis.AnalyzeFiles(files, 2, nil) {
		base := filepath.Base(game.Path)
		if want := base != "cut.rwd" && base != "bad.rwd"; game.Cacheable() != want {
			t.Fatalf("%s: cacheable %v", base, game.Cacheable())
		}
		if !game.Cacheable() {
			if _, err := analysis.EncodeGame(game); err == nil {
				t.Fatalf("%s encoded", base)
			}
			continue
		}
		data, err := analysis.EncodeGame(game)
		if err != nil {
			t.Fatal(err)
		}
		back, err := analysis.DecodeGame(game.Path, data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, game) {
			t.Errorf("%s: decoded %+v\nwant %+v", base, back, game)
		}
		kept++
	}
	if kept != 3 {
		t.Fatalf("%d games kept, want 3", kept)
	}
	if _, err := analysis.DecodeGame("x", []byte(`{}`)); err == nil {
		t.Fatal("an empty stored game decoded")
	}
}
