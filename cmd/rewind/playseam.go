package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/bot/subprocess"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/engine/rulesets"
	"github.com/rewind-game/rewind/replay/recording"
)

// botNames lists the built-in bots of a game played through the seam.
func botNames(info rulesets.Info) []string {
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
	for _, id := range rulesets.IDs() {
		info, _ := rulesets.About(id)
		names := botNames(info)
		parts = append(parts, info.Name+": "+strings.Join(names, ", "))
	}
	return strings.Join(parts, "; ")
}

// turnRanges lists each game's turn limits for --turns' help.
func turnRanges() string {
	var parts []string
	for _, id := range rulesets.IDs() {
		info, _ := rulesets.About(id)
		parts = append(parts, fmt.Sprintf("%s %d..%d, default %d", id, info.MinTurns, info.MaxTurns, info.DefaultTurns))
	}
	return strings.Join(parts, "; ")
}

// outStatus words a player's status in play's table.
var outStatus = map[engine.Fault]string{0: "playing", engine.FaultTimeout: "timed out", engine.FaultCrash: "crashed"}

// defaultBots are the built-ins a match of info seats when it names none:
// the first DefaultPlayers (or MaxPlayers) of its Bots.
func defaultBots(info rulesets.Info) []string {
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
	info, _ := rulesets.About(opts.game)
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
		r, _ := rulesets.Get(opts.game)
		setup, err := r.(engine.Optioner).SetupFromOptions(opts.options, opts.seed, players)
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", strings.Join(opts.options, ", --"), err)
		}
		return setup, nil
	}
	if opts.mapFile == "" {
		return nil, nil
	}
	r, _ := rulesets.Get(opts.game)
	mr, ok := r.(engine.MapReader)
	if !ok {
		return nil, fmt.Errorf("--map: %s is not played on map files", opts.game)
	}
	data, err := readBounded(opts.mapFile, 16<<20)
	if err != nil {
		return nil, fmt.Errorf("--map: %w", err)
	}
	setup, err := mr.SetupFromMap(data, opts.seed, players)
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

// runPlaySeam is runPlay for a game played through the seam.
func runPlaySeam(ctx context.Context, opts *playOptions) (*match.SeamResult, error) {
	info, err := gameInfo(opts.game)
	if err != nil {
		return nil, err
	}
	rs, _ := rulesets.Get(opts.game)
	specs := opts.bots
	if len(specs) == 0 {
		specs = defaultBots(info)
	}
	if err := checkBotSpecs(specs, opts.game); err != nil {
		return nil, err
	}
	if err := checkSeats(opts.game, len(specs)); err != nil {
		return nil, err
	}
	if err := checkPlaySettings(opts); err != nil {
		return nil, err
	}
	if err := checkOutput(opts.out, opts.force); err != nil {
		return nil, err
	}
	setup, err := seamSetup(opts, len(specs))
	if err != nil {
		return nil, err
	}
	var seats []match.GameSeat
	for i, s := range specs {
		seat, err := newSeamSeat(s, i, opts, "")
		if err != nil {
			for _, st := range seats {
				st.Bot.Close()
			}
			return nil, err
		}
		seats = append(seats, seat)
	}
	var res *match.SeamResult
	var bar *progressbar.ProgressBar
	ran := false
	err = writeOutput(opts.out, opts.force, func(w io.Writer) error {
		gc := match.GameConfig{Ruleset: rs, Seed: opts.seed, Setup: setup, MaxTurns: opts.turns, Seats: seats,
			Recorder: recording.NewSeam(w, time.Now(), "rewind "+version)}
		if opts.progress {
			bar = turnsBar(opts.stderr, opts.turns)
			gc.Progress = func(turn int) { bar.Set(turn) }
		}
		ran = true
		var err error
		res, err = match.RunGame(ctx, gc)
		return err
	})
	if bar != nil {
		bar.Finish()
	}
	if !ran {
		for _, st := range seats {
			st.Bot.Close()
		}
	}
	if err != nil {
		return nil, err
	}
	tw := tabwriter.NewWriter(opts.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "rank\tplayer\tname\tbot")
	for _, m := range res.Metrics {
		fmt.Fprintf(tw, "\t%s", m.Name)
	}
	fmt.Fprint(tw, "\terrors\tfaults")
	// A status column when some player left the game for good
	// (engine.Retirer).
	status := slices.ContainsFunc(res.Players, func(p match.SeamPlayerResult) bool { return p.Out != 0 })
	if status {
		fmt.Fprint(tw, "\tstatus")
	}
	fmt.Fprintln(tw)
	for i, p := range res.Ranking {
		pr := res.Players[p]
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s", i+1, pr.Player, pr.Name, pr.Identity)
		for _, v := range pr.Values {
			fmt.Fprintf(tw, "\t%d", v)
		}
		fmt.Fprintf(tw, "\t%d\t%d", pr.Errors, pr.Faults)
		if status {
			fmt.Fprintf(tw, "\t%s", outStatus[pr.Out])
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	abs, _ := filepath.Abs(opts.out)
	if res.Interrupted {
		fmt.Fprintf(opts.stdout, "interrupted at turn %d; ", res.Turn)
	}
	fmt.Fprintf(opts.stdout, "replay: %s (%s, %d %s)\n", abs, opts.game, res.Turn, info.Round)
	return res, nil
}

// addOptionFlags adds a boolean flag for every option of every registered
// game (engine.Optioner): `--uniform` for Monad's. Two games with an
// option of one name share its flag.
func addOptionFlags(cmd *cobra.Command) {
	for _, o := range allOptions() {
		cmd.Flags().Bool(o.Name, false, o.Doc)
	}
}

// gameOptions lists game's options (engine.Optioner); none for a game
// without, or not registered.
func gameOptions(game string) []engine.Option {
	r, _ := rulesets.Get(game)
	if op, ok := r.(engine.Optioner); ok {
		return op.Options()
	}
	return nil
}

// hasOption reports whether game has the option called name.
func hasOption(game, name string) bool {
	return slices.ContainsFunc(gameOptions(game), func(o engine.Option) bool { return o.Name == name })
}

// allOptions lists the options of every registered game, each name once,
// in the registry's order.
func allOptions() []engine.Option {
	var out []engine.Option
	for _, id := range rulesets.IDs() {
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
	if _, err := rulesets.Get(game); err != nil {
		return fmt.Errorf("--game: %w", err)
	}
	for _, name := range set {
		if hasOption(game, name) {
			continue
		}
		var of []string
		for _, id := range rulesets.IDs() {
			if hasOption(id, name) {
				of = append(of, id)
			}
		}
		return fmt.Errorf("--%s is an option of %s, not of %s", name, strings.Join(of, ", "), game)
	}
	return nil
}
