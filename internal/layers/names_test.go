package layers

import (
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// gameWord is what counts as naming a game (DECISIONS.md, "Naming a
// game").
var gameWord = regexp.MustCompile(`(?i)colorfight|monad|skyport`)

// maxGameLines bounds the lines of code naming a game outside the
// games: the one documented default (engine.SetDefault in games/all is
// inside them) and what the shell still says of them.
const maxGameLines = 5

// TestShellNamesFewGames: the lines of non-test Go code (comments
// aside) that name a game outside games/ and the test-only packages are
// at most maxGameLines, and none of them is in cmd/.
func TestShellNamesFewGames(t *testing.T) {
	root := filepath.Join("..", "..")
	var lines []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" || rel == "games") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		if l, _ := layerOf(filepath.ToSlash(filepath.Dir(rel))); l == outside && !strings.HasPrefix(rel, "cmd/") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, n := range gameLines(src) {
			lines = append(lines, fmt.Sprintf("%s:%d", rel, n))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "cmd/") {
			t.Errorf("%s names a game", l)
		}
	}
	if len(lines) > maxGameLines {
		t.Errorf("%d lines of the shell name a game, at most %d: %s", len(lines), maxGameLines, strings.Join(lines, " "))
	}
}

// gameLines are the lines of src holding a token other than a comment
// that names a game.
func gameLines(src []byte) []int {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0)
	var out []int
	last := 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if line := file.Line(pos); line != last && gameWord.MatchString(lit) {
			out = append(out, line)
			last = line
		}
	}
}

// TestGameLines: a game named in code counts once per line; in a
// comment, not at all.
func TestGameLines(t *testing.T) {
	src := []byte("package p\n// Skyport\nvar a = \"monad\" + \"skyport\" // Monad\nvar b = 1 /* ColorfightII */\nconst colorfightDefault = 2\n")
	if got := fmt.Sprint(gameLines(src)); got != "[3 5]" {
		t.Errorf("lines %s, want [3 5]", got)
	}
}
