package engine

import (
	"strings"
	"unicode/utf8"
)

// MaxNameBytes is the longest player name the shell keeps (a .rwd
// header's bound, docs/limits.md); PlayerName cuts a longer one.
const MaxNameBytes = 256

// PlayerName returns the name player p of g goes by now: its
// Attendance's, or given (the name the game was started with:
// Settings.Names, a header's) for a game without Attendance or a player
// without a name of its own. A name longer than MaxNameBytes is cut to it, at a character's
// boundary, and bytes that are not UTF-8 are replaced.
func PlayerName(g Game, p int, given string) string {
	a, ok := g.(Attendance)
	if !ok {
		return given
	}
	name := a.PlayerName(p)
	if name == "" {
		return given
	}
	if !utf8.ValidString(name) {
		name = strings.ToValidUTF8(name, "\uFFFD")
	}
	if len(name) > MaxNameBytes {
		cut := MaxNameBytes
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		name = name[:cut]
	}
	return name
}
