package monad_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestMonadOfficialLogCommands: info and analyze open the Monad reference
// engine's own logs (.mp.gz and replay.json) as generic streams shown as
// recorded, and describe the game: players by the names rankedBots gives,
// turns, ranks by hives, the hives built as the boards show them.
func TestMonadOfficialLogCommands(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "monad", "official")
	mp, js := filepath.Join(dir, "m06.mp.gz"), filepath.Join(dir, "m05.replay.json")
	out, code := clitest.Run(t, "info", mp, js)
	if code != 0 {
		t.Fatalf("info: status %d\n%s", code, out)
	}
	for _, want := range []string{
		"format:   monad-log, 124517 bytes",
		"form:     msgpack, gzip'd",
		"turns:    548, complete",
		`1  "p0-hill"                 bot p0-hill  rank 1, hives 26`,
		`2  "p1-chaos"                bot p1-chaos  rank 3, hives 0`,
		"format:   monad-log, 370335 bytes",
		"turns:    100, complete",
		`2  "p1-chaos"                bot p1-chaos  rank 1, hives 12`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}
	// A crashed player the final board cannot tell: players are "player
	// N".
	data := testutil.ReadFile(t, js)
	from := `"_id": "p0-chaos", "crashed": false`
	if !bytes.Contains(data, []byte(from)) {
		t.Fatalf("%s lacks %s", js, from)
	}
	crashed := filepath.Join(t.TempDir(), "replay.json")
	if err := os.WriteFile(crashed, bytes.Replace(data, []byte(from), []byte(`"_id": "p0-chaos", "crashed": true`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = clitest.Run(t, "info", crashed)
	if code != 0 || !strings.Contains(out, `1  "player 0"`) || !strings.Contains(out, "names:    not known") {
		t.Errorf("info: status %d\n%s", code, out)
	}

	out, code = clitest.Run(t, "analyze", mp)
	if code != 0 {
		t.Fatalf("analyze: status %d\n%s", code, out)
	}
	for _, want := range []string{`("monad-log"), 4 players, 548 turns`, `winner "p0-hill" (26 hives)`, `"p3-raider" builds a hive at (14, 16)`} {
		if !strings.Contains(out, want) {
			t.Errorf("analyze lacks %q:\n%s", want, out)
		}
	}
	out, code = clitest.Run(t, "analyze", js, "--format", "json")
	if code != 0 || !strings.Contains(out, `"format":"monad-log"`) || !strings.Contains(out, `"score":"hives"`) {
		t.Fatalf("analyze --format json: status %d\n%.400s", code, out)
	}
}
