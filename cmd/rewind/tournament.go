package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/engine/bot"
	"github.com/rewind-game/rewind/engine/bot/monadbot"
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/engine/rulesets"
	"github.com/rewind-game/rewind/replay/recording"
)

type tournamentOptions struct {
	play     playOptions
	games    int
	players  int
	parallel int
	dir      string
}

func newTournamentCmd() *cobra.Command {
	opts := &tournamentOptions{}
	cmd := &cobra.Command{
		Use:   "tournament --bot A --bot B [--bot ...] --games N [--parallel P] --dir DIR",
		Short: "Play many matches among a set of bots and rate them",
		Long: `tournament plays N matches of ColorfightII (--game colorfight2, the default)
or Monad (--game monad) among the given bots (built-in names or external
commands), P at a time. Game i is played on a seed derived from --seed and i,
with a seating drawn from that seed, so a tournament is reproducible. Every
replay is saved as DIR/game-NNNN.rwd; running the same command again skips
games whose replay is complete and verifies, so an interrupted tournament
resumes (Ctrl-C, SIGTERM or SIGHUP stop it cleanly, keeping finished games). It prints wins, mean rank, mean gold and a multiplayer Elo rating
per bot. An external bot's stderr goes to DIR/game-NNNN.bot-UID.stderr.log,
one log per game and seat.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.play.stdout, opts.play.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			if f, ok := opts.play.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				opts.play.progress = true
			}
			if err := checkDeadlineFlag(opts.play.deadline); err != nil {
				return err
			}
			if err := gameDefaults(cmd, &opts.play.turns, opts.play.game); err != nil {
				return err
			}
			if cmd.Flags().Changed("players") && opts.players == 0 {
				info, _ := gameInfo(opts.play.game) // checked by gameDefaults
				return fmt.Errorf("--players 0 is outside %d..%d for %s", info.MinPlayers, info.MaxPlayers, info.Name)
			}
			ctx, stop := interruptContext(cmd.Context())
			defer stop()
			return runTournament(ctx, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.play.game, "game", rulesets.Default, "the game: "+gameList()+" (monad: 2..4 players, --turns default 1000)")
	f.StringArrayVar(&opts.play.bots, "bot", nil, "an entrant: built-in name or external command (repeat; default: every built-in)")
	f.IntVar(&opts.games, "games", 40, "number of games (at least 1)")
	f.IntVar(&opts.players, "players", 0, "players per game, "+playerRanges()+" (default: the number of bots, at most the game's maximum)")
	f.IntVar(&opts.parallel, "parallel", runtime.NumCPU(), "games played at once (at least 1)")
	f.IntVar(&opts.play.turns, "turns", colorfight2.DefaultMaxTurn, fmt.Sprintf("rounds per game (%d..%d)", colorfight2.MinMaxTurn, colorfight2.MaxMaxTurn))
	f.Uint64Var(&opts.play.seed, "seed", 1, "master seed")
	f.StringVar(&opts.dir, "dir", "tournament", "directory for the replays")
	f.DurationVar(&opts.play.deadline, "deadline", time.Second, "per-round answer deadline for external bots (greater than 0)")
	return cmd
}

func runTournament(ctx context.Context, opts *tournamentOptions) error {
	bots := opts.play.bots
	if len(bots) == 0 {
		bots = bot.BuiltinNames()
		if opts.play.game == monad.RulesetID {
			bots = defaultMonadBots
		}
	}
	if err := checkBotSpecs(bots, opts.play.game); err != nil {
		return err
	}
	if err := checkTournamentSettings(opts, len(bots)); err != nil {
		return err
	}
	if opts.play.logDir == "" {
		opts.play.logDir = opts.dir
	}
	tr := &match.Tournament{
		Bots: bots, Games: opts.games, Players: opts.players, Parallel: opts.parallel,
		Seed: opts.play.seed, MaxTurn: opts.play.turns,
		Archive: &recording.Dir{Path: opts.dir, Tool: "rewind " + version},
		NewBot: func(spec string, game, uid int) (bot.Bot, error) {
			// One stderr log per game and seat, beside the game's replay:
			// DIR/game-0007.bot-3.stderr.log.
			s, err := newSeatLog(spec, uid, &opts.play, fmt.Sprintf("game-%04d", game))
			return s.Bot, err
		},
	}
	if opts.play.game == monad.RulesetID {
		tr.Game, tr.MonadArchive, tr.Archive, tr.NewBot = monad.RulesetID, tr.Archive.(*recording.Dir), nil, nil
		tr.NewMonadBot = func(spec string, game, player int) (monadbot.Bot, error) {
			s, err := newMonadSeat(spec, player, &opts.play, fmt.Sprintf("game-%04d", game))
			return s.Bot, err
		}
	}
	var bar *progressbar.ProgressBar
	if opts.play.progress {
		bar = progressbar.NewOptions(opts.games, progressbar.OptionSetWriter(opts.play.stderr),
			progressbar.OptionSetDescription("games"), progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
		tr.Progress = func(done int) { bar.Set(done) }
	}
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
	game := opts.play.game
	if game == "" {
		game = rulesets.Default
	}
	analysis.WriteRulesetStandings(opts.play.stdout, game, match.Standings(games))
	fmt.Fprintf(opts.play.stdout, "%d games (%d already played, kept) in %s, %d at a time; replays in %s\n",
		len(games), skipped, time.Since(start).Round(time.Millisecond), max(1, opts.parallel), opts.dir)
	return nil
}

// checkTournamentSettings checks the flags against the ranges their help
// states, before any game is played.
func checkTournamentSettings(opts *tournamentOptions, bots int) error {
	if bots < 2 {
		return fmt.Errorf("a tournament needs at least 2 --bot, got %d", bots)
	}
	if opts.games < 1 {
		return fmt.Errorf("--games %d: give at least 1", opts.games)
	}
	if opts.parallel < 1 {
		return fmt.Errorf("--parallel %d: give at least 1", opts.parallel)
	}
	info, err := gameInfo(opts.play.game)
	if err != nil {
		return err
	}
	if opts.players != 0 && (opts.players < info.MinPlayers || opts.players > info.MaxPlayers) {
		return fmt.Errorf("--players %d is outside %d..%d for %s", opts.players, info.MinPlayers, info.MaxPlayers, info.Name)
	}
	return checkPlaySettings(&opts.play)
}

// playerRanges describes every registered game's seats ("ColorfightII
// 2..8, Monad 2..4").
func playerRanges() string {
	var parts []string
	for _, id := range rulesets.IDs() {
		info, _ := rulesets.About(id)
		parts = append(parts, fmt.Sprintf("%s %d..%d", info.Name, info.MinPlayers, info.MaxPlayers))
	}
	return strings.Join(parts, ", ")
}
