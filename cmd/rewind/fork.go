package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/spf13/cobra"
)

type forkOptions struct {
	in    string
	turn  int
	force bool
	fill  string // the built-in for seats whose bot the parent does not name
	play  playOptions
}

func newForkCmd() *cobra.Command {
	opts := &forkOptions{}
	cmd := &cobra.Command{
		Use:   "fork FILE --turn N [--bot UID=NAME|COMMAND]... -o new.rwd",
		Short: "Play on from any turn of a replay, each seat with its bot or another",
		Long: `fork starts a new match from the exact state at turn N of any replay (.rwd, or
an official .cfr whose commands are inferred as rewind import does) and plays
it to the end. The new .rwd holds the parent's first N rounds as they were,
then the bots' — so it verifies by re-simulation on its own — and its header
names the parent (file SHA-256 and turn).

A seat played by a built-in keeps it, as it played: started with the seed
the parent records for it (a parent written before seeds were recorded: the
one derived from its game's seed, else from --seed) and asked through the
parent's rounds, so a fork whose seats all keep their built-ins is its
parent again. The fork plays to the parent's turn limit. A replay never names a command that
rewind runs: a seat the parent records as played by an external bot (its
command is shown by rewind info, and copied into the fork's header) needs
--bot UID=COMMAND — that command, or another — and is refused without one.
--bot UID=NAME|COMMAND replaces seat UID's bot (repeat for several seats);
--bot NAME|COMMAND given once per player replaces them all, in uid order.
A seat whose bot the parent does not name (an official .cfr, a player on
the official client) needs a --bot for it too, or --fill BUILTIN (one of ` + strings.Join(defaultBotNames(), ", ") + `),
which also fills the seats of external bots.`,
		Example: `  rewind fork game.rwd --turn 200 -o what-if.rwd
  rewind fork game.rwd --turn 200 --bot 2="python3 examples/bots/python/bot.py" -o mine.rwd
  rewind fork GAME.cfr --turn 100 --fill greedy -o fork.rwd`,
		Args: cobra.ExactArgs(1),
		RunE: playOnRunE(&opts.in, &opts.play, func(ctx context.Context) error {
			_, err := runFork(ctx, opts)
			return err
		}),
	}
	f := cmd.Flags()
	f.IntVar(&opts.turn, "turn", 0, "the turn to play on from (1..max_turn-1, required)")
	f.StringArrayVar(&opts.play.bots, "bot", nil, "UID=NAME|COMMAND: seat UID's new bot (repeat); or NAME|COMMAND once per player, in uid order (default: each seat's own bot)")
	f.StringVar(&opts.fill, "fill", "", "built-in bot for the seats whose bot the replay does not name (an official .cfr)")
	f.StringVarP(&opts.play.out, "output", "o", "", "replay file to write (required)")
	f.BoolVar(&opts.force, "force", false, "replace the output file if it exists")
	f.Uint64Var(&opts.play.seed, "seed", 1, "the seed of the bots that do not keep their seat's built-in (a kept built-in has the parent's)")
	deadlineFlag(f, &opts.play.deadline)
	cmd.MarkFlagRequired("turn")
	cmd.MarkFlagRequired("output")
	return cmd
}

// forkSpecs returns the --bot spec of every seat of fk: the --bot given
// for it (UID=SPEC, or all seats in uid order), else the bot the parent
// records for it, else fill; a seat with none is an error naming it.
func forkSpecs(fk *source.Fork, given []string, fill string) ([]string, error) {
	n := len(fk.Names)
	info, _ := engine.About(fk.Ruleset.ID())
	if fill != "" {
		if _, ok := info.FindBot(fill); !ok {
			return nil, fmt.Errorf("--fill: unknown built-in %q (valid: %s)", fill, strings.Join(botNames(info), ", "))
		}
	}
	specs := make([]string, n)
	bySeat := 0
	for _, g := range given {
		if _, _, ok := seatSpec(g); ok {
			bySeat++
		}
	}
	switch {
	case len(given) > 0 && bySeat == 0:
		if len(given) != n {
			return nil, fmt.Errorf("the game has %d players: give --bot NAME|COMMAND %d times (once per player, in uid order), or --bot UID=NAME|COMMAND for the seats to change", n, n)
		}
		copy(specs, given)
		return specs, nil
	case bySeat != len(given):
		return nil, fmt.Errorf("--bot: give either UID=NAME|COMMAND for each seat to change, or NAME|COMMAND once per player, not both")
	}
	for _, g := range given {
		uid, spec, _ := seatSpec(g)
		if uid < 1 || uid > n {
			return nil, fmt.Errorf("--bot %q: no seat %d (the game has players 1..%d)", g, uid, n)
		}
		if specs[uid-1] != "" {
			return nil, fmt.Errorf("--bot %q: seat %d is given twice", g, uid)
		}
		specs[uid-1] = spec
	}
	var missing, external []string
	for i := range specs {
		if specs[i] != "" {
			continue
		}
		b := fk.Bots[i]
		_, builtin := info.FindBot(b)
		switch {
		case builtin:
			specs[i] = b
		case fill != "":
			specs[i] = fill
		case b != "" && b != match.OfficialClient:
			// A recorded command is data: it is shown, never run.
			external = append(external, fmt.Sprintf("seat %d (%s) was played by the external bot %q", i+1, fk.Names[i], b))
		default:
			missing = append(missing, fmt.Sprintf("%d (%s)", i+1, fk.Names[i]))
		}
	}
	if external != nil {
		return nil, usagef("%s; rewind never runs a command a replay names: give --bot UID=COMMAND for each such seat to run that command or another, or --fill NAME for a built-in (%s)",
			strings.Join(external, "; "), strings.Join(botNames(info), ", "))
	}
	if missing != nil {
		return nil, usagef("the replay does not say which bot played seat %s: give --bot UID=NAME|COMMAND for it, or --fill NAME for a built-in (%s)",
			strings.Join(missing, ", "), strings.Join(botNames(info), ", "))
	}
	return specs, nil
}

// forkPlan says, before a fork plays, which bot plays on in each seat and
// whether it is the one that played the seat: "seat 2 (2_bot.py): greedy,
// in place of the external bot "python3 bot.py"", one line a seat.
func forkPlan(fk *source.Fork, turn int, specs []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "playing on from turn %d:\n", turn)
	for i, spec := range specs {
		was := fk.Bots[i]
		line := fmt.Sprintf("  seat %d (%s): %s", i+1, fk.Names[i], spec)
		switch {
		case was == spec:
			line += ", as it played"
		case was == "" || was == match.OfficialClient:
			line += ", in place of a bot the replay does not name"
		default:
			line += fmt.Sprintf(", in place of %q", was)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// seatSpec splits "UID=SPEC" (UID a number); ok is false for a value
// without that prefix.
func seatSpec(v string) (uid int, spec string, ok bool) {
	k, rest, found := strings.Cut(v, "=")
	if !found || k == "" || len(k) > 3 {
		return 0, "", false
	}
	for _, c := range k {
		if c < '0' || c > '9' {
			return 0, "", false
		}
	}
	uid, _ = strconv.Atoi(k)
	return uid, strings.TrimSpace(rest), true
}

func runFork(ctx context.Context, opts *forkOptions) (*match.Result, error) {
	data, err := readReplayFile(opts.in)
	if err != nil {
		return nil, err
	}
	fk, err := source.NewFork(opts.in, data, opts.turn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opts.in, err)
	}
	specs, err := forkSpecs(fk, opts.play.bots, opts.fill)
	if err != nil {
		return nil, err
	}
	opts.play.game, opts.play.turns = fk.Ruleset.ID(), fk.MaxTurns
	if opts.play.stdout != nil {
		fmt.Fprint(opts.play.stdout, forkPlan(fk, opts.turn, specs))
	}
	res, err := playFork(ctx, fk, specs, make([]match.GameSeat, len(specs)), &opts.play, opts.force)
	if err != nil {
		return nil, err
	}
	printRanking(opts.play.stdout, res)
	abs, _ := filepath.Abs(opts.play.out)
	fmt.Fprintf(opts.play.stdout, "replay: %s (%d rounds; turns 0..%d are %s's)\n", abs, res.Turn, opts.turn, filepath.Base(opts.in))
	return res, nil
}

// playFork plays fk on into play.out (force: replacing a file there),
// seat i played by seats[i], or where that has no bot yet, by the bot of
// specs[i] as fork seats it: watched, named by its spec when it does not
// name itself, and kept as the parent played it (source.Fork.AsPlayed).
// When it fails, every bot seated is closed.
func playFork(ctx context.Context, fk *source.Fork, specs []string, seats []match.GameSeat, play *playOptions, force bool) (*match.Result, error) {
	closeAll := func() {
		for _, s := range seats {
			if s.Bot != nil {
				s.Bot.Close()
			}
		}
	}
	for i, s := range specs {
		if seats[i].Bot != nil {
			continue
		}
		seat, _, err := watchedSeat(s, i, play, "")
		if err != nil {
			closeAll()
			return nil, err
		}
		if seat.Identity == "" {
			seat.Identity = s
		}
		fk.AsPlayed(i, &seat, play.seed)
		seats[i] = seat
	}
	var res *match.Result
	err := writeRecording(play.out, force, func(w io.Writer) error {
		var err error
		res, err = fk.Play(ctx, w, source.PlayOptions{Seats: seats, Seed: play.seed, Created: time.Now(), Tool: "rewind " + version})
		return err
	})
	if err != nil {
		closeAll()
		return nil, err
	}
	return res, nil
}

// defaultBotNames lists the built-ins of the default game, the one fork
// plays on.
func defaultBotNames() []string {
	info, _ := engine.About(engine.Default())
	return botNames(info)
}
