package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/replay"
)

type demoOptions struct {
	dir    string
	stdout io.Writer
}

func newDemoCmd() *cobra.Command {
	opts := &demoOptions{}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Play a match of the built-in bots, record it and check the replay",
		Long: `demo needs nothing but this binary: it plays a 500-round match of every
built-in strategy on the default 30x30 map (seed 42), records it as a .rwd
replay, re-simulates the replay to verify it, and prints the ranking and what
to do with the replay next.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.stdout = cmd.OutOrStdout()
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			return runDemo(ctx, opts)
		},
	}
	cmd.Flags().StringVar(&opts.dir, "dir", "", "where to write the replay (default: a new temporary directory)")
	return cmd
}

func runDemo(ctx context.Context, opts *demoOptions) error {
	dir := opts.dir
	if dir == "" {
		d, err := os.MkdirTemp("", "rewind-demo-")
		if err != nil {
			return err
		}
		dir = d
	}
	out := filepath.Join(dir, "demo.rwd")
	fmt.Fprintln(opts.stdout, "Playing 500 rounds: economist, greedy, raider, random and turtle on map seed 42…")
	if _, err := runPlay(ctx, &playOptions{turns: 500, seed: 42, out: out, stdout: opts.stdout}); err != nil {
		return err
	}
	f, err := os.Open(out)
	if err != nil {
		return err
	}
	defer f.Close()
	res, err := replay.Verify(f, nil)
	if err != nil {
		return err
	}
	if res.Err != nil {
		return fmt.Errorf("the demo replay does not verify: %w", res.Err)
	}
	st, _ := f.Stat()
	fmt.Fprintf(opts.stdout, "verified: %d rounds re-simulate bit-exactly (%d bytes)\n\nNext:\n", res.Rounds, st.Size())
	fmt.Fprintf(opts.stdout, "  rewind info %s\n  rewind verify %s\n  rewind export %s -o demo.cfr   # official format\n", out, out, out)
	return nil
}
