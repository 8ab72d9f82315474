package index

import (
	"strings"
	"unicode"
)

// The words of a search, as the full-text index (the names table:
// unicode61, diacritics kept, '_', '-' and '.' part of a word) splits
// and folds them: a word is a run of letters, digits, private-use
// characters and '_', '-', '.', lowercased. searchWords keeps a
// replay's (in replays.words) so that a search matching many replays
// tests each row of the sort's index by one instr() instead of gathering
// every match first (wordsTest).

// isWordRune reports whether r belongs to a word (unicode61's default
// categories L*, N*, Co, and its tokenchars).
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r) || r == '_' || r == '-' || r == '.'
}

// tokens splits s into its words, lowercased.
func tokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !isWordRune(r) })
}

// searchWords is text's words, each after a space: " w1 w2 …".
func searchWords(text string) string {
	var b strings.Builder
	for _, t := range tokens(text) {
		b.WriteByte(' ')
		b.WriteString(t)
	}
	return b.String()
}

// wordsNeedle is what instr() looks for in a replay's words for one word
// of a search (a phrase of its tokens, the last a prefix, as the
// full-text query ftsQuery makes of it): " t1 t2 … tk"; "" for a word of
// no token, which ftsQuery leaves out too.
func wordsNeedle(w string) string {
	ts := tokens(w)
	if len(ts) == 0 {
		return ""
	}
	return " " + strings.Join(ts, " ")
}
