package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/replay"
)

type demoOptions struct {
	dir     string
	noServe bool
	serve   serveOptions
	stdout  io.Writer
}

func newDemoCmd() *cobra.Command {
	opts := &demoOptions{}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Play a match of the built-in bots, record it and check the replay",
		Long: `demo needs nothing but this binary: it plays a 500-round ` + defaultInfo().Name + ` match
of every built-in strategy on the default 30x30 map (seed 42), records it as
demo.rwd in the user cache directory's rewind folder (or --dir; a previous
demo.rwd there is replaced, and the path is printed), re-simulates the
replay to verify it, prints the ranking, and opens the match in the browser
viewer (the URL is printed; Ctrl-C stops it).`,
		Example: `  rewind demo
  rewind demo --dir . --no-serve`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.stdout = cmd.OutOrStdout()
			opts.serve.stderr = cmd.ErrOrStderr()
			ctx, stop := interruptContext(cmd.Context())
			defer stop()
			return runDemo(ctx, opts)
		},
	}
	cmd.Flags().StringVar(&opts.dir, "dir", "", "where to write demo.rwd, replacing a previous demo.rwd there (default: the user cache directory's rewind folder)")
	cmd.Flags().BoolVar(&opts.noServe, "no-serve", false, "do not start the viewer; just play, record and verify")
	addServeFlags(cmd, &opts.serve)
	return cmd
}

func runDemo(ctx context.Context, opts *demoOptions) error {
	dir := opts.dir
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return fmt.Errorf("no cache directory for the demo replay (%v); give one with --dir", err)
		}
		dir = filepath.Join(cache, "rewind")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	out := filepath.Join(dir, "demo.rwd")
	fmt.Fprintf(opts.stdout, "Playing 500 rounds: %s on map seed 42…\n", andList(defaultBots(defaultInfo())))
	fmt.Fprintf(opts.stdout, "The replay goes to %s (replacing the previous demo's).\n", out)
	// The demo owns demo.rwd in its directory: replacing the previous
	// demo's replay is expected, so it writes with force.
	if _, err := runPlay(ctx, &playOptions{turns: 500, seed: 42, out: out, force: true, stdout: opts.stdout}); err != nil {
		return err
	}
	f, err := os.Open(out)
	if err != nil {
		return err
	}
	defer f.Close()
	res, err := replay.VerifySim(f, nil)
	if err != nil {
		return err
	}
	if res.Err != nil {
		return fmt.Errorf("the demo replay does not verify: %w", res.Err)
	}
	st, _ := f.Stat()
	fmt.Fprintf(opts.stdout, "verified: %d rounds re-simulate bit-exactly (%d bytes)\n\nAlso try:\n", res.Rounds, st.Size())
	fmt.Fprintf(opts.stdout, "  rewind analyze %s\n  rewind export --html %s -o demo.html   # one file, opens with no server\n  rewind export %s -o demo.cfr          # official format\n\n", out, out, out)
	if opts.noServe {
		fmt.Fprintf(opts.stdout, "  rewind view %s   # the viewer\n", out)
		return nil
	}
	opts.serve.stdout = opts.stdout
	opts.serve.anyPort = true
	return runView(ctx, out, &opts.serve)
}

// andList joins words as a sentence lists them: "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
