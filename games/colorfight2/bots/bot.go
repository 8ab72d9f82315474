// Package bot holds ColorfightII's built-in strategies: the Bot interface
// they implement, asked for a player's commands with the game's frame,
// and their registry (Builtin by name; Builtins, each a Bot played
// through the seam, for the ruleset registry). A bot outside the process
// is package subprocess's.
//
// # Contracts
//
// A Bot plays one player of one game. Its caller (Builtins' strategy)
// calls Start once, then Commands once per round with the frame the round
// starts from (never for the command-less round 0 -> 1), then Close. Calls
// are never concurrent.
//
//   - Determinism: a bot's commands must be a function of the uid and seed
//     given to Start and of the frames it has been shown. Built-ins draw
//     randomness only from engine/rng seeded with that seed; they never use
//     math/rand, the clock, goroutines or map iteration order.
//   - Frames: Commands must not retain or modify the frame it is given.
//   - Commands: the returned strings are parsed with colorfight2.ParseCommand
//     and applied like anyone's; a failing command costs its sender nothing
//     but an error. The built-ins reuse the returned slice (not the strings)
//     on their next Commands call, so the caller must consume it before
//     asking again. A nil slice means "no commands".
//   - Errors: an error from Start or Commands means the bot is broken (the
//     built-ins never return one); what the runner does then is its policy.
//   - Horizon: frames do not carry max_turn, so built-ins plan as if a game
//     lasts colorfight2.DefaultMaxTurn rounds; longer games still play fine.
//
// Built-ins handle every state a player can be in: dead (no cells: no
// commands), homeless (tech level 0: rebuild a Home when they hold 1000
// gold), negative energy or gold, and any map size the engine accepts. They
// keep their per-round work proportional to the map and reuse their buffers,
// so a round costs one small allocation for the command text.
package bots

import (
	"fmt"
	"strings"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// Bot decides one player's commands each round.
type Bot interface {
	// Name identifies the strategy (e.g. "greedy").
	Name() string
	// Start is called once before the first round with the player's uid
	// and a seed derived from the match seed; a bot must be deterministic
	// given these.
	Start(uid int, seed uint64) error
	// Commands returns the commands for the round that follows frame f
	// (f.Turn is the current turn). f must not be retained or modified.
	// Returned strings go through colorfight2.ParseCommand like anyone's.
	Commands(f *colorfight2.Frame) ([]string, error)
	// Close releases resources (no-op for built-ins).
	Close() error
}

// builtins lists the built-in strategies, sorted by name.
var builtins = []struct {
	name string
	new  func() Bot
}{
	{"economist", func() Bot { return &economist{} }},
	{"greedy", func() Bot { return &greedy{} }},
	{"raider", func() Bot { return &raider{} }},
	{"random", func() Bot { return &randomBot{} }},
	{"runtimeterrors", func() Bot { return &runtimeTerrors{} }},
	{"turtle", func() Bot { return &turtle{} }},
}

// Builtin returns a fresh instance of the built-in strategy called name.
// The error for an unknown name lists the valid ones.
func Builtin(name string) (Bot, error) {
	for _, b := range builtins {
		if b.name == name {
			return b.new(), nil
		}
	}
	return nil, fmt.Errorf("bot: unknown built-in %q (valid: %s)", name, strings.Join(BuiltinNames(), ", "))
}

// BuiltinNames returns the names of the built-in strategies, sorted.
func BuiltinNames() []string {
	names := make([]string, len(builtins))
	for i, b := range builtins {
		names[i] = b.name
	}
	return names
}
