package skyport_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/games/skyport/formats/jsn"
	"github.com/rewind-game/rewind/games/skyport/formats/jsn/jsntest"
	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// skyportRecording returns the path of a public Skyport recording in
// Skyport's folder (testutil.Shared: $REWIND_SKYPORT, else
// ../shared/skyport), skipping the test when it is absent.
func skyportRecording(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(testutil.Shared(t, "skyport", "s01.input.json"), "recordings")
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s not found in %s (set $%s)", name, dir, testutil.SharedEnv("skyport"))
	}
	return p
}

// syntheticJSN writes jsntest's recording into a temporary folder.
func syntheticJSN(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "synthetic.jsn")
	if err := os.WriteFile(p, jsntest.Recording(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestJSNCommands: info, analyze (table, json, csv) and report read an
// observer recording as a generic stream: the label, the players, the
// turns and the ranking as recorded; a cut copy is read up to the cut
// with a warning.
func TestJSNCommands(t *testing.T) {
	type want struct {
		file    func(t *testing.T) string
		turns   string
		players []string
		info    []string // more lines info must print
	}
	for name, w := range map[string]want{
		"synthetic": {syntheticJSN, "12", []string{`1  "ann"`, `2  "bob"`}, []string{"rank 1, score 120", "rank 2, score -10"}},
		"test.jsn": {func(t *testing.T) string { return skyportRecording(t, "test.jsn") }, "9",
			[]string{`1  "foo1"`, `2  "foo2"`, `3  "foo3"`}, []string{"rank 1, score 0"}},
		"lengthy-test.jsn": {func(t *testing.T) string { return skyportRecording(t, "lengthy-test.jsn") }, "453",
			[]string{`1  "foo2"`, `2  "foo3"`, `3  "foo1"`}, []string{"map:      16×16"}},
	} {
		t.Run(name, func(t *testing.T) {
			file := w.file(t)
			out, code := clitest.Run(t, "info", file)
			if code != 0 {
				t.Fatalf("info: status %d\n%s", code, out)
			}
			for _, s := range append(append([]string{"format:   " + jsn.Name, "label:    " + jsn.Label, "read as recorded, not re-simulated",
				"turns:    " + w.turns + ", complete", "unknown:  rubidium, explosium, scrap, penalties, bonus_damage"}, w.players...), w.info...) {
				if !strings.Contains(out, s) {
					t.Errorf("info lacks %q:\n%s", s, out)
				}
			}
			out, code = clitest.Run(t, "analyze", file)
			if code != 0 {
				t.Fatalf("analyze: status %d\n%s", code, out)
			}
			if !strings.Contains(out, jsn.Name) || !strings.Contains(out, jsn.Label) || !strings.Contains(out, w.turns+" player-turns") {
				t.Errorf("analyze:\n%s", out)
			}
			for _, f := range []string{"json", "csv"} {
				if out, code := clitest.Run(t, "analyze", "--format", f, file); code != 0 || len(out) < 100 {
					t.Errorf("analyze --format %s: status %d\n%.300s", f, code, out)
				}
			}
			html := filepath.Join(t.TempDir(), "r.html")
			if out, code := clitest.Run(t, "report", file, "-o", html); code != 0 {
				t.Fatalf("report: status %d\n%s", code, out)
			}
			if b, err := os.ReadFile(html); err != nil || !strings.Contains(string(b), "echarts") {
				t.Errorf("report: %v, %d bytes", err, len(b))
			}
		})
	}

	// A copy cut in the middle of a line: the turns before the cut.
	data := jsntest.Recording()
	cut := filepath.Join(t.TempDir(), "cut.jsn")
	if err := os.WriteFile(cut, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := clitest.Run(t, "info", cut)
	if code != 3 || !strings.Contains(out, "incomplete (cut short") || !strings.Contains(out, "cut:      line ") {
		t.Errorf("info of a cut copy: status %d\n%s", code, out)
	}
	out, code = clitest.Run(t, "analyze", cut)
	if code != 3 || !strings.Contains(out, "cut short") {
		t.Errorf("analyze of a cut copy: status %d\n%s", code, out)
	}
}
