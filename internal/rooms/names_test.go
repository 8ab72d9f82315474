package rooms

import (
	"bytes"
	"github.com/rewind-game/rewind/internal/testutil"
	"os/exec"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzNormalizeName: no input panics; a kept name is NFKC-stable
// (normalizing it again changes nothing), trimmed, and holds no control
// or format character.
func FuzzNormalizeName(f *testing.F) {
	for _, s := range []string{"alice", " ａｌｉｃｅ ", "аlice", "a\u200bb", "ﷺ", "\xff", "Ελλάδα", "Москва", "a  b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := NormalizeName(s)
		if err != nil {
			return
		}
		if again, err := NormalizeName(n); err != nil || again != n {
			t.Fatalf("%q -> %q -> %q, %v", s, n, again, err)
		}
		if n != strings.TrimSpace(n) || !utf8.ValidString(n) {
			t.Fatalf("%q -> %q", s, n)
		}
		for _, r := range n {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				t.Fatalf("%q -> %q keeps %U", s, n, r)
			}
		}
		_ = SameName(n, s)
	})
}

// TestNameRules: each look-alike of a seated name is refused by
// NormalizeName or is that name by SameName; the plain distinct names are
// kept and no two of them are one name.
func TestNameRules(t *testing.T) {
	seated := []string{"Alice", "ACE", "bob", "admin"}
	for _, c := range []struct {
		written string
		refused string // the start of NormalizeName's refusal, or "" for SameName
		same    string // the seated name it is, when not refused
	}{
		{"Alice\u3164", nameInvisible, ""},
		{"\u2800", nameInvisible, ""},
		{"\u115f", nameInvisible, ""},
		{"\u1160", nameInvisible, ""},
		{"\uffa0", nameInvisible, ""},
		{"A\u034flice", nameInvisible, ""},
		{"Al\u200bice", nameInvisible, ""},
		{"Alice\u200f", nameInvisible, ""},
		{"Al\u2060ice", nameInvisible, ""},
		{"Alice\u2065", nameInvisible, ""}, // unassigned, default-ignorable
		{"Alice\u206f", nameInvisible, ""},
		{"b\ufe00ob", nameInvisible, ""},
		{"bob\u180b", nameInvisible, ""},
		{"bob\u180f", nameInvisible, ""},
		{"bob\U000e0000", nameInvisible, ""},
		{"bob\U000e0fff", nameInvisible, ""},
		{"bob\U000e0041", nameInvisible, ""},
		{"bob\U0010fffd", nameInvisible, ""}, // private use
		{"bob\U0003ffff", nameInvisible, ""}, // unassigned
		{"bob\xff", nameInvisible, ""},
		{"\u13aalice", nameScripts, ""},
		{"b\u0585b", nameScripts, ""},
		{"\u0430dmin", nameScripts, ""},
		{"\u03b1dmin", nameScripts, ""},
		{"\u13aa\u13df\u13ac", "", "ACE"},
		{"\u0391\u03f9\u0395", "", "ACE"},
		{"\u0410\u0421\u0415", "", "ACE"},
		{"\u0299ob", "", "bob"},
		{"\u0299\u1d0f\u0299", "", "bob"},
		{"Al\u0131ce", "", "Alice"},
		{"\u0251dmin", "", "admin"},
		{"AIice", "", "Alice"},
		{"A1ice", "", "Alice"},
		{"ALICE", "", "Alice"},
		{"alice", "", "Alice"},
		{" ａｌｉｃｅ ", "", "Alice"},
		{"Ace", "", "ACE"},
		{"BOB", "", "bob"},
		{"adrnin", "", "admin"},
	} {
		n, err := NormalizeName(c.written)
		if c.refused != "" {
			if err == nil || !strings.HasPrefix(err.Error(), c.refused) {
				t.Errorf("NormalizeName(%+q) = %+q, %v; want a refusal starting %q", c.written, n, err, c.refused)
			}
			continue
		}
		if err != nil {
			t.Errorf("NormalizeName(%+q): %v", c.written, err)
			continue
		}
		var same []string
		for _, s := range seated {
			if SameName(s, c.written) {
				same = append(same, s)
			}
		}
		if len(same) != 1 || same[0] != c.same {
			t.Errorf("%+q (normalized %+q) is the seated %q, want %q", c.written, n, same, c.same)
		}
	}

	plain := []string{"Alice", "Bob", "Carol", "Zoë", "李雷", "Ümit", "bot-1", "bot-2", "Ace", "ann",
		"山田たろう", "김철수", "Ελένη", "Мария", "Ali", "All", "Kɔfi", "Əli", "ᎣᏏᏲ"}
	for i, a := range plain {
		n, err := NormalizeName(a)
		if err != nil || n != a {
			t.Errorf("NormalizeName(%q) = %q, %v", a, n, err)
		}
		for _, b := range plain[i+1:] {
			if SameName(a, b) || SameName(b, a) {
				t.Errorf("%q and %q are one name", a, b)
			}
		}
	}
}

// TestSmallCapitalsTableCurrent: smallcaps_table.go is what go generate
// writes from the Unicode names.
func TestSmallCapitalsTableCurrent(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("needs the go command to run smallcaps_gen.go")
	}
	out, err := exec.Command(gobin, "run", "smallcaps_gen.go").Output()
	if err != nil {
		t.Fatalf("go run smallcaps_gen.go: %v", err)
	}
	have := testutil.ReadFile(t, "smallcaps_table.go")
	if !bytes.Equal(out, have) {
		t.Errorf("smallcaps_table.go is not what smallcaps_gen.go writes: run go generate ./internal/rooms")
	}
}
