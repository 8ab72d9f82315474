package layers

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/rewind-game/rewind/"

// layer numbers as the package comment lists them; 0 for a package
// outside the layers.
const (
	outside = iota
	seam
	gameFacing
	game
	shell
	top
)

// testOnly are the packages that exist only for tests.
var testOnly = []string{"acceptance/", "examples/", "internal/testutil", "internal/browsertest",
	"internal/clitest", "internal/toygame", "internal/layers"}

var leaves = []string{"internal/bitio", "internal/satint", "internal/resize", "internal/rating"}

var gameFacingPkgs = []string{"replay", "internal/match", "internal/recording", "internal/subprocess",
	"internal/rooms"}

// layerOf returns p's layer (p relative to the module) and, for a game's
// package, the game's id.
func layerOf(p string) (int, string) {
	under := func(prefix string) bool { return p == prefix || strings.HasPrefix(p, prefix+"/") }
	for _, t := range testOnly {
		if strings.HasSuffix(t, "/") && strings.HasPrefix(p, t) || under(t) {
			return outside, ""
		}
	}
	switch {
	case under("engine") || slices.Contains(leaves, p):
		return seam, ""
	case slices.ContainsFunc(gameFacingPkgs, under):
		return gameFacing, ""
	case under("games/all") || under("cmd"):
		return top, ""
	case strings.HasPrefix(p, "games/"):
		return game, strings.SplitN(p, "/", 3)[1]
	case strings.HasPrefix(p, "internal/"):
		return shell, ""
	}
	return outside, ""
}

// upward returns why p importing q breaks the layering, "" when it does
// not.
func upward(p, q string) string {
	lp, gp := layerOf(p)
	lq, gq := layerOf(q)
	switch {
	case lp == outside || lq == outside && lp == top:
		return ""
	case lq == outside:
		return "imports a test-only package"
	case lp == game && lq == game && gp != gq:
		return "a game imports another game"
	case lp == shell && lq == game:
		return "the shell imports a game"
	case lq > lp:
		return "imports a higher layer"
	}
	return ""
}

// known are the imports that break the layering today, each to be
// removed when it is mended (issue 36). The test fails on a new one and
// on one listed here that no longer exists, so the list only shrinks.
var known = []string{}

// TestLayers: no package imports one of a higher layer, the shell no
// game, a game no other game (package layers's comment).
func TestLayers(t *testing.T) {
	edges := imports(t)
	var bad []string
	for _, e := range edges {
		if why := upward(e[0], e[1]); why != "" {
			bad = append(bad, fmt.Sprintf("%s -> %s (%s)", e[0], e[1], why))
		}
	}
	for _, b := range bad {
		if !slices.Contains(known, b) {
			t.Errorf("%s", b)
		}
	}
	for _, k := range known {
		if !slices.Contains(bad, k) {
			t.Errorf("%s is mended: drop it from the known list", k)
		}
	}
}

// TestUpwardFound: the check finds each kind of upward import.
func TestUpwardFound(t *testing.T) {
	for _, c := range [][3]string{
		{"engine", "replay", "imports a higher layer"},
		{"engine", "games/monad/rules", "imports a higher layer"},
		{"replay", "internal/analysis", "imports a higher layer"},
		{"games/monad/rules", "games/skyport/rules", "a game imports another game"},
		{"games/monad/bots", "games/all", "imports a higher layer"},
		{"internal/analysis", "games/colorfight2/rules", "the shell imports a game"},
		{"internal/viewer", "cmd/rewind", "imports a higher layer"},
		{"internal/match", "internal/testutil", "imports a test-only package"},
		{"games/monad/bots", "games/monad/rules", ""},
		{"internal/viewer", "internal/analysis", ""},
		{"games/skyport/protocol", "internal/rooms", ""},
		{"cmd/rewind", "games/all", ""},
		{"acceptance/monad", "games/monad/rules", ""},
	} {
		if got := upward(c[0], c[1]); got != c[2] {
			t.Errorf("%s -> %s: %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// imports lists every import within the module of the module's
// packages (tests' imports aside), as pairs of paths relative to the
// module. It parses the files itself, rather than asking go list, so
// that the test cache sees every file it read.
func imports(t *testing.T) [][2]string {
	t.Helper()
	root := filepath.Join("..", "..")
	var edges [][2]string
	seen := map[[2]string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		p := filepath.ToSlash(rel)
		for _, spec := range f.Imports {
			q, err := strconv.Unquote(spec.Path.Value)
			if err != nil || !strings.HasPrefix(q, module) {
				continue
			}
			e := [2]string{p, strings.TrimPrefix(q, module)}
			if !seen[e] {
				seen[e] = true
				edges = append(edges, e)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(edges, func(a, b [2]string) int { return strings.Compare(a[0]+" "+a[1], b[0]+" "+b[1]) })
	if len(edges) < 50 {
		t.Fatalf("%d imports within the module: too few to be the module's", len(edges))
	}
	return edges
}
