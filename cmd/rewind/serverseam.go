package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/engine/rulesets"
	"github.com/rewind-game/rewind/server/protocols"
	_ "github.com/rewind-game/rewind/server/protocols/all" // every game's protocol registers itself
)

// protocolGames lists the games rewind server speaks the protocol of:
// ColorfightII and every game of server/protocols.
func protocolGames() string {
	return strings.Join(append([]string{rulesets.Default}, protocols.Games()...), ", ")
}

// protocolList names the games other than ColorfightII whose protocol
// rewind server speaks, with their default addresses.
func protocolList() string {
	var parts []string
	for _, g := range protocols.Games() {
		p, _ := protocols.Lookup(g)
		parts = append(parts, fmt.Sprintf("%s, bots on %s by default", g, p.DefaultAddr()))
	}
	if len(parts) == 0 {
		return "none registered"
	}
	return strings.Join(parts, "; ")
}

// runProtocolServer runs the protocol server of a game played through the
// seam (server/protocols), with the flags that apply to any game: --addr
// (when given), --dir, --bot, --max-player, --max-turn, --round-time (the
// think time, 0 lock-step), --lockstep-deadline, --max-conns-per-ip,
// --seed, --map and --games. ColorfightII's other flags are refused.
func runProtocolServer(ctx context.Context, cmd *cobra.Command, opts *serverOptions) error {
	info, err := gameInfo(opts.game)
	if err != nil {
		return err
	}
	p, ok := protocols.Lookup(opts.game)
	if !ok {
		return fmt.Errorf("server: rewind speaks no official protocol of %s (games: %s)", info.Name, protocolGames())
	}
	fl := cmd.Flags()
	for _, name := range []string{"room", "preset", "wait-for", "first-round-time", "finish-time", "replay", "max-games-per-hour", "lockstep-misses", "max-disk", "disk-full"} {
		if fl.Changed(name) {
			return fmt.Errorf("server: --%s is a ColorfightII setting; %s has none", name, info.Name)
		}
	}
	for _, b := range opts.bots {
		if _, ok := info.FindBot(b); !ok {
			return fmt.Errorf("server: --bot %q: no such built-in bot of %s (valid: %s)", b, info.Name, strings.Join(botNames(info), ", "))
		}
	}
	o := protocols.Options{Dir: opts.dir, Bots: opts.bots, Players: opts.players, MaxTurns: opts.maxTurn, Seed: opts.seed,
		ThinkTime: -1, Deadline: opts.deadline, Games: opts.games, MaxConnsPerIP: opts.maxConns, Tool: "rewind " + version, Log: opts.stderr}
	if fl.Changed("addr") {
		o.Addr = opts.addr
	}
	if opts.players != 0 && (opts.players < info.MinPlayers || opts.players > info.MaxPlayers) {
		return fmt.Errorf("server: --max-player %d is outside %d..%d for %s", opts.players, info.MinPlayers, info.MaxPlayers, info.Name)
	}
	if opts.maxTurn != 0 && (opts.maxTurn < info.MinTurns || opts.maxTurn > info.MaxTurns) {
		return fmt.Errorf("server: --max-turn %d is outside %d..%d for %s", opts.maxTurn, info.MinTurns, info.MaxTurns, info.Name)
	}
	if fl.Changed("round-time") {
		secs := parseSeconds(opts.round)
		if !(secs >= 0 && secs <= 60) {
			return fmt.Errorf("server: --round-time %q: give seconds, 0..60 (0: lock-step)", opts.round)
		}
		o.ThinkTime = time.Duration(secs * float64(time.Second))
	}
	if opts.games < 0 {
		return fmt.Errorf("server: --games %d is negative (0: until Ctrl-C)", opts.games)
	}
	if opts.mapFile != "" {
		po := playOptions{game: opts.game, mapFile: opts.mapFile, seed: opts.seed}
		players := opts.players
		if players == 0 {
			players = info.MinPlayers
		}
		setup, err := seamSetup(&po, players)
		if err != nil {
			return fmt.Errorf("server: %w", err)
		}
		o.Setup = setup
	}
	if err := os.MkdirAll(opts.dir, 0o755); err != nil {
		return plainError(err)
	}
	if opts.ready != nil {
		o.Ready = func(addrs map[string]string) { opts.ready <- addrs["players"] }
	}
	return p.Serve(ctx, o)
}
