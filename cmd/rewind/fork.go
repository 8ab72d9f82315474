package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/engine/bot"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/replay/source"
)

type forkOptions struct {
	in    string
	turn  int
	force bool
	play  playOptions
}

func newForkCmd() *cobra.Command {
	opts := &forkOptions{}
	cmd := &cobra.Command{
		Use:   "fork FILE --turn N [--bot NAME|COMMAND]... -o new.rwd",
		Short: "Play on from any turn of a replay with other bots",
		Long: `fork starts a new match from the exact state at turn N of any replay (.rwd, or
an official .cfr whose commands are inferred as rewind import does), seats the
given bots in the players' places (default: the built-ins, ` + strings.Join(bot.BuiltinNames(), ", ") + `,
in turn), and plays to the end. The new .rwd holds the parent's first N
rounds as they were, then the bots' — so it verifies by re-simulation on its
own — and its header names the parent (file SHA-256 and turn).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.in = args[0]
			opts.play.stdout, opts.play.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			if err := checkDeadlineFlag(opts.play.deadline); err != nil {
				return err
			}
			ctx, stop := interruptContext(cmd.Context())
			defer stop()
			_, err := runFork(ctx, opts)
			return err
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.turn, "turn", 0, "the turn to play on from (1..max_turn-1, required)")
	f.StringArrayVar(&opts.play.bots, "bot", nil, "a player, in uid order: built-in name or external command (default: the built-ins in turn)")
	f.StringVarP(&opts.play.out, "output", "o", "", "replay file to write (required)")
	f.BoolVar(&opts.force, "force", false, "replace the output file if it exists")
	f.Uint64Var(&opts.play.seed, "seed", 1, "the bots' seed")
	f.DurationVar(&opts.play.deadline, "deadline", time.Second, "per-round answer deadline for external bots (greater than 0)")
	cmd.MarkFlagRequired("turn")
	cmd.MarkFlagRequired("output")
	return cmd
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
	n := len(fk.Origin.Players)
	specs := opts.play.bots
	if len(specs) == 0 {
		names := bot.BuiltinNames()
		for i := 0; i < n; i++ {
			specs = append(specs, names[i%len(names)])
		}
	}
	if len(specs) != n {
		return nil, fmt.Errorf("the game has %d players; give %d --bot (or none for the built-ins)", n, n)
	}
	opts.play.turns = fk.Origin.Game.MaxTurn
	var seats []match.Seat
	closeAll := func() {
		for _, s := range seats {
			s.Bot.Close()
		}
	}
	for i, s := range specs {
		seat, err := newSeat(s, i+1, &opts.play)
		if err != nil {
			closeAll()
			return nil, err
		}
		if seat.Identity == "" {
			seat.Identity = s
		}
		seats = append(seats, seat)
	}
	var res *match.Result
	err = writeOutput(opts.play.out, opts.force, func(w io.Writer) error {
		var err error
		res, err = fk.Play(ctx, w, source.PlayOptions{Seats: seats, Seed: opts.play.seed, Created: time.Now(), Tool: "rewind " + version})
		return err
	})
	if err != nil {
		closeAll()
		return nil, err
	}
	printRanking(opts.play.stdout, res)
	abs, _ := filepath.Abs(opts.play.out)
	fmt.Fprintf(opts.play.stdout, "replay: %s (%d rounds; turns 0..%d are %s's)\n", abs, res.Turn, opts.turn, filepath.Base(opts.in))
	return res, nil
}
