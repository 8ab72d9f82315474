package engine

import (
	"strings"
	"unicode/utf8"
)

// MaxNameBytes is the longest player name the shell keeps (a .rwd
// header's bound, docs/limits.md); PlayerName cuts a longer one.
const MaxNameBytes = 256

// Naming is a Game whose players name themselves during play, after the
// game's players were named: ColorFight v1's, whose players join a game
// in progress with a name of their own (`/joingame {"name":...}`), so
// that the name a recording's header gives a seat, written when the game
// opened, is a placeholder ("seat 2"). PlayerName returns the name
// player p goes by now, "" while it has none of its own. It is a
// capability rather than part of Game because a game whose players are
// named before it starts has nothing to say here. NamingOf and
// PlayerName are the one check for it.
type Naming interface {
	PlayerName(p int) string
}

// NamingOf returns g as a Naming, nil for a game whose players keep the
// names it was started with.
func NamingOf(g Game) Naming {
	n, _ := g.(Naming)
	return n
}

// PlayerName returns the name player p of g goes by now: its Naming's,
// or given (the name the game was started with: Settings.Names, a
// header's) for a game without Naming or a player without a name of its
// own. A name longer than MaxNameBytes is cut to it, at a character's
// boundary, and bytes that are not UTF-8 are replaced.
func PlayerName(g Game, p int, given string) string {
	n := NamingOf(g)
	if n == nil {
		return given
	}
	name := n.PlayerName(p)
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
