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
		Use:   "view FILE",
		Short: "Open one replay in the browser viewer",
		Long: `view serves one replay (.rwd, or an official file of a game: ` + strings.Join(source.StreamEndings(), ", ") + `)
and prints the URL of its page: a board you scrub through turn by turn
(keyboard: Space, arrows, Home/End, ? for help; #turn=N in the URL opens
turn N), charts of the game's
figures, a cell inspector and each player's commands and their errors
(inferred from an official file that records none, where its format
infers them).
Stop it with Ctrl-C. For a file that opens without a server, see
"rewind export --html".`,
		Example: `  rewind view game.rwd
  rewind view game.rwd --addr 127.0.0.1:0`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.stdout, opts.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			ctx, stop := interruptContext(cmd.Context())
			defer stop()
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
