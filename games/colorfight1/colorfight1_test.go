package colorfight1

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine/enginetest"
	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
)

func TestMain(m *testing.M) { os.Exit(clitest.Main(m)) }

// TestEngineContracts: the game's registration and rules keep every
// contract of package engine that holds for any game (enginetest).
func TestEngineContracts(t *testing.T) {
	enginetest.RunRegistered(t, "colorfight1")
}

// TestConformThroughCLI: `rewind conform` on the shared vectors' folder
// (the binary built as a user builds it, for the GOARCH the test runs
// under) passes v01–v06, tick by tick; a copy of v02 whose states file
// has one value changed fails with status 1, naming the tick, the cell
// and the field.
func TestConformThroughCLI(t *testing.T) {
	dir := testutil.Shared(t, "colorfight1", "v01.input.json")
	out, code := clitest.Run(t, "conform", dir)
	if code != 0 {
		t.Fatalf("conform: status %d\n%s", code, out)
	}
	for _, want := range []string{"v01: PASS (6001 ticks)", "v02: PASS (9001 ticks)", "v03: PASS (4401 ticks)",
		"v04: PASS (4501 ticks)", "v05: PASS (5601 ticks)", "v06: PASS (20001 ticks)"} {
		if !strings.Contains(out, want) {
			t.Fatalf("conform output lacks %q:\n%s", want, out)
		}
	}
	bad := t.TempDir()
	input := testutil.ReadFile(t, filepath.Join(dir, "v02.input.json"))
	states := testutil.GunzipFile(t, filepath.Join(dir, "v02.states.json.gz"))
	// Tick 1's poll resolves the first spawns, recording their occupy time.
	doctored := bytes.Replace(states, []byte(`"occupy_time":1549000000.5}`), []byte(`"occupy_time":1549000000.625}`), 1)
	if bytes.Equal(doctored, states) {
		t.Fatal("v02's states have no occupy time to change")
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(doctored)
	zw.Close()
	os.WriteFile(filepath.Join(bad, "v02.input.json"), input, 0o644)
	os.WriteFile(filepath.Join(bad, "v02.states.json.gz"), gz.Bytes(), 0o644)
	out, code = clitest.Run(t, "conform", bad)
	if code != 1 || !strings.Contains(out, "v02: FAIL tick 1, after the poll: cell ") || !strings.Contains(out, "occupy_time: got 1549000000.5, want 1549000000.625") {
		t.Fatalf("a doctored vector: status %d\n%s", code, out)
	}
}

// TestPlayThroughCLI: a game of the four built-ins plays, records,
// verifies and shows its header through the binary.
func TestPlayThroughCLI(t *testing.T) {
	rwd := filepath.Join(t.TempDir(), "cf1.rwd")
	out, code := clitest.Run(t, "play", "--game", "colorfight1", "--turns", "400", "--seed", "5", "-o", rwd)
	if code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	if out, code := clitest.Run(t, "verify", rwd); code != 0 || !strings.HasPrefix(out, "OK ") {
		t.Fatalf("verify: status %d\n%s", code, out)
	}
	out, code = clitest.Run(t, "info", rwd)
	for _, want := range []string{"colorfight1", "expander", "economist", "aggressor", "random"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("info lacks %q: status %d\n%s", want, code, out)
		}
	}
}
