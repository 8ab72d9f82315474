package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/spf13/cobra"
)

// TestDocsCommandLines: every `rewind …` line inside a code block of the
// README and docs/*.md names a real command and only flags it has, with
// values its flags accept — so no documented example drifts from the
// CLI. (Examples whose result matters run in their own tests:
// TestServerDocsExamples, TestDistributedDocExamples.)
func TestDocsCommandLines(t *testing.T) {
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md")
	n := 0
	for _, f := range files {
		b := testutil.ReadFile(t, f)
		text := strings.ReplaceAll(string(b), "\\\n", " ")
		inBlock := false
		for i, line := range strings.Split(text, "\n") {
			trimmed := strings.TrimSpace(line)
			if strings.HasPrefix(trimmed, "```") {
				inBlock = !inBlock
				continue
			}
			if !inBlock {
				continue
			}
			n += checkCommandLine(t, filepath.Base(f)+":"+strconv.Itoa(i+1), trimmed)
		}
	}
	t.Logf("%d command lines checked", n)
	if n < 20 {
		t.Errorf("found only %d rewind command lines in the docs' code blocks", n)
	}
}

// TestCommandExamples: every line of every command's Example (what
// --help and the generated docs/commands show) names a real command and
// only flags it has, with values its flags accept.
func TestCommandExamples(t *testing.T) {
	n := 0
	var visit func(c *cobra.Command)
	visit = func(c *cobra.Command) {
		for i, line := range strings.Split(c.Example, "\n") {
			n += checkCommandLine(t, c.CommandPath()+" example "+strconv.Itoa(i+1), strings.TrimSpace(line))
		}
		for _, child := range c.Commands() {
			visit(child)
		}
	}
	visit(newRootCmd())
	t.Logf("%d example lines checked", n)
	if n < 20 {
		t.Errorf("found only %d rewind command lines in the commands' examples", n)
	}
}

// checkCommandLine checks one line of an example, where says where it
// is. A line not starting with "rewind " (after an optional "$ ") is not a
// command line; a trailing comment is dropped and the commands chained
// with && are checked each. It returns the number of commands checked.
func checkCommandLine(t *testing.T, where, line string) int {
	t.Helper()
	line = strings.TrimPrefix(line, "$ ")
	if !strings.HasPrefix(line, "rewind ") {
		return 0
	}
	if k := strings.Index(line, " #"); k >= 0 {
		line = line[:k]
	}
	n := 0
	for _, part := range strings.Split(line, "&&") {
		part = strings.TrimSpace(part)
		if !strings.HasPrefix(part, "rewind ") {
			continue
		}
		args, err := shellWords(strings.TrimPrefix(part, "rewind "))
		if err != nil {
			t.Errorf("%s: %s: %v", where, part, err)
			continue
		}
		root := newRootCmd()
		cmd, rest, err := root.Find(args)
		if err != nil || cmd == root {
			t.Errorf("%s: %s: no such command (%v)", where, part, err)
			continue
		}
		if err := cmd.ParseFlags(rest); err != nil {
			t.Errorf("%s: %s: %v", where, part, err)
		}
		n++
	}
	return n
}
