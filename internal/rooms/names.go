package rooms

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// NameError is a refused name; its text is the reply a protocol sends.
type NameError string

func (e NameError) Error() string { return string(e) }

// NormalizeName returns the username a player registers as: Unicode
// NFKC (fullwidth, ligature and compatibility forms become their plain
// letters), white space trimmed and runs of it made one space, and the
// refusal, in the reply's words, of a name that holds control or
// invisible (format) characters, the replacement character, or letters
// of more than one of the Latin, Greek and Cyrillic scripts. Names are
// then unique by NameKey. A refusal is a NameError.
func NormalizeName(raw string) (string, error) {
	n := strings.Join(strings.FieldsFunc(norm.NFKC.String(raw), unicode.IsSpace), " ")
	var latin, greek, cyrillic bool
	for _, r := range n {
		switch {
		case r == utf8.RuneError, unicode.IsControl(r), unicode.Is(unicode.Cf, r),
			unicode.Is(unicode.Co, r), unicode.Is(unicode.Cs, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r),
			unicode.Is(unicode.Mn, r) && r >= 0xfe00 && r <= 0xfe0f: // variation selectors
			return "", NameError("Username can't contain control or invisible characters")
		case unicode.Is(unicode.Latin, r):
			latin = true
		case unicode.Is(unicode.Greek, r):
			greek = true
		case unicode.Is(unicode.Cyrillic, r):
			cyrillic = true
		}
	}
	if b2i(latin)+b2i(greek)+b2i(cyrillic) > 1 {
		return "", NameError("Username can't mix Latin, Greek and Cyrillic letters")
	}
	return n, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// confusables maps the Greek and Cyrillic letters that look like a Latin
// letter to it (after NFKC), so that a name written wholly in one of those
// scripts cannot pass for a Latin one: "Асе" is "Ace".
var confusables = map[rune]rune{
	// Cyrillic
	'а': 'a', 'в': 'b', 'е': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't',
	'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'һ': 'h', 'ӏ': 'l',
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T',
	'У': 'Y', 'Х': 'X', 'І': 'I', 'Ј': 'J', 'Ѕ': 'S', 'Ԁ': 'D', 'Ԛ': 'Q', 'Ԝ': 'W', 'Ү': 'Y', 'Ӏ': 'I',
	// Greek
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O',
	'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'ο': 'o', 'ν': 'v', 'ι': 'i', 'κ': 'k', 'ρ': 'p', 'τ': 't',
	'υ': 'u', 'χ': 'x', 'α': 'a', 'ϲ': 'c', 'ϳ': 'j',
}

// NameKey is what two usernames must differ in: the normalized name with
// Greek and Cyrillic look-alikes of Latin letters replaced by them.
func NameKey(name string) string {
	return strings.Map(func(r rune) rune {
		if l, ok := confusables[r]; ok {
			return l
		}
		return r
	}, name)
}
