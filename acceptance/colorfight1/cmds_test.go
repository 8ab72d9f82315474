package colorfight1_test

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestCommands: ColorFight v1 through every command a user runs on a
// game: play records a .rwd that verify re-simulates and info describes;
// analyze (table and JSON), report and export --html read it; fork plays
// on from its middle; a tournament plays and ranks; serve lists and
// serves it. Each through the binary.
func TestCommands(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "g.rwd")
	out, code := clitest.Run(t, "play", "--game", "colorfight1", "--turns", "400", "--seed", "3", "-o", rwd)
	if code != 0 || !strings.Contains(out, "(colorfight1, 400 ticks)") {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	if out, code := clitest.Run(t, "verify", rwd); code != 0 || !strings.HasPrefix(out, "OK ") {
		t.Fatalf("verify: status %d\n%s", code, out)
	}
	out, code = clitest.Run(t, "info", rwd)
	if code != 0 {
		t.Fatalf("info: status %d\n%s", code, out)
	}
	for _, want := range []string{"ruleset:  colorfight1 v1 (ColorFight)", "ticks: 400, complete", "bot expander", "bot economist", "bot aggressor", "rank 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}
	out, code = clitest.Run(t, "analyze", rwd)
	if code != 0 || !strings.Contains(out, "expander") || !strings.Contains(out, "cells") {
		t.Errorf("analyze: status %d\n%s", code, out)
	}
	out, code = clitest.Run(t, "analyze", rwd, "--format", "json")
	if code != 0 || !strings.Contains(out, `"ruleset":"colorfight1"`) && !strings.Contains(out, `"colorfight1"`) {
		t.Errorf("analyze --format json: status %d\n%.500s", code, out)
	}
	html := filepath.Join(dir, "r.html")
	if out, code := clitest.Run(t, "report", rwd, "-o", html); code != 0 {
		t.Errorf("report: status %d\n%s", code, out)
	} else if b, _ := os.ReadFile(html); !strings.Contains(string(b), "echarts") {
		t.Errorf("report: no chart in %d bytes", len(b))
	}
	page := filepath.Join(dir, "p.html")
	if out, code := clitest.Run(t, "export", "--html", rwd, "-o", page); code != 0 {
		t.Errorf("export --html: status %d\n%s", code, out)
	} else if b, _ := os.ReadFile(page); !strings.Contains(string(b), "<html") {
		t.Errorf("export --html: %d bytes, no page", len(b))
	}
	fork := filepath.Join(dir, "fork.rwd")
	if out, code := clitest.Run(t, "fork", rwd, "--turn", "200", "--bot", "2=random", "-o", fork); code != 0 {
		t.Errorf("fork: status %d\n%s", code, out)
	} else if out, code := clitest.Run(t, "verify", fork); code != 0 {
		t.Errorf("verify of the fork: status %d\n%s", code, out)
	}
	tdir := filepath.Join(dir, "t")
	out, code = clitest.Run(t, "tournament", "--game", "colorfight1", "--games", "3", "--turns", "200", "--dir", tdir,
		"--bot", "expander", "--bot", "economist", "--bot", "random")
	if code != 0 || !strings.Contains(out, "expander") {
		t.Errorf("tournament: status %d\n%s", code, out)
	}
	if rwds, _ := filepath.Glob(filepath.Join(tdir, "*.rwd")); len(rwds) != 3 {
		t.Errorf("tournament: %d replays, want 3", len(rwds))
	}

	base := clitest.Start(t, regexp.MustCompile(` at (http://\S+)  \(Ctrl-C stops\)$`), "serve", dir, "--addr", "127.0.0.1:0")
	// The library lists the folder once it has indexed it (the safety
	// net is not a verdict).
	for safety := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		code, b := testutil.Get(t, base+"/api/library")
		if strings.Contains(string(b), `"id":"g.rwd"`) && strings.Contains(string(b), `"game":"ColorFight"`) {
			break
		}
		if time.Now().After(safety) {
			t.Fatalf("serve: the library does not list g.rwd as ColorFight: %d %.300s", code, b)
		}
	}
	for _, path := range []string{"/", "/replay/g.rwd", "/replay/g.rwd?data=1"} {
		code, b := testutil.Get(t, base+path)
		if code != http.StatusOK || len(b) == 0 {
			t.Errorf("serve: GET %s: %d, %d bytes", path, code, len(b))
		}
	}
}
