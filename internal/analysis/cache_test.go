package analysis_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/testutil"
)

// A cacheable corpus game comes back from its stored form equal; failed
// and cut-short games are not cacheable.
func TestEncodeDecodeGame(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"c03.cfr", "c04.cfr"} {
		b := testutil.ReadFile(t, filepath.Join("..", "..", "testdata", "conformance", name))
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
		if name == "c04.cfr" {
			os.WriteFile(filepath.Join(dir, "cut.cfr"), b[:len(b)*2/3], 0o644)
		}
	}
	os.WriteFile(filepath.Join(dir, "bad.rwd"), []byte("not a replay"), 0o644)
	files, err := analysis.ReplayFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, game := range analysis.AnalyzeDocumentFiles(files, 2, nil) {
		base := filepath.Base(game.Path)
		if want := base != "cut.cfr" && base != "bad.rwd"; game.Cacheable() != want {
			t.Fatalf("%s: cacheable %v", base, game.Cacheable())
		}
		if !game.Cacheable() {
			if _, err := analysis.EncodeDocumentFile(game); err == nil {
				t.Fatalf("%s encoded", base)
			}
			continue
		}
		data, err := analysis.EncodeDocumentFile(game)
		if err != nil {
			t.Fatal(err)
		}
		back, err := analysis.DecodeDocumentFile(game.Path, data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, game) {
			t.Errorf("%s: decoded %+v\nwant %+v", base, back, game)
		}
		kept++
	}
	if kept != 2 {
		t.Fatalf("%d games kept, want 2", kept)
	}
	if _, err := analysis.DecodeDocumentFile("x", []byte(`{}`)); err == nil {
		t.Fatal("an empty stored game decoded")
	}
}
