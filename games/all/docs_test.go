package all_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/testutil"
)

// repoRoot is the repository's root, two folders above games/all.
const repoRoot = "../.."

// docFiles are README.md and docs/*.md, as paths from the root.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join(repoRoot, "README.md")}, docs...)
}

var (
	mdLink      = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	playerRange = regexp.MustCompile(`(\d+) ?(?:–|-| to ) ?(\d+) players`)
)

// TestDocLinksStayInside: every relative link of README.md and docs/*.md
// names a file or folder that exists inside the repository.
func TestDocLinksStayInside(t *testing.T) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range docFiles(t) {
		for i, line := range strings.Split(readDoc(t, doc), "\n") {
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target, _, _ := strings.Cut(m[1], "#")
				if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				p, err := filepath.Abs(filepath.Join(filepath.Dir(doc), target))
				if err != nil {
					t.Fatal(err)
				}
				where := fmt.Sprintf("%s:%d: link %s", strings.TrimPrefix(doc, repoRoot+"/"), i+1, m[1])
				if rel, err := filepath.Rel(root, p); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
					t.Errorf("%s leaves the repository", where)
				} else if _, err := os.Stat(p); err != nil {
					t.Errorf("%s names nothing: %v", where, err)
				}
			}
		}
	}
}

// TestDocPlayerCounts: README.md lists every registered game in an item
// of its own that starts "- [NAME" and says "MIN–MAX players" as its
// registration does; and every "N–M players" or "N to M players" in the
// game's own page (the item's first link) says the same.
func TestDocPlayerCounts(t *testing.T) {
	readme := readDoc(t, filepath.Join(repoRoot, "README.md"))
	for _, id := range engine.IDs() {
		reg, _ := engine.About(id)
		want := fmt.Sprintf("%d–%d players", reg.MinPlayers, reg.MaxPlayers)
		bullet := readmeItem(readme, "- ["+reg.Name)
		if bullet == "" {
			t.Errorf("README.md lists no %s (%s): want an item \"- [%s](docs/PAGE.md): … %s\"", reg.Name, id, reg.Name, want)
			continue
		}
		if !strings.Contains(bullet, want) {
			t.Errorf("README.md's item on %s lacks %q:\n%s", reg.Name, want, bullet)
		}
		checkRanges(t, "README.md's item on "+reg.Name, bullet, reg)
		page := mdLink.FindStringSubmatch(bullet)
		if page == nil {
			t.Errorf("README.md's %s line links no page", reg.Name)
			continue
		}
		checkRanges(t, page[1], readDoc(t, filepath.Join(repoRoot, page[1])), reg)
	}
}

// readmeItem is the list item of readme whose first line starts with
// prefix, its continuation lines (indented by two spaces) joined with
// spaces; "" when there is none.
func readmeItem(readme, prefix string) string {
	var item []string
	for _, line := range strings.Split(readme, "\n") {
		switch {
		case item == nil && strings.HasPrefix(line, prefix):
			item = []string{line}
		case item != nil && strings.HasPrefix(line, "  "):
			item = append(item, strings.TrimSpace(line))
		case item != nil:
			return strings.Join(item, " ")
		}
	}
	return strings.Join(item, " ")
}

// checkRanges fails for every player range in text other than reg's.
func checkRanges(t *testing.T, where, text string, reg engine.Registration) {
	t.Helper()
	for _, m := range playerRange.FindAllStringSubmatch(text, -1) {
		lo, _ := strconv.Atoi(m[1])
		hi, _ := strconv.Atoi(m[2])
		if lo != reg.MinPlayers || hi != reg.MaxPlayers {
			t.Errorf("%s says %q: %s is registered for %d to %d players", where, m[0], reg.Name, reg.MinPlayers, reg.MaxPlayers)
		}
	}
}

func readDoc(t *testing.T, path string) string {
	t.Helper()
	b := testutil.ReadFile(t, path)
	return string(b)
}
