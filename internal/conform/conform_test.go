package conform

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const monadDir = "../../testdata/monad"

// TestFindAndRun: a directory's vectors are found by their game's
// endings, sorted by name, and Run plays one on its game's Conform.
func TestFindAndRun(t *testing.T) {
	vs, err := Find([]string{monadDir})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range vs {
		if v.Game != "monad" {
			t.Errorf("%s: game %q, want monad", v.Name, v.Game)
		}
		names = append(names, v.Name)
	}
	if got := strings.Join(names, " "); got != "m01 m02 m03 m04 m05 m06" {
		t.Fatalf("found %s, want m01..m06", got)
	}
	res, err := Run(vs[4])
	if err != nil {
		t.Fatal(err)
	}
	if !res.Pass() || res.Rounds != 100 {
		t.Errorf("m05: pass %v after %d turns (%s), want a pass after 100", res.Pass(), res.Rounds, res.Divergence)
	}
}

// TestFileBelongsToGame: a file with an ending two games share belongs
// to the first whose other file is beside it; with neither beside it, the
// first game's missing file is the error.
func TestFileBelongsToGame(t *testing.T) {
	dir := t.TempDir()
	touch := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// .states.json.gz is Monad's and Skyport's expected ending.
	touch("s.input.json")
	vs, err := Find([]string{touch("s.states.json.gz")})
	if err != nil {
		t.Fatal(err)
	}
	if vs[0].Game != "skyport" || vs[0].Input != filepath.Join(dir, "s.input.json") {
		t.Errorf("s.states.json.gz beside s.input.json: %+v, want Skyport's vector", vs[0])
	}
	_, err = Find([]string{touch("lone.states.json.gz")})
	if err == nil || !strings.Contains(err.Error(), "vector lone: ") || !strings.Contains(err.Error(), "lone.commands.json") {
		t.Errorf("lone expected file: %v, want the first game's (Monad's) missing input named", err)
	}
	if _, err := Find([]string{touch("notes.txt")}); err == nil || !strings.Contains(err.Error(), "not a vector file") {
		t.Errorf("notes.txt: %v", err)
	}
	if _, err := Find([]string{t.TempDir()}); err == nil || !strings.Contains(err.Error(), "no vectors in directory") {
		t.Errorf("empty directory: %v", err)
	}
}
