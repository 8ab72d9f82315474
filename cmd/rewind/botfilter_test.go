package main

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// libraryCount is GET url's answer (the library's JSON) reduced to
// how many replays it lists.
func libraryCount(t *testing.T, url string) int {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v\n%s", url, res.StatusCode, err, b)
	}
	return strings.Count(string(b), `"id":`)
}

// TestLibraryBotFilterMatchesPart: the library's bot filter (?bot=)
// keeps the games of every bot whose name contains the text, in any
// case: "RUNTIME" and "Terror" find runtimeterrors' games, "greedy"
// greedy's, and a text no bot holds none.
func TestLibraryBotFilterMatchesPart(t *testing.T) {
	dir := t.TempDir()
	mustRunCLI(t, "tournament", "--bot", "greedy", "--bot", "runtimeterrors", "--games", "2", "--turns", "200", "--dir", dir)
	base := serveForTest(t, "serve "+dir, &serveOptions{dir: dir, stderr: &bytes.Buffer{}}, runServe)
	// The first sync may still be reading: wait until both games are listed.
	for libraryCount(t, base+"/api/library") < 2 {
		time.Sleep(50 * time.Millisecond)
	}
	for _, c := range []struct {
		bot  string
		want int
	}{{"runtimeterrors", 2}, {"RUNTIME", 2}, {"Terror", 2}, {"greedy", 2}, {"nobody", 0}} {
		if got := libraryCount(t, base+"/api/library?bot="+c.bot); got != c.want {
			t.Errorf("?bot=%s lists %d games, want %d", c.bot, got, c.want)
		}
	}
}
