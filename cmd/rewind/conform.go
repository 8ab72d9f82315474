package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/conform"
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
		Long: `conform replays each conformance vector (NAME.commands.json + NAME.cfr, or a
directory of them) on rewind's engine and compares every field of every cell
and user in every frame, and the number of failed commands per player per
round, with the reference server's replay. It prints one line per vector and
exits with status 1 if any vector diverges or cannot be read.`,
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
		res, err := conform.Run(v, nil)
		switch {
		case err != nil:
			failed++
			fmt.Fprintf(opts.out, "%s: ERROR %v\n", v.Name, err)
		case res.Pass():
			fmt.Fprintf(opts.out, "%s: PASS (%d rounds)\n", v.Name, res.Rounds)
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
