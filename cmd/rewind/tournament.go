package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/queue"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/subprocess"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

type tournamentOptions struct {
	play     playOptions
	games    int
	players  int
	parallel int
	dir      string
	nats     natsOptions
	status   bool
	// format is --format: table, json or csv (the standings on stdout).
	format string
	// maxLogs is --max-logs: MiB of bot stderr logs in all (0: no bound).
	maxLogs int64
	// ahead is --ahead: the most games queued or being played at once.
	ahead int
	// parallelSet: --parallel was given (with --nats, local workers play
	// only then).
	parallelSet bool
	// setup is what --map gives the games (a game played on a map
	// file), read by checkTournamentSettings.
	setup []byte
}

func newTournamentCmd() *cobra.Command {
	opts := &tournamentOptions{}
	cmd := &cobra.Command{
		Use:   "tournament --bot A --bot B [--bot ...] --games N [--parallel P] --dir DIR",
		Short: "Play many matches among a set of bots and rate them",
		Long: `tournament plays N matches of a game (--game: ` + gameList() + `; ` + defaultGame() + ` by
default) among the given bots (built-in names or external commands), P at
a time. Game i is played on a seed derived from --seed and i,
with a seating drawn from that seed, so a tournament is reproducible. Every
replay is saved as DIR/game-NNNN.rwd; running the same command again skips
games whose replay is complete and verifies, so an interrupted tournament
resumes (Ctrl-C, SIGTERM or SIGHUP stop it cleanly, keeping finished games). It prints wins, mean rank, the mean of the game's score and two
ratings per bot, ordered by the first: the Weng–Lin skill rating's
conservative score mu-3sigma with its mu and sigma, and a multiplayer Elo
(docs/ratings.md). --format json or csv prints the standings so (every
field, full precision), the summary line then on stderr. An external bot's stderr goes to DIR/game-NNNN.bot-UID.stderr.log,
one log per game and seat; all of them together take at most --max-logs MiB
(then each log is cut with a note saying so).

The games are jobs on a NATS JetStream work queue (docs/distributed.md).
Without --nats, an embedded NATS server runs in this process (its store in
DIR/.nats, on loopback) with P workers of its own. With --nats URL the games
go to that server, and "rewind worker --nats URL" on any number of machines
plays them (this process plays too only when --parallel is given); the
credentials come from $REWIND_NATS_USER and $REWIND_NATS_PASSWORD or from
--nats-creds FILE, never from the command line. --status prints how far the
tournament is.`,
		Example: `  rewind tournament --bot greedy --bot economist --bot "python3 examples/bots/python/bot.py" --games 100 --dir t1
  rewind tournament --game ID --games 20 --dir t2   # another game, its default built-ins
  rewind tournament --bot greedy --bot raider --games 1000 --dir t2 --nats nats://127.0.0.1:4222`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.play.stdout, opts.play.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			if f, ok := opts.play.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				opts.play.progress = true
			}
			if err := checkDeadlineFlag(opts.play.deadline); err != nil {
				return err
			}
			if f := opts.format; f != "table" && f != "json" && f != "csv" {
				return usagef("unknown --format %q (want table, json or csv)", f)
			}
			if err := gameDefaults(cmd, &opts.play.turns, opts.play.game); err != nil {
				return err
			}
			if cmd.Flags().Changed("players") && opts.players == 0 {
				info, _ := gameInfo(opts.play.game) // checked by gameDefaults
				return outsideRange("--players", 0, info.MinPlayers, info.MaxPlayers, info.Name)
			}
			opts.parallelSet = cmd.Flags().Changed("parallel")
			ctx, stop := interruptContext(cmd.Context())
			defer stop()
			if opts.status {
				return tournamentStatus(ctx, opts)
			}
			return runTournament(ctx, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.play.game, "game", engine.Default(), "the game: "+gameList())
	f.StringArrayVar(&opts.play.bots, "bot", nil, "an entrant: built-in name or external command (repeat; default: every built-in)")
	f.IntVar(&opts.games, "games", 40, "number of games (at least 1)")
	f.IntVar(&opts.players, "players", 0, "players per game, "+playerRanges()+" (default: the number of bots, at most the game's maximum)")
	f.IntVar(&opts.parallel, "parallel", runtime.NumCPU(), "games played at once (at least 1)")
	documentDefault(f, "parallel", "the number of CPUs")
	f.IntVar(&opts.play.turns, "turns", defaultInfo().DefaultTurns, "rounds per game (each game's range: "+turnRanges()+")")
	f.Uint64Var(&opts.play.seed, "seed", 1, "master seed")
	f.StringVar(&opts.dir, "dir", "tournament", "directory for the replays")
	f.StringVar(&opts.play.mapFile, "map", "", "a map file every game is played on, for a game played on map files")
	deadlineFlag(f, &opts.play.deadline)
	f.Int64Var(&opts.maxLogs, "max-logs", defaultMaxLogsMiB, "MiB of external bots' stderr logs this run writes in all, after which each log is cut with a note (0: no bound)")
	f.StringVar(&opts.format, "format", "table", "the standings as table, json or csv (docs/ratings.md)")
	f.IntVar(&opts.ahead, "ahead", defaultAhead, "games queued for the workers at once (queued or being played; at least 1, at most "+strconv.FormatInt(queue.DefaultLimits.MaxJobs, 10)+"): the next is queued as one finishes")
	f.BoolVar(&opts.status, "status", false, "print how many of the tournament's games are finished (from the NATS server of --nats) and exit")
	opts.nats.flags(f)
	return cmd
}

// tournamentBots returns the entrants: --bot, or the game's built-ins.
func tournamentBots(opts *tournamentOptions) []string {
	if len(opts.play.bots) > 0 {
		return opts.play.bots
	}
	info, _ := gameInfo(opts.play.game)
	return defaultBots(info)
}

// tournamentSpec is the tournament's settings as the queue carries them.
func tournamentSpec(opts *tournamentOptions, bots []string) queue.Spec {
	game := opts.play.game
	if game == "" {
		game = engine.Default()
	}
	return queue.Spec{Game: game, Bots: bots, Players: opts.players, Seed: opts.play.seed, MaxTurn: opts.play.turns, Setup: opts.setup}
}

// localTournament is spec's tournament played in this process into arch
// (a folder, recording.Dir, or, for a queue worker, memory; nil seat:
// only read back from it), each seat's bot made by seat (a spec, the
// game, the seat's player index, the ruleset).
func localTournament(spec queue.Spec, arch match.Archive, seat func(spec string, game, k int, ruleset string) (match.GamePlayer, error)) *match.Tournament {
	tr := spec.Tournament()
	tr.Archive = arch
	if seat == nil {
		return tr
	}
	game := spec.Game
	if game == "" {
		game = engine.Default()
	}
	tr.NewGameBot = func(s string, i, player int) (match.GamePlayer, error) {
		return seat(s, i, player, game)
	}
	return tr
}

// seatMaker makes seats with opts' deadline and logs, each spec turned
// into a built-in name or a command line by resolve.
func seatMaker(opts *playOptions, resolve func(string) string) func(spec string, game, k int, ruleset string) (match.GamePlayer, error) {
	return func(spec string, game, k int, ruleset string) (match.GamePlayer, error) {
		// One stderr log per game and seat, beside the game's replay:
		// DIR/game-0007.bot-3.stderr.log.
		o := *opts
		o.game = ruleset
		s, err := newSeat(resolve(spec), k, &o, fmt.Sprintf("game-%04d", game))
		return s.Bot, err
	}
}

func runTournament(ctx context.Context, opts *tournamentOptions) error {
	bots := tournamentBots(opts)
	// This process's own workers play the entrants as given: each must
	// be a built-in or a command (a misspelt name is named before the
	// seats are counted). With --nats alone, workers elsewhere map names.
	localWorkers := opts.nats.url == "" || opts.parallelSet
	if localWorkers {
		if err := checkBotSpecs(bots, opts.play.game); err != nil {
			return err
		}
	}
	if err := checkTournamentSettings(opts, len(bots)); err != nil {
		return err
	}
	if opts.play.logDir == "" {
		opts.play.logDir = opts.dir
	}
	opts.play.logBudget = logBudget(opts.maxLogs)
	spec := tournamentSpec(opts, bots)
	tid := spec.ID()

	q, closeQueue, err := opts.nats.open(ctx, opts.dir)
	if err != nil {
		return err
	}
	defer closeQueue()

	// The coordinator: every game the folder does not hold is a job; its
	// replay comes back into the folder.
	tr := localTournament(spec, &recording.Dir{Path: opts.dir, Tool: "rewind " + version}, nil)
	arch := &recording.Dir{Path: opts.dir, Tool: "rewind " + version}
	secret, err := tournamentSecret(opts.dir)
	if err != nil {
		return err
	}
	coord := &queue.Coordinator{Queue: q, Spec: spec, Store: arch.Store, Secret: secret,
		// A result counts only as its replay re-simulates: the game of
		// this tournament, its standings computed here.
		Check: func(i int, data []byte) (match.GameResult, error) {
			return recording.CheckGame(bytes.NewReader(data), i, tr.GameSpec(i))
		},
		Log: func(text string) { fmt.Fprintln(opts.play.stderr, "rewind:", text) }}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	coord.Start(cctx)
	tr.Remote = coord.Game
	// A game costs the coordinator a waiting goroutine from when it is
	// queued to when its result is in (about 14 KB); games past the
	// --ahead window cost nothing until they are queued.
	tr.Parallel = min(opts.games, opts.ahead)
	stopNotices, err := q.Notices(cctx, tid, func(text string) { fmt.Fprintln(opts.play.stderr, "rewind:", text) })
	if err != nil {
		return err
	}
	defer stopNotices()

	// This process's workers: always on the embedded server, with --nats
	// only when --parallel was given. They keep each replay in memory
	// until the queue has it, and may run the entrants' commands (this
	// user's own command line).
	workers := make(chan error, 1)
	if localWorkers {
		w := &queue.Worker{Queue: q, Parallel: opts.parallel,
			// A job of another tournament on the same server (--nats) is
			// played only with built-ins or this tournament's own --bot
			// values: a job's names are never run as commands here.
			CanRun: func(name string) bool { return isBuiltin(name) || slices.Contains(bots, name) },
			Play: func(ctx context.Context, j queue.Job) (match.GameResult, []byte, error) {
				return playJob(ctx, j, seatMaker(&opts.play, func(s string) string { return s }))
			}}
		go func() { workers <- w.Run(cctx) }()
		defer func() { cancel(); <-workers }()
	}

	var bar *progressbar.ProgressBar
	if opts.play.progress {
		bar = progressbar.NewOptions(opts.games, progressbar.OptionSetWriter(opts.play.stderr),
			progressbar.OptionSetDescription("games"), progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
		// The standings so far ride on the bar: the leader by μ − 3σ and
		// its ratings, updated as the results come in (a hundred times in
		// a tournament at most: each costs a pass over the results).
		every := max(1, opts.games/100)
		tr.Progress = func(done int, results []match.GameResult) {
			if done%every != 0 && done != opts.games {
				bar.Set(done)
				return
			}
			if st := match.Standings(results); len(st) > 0 {
				bar.Describe(fmt.Sprintf("games (leader %s, mu-3sigma %.1f, Elo %.0f, %d wins)", match.BotName(st[0].Bot), st[0].Conservative, st[0].Elo, st[0].Wins))
			}
			bar.Set(done)
		}
	}
	tr.Games = opts.games
	start := time.Now()
	games, err := tr.Run(ctx)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	skipped := 0
	for _, g := range games {
		if g.Skipped {
			skipped++
		}
	}
	st, summary := match.Standings(games), opts.play.stdout
	switch opts.format {
	case "json":
		err, summary = analysis.WriteStandingsJSON(opts.play.stdout, spec.Game, st), opts.play.stderr
	case "csv":
		err, summary = analysis.WriteStandingsCSV(opts.play.stdout, st), opts.play.stderr
	default:
		err = analysis.WriteRulesetStandings(opts.play.stdout, spec.Game, st)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(summary, "%d games (%d already played, kept) in %s, %d at a time; replays in %s\n",
		len(games), skipped, time.Since(start).Round(time.Millisecond), max(1, opts.parallel), opts.dir)
	return nil
}

// defaultAhead is --ahead's default: enough queued games for a thousand
// games played at once across the workers, at a fixed cost to the
// coordinator (about 14 MB) whatever the number of games.
const defaultAhead = 1000

// defaultMaxLogsMiB is --max-logs' default: 1 GiB of bot logs, 64 games'
// worth of a bot that fills its log (subprocess.MaxStderrLogBytes each).
const defaultMaxLogsMiB = 1024

// logBudget is the budget of --max-logs MiB (nil: no bound).
func logBudget(mib int64) *subprocess.LogBudget {
	if mib == 0 {
		return nil
	}
	return subprocess.NewLogBudget(mib << 20)
}

// tournamentSecret returns the secret that keys the tournament's job
// tokens (queue.Coordinator.Secret), kept in DIR/.rewind-secret (made
// once, readable by its owner only) so that a coordinator started again
// on the folder accepts the results of the jobs it queued before.
func tournamentSecret(dir string) ([]byte, error) {
	path := filepath.Join(dir, ".rewind-secret")
	if b, err := os.ReadFile(path); err == nil && len(b) >= 32 {
		return b, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// Written whole under a name of its own, then linked into place:
	// two coordinators starting on one folder at once share one secret.
	f, err := os.CreateTemp(dir, ".rewind-secret.*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	_, err = f.WriteString(randomHex(32))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = os.Link(f.Name(), path); errors.Is(err, os.ErrExist) {
			err = nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the tournament's secret %s: %w", path, err)
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 32 {
		return nil, fmt.Errorf("the tournament's secret %s: %d bytes (%v): remove it to make a new one", path, len(b), err)
	}
	return b, nil
}

// playJob plays a queued game in this process, its replay kept in
// memory (no file: the queue stores it) and returned.
func playJob(ctx context.Context, j queue.Job, seat func(spec string, game, k int, ruleset string) (match.GamePlayer, error)) (match.GameResult, []byte, error) {
	mem := &recording.Memory{Tool: "rewind " + version}
	gr, err := localTournament(j.Spec, mem, seat).Play(ctx, j.Index)
	if err != nil {
		return match.GameResult{}, nil, err
	}
	return gr, mem.Take(j.Index), nil
}

// isBuiltin reports whether name is a built-in bot of any game.
func isBuiltin(name string) bool {
	for _, id := range engine.IDs() {
		if info, _ := engine.About(id); slices.Contains(botNames(info), name) {
			return true
		}
	}
	return false
}

// tournamentStatus prints how many of the tournament's games have a
// result on the NATS server.
func tournamentStatus(ctx context.Context, opts *tournamentOptions) error {
	bots := tournamentBots(opts)
	if err := checkTournamentSettings(opts, len(bots)); err != nil {
		return err
	}
	if opts.nats.url == "" {
		return usagef("--status needs --nats URL (the server the tournament runs on)")
	}
	q, closeQueue, err := opts.nats.open(ctx, opts.dir)
	if err != nil {
		return err
	}
	defer closeQueue()
	spec := tournamentSpec(opts, bots)
	done, err := q.Progress(ctx, spec.ID())
	if err != nil {
		return err
	}
	pending, err := q.Pending(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.play.stdout, "tournament %s: %d of %d games finished; %d jobs waiting on the queue\n", spec.ID(), min(done, opts.games), opts.games, pending)
	return nil
}

// checkTournamentSettings checks the flags against the ranges their help
// states, before any game is played.
func checkTournamentSettings(opts *tournamentOptions, bots int) error {
	if bots < 2 {
		return fmt.Errorf("a tournament needs at least 2 --bot, got %d", bots)
	}
	if opts.games < 1 {
		return usagef("--games %d: give at least 1", opts.games)
	}
	if opts.parallel < 1 {
		return usagef("--parallel %d: give at least 1", opts.parallel)
	}
	if opts.maxLogs < 0 {
		return usagef("--max-logs %d is negative (0: no bound)", opts.maxLogs)
	}
	if opts.ahead < 1 || int64(opts.ahead) > queue.DefaultLimits.MaxJobs {
		return usagef("--ahead %d: give a number from 1 to %d, such as --ahead %d", opts.ahead, queue.DefaultLimits.MaxJobs, defaultAhead)
	}
	info, err := gameInfo(opts.play.game)
	if err != nil {
		return err
	}
	if opts.players != 0 && (opts.players < info.MinPlayers || opts.players > info.MaxPlayers) {
		return outsideRange("--players", opts.players, info.MinPlayers, info.MaxPlayers, info.Name)
	}
	if err := checkPlaySettings(&opts.play); err != nil {
		return err
	}
	if opts.play.mapFile != "" {
		players := opts.players
		if players == 0 {
			players = min(bots, info.MaxPlayers)
		}
		setup, err := gameSetup(&opts.play, players)
		if err != nil {
			return err
		}
		opts.setup = setup
	}
	return nil
}

// playerRanges describes every registered game's seats ("ColorfightII
// 2..8, Monad 2..4").
func playerRanges() string {
	var parts []string
	for _, id := range engine.IDs() {
		info, _ := engine.About(id)
		parts = append(parts, fmt.Sprintf("%s %d..%d", info.Name, info.MinPlayers, info.MaxPlayers))
	}
	return strings.Join(parts, ", ")
}
