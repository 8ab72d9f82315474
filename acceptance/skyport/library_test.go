package skyport_test

import (
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/clitest"
)

// serveLine is the line `rewind serve DIR` prints once it listens, its
// address the submatch.
var serveLine = regexp.MustCompile(` at (http://[^/\s]+)\S*  \(Ctrl-C stops\)$`)

// TestSkyportLibraryStandings is an organizer's path to the standings of
// a Skyport tournament: `rewind tournament`, `rewind index DIR`, `rewind
// serve DIR`; the standings page has a Skyport table rating every bot
// that played (the library's standings once had tables for ColorfightII
// and Monad only).
func TestSkyportLibraryStandings(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "t")
	if out, code := clitest.Run(t, "tournament", "--game", "skyport", "--games", "3", "--players", "2", "--turns", "40",
		"--bot", "hunter", "--bot", "miner", "--dir", dir); code != 0 {
		t.Fatalf("tournament: status %d\n%s", code, out)
	}
	if out, code := clitest.Run(t, "index", dir); code != 0 {
		t.Fatalf("index: status %d\n%s", code, out)
	}
	base := clitest.Start(t, serveLine, "serve", dir, "--addr", "127.0.0.1:0")
	res, err := http.Get(base + "/standings")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /standings: %d %v", res.StatusCode, err)
	}
	page := string(b)
	_, table, ok := strings.Cut(page, `data-game="Skyport"`)
	if !ok {
		t.Fatalf("the standings page has no Skyport table:\n%.2000s", page)
	}
	table, _, _ = strings.Cut(table, "</table>")
	for _, bot := range []string{"hunter", "miner"} {
		if !strings.Contains(table, ">"+bot+"<") {
			t.Errorf("the Skyport table does not rate %q:\n%s", bot, table)
		}
	}
}
