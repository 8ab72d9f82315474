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
	"github.com/rewind-game/rewind/games/colorfight2"
	bot "github.com/rewind-game/rewind/games/colorfight2/bots"
	cf2vectors "github.com/rewind-game/rewind/games/colorfight2/vectors"
	"github.com/rewind-game/rewind/games/monad"
	monadbot "github.com/rewind-game/rewind/games/monad/bots"
	monadvectors "github.com/rewind-game/rewind/games/monad/vectors"
	"github.com/rewind-game/rewind/games/skyport"
	skyportbot "github.com/rewind-game/rewind/games/skyport/bots"
	skyportvectors "github.com/rewind-game/rewind/games/skyport/vectors"
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
	// Bots are the game's built-in strategies played through the seam
	// (engine.Strategy), in the order play seats them by default.
	Bots []Bot
	// DefaultPlayers is how many of Bots play when a match names none;
	// 0 means MaxPlayers.
	DefaultPlayers int
	// Vectors, when set, are the game's conformance vectors from its
	// reference (`rewind conform`).
	Vectors *Vectors
	// OwnProtocol is set when the game's bots outside the process speak
	// its own protocol from before rewind played other games
	// (ColorfightII's): they are created for no game
	// (subprocess.Options.Game empty), told neither game nor player at
	// the start, and sent the game's own messages (engine.Messenger).
	OwnProtocol bool
	// ScoreDuels is set when a tournament's rating decides each duel of
	// two seats by their scores (equal scores draw) rather than by their
	// ranks (ColorfightII's gold: its rating always has).
	ScoreDuels bool
}

// Vectors describe a game's conformance vectors: two files per vector,
// NAME+Input and NAME+Expected (an Expected ending in .gz is given
// decompressed), and the function that plays one on the game and compares
// every field the expected file holds. The vector code lives in the
// game's own package (engine/<game>/vectors); it does no I/O of its own.
type Vectors struct {
	Input, Expected string
	// Conform returns how many rounds (player-turns) it compared and the
	// first divergence, "" when everything matched; an error when the
	// files are not a vector of this game (a *engine.VectorFileError when
	// it is about one of the two files, which the caller then names). read
	// gives the bytes of a file the input names, relative to the vector's
	// folder (a map), bounded by the caller.
	Conform func(input, expected []byte, read func(rel string) ([]byte, error)) (rounds int, divergence string, err error)
	// ProbesFile, when set, is a file of single-turn probes beside the
	// vectors (edge cases kept out of them) and CheckProbes checks its
	// bytes: the cases compared, the first divergence ("" when every
	// case agrees) and notes on documented differences.
	ProbesFile  string
	CheckProbes func(data []byte, read func(rel string) ([]byte, error)) (cases int, divergence string, notes []string, err error)
}

// Bot is a built-in strategy of a game (engine.Builtin: its name, one
// line saying how it plays, and New, the strategy for one seat with its
// choices drawn from a seed).
type Bot = engine.Builtin

// FindBot returns the built-in bot of info named name.
func (i Info) FindBot(name string) (Bot, bool) {
	for _, b := range i.Bots {
		if b.Name == name {
			return b, true
		}
	}
	return Bot{}, false
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
		Round:       "rounds",
		Bots:        bot.Builtins,
		Vectors:     &Vectors{Input: cf2vectors.Input, Expected: cf2vectors.Expected, Conform: cf2vectors.Conform},
		OwnProtocol: true, ScoreDuels: true,
	}},
	{monad.Ruleset, Info{
		Name: "Monad", MinPlayers: 2, MaxPlayers: monad.MaxPlayers,
		MinTurns: 1, MaxTurns: monad.MaxMaxTurns, DefaultTurns: monad.DefaultMaxTurns,
		Round: "turns",
		Bots:  monadbot.Builtins, DefaultPlayers: 3,
		Vectors: &Vectors{Input: ".commands.json", Expected: ".states.json.gz", Conform: monadvectors.Conform},
	}},
	// Skyport: one round is one player-turn; the limit counts the
	// players' loadout rounds too (docs/skyport.md).
	{skyport.Ruleset, Info{
		Name: "Skyport", MinPlayers: 2, MaxPlayers: skyport.MaxPlayers,
		MinTurns: skyport.MaxPlayers + 1, MaxTurns: 100000, DefaultTurns: skyport.DefaultMaxTurns,
		Round: "turns",
		Bots:  skyportbot.Builtins,
		Vectors: &Vectors{Input: ".input.json", Expected: ".states.json.gz", Conform: skyportvectors.Conform,
			ProbesFile: "probes.json", CheckProbes: skyportvectors.Probes},
	}},
}

// Register adds a game to the registry, after those already there. It is
// for games outside this table (a test's toy ruleset); it panics on an id
// already registered, since two games under one id would make files
// ambiguous.
func Register(r engine.Ruleset, info Info) {
	if _, ok := Lookup(r.ID()); ok {
		panic("rulesets: " + r.ID() + " registered twice")
	}
	table = append(table, entry{r, info})
}

// Default is the id of the game play and tournament pick when none is
// given.
const Default = "colorfight2"

// All returns every registered ruleset, in a fixed order (the table's:
// ColorfightII, Monad, Skyport, then those Register added). The caller
// may modify the returned slice.
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

// FirstPlayer returns the number r gives its first player where the
// shell shows players by number (play's table and messages): its
// document's (engine.Document.FirstPlayer: 1 for ColorfightII, whose
// protocol and files number players by uid from 1), 0 for a game
// without one, which numbers them from 0.
func FirstPlayer(r engine.Ruleset) int {
	if d, ok := r.(engine.Documented); ok {
		return d.Document().FirstPlayer
	}
	return 0
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
