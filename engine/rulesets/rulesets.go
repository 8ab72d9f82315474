// Package rulesets is the registry of the games rewind plays: every
// engine.Ruleset by its id, in a fixed order, with what the shell needs to
// know about a game beyond the seam (how it is called, how many players a
// match seats, the range of its turn limit). The commands that take a game
// by name (play, tournament) or meet one in a file (verify, conform) look
// it up here, so the list of known games and the error for an unknown one
// exist once.
//
// Adding a game is one line in the table below (and its package's
// engine.Ruleset).
package rulesets

import (
	"fmt"
	"strings"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/engine/monad"
)

// Info is what the shell needs to know about a game beyond its Ruleset.
type Info struct {
	// Name is the game's display name ("ColorfightII").
	Name string
	// MinPlayers and MaxPlayers bound the seats of a match.
	MinPlayers, MaxPlayers int
	// MinTurns, MaxTurns bound the turn limit play and tournament accept
	// (ColorfightII: the reference server's 200..2000, narrower than what
	// its engine can run); DefaultTurns is the limit when none is given.
	MinTurns, MaxTurns, DefaultTurns int
	// Round is what the game calls one round, plural ("rounds", "turns").
	Round string
}

type entry struct {
	r    engine.Ruleset
	info Info
}

// table is every game, in the order All, IDs and the error list them
// (ColorfightII first: the default game of play and tournament).
var table = []entry{
	{colorfight2.Ruleset, Info{
		// A match seats as many players as the default configuration's
		// max_player (8); the engine itself takes up to 64.
		Name: "ColorfightII", MinPlayers: 2, MaxPlayers: colorfight2.DefaultMaxPlayer,
		MinTurns: colorfight2.MinMaxTurn, MaxTurns: colorfight2.MaxMaxTurn, DefaultTurns: colorfight2.DefaultMaxTurn,
		Round: "rounds",
	}},
	{monad.Ruleset, Info{
		Name: "Monad", MinPlayers: 2, MaxPlayers: monad.MaxPlayers,
		MinTurns: 1, MaxTurns: monad.MaxMaxTurns, DefaultTurns: monad.DefaultMaxTurns,
		Round: "turns",
	}},
}

// Default is the id of the game play and tournament pick when none is
// given.
const Default = "colorfight2"

// All returns every registered ruleset, in a fixed order (ColorfightII,
// then Monad). The caller may modify the returned slice.
func All() []engine.Ruleset {
	out := make([]engine.Ruleset, len(table))
	for i, e := range table {
		out[i] = e.r
	}
	return out
}

// IDs returns the ids of All, in the same order.
func IDs() []string {
	out := make([]string, len(table))
	for i, e := range table {
		out[i] = e.r.ID()
	}
	return out
}

// Lookup returns the ruleset whose ID is id.
func Lookup(id string) (engine.Ruleset, bool) {
	for _, e := range table {
		if e.r.ID() == id {
			return e.r, true
		}
	}
	return nil, false
}

// Get is Lookup with an *UnknownError for an id that is not registered.
func Get(id string) (engine.Ruleset, error) {
	if r, ok := Lookup(id); ok {
		return r, nil
	}
	return nil, &UnknownError{ID: id}
}

// About returns the Info of the ruleset whose ID is id.
func About(id string) (Info, bool) {
	for _, e := range table {
		if e.r.ID() == id {
			return e.info, true
		}
	}
	return Info{}, false
}

// UnknownError is the error for a game id that is not registered.
type UnknownError struct {
	ID string
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("unknown game %q; known: %s", e.ID, strings.Join(IDs(), ", "))
}
