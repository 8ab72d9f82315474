package monad_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/clitest"
)

// TestMonadOfficialLogCommands: info and analyze open the Monad reference
// engine's own logs (.mp.gz and replay.json, real files) and describe the
// game: players by the names rankedBots gives, turns, final facts, ranks.
func TestMonadOfficialLogCommands(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "monad", "official")
	mp, js := filepath.Join(dir, "m06.mp.gz"), filepath.Join(dir, "m05.replay.json")
	out, code := clitest.Run(t, "info", mp, js)
	if code != 0 {
		t.Fatalf("info: status %d\n%s", code, out)
	}
	for _, want := range []string{
		"Monad reference log (msgpack, gzip'd), 124517 bytes",
		"4 players, 548 turns played (549 log entries)",
		"ended:    one player left with hives",
		`0  "p0-hill"                 rank 1, 76 resources, 26 hives, 383 units`,
		`1  "p1-chaos"                rank 3, timed out, 78 resources, 0 hives, 0 units`,
		"Monad reference log (json), 370335 bytes",
		"2 players, 100 turns played (101 log entries)",
		`1  "p1-chaos"                rank 1, 107 resources, 12 hives, 80 units`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}
	// A crashed player the final board cannot tell: players are "player
	// N" and rankedBots is listed as written.
	data, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	from := `"_id": "p0-chaos", "crashed": false`
	if !bytes.Contains(data, []byte(from)) {
		t.Fatalf("%s lacks %s", js, from)
	}
	crashed := filepath.Join(t.TempDir(), "replay.json")
	if err := os.WriteFile(crashed, bytes.Replace(data, []byte(from), []byte(`"_id": "p0-chaos", "crashed": true`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = clitest.Run(t, "info", crashed)
	if code != 0 {
		t.Fatalf("info: status %d\n%s", code, out)
	}
	for _, want := range []string{`0  "player 0"`, "cannot be told from the final board", `rank 2  "p0-chaos"  crashed true, timed out false`} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}

	out, code = clitest.Run(t, "analyze", mp)
	if code != 0 {
		t.Fatalf("analyze: status %d\n%s", code, out)
	}
	for _, want := range []string{"(monad-msgpack), 4 players, 548 turns", `winner "p0-hill"`, `"p3-raider" builds a hive at (14, 16)`} {
		if !strings.Contains(out, want) {
			t.Errorf("analyze lacks %q:\n%s", want, out)
		}
	}
	out, code = clitest.Run(t, "analyze", js, "--format", "json")
	if code != 0 || !strings.Contains(out, `"monad-json"`) {
		t.Fatalf("analyze --format json: status %d\n%.400s", code, out)
	}
}
