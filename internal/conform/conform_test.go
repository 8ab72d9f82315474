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

// TestFileBelongsToGame: a file with an ending games share belongs to the
// first whose other file is beside it, a game whose Sniff takes the input
// before one without; with no other file beside it, the first game's
// missing file is the error.
func TestFileBelongsToGame(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	touch := func(name string) string { return write(name, "") }
	// .states.json.gz is Monad's, Skyport's and ColorFight v1's expected
	// ending, .input.json Skyport's and ColorFight v1's input ending:
	// Skyport's Sniff takes its input by its format, ColorFight v1 (no
	// Sniff) any other.
	write("s.input.json", `{"format": "skyport-vector-input/1"}`)
	vs, err := Find([]string{touch("s.states.json.gz")})
	if err != nil {
		t.Fatal(err)
	}
	if vs[0].Game != "skyport" || vs[0].Input != filepath.Join(dir, "s.input.json") {
		t.Errorf("s.states.json.gz beside s.input.json: %+v, want Skyport's vector", vs[0])
	}
	touch("c.input.json")
	if vs, err := Find([]string{touch("c.states.json.gz")}); err != nil || vs[0].Game != "colorfight1" {
		t.Errorf("c.states.json.gz beside an input Skyport does not take: %+v, %v, want ColorFight v1's vector", vs, err)
	}
	_, err = Find([]string{touch("lone.states.json.gz")})
	if err == nil || !strings.Contains(err.Error(), "vector lone: ") || !strings.Contains(err.Error(), "lone.input.json") {
		t.Errorf("lone expected file: %v, want the first game's (ColorFight v1's) missing input named", err)
	}
	if _, err := Find([]string{touch("notes.txt")}); err == nil || !strings.Contains(err.Error(), "not a vector file") {
		t.Errorf("notes.txt: %v", err)
	}
	if _, err := Find([]string{t.TempDir()}); err == nil || !strings.Contains(err.Error(), "no vectors in directory") {
		t.Errorf("empty directory: %v", err)
	}
}
