package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/subprocess"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
)

type playOptions struct {
	game     string   // a rulesets id; "" is engine.Default()
	options  []string // the game's options set (engine.Registration.Options), by name
	mapFile  string   // a map file, for a game played on map files (engine.Registration.SetupFromMap)
	bots     []string
	turns    int
	seed     uint64
	out      string
	force    bool // replace an existing output file
	deadline time.Duration
	logDir   string
	// logBudget, when set, bounds the external bots' stderr logs of
	// every game played with these options together (--max-logs).
	logBudget *subprocess.LogBudget
	stdout    io.Writer
	stderr    io.Writer
	progress  bool // draw a progress bar (on a terminal)
}

func newPlayCmd() *cobra.Command {
	opts := &playOptions{}
	cmd := &cobra.Command{
		Use:   "play [--bot NAME|COMMAND]... [--turns N] [--seed S] -o game.rwd",
		Short: "Play one match and record it",
		Long: `play runs one match of a game (--game: ` + gameList() + `; ` + defaultGame() + ` by
default) and records it as a .rwd replay.

Each --bot is either a built-in strategy of the game (` + builtinList() + `) or the
command line of an external bot speaking the protocol of
docs/bot-protocol.md, e.g. --bot "python3 examples/bots/python/bot.py".
With no --bot, the game's default built-ins play. --turns defaults to the
game's own limit; a game may end earlier, by its own rules. On a terminal a
progress bar shows the rounds; at the end play prints the ranking. Ctrl-C,
SIGTERM or SIGHUP end the match cleanly: the replay is finished at the last
whole round. The replay keeps what each external bot wrote to stderr while
it was asked for a round, and the viewer shows it under the bot's commands.`,
		Example: `  rewind play -o game.rwd
  rewind play --bot greedy --bot "python3 examples/bots/python/bot.py" -o mine.rwd
  rewind play --game ID --bot NAME --bot NAME --seed 7 -o game.rwd   # another game: ID and its built-ins as rewind play --help lists them`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.stdout, opts.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			if f, ok := opts.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				opts.progress = true
			}
			if err := checkDeadlineFlag(opts.deadline); err != nil {
				return err
			}
			if err := gameDefaults(cmd, &opts.turns, opts.game); err != nil {
				return err
			}
			opts.options = optionsSet(cmd)
			ctx, stop := interruptContext(cmd.Context())
			defer stop()
			_, err := runPlay(ctx, opts)
			return err
		},
	}
	cmd.Flags().StringVar(&opts.game, "game", engine.Default(), "the game: "+gameList())
	addOptionFlags(cmd)
	cmd.Flags().StringVar(&opts.mapFile, "map", "", "a map file, for a game played on map files")
	cmd.Flags().StringArrayVar(&opts.bots, "bot", nil, "a player: built-in name or external command (repeat, 2 to 8)")
	cmd.Flags().IntVar(&opts.turns, "turns", defaultInfo().DefaultTurns, "rounds to play (each game's range: "+turnRanges()+")")
	cmd.Flags().Uint64Var(&opts.seed, "seed", 42, "map and bot seed")
	cmd.Flags().StringVarP(&opts.out, "output", "o", "game.rwd", "replay file to write")
	cmd.Flags().BoolVar(&opts.force, "force", false, "replace the output file if it exists")
	deadlineFlag(cmd.Flags(), &opts.deadline)
	cmd.Flags().StringVar(&opts.logDir, "log-dir", "", "directory for external bots' stderr logs (default: beside the replay)")
	return cmd
}

// watchedSeat makes the seat for one --bot value of opts.game
// (newSeat) for player (0-based); an external bot is watched, and its
// watch returned (nil for a built-in).
func watchedSeat(spec string, player int, opts *playOptions, logName string) (match.GameSeat, *watch, error) {
	seat, err := newSeat(spec, player, opts, logName)
	if err != nil {
		return seat, nil, err
	}
	p, ok := seat.Bot.(*subprocess.Player)
	if !ok {
		return seat, nil, nil
	}
	log, _ := botLogPath(player+1, opts, logName) // made by newSeat
	wb := &watch{spec: spec, log: log}
	seat.Bot = &watchedPlayer{Player: p, watch: wb}
	return seat, wb, nil
}

// checkBotSpec checks a --bot value that is not one of builtins: it must
// look like a command (a space, a slash or a dot: "python3 bot.py",
// "./bot"); a bare word is a misspelt built-in, named in the error.
func checkBotSpec(spec string, builtins []string) error {
	if strings.TrimSpace(spec) == "" {
		return usagef("--bot is empty: give a built-in (%s) or a command", strings.Join(builtins, ", "))
	}
	if !strings.ContainsAny(spec, " /.") {
		return usagef("--bot %q: no such built-in bot (valid: %s), and not a command (an external bot is a command line such as \"python3 mybot.py\" or \"./mybot\")%s", spec, strings.Join(builtins, ", "), didYouMean(spec, builtins))
	}
	if err := subprocess.CheckCommand(spec); err != nil {
		return botCommandError(spec, err)
	}
	return nil
}

// botCommandError is the error of a --bot command that cannot be run
// (subprocess.New's or CheckCommand's err): a usage error saying what to
// type instead.
func botCommandError(spec string, err error) error {
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return usagef("--bot %q: %w: check its spelling, or give the program's path (such as ./mybot or /usr/bin/python3)", spec, err)
	}
	return usagef("--bot %q: %w", spec, err)
}

// checkBotSpecs checks every --bot value of a game (a built-in of it or
// a command) before the seats are counted, so a misspelt name is named.
func checkBotSpecs(specs []string, game string) error {
	if game == "" {
		game = engine.Default()
	}
	info, _ := engine.About(game)
	names := botNames(info)
	for _, s := range specs {
		if slices.Contains(names, s) {
			continue
		}
		if err := checkBotSpec(s, names); err != nil {
			return err
		}
	}
	return nil
}

// runPlay plays a match of opts.game (engine.Default() for "") and prints
// its table. An external bot that dies before it
// answers its first round stops the match and nothing is recorded; one
// that faulted on every round it was asked fails play, the replay kept.
func runPlay(ctx context.Context, opts *playOptions) (*match.Result, error) {
	if opts.game == "" {
		opts.game = engine.Default()
	}
	info, err := gameInfo(opts.game)
	if err != nil {
		return nil, err
	}
	rs, _ := engine.Get(opts.game)
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
	// Everything is checked before a bot starts or a file is touched: a
	// bad setting never costs an existing replay.
	if err := checkOutput(opts.out, opts.force); err != nil {
		return nil, err
	}
	setup, err := gameSetup(opts, len(specs))
	if err != nil {
		return nil, err
	}
	var seats []match.GameSeat
	var watched []*watch // external bots, by seat
	for i, s := range specs {
		seat, wb, err := watchedSeat(s, i, opts, "")
		if err != nil {
			for _, st := range seats {
				st.Bot.Close()
			}
			return nil, err
		}
		seats = append(seats, seat)
		watched = append(watched, wb)
	}
	var res *match.Result
	var bar *progressbar.ProgressBar
	ran := false // match.RunGame closes the bots; if it never ran, close them here
	// dead is the first external bot gone before answering a round: the
	// match stops at once and records nothing.
	dead := -1
	// everyRound is the error of an external bot that faulted on every
	// round it was asked (the replay is kept).
	var everyRound error
	matchCtx, stopMatch := context.WithCancel(ctx)
	defer stopMatch()
	err = writeRecording(opts.out, opts.force, func(w io.Writer) error {
		gc := match.GameConfig{Ruleset: rs, Seed: opts.seed, Setup: setup, MaxTurns: opts.turns, Seats: seats,
			Recorder: recording.NewRecorder(w, time.Now(), "rewind "+version)}
		if opts.progress {
			bar = turnsBar(opts.stderr, opts.turns)
		}
		gc.Progress = func(turn int) {
			if bar != nil {
				bar.Set(turn)
			}
			for i, wb := range watched {
				if dead < 0 && wb != nil && wb.diedUnanswered() {
					dead = i
					stopMatch()
				}
			}
		}
		var err error
		ran = true
		res, err = match.RunGame(matchCtx, gc)
		if err != nil {
			return err
		}
		if dead >= 0 {
			wb := watched[dead]
			return fmt.Errorf("--bot %q (player %d) stopped before answering its first %s: %v; nothing recorded\n%s",
				wb.spec, engine.Seat(dead), strings.TrimSuffix(info.Round, "s"), wb.firstFault(), wb.stderrTail(stderrTailLines))
		}
		// A bot that faulted on every round it was asked never played:
		// the replay is kept (each round records the fault) and play fails.
		if asked := res.Turn - 1; asked > 0 && !res.Interrupted {
			for i, p := range res.Players {
				if p.Faults == asked && watched[i] != nil {
					wb := watched[i]
					everyRound = fmt.Errorf("--bot %q (player %d) failed every one of its %d %s (first: %v); the replay records each fault: %s\n%s",
						wb.spec, engine.Seat(i), asked, info.Round, wb.firstFault(), opts.out, wb.stderrTail(stderrTailLines))
					break
				}
			}
		}
		return nil
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
	if everyRound != nil {
		return nil, everyRound
	}
	printRanking(opts.stdout, res)
	for i, p := range res.Players {
		if wb := watched[i]; wb != nil && p.Faults > 0 && wb.firstFault() != nil {
			fmt.Fprintf(opts.stdout, "player %d (%s) faulted %d %s; first: %v\n%s\n", engine.Seat(p.Player), wb.spec, p.Faults, info.Round, wb.firstFault(), wb.stderrTail(stderrTailLines))
		}
	}
	abs, _ := filepath.Abs(opts.out)
	if res.Interrupted {
		fmt.Fprintf(opts.stdout, "interrupted at turn %d; ", res.Turn)
	}
	fmt.Fprintf(opts.stdout, "replay: %s (%s, %d %s)\n", abs, rs.ID(), res.Turn, info.Round)
	return res, nil
}

// stderrTailLines is how much of a failed bot's stderr play shows.
const stderrTailLines = 10

// checkPlaySettings checks the settings of a match (game, turns,
// deadline) against the ranges their flags' help states.
func checkPlaySettings(opts *playOptions) error {
	info, err := gameInfo(opts.game)
	if err != nil {
		return err
	}
	if err := checkOptions(opts.game, opts.options); err != nil {
		return err
	}
	if opts.mapFile != "" && info.SetupFromMap == nil {
		return usagef("--map: %s is not played on map files", info.Name)
	}
	if opts.turns < info.MinTurns || opts.turns > info.MaxTurns {
		return outsideRange("--turns", opts.turns, info.MinTurns, info.MaxTurns, info.Name)
	}
	return checkDeadline(opts.deadline)
}

// gameInfo returns what the registry knows about --game (engine.Default()
// for ""), or the registry's error for a game it does not know.
func gameInfo(game string) (engine.Registration, error) {
	if game == "" {
		game = engine.Default()
	}
	if _, err := engine.Get(game); err != nil {
		return engine.Registration{}, usagef("--game: %w", err)
	}
	info, _ := engine.About(game)
	return info, nil
}

// checkSeats checks that a match of game seats n players.
func checkSeats(game string, n int) error {
	info, err := gameInfo(game)
	if err != nil {
		return err
	}
	if n < info.MinPlayers || n > info.MaxPlayers {
		return usagef("a %s match needs %d to %d --bot, got %d: give one --bot NAME|COMMAND per seat, such as --bot %s (built-ins: %s)", info.Name, info.MinPlayers, info.MaxPlayers, n, strings.Join(defaultBots(info)[:min(info.MinPlayers, len(defaultBots(info)))], " --bot "), strings.Join(botNames(info), ", "))
	}
	return nil
}

// gameList lists the registered games for --game's help.
// defaultInfo is the registry's Info of the default game
// (engine.Default()), whose settings play's and tournament's flags
// default to.
func defaultInfo() engine.Registration {
	info, _ := engine.About(engine.Default())
	return info
}

func gameList() string {
	return strings.Join(engine.IDs(), ", ")
}

// checkDeadline checks --deadline. The flag must be greater than 0; a
// caller that builds playOptions itself may leave it 0 for the default,
// so runPlay refuses only negative values and the commands check the flag
// with checkDeadlineFlag.
func checkDeadline(d time.Duration) error {
	if d < 0 {
		return usagef("--deadline %v must be greater than 0", d)
	}
	return nil
}

// deadlineFlag declares --deadline, the per-round answer deadline of
// external bots, into d; checkDeadlineFlag checks it.
func deadlineFlag(f *pflag.FlagSet, d *time.Duration) {
	f.DurationVar(d, "deadline", time.Second, "per-round answer deadline for external bots (greater than 0)")
}

// playOnRunE is the RunE of the commands that play on from a replay
// (fork, rerun): the replay's path, args[0], goes to in, play's output to
// the command's writers; --deadline is checked, and run is called under a
// context that Ctrl-C cancels.
func playOnRunE(in *string, play *playOptions, run func(ctx context.Context) error) func(cmd *cobra.Command, args []string) error {
	return func(cmd *cobra.Command, args []string) error {
		*in = args[0]
		play.stdout, play.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
		if err := checkDeadlineFlag(play.deadline); err != nil {
			return err
		}
		ctx, stop := interruptContext(cmd.Context())
		defer stop()
		return run(ctx)
	}
}

// checkDeadlineFlag checks the --deadline flag's value: greater than 0.
func checkDeadlineFlag(d time.Duration) error {
	if d <= 0 {
		return usagef("--deadline %v must be greater than 0", d)
	}
	return nil
}

// printRanking prints a match's result, best first: each player's
// seat (engine.Seat), name, bot, final value of every
// metric, errors and faults, and a status column when a player left the
// game for good (engine.Attendance).
func printRanking(w io.Writer, res *match.Result) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "rank\tseat\tname\tbot")
	for _, m := range res.Metrics {
		fmt.Fprintf(tw, "\t%s", m.Name)
	}
	fmt.Fprint(tw, "\terrors\tfaults")
	status := slices.ContainsFunc(res.Players, func(p match.PlayerResult) bool { return p.Out != 0 })
	if status {
		fmt.Fprint(tw, "\tstatus")
	}
	fmt.Fprintln(tw)
	for i, p := range res.Ranking {
		pr := res.Players[p]
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s", i+1, engine.Seat(pr.Player), pr.Name, pr.Identity)
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
}

// gameDefaults checks --game and gives --turns the game's default when it
// was not set.
func gameDefaults(cmd *cobra.Command, turns *int, game string) error {
	info, err := gameInfo(game)
	if err != nil {
		return err
	}
	if !cmd.Flags().Changed("turns") {
		*turns = info.DefaultTurns
	}
	return nil
}

// botNames lists the built-in bots .
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

// newSeat makes the seat for one --bot value (player is 0-based; logName as for newSeatLog).
func newSeat(spec string, player int, opts *playOptions, logName string) (match.GameSeat, error) {
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
	b, err := subprocess.New(spec, subprocess.Options{Game: game, Deadline: opts.deadline, StderrLog: log, LogBudget: opts.logBudget, MaxTurn: opts.turns})
	if err != nil {
		return match.GameSeat{}, botCommandError(spec, err)
	}
	return match.GameSeat{Bot: b.Player(), Identity: spec, Name: match.SeatName(player+1, spec)}, nil
}

// gameSetup reads --map or the options set: the setup its ruleset starts
// from (nil with neither).
func gameSetup(opts *playOptions, players int) ([]byte, error) {
	if len(opts.options) > 0 {
		if opts.mapFile != "" {
			return nil, usagef("--map and --%s: a game on a map file takes no options", opts.options[0])
		}
		reg, _ := engine.About(opts.game)
		if reg.SetupFromOptions == nil {
			return nil, usagef("--%s: %s has no options", opts.options[0], opts.game)
		}
		setup, err := reg.SetupFromOptions(opts.options, opts.seed, players)
		if err != nil {
			return nil, usagef("--%s: %w", strings.Join(opts.options, ", --"), err)
		}
		return setup, nil
	}
	if opts.mapFile == "" {
		return nil, nil
	}
	reg, _ := engine.About(opts.game)
	if reg.SetupFromMap == nil {
		return nil, usagef("--map: %s is not played on map files", opts.game)
	}
	data, err := readBounded(opts.mapFile, 16<<20)
	if err != nil {
		return nil, usagef("--map: %w", err)
	}
	setup, err := reg.SetupFromMap(data, opts.seed, players)
	if err != nil {
		return nil, usagef("--map %s: %w", opts.mapFile, err)
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
		return usagef("--game: %w", err)
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
		return usagef("--%s is an option of %s, not of %s", name, strings.Join(of, ", "), game)
	}
	return nil
}
