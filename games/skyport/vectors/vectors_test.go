package vectors

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/testutil"
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
			t.Log(r)
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

// The hash after replaying s01 is fixed (the same on every platform;
// run with GOARCH=386 too).
func TestHashGolden(t *testing.T) {
	dir := vectorDir(t)
	g, err := Load(dir, "s01")
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.Start()
	if err != nil {
		t.Fatal(err)
	}
	h0 := st.Hash()
	for _, lines := range g.Turns {
		st.PlayTurn(lines)
	}
	if got := [2]uint64{h0, st.Hash()}; got != goldenS01 {
		t.Errorf("hashes %#x, want %#x", got, goldenS01)
	}
}

var goldenS01 = [2]uint64{0xc477e482168d8088, 0x79805f6ceb433bd4}

// Conform (the bytes form `rewind conform` calls) agrees with Check and
// reports a divergence in a doctored expected file.
func TestConform(t *testing.T) {
	dir := vectorDir(t)
	input := testutil.ReadFile(t, filepath.Join(dir, "s05.input.json"))
	expected := testutil.GunzipFile(t, filepath.Join(dir, "s05.states.json.gz"))
	read := func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, rel)) }
	n, div, err := Conform(input, expected, read)
	if err != nil || div != "" || n != 120 {
		t.Fatalf("s05: %d turns, %q, %v", n, div, err)
	}
	bad := bytes.Replace(expected, []byte(`"valid_actions":3`), []byte(`"valid_actions":2`), 1)
	if n, div, err := Conform(input, bad, read); err != nil || !strings.Contains(div, "valid_actions 3, want 2") {
		t.Errorf("doctored: %d %q %v", n, div, err)
	}
	if _, _, err := Conform([]byte(`{"format":"other"}`), expected, read); err == nil {
		t.Error("a foreign input accepted")
	}
}
