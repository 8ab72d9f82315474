package rooms

//go:generate sh -c "go run smallcaps_gen.go > smallcaps_table.go"

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// NameError is a refused name; its text is the reply a protocol sends.
type NameError string

func (e NameError) Error() string { return string(e) }

// The words a refused name's reply starts with (then what was refused).
const (
	nameInvisible = "Username can't contain control or invisible characters"
	nameScripts   = "Username can't mix scripts"
)

// NormalizeName returns the username a player registers as: Unicode
// NFKC (fullwidth, ligature and compatibility forms become their plain
// letters), white space trimmed and runs of it made one space. It
// refuses, in the reply's words, a name holding a code point that shows
// nothing or may not show (invisibleRune), and a name mixing scripts
// (mixedScripts). Whether the name is a seated one is SameName's to say.
// A refusal is a NameError.
func NormalizeName(raw string) (string, error) {
	if err := checkRunes(raw); err != nil {
		return "", err
	}
	n := normalForm(raw)
	if err := checkRunes(n); err != nil {
		return "", err
	}
	if s := mixedScripts(n); s != nil {
		return "", NameError(fmt.Sprintf("%s (%s)", nameScripts, strings.Join(s, " and ")))
	}
	return n, nil
}

// normalForm is NormalizeName's name before its checks.
func normalForm(raw string) string {
	return strings.Join(strings.FieldsFunc(norm.NFKC.String(raw), unicode.IsSpace), " ")
}

// checkRunes refuses the first invisible rune of s, naming it and where
// (the count of characters before it).
func checkRunes(s string) error {
	i := 0
	for _, r := range s {
		if invisibleRune(r) {
			return NameError(fmt.Sprintf("%s (U+%04X at character %d)", nameInvisible, r, i+1))
		}
		i++
	}
	return nil
}

// invisibleRune reports whether r may not be in a name: invalid UTF-8
// and the replacement character, controls, formats (zero-width spaces
// and joiners, bidi controls, BOM, tags), private use, surrogates, line
// and paragraph separators, code points unassigned in Go's Unicode
// tables, every Default_Ignorable_Code_Point (Unicode's list of code
// points a renderer may show as nothing: the formats above, variation
// selectors, U+034F COMBINING GRAPHEME JOINER, the Hangul fillers U+115F,
// U+1160, U+3164, U+FFA0, U+180B..U+180F, U+E0000..U+E0FFF, …), and
// the code points that show as a blank without being white space
// (U+2800 BRAILLE PATTERN BLANK). White space is not refused here:
// NormalizeName trims it and makes each run one space.
func invisibleRune(r rune) bool {
	switch {
	case r == utf8.RuneError, r == '\u2800':
		return true
	case unicode.IsSpace(r):
		return false
	case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs, unicode.Zl, unicode.Zp,
		unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector):
		return true
	}
	return !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs)
}

// scriptNames are the scripts a letter of a name is counted in: every
// script of Go's Unicode tables but Common and Inherited (digits,
// punctuation, symbols, combining marks), in order.
var scriptNames = func() []string {
	var s []string
	for name := range unicode.Scripts {
		if name != "Common" && name != "Inherited" {
			s = append(s, name)
		}
	}
	slices.Sort(s)
	return s
}()

// scriptsWritten together are the sets of scripts one name may mix (UTS
// #39's "highly restrictive" level): Japanese, Chinese with Bopomofo and
// Korean, each with Latin. Any other two scripts in one name are refused.
var scriptsWritten = [][]string{
	{"Han", "Hiragana", "Katakana", "Latin"},
	{"Bopomofo", "Han", "Latin"},
	{"Hangul", "Han", "Latin"},
}

// mixedScripts returns the scripts of name, in order, when they are
// more than one and not a set of scriptsWritten; nil otherwise.
func mixedScripts(name string) []string {
	var used []string
	for _, r := range name {
		for _, s := range scriptNames {
			if unicode.Is(unicode.Scripts[s], r) {
				if !slices.Contains(used, s) {
					used = append(used, s)
				}
				break
			}
		}
	}
	if len(used) < 2 {
		return nil
	}
	slices.Sort(used)
	for _, w := range scriptsWritten {
		if !slices.ContainsFunc(used, func(s string) bool { return !slices.Contains(w, s) }) {
			return nil
		}
	}
	return used
}

// SameName reports whether a name written as written (as the player
// sent it) is the seated name seated (as NormalizeName returned it): when
// the name as written or normalized looks like the seated one. Two names
// look alike when their Unicode TR39 skeletons are equal ("AIice",
// "A1ice", "Alıce" and Cherokee "ᎪᏟᎬ" look like "Alice" and "ACE";
// "ɑdmin" like "admin"), or the skeletons of their case-folded forms,
// small capitals folded to their small letters ("ALICE" is "alice", "ʙob"
// is "bob"). Both are needed: folding first loses capital I looking like
// small l, and a skeleton alone keeps "ALICE" apart from "alice". The
// written form counts because NFKC may change how a name looks: Greek
// "ΑϹΕ" (U+03F9) looks like "ACE" as written and is "ΑΣΕ" normalized. A
// protocol seats a new name only if it is the same name as no seated
// one.
func SameName(seated, written string) bool {
	exact, folded := confusables.Skeleton(seated), foldedSkeleton(seated)
	for _, w := range []string{written, normalForm(written)} {
		if confusables.Skeleton(w) == exact || foldedSkeleton(w) == folded {
			return true
		}
	}
	return false
}

var folder = cases.Fold()

// foldedSkeleton is the skeleton of name case-folded, small capitals
// mapped to their small letters (smallCapitals).
func foldedSkeleton(name string) string {
	f := strings.Map(func(r rune) rune {
		if s, ok := smallCapitals[r]; ok {
			return s
		}
		return r
	}, folder.String(name))
	return confusables.Skeleton(f)
}
