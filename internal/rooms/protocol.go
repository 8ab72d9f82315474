// Package rooms is the room engine's adapter API for the games' own
// network protocols, which `rewind server --game ID` runs: a game's
// protocol lives in its own package (games/<id>/protocol), implements
// Protocol and is its Registration's Protocol (engine.Registration).
package rooms

import (
	"context"
	"io"
	"time"

	"github.com/rewind-game/rewind/engine"
)

// Options configure one run of a protocol server. The command fills them
// from its flags; zero values pick the protocol's defaults.
type Options struct {
	// Addr is the address bots connect to (host:port); "" is the
	// protocol's default (Protocol.DefaultAddr). Port 0 picks a free one.
	Addr string
	// Dir is the folder every game is recorded in as a .rwd (created if
	// missing).
	Dir string
	// Bots are built-in bots (the game's registered strategies) seated
	// beside the bots that connect; Players the seats of a game (0: the
	// protocol's default).
	Bots    []string
	Players int
	// MaxTurns is the turn limit (0: the game's default); Seed draws what
	// the game leaves to chance; Setup, when set, is the game's setup (a
	// map file: engine.MapReader).
	MaxTurns int
	Seed     uint64
	Setup    []byte
	// ThinkTime is how long a bot may think per turn; 0 is lock-step
	// (the next turn as soon as the active bot has answered, bounded by
	// Deadline); negative is the protocol's default.
	ThinkTime, Deadline time.Duration
	// Games is how many games to play before returning (0: until ctx
	// ends).
	Games int
	// MaxConnsPerIP bounds the connections one address may hold (0: no
	// bound).
	MaxConnsPerIP int
	// Tool goes into every recording's header.
	Tool string
	// Log receives one line per event worth telling the operator
	// (a bot joined, a game started, where it was recorded).
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
