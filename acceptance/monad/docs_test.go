package monad_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/clitest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestMonadDocExamples runs every example of docs/monad.md that shows a
// command with its output ("$ rewind ..." in a fenced block) and compares
// the output line by line: game.rwd is the game the page's first example
// plays (`rewind play --game monad -o game.rwd`), a path under testdata is
// read from the repository. What changes from run to run is left out: the
// created time, a duration, how many games run at once (the machine's
// cores). A "…" line in the page stands for lines left out of it.
func TestMonadDocExamples(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	doc := testutil.ReadFile(t, filepath.Join(root, "docs", "monad.md"))
	examples := docExamples(string(doc))
	if len(examples) < 4 {
		t.Fatalf("%d examples with output in docs/monad.md, want at least 4", len(examples))
	}
	work := t.TempDir()
	clitest.Binary(t) // built before the working directory changes
	t.Chdir(work)
	if out, code := clitest.Run(t, "play", "--game", "monad", "-o", "game.rwd"); code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	for _, ex := range examples {
		args := strings.Fields(ex.cmd)
		for i, a := range args {
			if strings.HasPrefix(a, "testdata/") {
				args[i] = filepath.Join(root, a)
			}
		}
		out, code := clitest.Run(t, args...)
		if code != 0 {
			t.Errorf("rewind %s: status %d\n%s", ex.cmd, code, out)
			continue
		}
		out = strings.ReplaceAll(out, root+string(filepath.Separator), "")
		if d := matchOutput(ex.want, strings.Split(strings.TrimRight(out, "\n"), "\n")); d != "" {
			t.Errorf("rewind %s: %s\ngot:\n%s", ex.cmd, d, out)
		}
	}
}

type docExample struct {
	cmd  string
	want []string
}

// docExamples returns the fenced blocks of doc that start with a command
// ("$ rewind ARGS") followed by its output.
func docExamples(doc string) []docExample {
	var out []docExample
	blocks := strings.Split(doc, "```")
	for i := 1; i < len(blocks); i += 2 {
		lines := strings.Split(strings.Trim(blocks[i], "\n"), "\n")
		if len(lines) < 2 || !strings.HasPrefix(lines[0], "$ rewind ") {
			continue
		}
		out = append(out, docExample{cmd: strings.TrimPrefix(lines[0], "$ rewind "), want: lines[1:]})
	}
	return out
}

// varying matches what differs from run to run in a command's output.
var varying = regexp.MustCompile(`\bin [0-9.]+(ns|µs|ms|s|m[0-9.]+s)\b|\b[0-9]+ at a time\b|created: .*`)

// matchOutput compares the output lines got with the page's lines want,
// "…" in want skipping any lines of got, and returns the first
// difference ("" when none).
func matchOutput(want, got []string) string {
	norm := func(s string) string { return varying.ReplaceAllString(strings.TrimRight(s, " "), "#") }
	g := 0
	for w := 0; w < len(want); w++ {
		if strings.TrimSpace(want[w]) == "…" {
			if w+1 == len(want) {
				return ""
			}
			next := norm(want[w+1])
			for g < len(got) && norm(got[g]) != next {
				g++
			}
			continue
		}
		if g >= len(got) {
			return "the output ends before the page's line " + strings.TrimSpace(want[w])
		}
		if norm(want[w]) != norm(got[g]) {
			return "the page says\n" + want[w] + "\nthe command prints\n" + got[g]
		}
		g++
	}
	if g < len(got) {
		return "the output goes on after the page's last line: " + got[g]
	}
	return ""
}
