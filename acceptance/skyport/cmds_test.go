package skyport_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestSkyportConformThroughCLI: rewind conform on Skyport's folder
// reproduces the six vectors and agrees on every probe, the crash probes
// named as documented differences.
func TestSkyportConformThroughCLI(t *testing.T) {
	dir := testutil.Shared(t, "skyport", "s01.input.json")
	out, code := clitest.Run(t, "conform", dir)
	if code != 0 {
		t.Fatalf("conform: status %d\n%s", code, out)
	}
	for _, want := range []string{"s01: PASS", "s02: PASS", "s03: PASS", "s04: PASS", "s05: PASS", "s06: PASS", "probes: PASS (23 cases, Skyport)", "reference crashes"} {
		if !strings.Contains(out, want) {
			t.Fatalf("conform output lacks %q:\n%s", want, out)
		}
	}
}

// TestSkyportCommands: Skyport on the generic shell through the CLI —
// play with the built-in bots (on a drawn map, and on a map file when
// the vectors' maps are there), verify, info, analyze, report and a
// resumable tournament.
func TestSkyportCommands(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "sky.rwd")
	out, code := clitest.Run(t, "play", "--game", "skyport", "--seed", "7", "-o", rwd)
	if code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	for _, want := range []string{"1_hunter", "2_artillery", "3_miner", "4_random", "damage_dealt", "(skyport, 300 turns)"} {
		if !strings.Contains(out, want) {
			t.Fatalf("play output lacks %q:\n%s", want, out)
		}
	}
	if out, code := clitest.Run(t, "verify", rwd); code != 0 || !strings.HasPrefix(out, "OK ") {
		t.Fatalf("verify: status %d\n%s", code, out)
	}
	out, code = clitest.Run(t, "info", rwd)
	if code != 0 || !strings.Contains(out, "skyport v1 (Skyport)") || !strings.Contains(out, "turns: 300, complete") {
		t.Fatalf("info: status %d\n%s", code, out)
	}
	out, code = clitest.Run(t, "analyze", rwd, "--format", "json")
	if code != 0 || !strings.Contains(out, `"game":"skyport"`) || !strings.Contains(out, `"kills"`) || !strings.Contains(out, `"sequential":true`) {
		t.Fatalf("analyze: status %d\n%.400s", code, out)
	}
	html := filepath.Join(dir, "sky.html")
	if out, code := clitest.Run(t, "report", rwd, "-o", html); code != 0 {
		t.Fatalf("report: status %d\n%s", code, out)
	}
	if b, err := os.ReadFile(html); err != nil || !strings.Contains(string(b), `"damage_dealt"`) {
		t.Fatalf("report: %v", err)
	}
	page := filepath.Join(dir, "sky-page.html")
	if out, code := clitest.Run(t, "export", "--html", rwd, "-o", page); code != 0 || !strings.Contains(out, "opens from disk with no network") {
		t.Fatalf("export --html: status %d\n%s", code, out)
	}
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), "Content-Security-Policy") || !strings.Contains(string(b), "Skyport") {
		t.Fatalf("exported page: %v (%d bytes)", err, len(b))
	}
	if out, code := clitest.Run(t, "export", rwd, "-o", filepath.Join(dir, "sky.cfr")); code == 0 || !strings.Contains(out, "ColorfightII games only") {
		t.Fatalf("export to .cfr: status %d\n%s", code, out)
	}
	tdir := filepath.Join(dir, "t")
	args := []string{"tournament", "--game", "skyport", "--games", "3", "--players", "2", "--turns", "60", "--dir", tdir}
	out, code = clitest.Run(t, args...)
	if code != 0 || !strings.Contains(out, "mean score") || !strings.Contains(out, "3 games (0 already played") {
		t.Fatalf("tournament: status %d\n%s", code, out)
	}
	if out, code = clitest.Run(t, args...); code != 0 || !strings.Contains(out, "3 games (3 already played") {
		t.Fatalf("tournament again: status %d\n%s", code, out)
	}
	// analyze DIR on the tournament's folder: the same Elo per bot as the
	// tournament printed, and a CSV row per (game, player).
	elo := func(out string) map[string]string {
		m := map[string]string{}
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) > 2 && strings.HasPrefix(f[1], `"`) {
				m[f[1]] = f[len(f)-1]
			}
		}
		return m
	}
	analyzed, code := clitest.Run(t, "analyze", tdir)
	if code != 0 || !strings.Contains(analyzed, "Skyport: 3 games") || fmt.Sprint(elo(analyzed)) != fmt.Sprint(elo(out)) || len(elo(out)) == 0 {
		t.Fatalf("analyze DIR: status %d\n%s\nthe tournament's standings:\n%s", code, analyzed, out)
	}
	csvOut, code := clitest.Run(t, "analyze", tdir, "--format", "csv")
	if code != 0 || strings.Count(csvOut, "\ngame-000") != 6 {
		t.Fatalf("analyze DIR --format csv: status %d\n%s", code, csvOut)
	}

	sky := testutil.Shared(t, "skyport", "s01.input.json")
	mapped := filepath.Join(dir, "tricky.rwd")
	out, code = clitest.Run(t, "play", "--game", "skyport", "--map", filepath.Join(sky, "maps", "4-players-tricky.skyportmap"), "-o", mapped)
	if code != 0 {
		t.Fatalf("play --map: status %d\n%s", code, out)
	}
	if out, code := clitest.Run(t, "verify", mapped); code != 0 || !strings.HasPrefix(out, "OK ") {
		t.Fatalf("verify of a game on a map file: status %d\n%s", code, out)
	}
	if out, code := clitest.Run(t, "info", mapped); code != 0 || !strings.Contains(out, "from a map file") {
		t.Fatalf("info of a game on a map file: status %d\n%s", code, out)
	}
}
