package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/testutil"
)

// TestSkyportConformThroughCLI: rewind conform on Skyport's folder
// reproduces the six vectors and agrees on every probe, the crash probes
// named as documented differences.
func TestSkyportConformThroughCLI(t *testing.T) {
	dir := testutil.Skyport(t)
	out, err := runCLIOut(t, "conform", dir)
	if err != nil {
		t.Fatalf("conform: %v\n%s", err, out)
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
	out, err := runCLIOut(t, "play", "--game", "skyport", "--seed", "7", "-o", rwd)
	if err != nil {
		t.Fatalf("play: %v\n%s", err, out)
	}
	for _, want := range []string{"1_hunter", "2_artillery", "3_miner", "4_random", "damage_dealt", "(skyport, 300 turns)"} {
		if !strings.Contains(out, want) {
			t.Fatalf("play output lacks %q:\n%s", want, out)
		}
	}
	if out, err := runCLIOut(t, "verify", rwd); err != nil || !strings.HasPrefix(out, "OK ") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	out, err = runCLIOut(t, "info", rwd)
	if err != nil || !strings.Contains(out, "skyport v1 (Skyport)") || !strings.Contains(out, "turns: 300, complete") {
		t.Fatalf("info: %v\n%s", err, out)
	}
	out, err = runCLIOut(t, "analyze", rwd, "--format", "json")
	if err != nil || !strings.Contains(out, `"game":"skyport"`) || !strings.Contains(out, `"kills"`) || !strings.Contains(out, `"sequential":true`) {
		t.Fatalf("analyze: %v\n%.400s", err, out)
	}
	html := filepath.Join(dir, "sky.html")
	if out, err := runCLIOut(t, "report", rwd, "-o", html); err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(html); err != nil || !strings.Contains(string(b), `"damage_dealt"`) {
		t.Fatalf("report: %v", err)
	}
	page := filepath.Join(dir, "sky-page.html")
	if out, err := runCLIOut(t, "export", "--html", rwd, "-o", page); err != nil || !strings.Contains(out, "opens from disk with no network") {
		t.Fatalf("export --html: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), "Content-Security-Policy") || !strings.Contains(string(b), "Skyport") {
		t.Fatalf("exported page: %v (%d bytes)", err, len(b))
	}
	if out, err := runCLIOut(t, "export", rwd, "-o", filepath.Join(dir, "sky.cfr")); err == nil || !strings.Contains(err.Error(), "ColorfightII games only") {
		t.Fatalf("export to .cfr: %v\n%s", err, out)
	}
	tdir := filepath.Join(dir, "t")
	args := []string{"tournament", "--game", "skyport", "--games", "3", "--players", "2", "--turns", "60", "--dir", tdir}
	out, err = runCLIOut(t, args...)
	if err != nil || !strings.Contains(out, "mean score") || !strings.Contains(out, "3 games (0 already played") {
		t.Fatalf("tournament: %v\n%s", err, out)
	}
	if out, err = runCLIOut(t, args...); err != nil || !strings.Contains(out, "3 games (3 already played") {
		t.Fatalf("tournament again: %v\n%s", err, out)
	}

	sky := testutil.Skyport(t)
	mapped := filepath.Join(dir, "tricky.rwd")
	out, err = runCLIOut(t, "play", "--game", "skyport", "--map", filepath.Join(sky, "maps", "4-players-tricky.skyportmap"), "-o", mapped)
	if err != nil {
		t.Fatalf("play --map: %v\n%s", err, out)
	}
	if out, err := runCLIOut(t, "verify", mapped); err != nil || !strings.HasPrefix(out, "OK ") {
		t.Fatalf("verify of a game on a map file: %v\n%s", err, out)
	}
	if out, err := runCLIOut(t, "info", mapped); err != nil || !strings.Contains(out, "from a map file") {
		t.Fatalf("info of a game on a map file: %v\n%s", err, out)
	}
}
