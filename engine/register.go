package engine

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
)

// Registration is one game as it registers itself (Register): its rules
// and, as data, what the shell needs to know about it beyond them.
type Registration struct {
	// Ruleset is the game's rules; its ID names the game everywhere.
	Ruleset Ruleset
	// Name is the game's display name, as its players call it.
	Name string
	// MinPlayers and MaxPlayers bound the seats of a match;
	// DefaultPlayers is how many of Bots play when a match names none
	// (0: MaxPlayers).
	MinPlayers, MaxPlayers, DefaultPlayers int
	// MinTurns, MaxTurns bound the turn limit a match accepts (which may
	// be narrower than what the rules can run, as the game's reference
	// server allows); DefaultTurns is the limit when none is given.
	MinTurns, MaxTurns, DefaultTurns int
	// Round is what the game calls one round, plural ("rounds", "turns").
	Round string
	// Bots are the game's built-in strategies, in the order a match
	// seats them by default.
	Bots []Builtin
	// Vectors, when set, are the game's conformance vectors from its
	// reference (`rewind conform`).
	Vectors *Vectors
	// Formats are the game's official replay files, each read as a
	// Stream, in the order they are sniffed (after the formats of the
	// games registered before).
	Formats []Format
	// Protocol, when set, is the game's official network server, a
	// value of the room engine's adapter type (internal/rooms'
	// Protocol), which `rewind server --game ID` runs. It is opaque here
	// so that this package imports no shell package.
	Protocol any
	// OwnProtocol is set when the game's bots outside the process speak
	// the game's own protocol rather than docs/bot-protocol.md's "Any
	// game" messages: they are told neither game nor player at the
	// start, and sent the game's own turn messages (Messenger).
	OwnProtocol bool
	// NamedInPlay is set when the game's players name themselves during
	// play (joining a game in progress: Attendance.PlayerName), so that
	// a recording's names are known only once it is played; the shell
	// plays such a recording for them (source.PlayedNames).
	NamedInPlay bool
	// BoardScript, when set, is the game's painter for the replay page:
	// a browser script that registers rewind.boards[ID] (the contract is
	// docs/viewer.md's "Painters", typed in the viewer's contract.js),
	// loaded after the page's modules and before its start. Without one
	// the page draws the game's board generically.
	BoardScript []byte
	// ScoreDuels is set when a tournament's rating decides each duel of
	// two seats by their scores (equal scores draw) rather than by their
	// ranks.
	ScoreDuels bool
	// Document, when set, is the layout of the game's own analysis
	// document (DocumentOf).
	Document *Document
	// Options are the game's on/off settings beyond its seed (`rewind
	// play --NAME`); SetupFromOptions, set with them, returns the setup
	// Ruleset.NewFromSetup starts a game of seed and players from with
	// the options named in set on (each one of Options'); a combination
	// it cannot play is an error saying why.
	Options          []Option
	SetupFromOptions func(set []string, seed uint64, players int) ([]byte, error)
	// SetupFromMap, when set, turns a map file's bytes into the setup
	// Ruleset.NewFromSetup starts from (`rewind play --map FILE`), seed
	// choosing what the map leaves open (spawns, turn order). A bad file
	// is an error saying what and where.
	SetupFromMap func(file []byte, seed uint64, players int) ([]byte, error)
}

// Option is an on/off setting of a game that a match may set (`rewind
// play --NAME`): Name is the flag's name (kebab-case), Doc one line
// saying what it does.
type Option struct {
	Name, Doc string
}

// FindBot returns the built-in bot of r named name.
func (r Registration) FindBot(name string) (Builtin, bool) {
	for _, b := range r.Bots {
		if b.Name == name {
			return b, true
		}
	}
	return Builtin{}, false
}

// Vectors describe a game's conformance vectors: two files per vector,
// NAME+Input and NAME+Expected (an Expected ending in .gz is given
// decompressed), and the function that plays one on the game and compares
// every field the expected file holds. The vector code lives in the
// game's own package (games/<id>/vectors); it does no I/O of its own.
type Vectors struct {
	Input, Expected string
	// Conform returns how many rounds (player-turns) it compared and the
	// first divergence, "" when everything matched; an error when the
	// files are not a vector of this game (a *VectorFileError when it is
	// about one of the two files, which the caller then names). read
	// gives the bytes of a file the input names, relative to the vector's
	// folder (a map), bounded by the caller.
	Conform func(input, expected []byte, read func(rel string) ([]byte, error)) (rounds int, divergence string, err error)
	// Sniff, when set, reports whether the start of an input file (at
	// most SniffBytes) is this game's vector input. Where games' vectors
	// have the same file endings, conform gives a file to a game whose
	// Sniff takes it before a game without one.
	Sniff func(head []byte) bool
	// ProbesFile, when set, is a file of single-turn probes beside the
	// vectors (edge cases kept out of them) and CheckProbes checks its
	// bytes: the cases compared, the first divergence ("" when every
	// case agrees) and notes on documented differences.
	ProbesFile  string
	CheckProbes func(data []byte, read func(rel string) ([]byte, error)) (cases int, divergence string, notes []string, err error)
	// Record, when set, plays a vector's input on the game and writes
	// the game to w as a .rwd (`rewind record-vector`), with created
	// and tool in its header, and returns the rounds recorded; an error
	// about one of the two files is a *VectorFileError, as Conform's.
	Record func(input, expected []byte, w io.Writer, created time.Time, tool string) (rounds int, err error)
}

var registry struct {
	sync.RWMutex
	games      []Registration // sorted by id
	defaultID  string
	formatsAll []Format
}

// Register makes a game known to every command, from its package's init
// (as a database/sql driver registers itself). It panics when r has no
// Ruleset, or its id is empty or already registered: two games under one
// id would make files ambiguous.
func Register(r Registration) {
	if r.Ruleset == nil || r.Ruleset.ID() == "" {
		panic("engine: Register of a game without a ruleset id")
	}
	registry.Lock()
	defer registry.Unlock()
	id := r.Ruleset.ID()
	i, found := slices.BinarySearchFunc(registry.games, id, func(g Registration, id string) int {
		return strings.Compare(g.Ruleset.ID(), id)
	})
	if found {
		panic("engine: game " + id + " registered twice")
	}
	registry.games = slices.Insert(registry.games, i, r)
	registry.formatsAll = nil
	for _, catchall := range []bool{false, true} {
		for _, g := range registry.games {
			for _, f := range g.Formats {
				if f.Catchall == catchall {
					registry.formatsAll = append(registry.formatsAll, f)
				}
			}
		}
	}
}

// SetDefault makes id the game a command plays when none is named (the
// program's one list of games, games/all, sets it). It panics on an id
// not registered.
func SetDefault(id string) {
	if _, ok := About(id); !ok {
		panic("engine: default game " + id + " is not registered")
	}
	registry.Lock()
	registry.defaultID = id
	registry.Unlock()
}

// Default returns the id of the game a command plays when none is
// named: SetDefault's, or the first registered game's id when none was
// set ("" when no game is registered).
func Default() string {
	registry.RLock()
	defer registry.RUnlock()
	if registry.defaultID != "" || len(registry.games) == 0 {
		return registry.defaultID
	}
	return registry.games[0].Ruleset.ID()
}

// All returns every registered ruleset, sorted by id. The caller may
// modify the returned slice.
func All() []Ruleset {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]Ruleset, len(registry.games))
	for i, g := range registry.games {
		out[i] = g.Ruleset
	}
	return out
}

// IDs returns the ids of All, in the same order.
func IDs() []string {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]string, len(registry.games))
	for i, g := range registry.games {
		out[i] = g.Ruleset.ID()
	}
	return out
}

// About returns the registration of the game whose id is id.
func About(id string) (Registration, bool) {
	registry.RLock()
	defer registry.RUnlock()
	for _, g := range registry.games {
		if g.Ruleset.ID() == id {
			return g, true
		}
	}
	return Registration{}, false
}

// Lookup returns the ruleset whose ID is id.
func Lookup(id string) (Ruleset, bool) {
	g, ok := About(id)
	return g.Ruleset, ok
}

// Get is Lookup with an *UnknownError for an id that is not registered.
func Get(id string) (Ruleset, error) {
	if r, ok := Lookup(id); ok {
		return r, nil
	}
	return nil, &UnknownError{ID: id}
}

// Formats returns every registered game's official formats, in the order
// they are sniffed: the games' in id order, each game's in its own, the
// Catchall formats last. The caller must not modify the slice.
func Formats() []Format {
	registry.RLock()
	defer registry.RUnlock()
	return registry.formatsAll
}

// GameOf returns the registration of the game whose Formats include the
// format named name.
func GameOf(format string) (Registration, bool) {
	registry.RLock()
	defer registry.RUnlock()
	for _, g := range registry.games {
		for _, f := range g.Formats {
			if f.Name == format {
				return g, true
			}
		}
	}
	return Registration{}, false
}

// DocumentOf returns the layout of the own analysis document of the
// game registered under r's id (Registration.Document), nil for a game
// without one or not registered.
func DocumentOf(r Ruleset) *Document {
	g, _ := About(r.ID())
	return g.Document
}

// Seat is the number the shell shows player p (0-based, as Game and
// the analysis count players) by in every table, message and flag
// (`--bot SEAT=…`, `rewind info`): seats are numbered from 1 in every
// game.
func Seat(p int) int { return p + 1 }

// FirstPlayer returns the number r's own analysis document gives its
// first player (Document.FirstPlayer: 1 for a game whose protocol and
// files number players from 1), 0 for a game without one. Tables show
// seats (Seat), not these numbers.
func FirstPlayer(r Ruleset) int {
	if d := DocumentOf(r); d != nil {
		return d.FirstPlayer
	}
	return 0
}

// UnknownError is the error for a game id that is not registered.
type UnknownError struct {
	ID string
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("unknown game %q; known: %s", e.ID, strings.Join(IDs(), ", "))
}
