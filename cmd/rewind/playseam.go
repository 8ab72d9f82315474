package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/subprocess"
)

// botNames lists the built-in bots of a game played through the seam.
func botNames(info engine.Registration) []string {
	var out []string
	for _, b := range info.Bots {
		out = append(out, b.Name)
	}
	return out
}

// builtinList lists each game's built-in bots for play's help
// ("ColorfightII: a, b; Monad: c, d; …").
func builtinList() string {
	var parts []string
	for _, id := range engine.IDs() {
		info, _ := engine.About(id)
		names := botNames(info)
		parts = append(parts, info.Name+": "+strings.Join(names, ", "))
	}
	return strings.Join(parts, "; ")
}

// turnRanges lists each game's turn limits for --turns' help.
func turnRanges() string {
	var parts []string
	for _, id := range engine.IDs() {
		info, _ := engine.About(id)
		parts = append(parts, fmt.Sprintf("%s %d..%d, default %d", id, info.MinTurns, info.MaxTurns, info.DefaultTurns))
	}
	return strings.Join(parts, "; ")
}

// outStatus words a player's status in play's table.
var outStatus = map[engine.Fault]string{0: "playing", engine.FaultTimeout: "timed out", engine.FaultCrash: "crashed"}

// defaultBots are the built-ins a match of info seats when it names none:
// the first DefaultPlayers (or MaxPlayers) of its Bots.
func defaultBots(info engine.Registration) []string {
	specs := botNames(info)
	n := info.DefaultPlayers
	if n <= 0 {
		n = info.MaxPlayers
	}
	return specs[:min(n, len(specs))]
}

// newSeamSeat makes the seat for one --bot value of a game played through
// the seam (player is 0-based; logName as for newSeatLog).
func newSeamSeat(spec string, player int, opts *playOptions, logName string) (match.GameSeat, error) {
	info, _ := engine.About(opts.game)
	if b, ok := info.FindBot(spec); ok {
		return match.GameSeat{Bot: match.BuiltinPlayer(b)}, nil
	}
	if err := checkBotSpec(spec, botNames(info)); err != nil {
		return match.GameSeat{}, err
	}
	log, err := botLogPath(player+1, opts, logName)
	if err != nil {
		return match.GameSeat{}, err
	}
	game := opts.game
	if info.OwnProtocol {
		game = ""
	}
	b, err := subprocess.New(spec, subprocess.Options{Game: game, Deadline: opts.deadline, StderrLog: log, MaxTurn: opts.turns})
	if err != nil {
		return match.GameSeat{}, fmt.Errorf("--bot %q: %w", spec, err)
	}
	return match.GameSeat{Bot: b.Player(), Identity: spec, Name: fmt.Sprintf("%d_%s", player+1, shortName(spec))}, nil
}

// seamSetup reads --map or the options set for a game played through the
// seam: the setup its ruleset starts from (nil with neither).
func seamSetup(opts *playOptions, players int) ([]byte, error) {
	if len(opts.options) > 0 {
		if opts.mapFile != "" {
			return nil, fmt.Errorf("--map and --%s: a game on a map file takes no options", opts.options[0])
		}
		reg, _ := engine.About(opts.game)
		if reg.SetupFromOptions == nil {
			return nil, fmt.Errorf("--%s: %s has no options", opts.options[0], opts.game)
		}
		setup, err := reg.SetupFromOptions(opts.options, opts.seed, players)
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", strings.Join(opts.options, ", --"), err)
		}
		return setup, nil
	}
	if opts.mapFile == "" {
		return nil, nil
	}
	reg, _ := engine.About(opts.game)
	if reg.SetupFromMap == nil {
		return nil, fmt.Errorf("--map: %s is not played on map files", opts.game)
	}
	data, err := readBounded(opts.mapFile, 16<<20)
	if err != nil {
		return nil, fmt.Errorf("--map: %w", err)
	}
	setup, err := reg.SetupFromMap(data, opts.seed, players)
	if err != nil {
		return nil, fmt.Errorf("--map %s: %w", opts.mapFile, err)
	}
	return setup, nil
}

// readBounded reads a whole file of at most limit bytes.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return data, nil
}

// addOptionFlags adds a boolean flag for every option of every registered
// game (engine.Registration.Options): `--uniform` for Monad's. Two games with an
// option of one name share its flag.
func addOptionFlags(cmd *cobra.Command) {
	for _, o := range allOptions() {
		cmd.Flags().Bool(o.Name, false, o.Doc)
	}
}

// gameOptions lists game's options (engine.Registration.Options); none
// for a game without, or not registered.
func gameOptions(game string) []engine.Option {
	reg, _ := engine.About(game)
	return reg.Options
}

// hasOption reports whether game has the option called name.
func hasOption(game, name string) bool {
	return slices.ContainsFunc(gameOptions(game), func(o engine.Option) bool { return o.Name == name })
}

// allOptions lists the options of every registered game, each name once,
// in the registry's order.
func allOptions() []engine.Option {
	var out []engine.Option
	for _, id := range engine.IDs() {
		for _, o := range gameOptions(id) {
			if !slices.ContainsFunc(out, func(p engine.Option) bool { return p.Name == o.Name }) {
				out = append(out, o)
			}
		}
	}
	return out
}

// optionsSet returns the names of the option flags cmd was given on.
func optionsSet(cmd *cobra.Command) []string {
	var set []string
	for _, o := range allOptions() {
		if on, err := cmd.Flags().GetBool(o.Name); err == nil && on {
			set = append(set, o.Name)
		}
	}
	return set
}

// checkOptions checks that every option set is one of game's.
func checkOptions(game string, set []string) error {
	if len(set) == 0 {
		return nil
	}
	if _, err := engine.Get(game); err != nil {
		return fmt.Errorf("--game: %w", err)
	}
	for _, name := range set {
		if hasOption(game, name) {
			continue
		}
		var of []string
		for _, id := range engine.IDs() {
			if hasOption(id, name) {
				of = append(of, id)
			}
		}
		return fmt.Errorf("--%s is an option of %s, not of %s", name, strings.Join(of, ", "), game)
	}
	return nil
}
