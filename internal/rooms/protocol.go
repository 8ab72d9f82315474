// Package rooms is the room engine's adapter API for the games' own
// network protocols, which `rewind server --game ID` runs: a game's
// protocol lives in its own package (games/<id>/protocol), implements
// Protocol and is its Registration's Protocol (engine.Registration).
package rooms

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/spf13/pflag"
)

// Options configure one run of a protocol server. The command fills them
// from its flags (each field's doc names its flag of `rewind server`);
// zero values pick the protocol's defaults.
type Options struct {
	// Addr is the address bots connect to (host:port, --addr); "" is the
	// protocol's default (Protocol.DefaultAddr). Port 0 picks a free one.
	Addr string
	// Dir is the folder every game is recorded in as a .rwd (created if
	// missing; --dir).
	Dir string
	// Bots are built-in bots (the game's registered strategies, --bot)
	// seated beside the bots that connect; Players the seats of a game
	// (--max-player; 0: the protocol's default).
	Bots    []string
	Players int
	// MaxTurns is the turn limit (--max-turn; 0: the game's default);
	// Seed (--seed) draws what the game leaves to chance; Setup, when
	// set, is the game's setup (a map file, --map:
	// engine.Registration.SetupFromMap).
	MaxTurns int
	Seed     uint64
	Setup    []byte
	// ThinkTime is how long a bot may think per turn (--round-time); 0
	// is lock-step (the next turn as soon as the active bot has
	// answered, bounded by Deadline, --lockstep-deadline); negative is
	// the protocol's default.
	ThinkTime, Deadline time.Duration
	// Games is how many games to play before returning (--games; 0:
	// until ctx ends).
	Games int
	// MaxConnsPerIP bounds the connections one address may hold
	// (--max-conns-per-ip; 0: no bound).
	MaxConnsPerIP int
	// AdminPassword is the master admin password of a protocol with
	// admin actions ("" disables them); the command reads it from the
	// environment, never from a flag.
	AdminPassword string
	// Flags, when set, is the parsed command line the options come
	// from: a Flagged protocol reads its own flags there. Nil (a server
	// started from Go) means every flag of the protocol at its default.
	Flags *pflag.FlagSet
	// Tool goes into every recording's header.
	Tool string
	// Log receives one line per event worth telling the operator
	// (a bot joined, a game started); a game's end is told to Live
	// (Live.Ended), the same for every protocol.
	Log io.Writer
	// Ready, when set, is called once the server listens, with the
	// addresses it listens on (name → host:port: "players",
	// "observer", …).
	Ready func(addrs map[string]string)
	// Live, when set, is told of every game as it is recorded (Start,
	// then Round after each round written and flushed, Finish once the
	// file is whole), so that a viewer can follow it.
	Live *Live
}

// Protocol is a game's network protocol server.
type Protocol interface {
	// DefaultAddr is the address bots connect to by default.
	DefaultAddr() string
	// Serve runs the server until ctx ends or Options.Games games are
	// played, recording every game; a game in progress when ctx ends is
	// ended at its last whole turn and its recording kept.
	Serve(ctx context.Context, o Options) error
}

// Flagged is a Protocol with settings of its own beyond Options, given
// on `rewind server`'s command line: the command declares them beside
// the flags every game shares (the ones Options' fields name) and
// refuses them with another game's --game. A flag name belongs to one
// protocol (the first, in id order, that declares it: a later one
// declaring the same name reads the first's flag).
type Flagged interface {
	Protocol
	// AddFlags declares the protocol's own flags on fs, each with its
	// default and usage, and, for a flag of fixed values, those values
	// as its FlagChoices annotation (shell completion offers them). The
	// protocol reads the parsed values back from Options.Flags.
	AddFlags(fs *pflag.FlagSet)
}

// FlagChoices is the pflag annotation key under which a Flagged
// protocol lists a flag's fixed values.
const FlagChoices = "rewind-choices"

// Mounted is a Protocol spoken over HTTP, served on one address beside
// the viewer: `rewind server` listens on Options.Addr, routes the
// requests the Mount owns to it and every other one to the viewer (the
// library of Options.Dir and the games of Options.Live). Serve still
// runs the protocol alone.
type Mounted interface {
	Protocol
	// Mount opens the protocol's server for o without listening: it
	// checks o (an error names the flag at fault), recovers what a crash
	// left in o.Dir, and reports every game to o.Live.
	Mount(o Options) (Mount, error)
}

// Mount is a Mounted protocol's server, opened (Mounted.Mount).
type Mount interface {
	// ServeHTTP serves the requests Owns reports as the protocol's.
	http.Handler
	// Owns reports whether r is for one of the protocol's paths
	// (whatever its method).
	Owns(r *http.Request) bool
	// Banner is what the operator is told, in lines, once the server
	// listens at base ("http://host:port"): where bots connect.
	Banner(base string) string
	// Close ends every game at its last whole round, with its recording
	// kept, and closes every connection of the protocol.
	Close() error
	// Done is closed once the server has played Options.Games games;
	// nil for a server that plays until it is closed (Games 0, or a
	// protocol whose rooms do not count games: the command then refuses
	// --games).
	Done() <-chan struct{}
}

// Described is a Protocol that says, in a paragraph of `rewind server`'s
// help, what it serves and how; without it the help says where its
// bots connect by default.
type Described interface {
	Describe() string
}

// Lookup returns the protocol of game: its registration's Protocol
// (engine.Registration), when that is a Protocol.
func Lookup(game string) (Protocol, bool) {
	g, ok := engine.About(game)
	if !ok {
		return nil, false
	}
	p, ok := g.Protocol.(Protocol)
	return p, ok
}

// Games lists the registered games that have a Protocol, in id order.
func Games() []string {
	var out []string
	for _, id := range engine.IDs() {
		if _, ok := Lookup(id); ok {
			out = append(out, id)
		}
	}
	return out
}
