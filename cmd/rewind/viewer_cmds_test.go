package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/internal/viewer"
)

// TestServeViewExportHTML: serve lists a folder, view serves one replay
// (and refuses a bad one up front), export --html writes a self-contained
// page.
func TestServeViewExportHTML(t *testing.T) {
	dir := t.TempDir()
	cfr := filepath.Join(dir, "c06.cfr")
	b := testutil.ReadFile(t, c06+".cfr")
	if err := os.WriteFile(cfr, b, 0o644); err != nil {
		t.Fatal(err)
	}

	fetch := func(url string) (int, string) {
		t.Helper()
		res, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body)
	}
	// serve: run until cancelled, answering on the printed URL.
	lib, err := viewer.OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	var out bytes.Buffer
	go func() {
		done <- serveLibrary(ctx, lib, &serveOptions{addr: "127.0.0.1:0", maxUpload: viewer.DefaultMaxUpload, stdout: &out, ready: ready}, "/")
	}()
	base := <-ready
	if code, body := fetch(base + "/"); code != 200 || !strings.Contains(body, `data-id="c06.cfr"`) || !strings.Contains(body, "upload-input") {
		t.Errorf("library page: %d\n%.300s", code, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), base+"/") {
		t.Errorf("serve printed %q", out.String())
	}

	// view: a bad file fails before serving, naming the file.
	bad := filepath.Join(dir, "bad.cfr")
	os.WriteFile(bad, []byte("[{"), 0o644)
	if err := runView(context.Background(), bad, &serveOptions{addr: "127.0.0.1:0", stdout: io.Discard}); err == nil || !strings.Contains(err.Error(), "bad.cfr") {
		t.Errorf("view of a bad file: %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	go func() {
		done <- runView(ctx, cfr, &serveOptions{addr: "127.0.0.1:0", stdout: io.Discard, ready: ready})
	}()
	base = <-ready
	if code, body := fetch(base + "/replay/c06.cfr"); code != 200 || !strings.Contains(body, "ColorfightII · 3 players: bot0_greedy") {
		t.Errorf("view page: %d\n%.300s", code, body)
	}
	if code, _ := fetch(base + "/replay/bad.cfr"); code != 404 {
		t.Errorf("view serves another file of the folder: %d", code)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	// export --html
	html := filepath.Join(dir, "game.html")
	out.Reset()
	if err := runExport(&exportOptions{in: cfr, out: html, html: true, stdout: &out}); err != nil {
		t.Fatal(err)
	}
	page := testutil.ReadFile(t, html)
	if !strings.Contains(string(page), `id="rw-data"`) || !strings.Contains(string(page), "Content-Security-Policy") || strings.Contains(string(page), "<script src") {
		t.Errorf("exported page is not self-contained (%d bytes)", len(page))
	}
	if !strings.Contains(out.String(), "200 turns") {
		t.Errorf("export --html said %q", out.String())
	}
}
