package rules

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

const python27 = "/root/.pyenv/versions/2.7.18/bin/python"

// TestPythonRandom: the game id and a run of relocation shuffles are what
// CPython 2.7's random module gives for the same seed (skips without
// python2.7).
func TestPythonRandom(t *testing.T) {
	py := os.Getenv("REWIND_PYTHON27")
	if py == "" {
		py = python27
	}
	if _, err := os.Stat(py); err != nil {
		t.Skipf("python2.7 not found at %s (set REWIND_PYTHON27)", py)
	}
	for _, seed := range []uint64{0, 1, 20190101, 4294967295, 4294967296, 123456789012345} {
		script := `import random
random.seed(` + strconv.FormatUint(seed, 10) + `)
out = [str(random.getrandbits(30))]
for i in range(200):
    d = [(0, 1), (1, 0), (0, -1), (-1, 0)]
    random.shuffle(d)
    out.append(' '.join('%d,%d' % p for p in d))
print('\n'.join(out))
`
		want, err := exec.Command(py, "-c", script).Output()
		if err != nil {
			t.Fatalf("python2.7: %v", err)
		}
		m := newPythonRandom(seed)
		got := []string{strconv.FormatUint(m.Getrandbits(30), 10)}
		for range 200 {
			d := relocationDirections
			shuffle2(m, d[:])
			var parts []string
			for _, p := range d {
				parts = append(parts, strconv.Itoa(p.dx)+","+strconv.Itoa(p.dy))
			}
			got = append(got, strings.Join(parts, " "))
		}
		if g, w := strings.Join(got, "\n"), strings.TrimSpace(string(want)); g != w {
			t.Fatalf("seed %d: Go\n%.200s\nPython 2.7\n%.200s", seed, g, w)
		}
	}
}
