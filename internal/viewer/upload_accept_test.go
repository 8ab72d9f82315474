package viewer

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// uploadAccept is the accept attribute of the library page's upload
// picker, as the browser reads it.
var uploadAccept = regexp.MustCompile(`<input id="upload-input"[^>]* accept="([^"]*)"`)

// dropText is the endings the upload's drop zone lists.
var dropText = regexp.MustCompile(`Drop a replay \(a file ending in any of <code>([^<]*)</code>`)

// TestUploadPickerAcceptsEveryFormat: the library's upload picker offers
// every file the server takes — a .rwd and every registered format's
// endings (a Skyport .jsn, a Monad log, a .cfr) — on a plain library and
// on an indexed one.
func TestUploadPickerAcceptsEveryFormat(t *testing.T) {
	want := []string{".rwd"}
	for _, f := range engine.Formats() {
		want = append(want, f.Exts...)
	}
	if !slices.Contains(want, ".jsn") {
		t.Fatalf("no registered format has .jsn: %v", want)
	}
	plain := fixtureLibrary(t)
	indexed, err := OpenLibrary(fixtureLibrary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer indexed.Close()
	if warn, err := indexed.OpenIndex(); err != nil || warn != nil {
		t.Fatal(warn, err)
	}
	for name, base := range map[string]string{
		"plain":   serveDir(t, plain, Options{MaxUpload: 1 << 20}),
		"indexed": serve(t, indexed, Options{MaxUpload: 1 << 20}),
	} {
		code, page := get(t, base+"/")
		m := uploadAccept.FindStringSubmatch(page)
		if code != 200 || m == nil {
			t.Fatalf("%s: page %d has no upload picker with an accept list", name, code)
		}
		accept := strings.Split(html.UnescapeString(m[1]), ",")
		for _, ext := range want {
			if !slices.Contains(accept, ext) {
				t.Errorf("%s: the upload picker accepts %v, not %s", name, accept, ext)
			}
		}
		// The drop zone's text lists the same endings, from the
		// registrations (the shell's page names no game).
		d := dropText.FindStringSubmatch(page)
		if d == nil {
			t.Fatalf("%s: no drop zone text", name)
		}
		if got := strings.Fields(html.UnescapeString(d[1])); !slices.Equal(got, accept) {
			t.Errorf("%s: the drop zone lists %v, the picker accepts %v", name, got, accept)
		}
	}
}
