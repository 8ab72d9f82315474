package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/testutil"
)

const regenerateDocs = "run 'go run ./cmd/rewind gendocs docs/commands' and commit docs/commands"

// readMarkdown returns the .md files of dir by name.
func readMarkdown(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		b := testutil.ReadFile(t, f)
		out[filepath.Base(f)] = b
	}
	return out
}

// gendocs runs "rewind gendocs dir" as the program this package builds:
// not in the test binary, whose tests register toy games of their own.
func gendocs(t *testing.T, dir string) {
	t.Helper()
	goTool := testutil.NeedTool(t, "go")
	cmd := exec.Command(goTool, "run", ".", "gendocs", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run . gendocs: %v\n%s", err, out)
	}
}

// TestCommandDocsCurrent: the committed command reference in docs/commands
// is exactly what "rewind gendocs" writes from the commands as they are.
func TestCommandDocsCurrent(t *testing.T) {
	dir := t.TempDir()
	gendocs(t, dir)
	want := readMarkdown(t, dir)
	got := readMarkdown(t, filepath.Join("..", "..", commandDocsDir))
	if len(want) < 20 {
		t.Fatalf("gendocs wrote %d pages, want one per command (at least 20)", len(want))
	}
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s/%s is missing: %s", commandDocsDir, name, regenerateDocs)
		case !bytes.Equal(g, w):
			t.Errorf("%s/%s is stale: %s", commandDocsDir, name, regenerateDocs)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s/%s documents no command: %s", commandDocsDir, name, regenerateDocs)
		}
	}
}

// TestGendocsWritesOnlyTheReference: gendocs removes the pages of commands
// that are gone, keeps files that are not pages, writes the same bytes
// every time, and links only to pages it writes.
func TestGendocsWritesOnlyTheReference(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "rewind_gone.md"), []byte("## rewind gone\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	gendocs(t, dir)
	first := readMarkdown(t, dir)
	if _, ok := first["rewind_gone.md"]; ok {
		t.Error("the page of a command that does not exist was kept")
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Errorf("a file that is not a page was removed: %v", err)
	}
	for _, name := range []string{"README.md", "rewind_play.md", "rewind_completion_bash.md"} {
		if _, ok := first[name]; !ok {
			t.Errorf("no page %s", name)
		}
	}
	if _, ok := first["rewind_gendocs.md"]; ok {
		t.Error("the hidden gendocs command has a page")
	}
	gendocs(t, dir)
	second := readMarkdown(t, dir)
	for name, b := range first {
		if !bytes.Equal(second[name], b) {
			t.Errorf("%s differs between two runs", name)
		}
	}
	for name, b := range first {
		for _, link := range markdownLinks(string(b)) {
			if _, ok := first[link]; !ok {
				t.Errorf("%s links to %s, which gendocs does not write", name, link)
			}
		}
	}
}

// markdownLinks returns the targets of the [text](target) links of s.
func markdownLinks(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "](")
		if i < 0 {
			return out
		}
		s = s[i+2:]
		j := strings.IndexByte(s, ')')
		if j < 0 {
			return out
		}
		out = append(out, s[:j])
		s = s[j:]
	}
}

// TestCommandDocsMachineDefaults: a flag whose default is the number of
// CPUs is documented as such, and keeps its real default for the command
// itself after the reference is generated.
func TestCommandDocsMachineDefaults(t *testing.T) {
	root := newRootCmd()
	pages, err := commandDocs(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"analyze", "tournament"} {
		page := string(pages["rewind_"+name+".md"])
		i := strings.Index(page, "      --parallel int")
		if i < 0 {
			t.Fatalf("rewind %s's page has no --parallel", name)
		}
		line, _, _ := strings.Cut(page[i:], "\n")
		if !strings.HasSuffix(line, "(default the number of CPUs)") {
			t.Errorf("rewind %s's page: %q", name, line)
		}
		cmd, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := cmd.Flags().Lookup("parallel").DefValue, strconv.Itoa(runtime.NumCPU()); got != want {
			t.Errorf("rewind %s --parallel defaults to %s after the reference is generated, want %s", name, got, want)
		}
	}
	names := make([]string, 0, len(pages))
	for name := range pages {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if strings.Contains(string(pages[name]), "Auto generated") {
			t.Errorf("%s carries cobra's dated footer", name)
		}
	}
}
