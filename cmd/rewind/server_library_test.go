package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestServerEmptyLibraryText: the library page of `rewind server`, before
// any game has ended, says that the server's games are listed there when
// they end and what to do (connect bots, and where to read how) — not to
// drop a file (the server takes no uploads) nor to play one with `rewind
// play`.
func TestServerEmptyLibraryText(t *testing.T) {
	base, _ := startServerCmd(t, &serverOptions{})
	res, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	page := string(b)
	if res.StatusCode != 200 {
		t.Fatalf("library page %d:\n%s", res.StatusCode, page)
	}
	if !strings.Contains(page, "each game played on this server is listed here when it ends") {
		t.Errorf("the empty library does not say where the server's games go:\n%s", page)
	}
	if !strings.Contains(page, "To play one, connect your bots to this server (<code>rewind server --help</code> says how") {
		t.Errorf("the empty library does not say what to do:\n%s", page)
	}
	for _, wrong := range []string{"drop a file", "rewind play"} {
		if strings.Contains(page, wrong) {
			t.Errorf("the server's library page says %q (it takes no uploads, its games are its own)", wrong)
		}
	}
}
