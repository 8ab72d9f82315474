package main

import (
	"fmt"
	"io"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/conform"
	"github.com/spf13/cobra"
)

type conformOptions struct {
	paths []string
	out   io.Writer
}

func newConformCmd() *cobra.Command {
	opts := &conformOptions{}
	return &cobra.Command{
		Use:   "conform PATH...",
		Short: "Replay conformance vectors on the engine and compare every frame",
		Long: `conform replays each conformance vector (or every vector in a directory) on
rewind's engine and compares it with the reference's own output. It prints
one line per vector and exits with status 1 if any vector diverges or cannot
be read.

A vector is a game's input file with the reference's expected output beside
it (` + vectorFiles() + `).
Every field the expected file holds is compared, turn by turn; what each
game's vectors hold is in its documentation (docs/games.md).`,
		Example: `  rewind conform testdata/conformance
  rewind conform DIR...   # every vector in each folder, of any game`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.paths = args
			opts.out = cmd.OutOrStdout()
			return runConform(opts)
		},
	}
}

func runConform(opts *conformOptions) error {
	vs, err := conform.Find(opts.paths)
	if err != nil {
		return err
	}
	failed := 0
	for _, v := range vs {
		// Every vector is of a registered game; conform.Run replays it
		// on that game's engine (engine.Registration.Vectors).
		info, ok := engine.About(v.Game)
		if !ok {
			failed++
			fmt.Fprintf(opts.out, "%s: ERROR %v\n", v.Name, &engine.UnknownError{ID: v.Game})
			continue
		}
		res, err := conform.Run(v)
		switch {
		case err != nil:
			failed++
			fmt.Fprintf(opts.out, "%s: ERROR %v\n", v.Name, err)
		case res.Pass() && v.Probes:
			fmt.Fprintf(opts.out, "%s: PASS (%d cases, %s)\n", v.Name, res.Rounds, info.Name)
			for _, n := range res.Notes {
				fmt.Fprintf(opts.out, "  note: %s\n", n)
			}
		case res.Pass():
			fmt.Fprintf(opts.out, "%s: PASS (%d %s)\n", v.Name, res.Rounds, info.Round)
		default:
			failed++
			fmt.Fprintf(opts.out, "%s: FAIL %s\n", v.Name, res.Divergence)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d vectors failed", failed, len(vs))
	}
	return nil
}
