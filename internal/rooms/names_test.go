package rooms

import (
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
		_ = NameKey(n)
	})
}
