package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
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
			trimmed = strings.TrimPrefix(trimmed, "$ ")
			if !strings.HasPrefix(trimmed, "rewind ") {
				continue
			}
			// One command per line; a trailing comment and the commands
			// chained after && are checked each.
			if k := strings.Index(trimmed, " #"); k >= 0 {
				trimmed = trimmed[:k]
			}
			for _, part := range strings.Split(trimmed, "&&") {
				part = strings.TrimSpace(part)
				if !strings.HasPrefix(part, "rewind ") {
					continue
				}
				where := filepath.Base(f) + ":" + strconv.Itoa(i+1)
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
		}
	}
	t.Logf("%d command lines checked", n)
	if n < 20 {
		t.Errorf("found only %d rewind command lines in the docs' code blocks", n)
	}
}
