package vectors

import (
	"os"
	"path/filepath"
	"testing"
)

func vectorDir(t *testing.T) string {
	t.Helper()
	dir := Dir(filepath.Join("..", "..", "..", "..", "shared", "skyport"))
	if _, err := os.Stat(filepath.Join(dir, "s01.input.json")); err != nil {
		t.Skipf("skyport vectors not found in %s (set REWIND_SKYPORT)", dir)
	}
	return dir
}

func TestVectors(t *testing.T) {
	dir := vectorDir(t)
	for _, name := range []string{"s01", "s02", "s03", "s04", "s05", "s06"} {
		t.Run(name, func(t *testing.T) {
			r, err := Check(dir, name)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range r.Divergences {
				t.Error(d)
			}
			if r.Turns == 0 {
				t.Error("no turn compared")
			}
		})
	}
}

func TestProbes(t *testing.T) {
	dir := vectorDir(t)
	r, err := CheckProbes(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range r.Divergences {
		t.Error(d)
	}
	if r.Turns < 20 {
		t.Errorf("only %d probes compared", r.Turns)
	}
	if len(r.Notes) != 6 {
		t.Errorf("%d crash probes noted, want 6", len(r.Notes))
	}
	for _, n := range r.Notes {
		t.Log(n)
	}
}
