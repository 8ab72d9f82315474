package main

import (
	"fmt"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/rewind-game/rewind/internal/viewer"
	"github.com/rewind-game/rewind/internal/viewer/index"
)

func newIndexCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "index DIR",
		Short: "Build or update the index of a folder of replays",
		Long: `index builds, or brings up to date, the library index of DIR: the SQLite
file DIR/` + index.File + ` that rewind serve lists, filters, searches and rates
the replays from. Only files that are new, or whose size or modification time
changed, are read; rows of files that are gone are removed. The whole index
file is checked first (rewind serve only looks at each table when it starts).

A damaged index, or a file there that is not a rewind index, is set aside
(index.db.damaged) and rebuilt, with a warning. An index written by a newer
rewind is refused and left untouched.`,
		Example: `  rewind index tournament`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
			lib, err := viewer.OpenLibrary(args[0])
			if err != nil {
				return err
			}
			defer lib.Close()
			warn, err := lib.OpenIndexChecked()
			if err != nil {
				return err
			}
			if warn != nil {
				fmt.Fprintf(errw, "warning: %v\n", warn)
			}
			var progress func()
			if f, ok := errw.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				bar := progressbar.NewOptions(-1, progressbar.OptionSetWriter(errw), progressbar.OptionSetDescription("reading"),
					progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
				defer bar.Finish()
				progress = func() { bar.Add(1) }
			}
			start := time.Now()
			st, err := lib.Sync(progress)
			if err != nil {
				return err
			}
			// The standings, stored with the index: counted again when
			// files came out of game order (waits for Sync's
			// background count), so that serve answers them at once.
			if err := lib.Index().Recount(); err != nil {
				return err
			}
			el := time.Since(start)
			rate := ""
			if st.Read > 0 {
				rate = fmt.Sprintf(" (%.0f files/s)", float64(st.Read)/el.Seconds())
			}
			fmt.Fprintf(out, "%s: %d replays indexed; %d read%s, %d removed, in %v\n", lib.Index().Path(), st.Files, st.Read, rate, st.Removed, el.Round(time.Millisecond))
			return nil
		},
	}
}
