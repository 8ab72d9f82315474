package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/viewer"
)

func newViewCmd() *cobra.Command {
	opts := &serveOptions{name: "view"}
	cmd := &cobra.Command{
		Use:   "view FILE [FILE2]",
		Short: "Open a replay in the browser viewer, or compare two",
		Long: `view serves one replay (.rwd, or an official file of a game: ` + strings.Join(source.StreamEndings(), ", ") + `)
and prints the URL of its page: a board you scrub through turn by turn
(keyboard: Space, arrows, Home/End, ? for help; #turn=N in the URL opens
turn N), charts of the game's
figures, a cell inspector and each player's commands and their errors
(inferred from an official file that records none, where its format
infers them).
Each page exports a clip: a PNG of the turn shown, or a WebM video of
the board (and the charts) over a range of turns, recorded by the browser.

With two files, view serves their compare page instead: the boards side
by side on one scrubber (the same turn, or each its own), the commands
of both with those that differ marked, the charts of both overlaid (A
solid, B dashed) and the first divergence that "rewind diff A B" finds
marked on the scrubber. A file that cannot be read ends it with status 2.
Stop it with Ctrl-C. For a file that opens without a server, see
"rewind export --html".`,
		Example: `  rewind view game.rwd
  rewind view game.rwd --addr 127.0.0.1:0
  rewind view game.rwd fork.rwd`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.stdout, opts.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			ctx, stop := interruptContext(cmd.Context())
			defer stop()
			if len(args) == 2 {
				return runCompareView(ctx, args[0], args[1], opts)
			}
			return runView(ctx, args[0], opts)
		},
	}
	addServeFlags(cmd, opts)
	return cmd
}

// runView checks that file opens, then serves it until ctx ends.
func runView(ctx context.Context, file string, opts *serveOptions) error {
	if st, err := os.Stat(file); err == nil && st.IsDir() {
		return usagef("view %s: a folder, not a replay; `rewind serve %s` shows the replays in it as a library, `rewind view FILE` one of them", file, file)
	}
	lib, err := viewer.OpenFile(file)
	if err != nil {
		return err
	}
	defer lib.Close()
	id := filepath.Base(file)
	// Its page reads it again on each request; check it opens now.
	s, err := source.OpenStream(file)
	if err != nil {
		return fmt.Errorf("view %s: %w", file, err)
	}
	s.Close()
	return serveLibrary(ctx, lib, opts, viewer.ReplayURL(id))
}

// runCompareView checks that files a and b open, then serves their
// compare page until ctx ends. A file that cannot be read is a
// usageError (status 2) naming it.
func runCompareView(ctx context.Context, a, b string, opts *serveOptions) error {
	for i, file := range []string{a, b} {
		if _, err := statInput(file); err != nil {
			return &usageError{fmt.Errorf("view %s: %w", "AB"[i:i+1], err)}
		}
		s, err := source.OpenStream(file)
		if err != nil {
			return &usageError{fmt.Errorf("view %s: %s: %w", "AB"[i:i+1], file, plainError(err))}
		}
		s.Close()
	}
	lib, err := viewer.OpenFile(a)
	if err != nil {
		return &usageError{fmt.Errorf("view A: %w", err)}
	}
	defer lib.Close()
	opts.pair = &viewer.Pair{A: a, B: b}
	return serveLibrary(ctx, lib, opts, "/compare")
}
