package monad_test

import (
	"maps"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestSeatsNumberedFromOne: play's, analyze's and the report's tables of
// a Monad game number the seats from 1, as `rewind info` and `--bot
// SEAT=…` do: the seat of "2_miner" is 2.
func TestSeatsNumberedFromOne(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "m.rwd")
	want := map[string]int{"1_expander": 1, "2_miner": 2, "3_rusher": 3}
	out, code := clitest.Run(t, "play", "--game", "monad", "--turns", "60", "-o", rwd)
	if code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	if got := clitest.SeatsOfTable(t, out); !maps.Equal(got, want) {
		t.Errorf("play's seats %v, want %v\n%s", got, want, out)
	}
	out, code = clitest.Run(t, "analyze", rwd)
	if code != 0 {
		t.Fatalf("analyze: status %d\n%s", code, out)
	}
	if got := clitest.SeatsOfTable(t, out); !maps.Equal(got, want) {
		t.Errorf("analyze's seats %v, want %v\n%s", got, want, out)
	}
	html := filepath.Join(dir, "m.html")
	if out, code := clitest.Run(t, "report", rwd, "-o", html); code != 0 {
		t.Fatalf("report: status %d\n%s", code, out)
	}
	page := string(testutil.ReadFile(t, html))
	for name, seat := range want {
		if row := "<td>" + strconv.Itoa(seat) + "</td><td class=\"name\">" + name; !strings.Contains(page, row) {
			t.Errorf("the report has no row %q", row)
		}
	}
}
