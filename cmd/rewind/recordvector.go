package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
)

type recordVectorOptions struct {
	commands, cfr, out string
	force              bool
	stdout             io.Writer
	now                func() time.Time
}

func newRecordVectorCmd() *cobra.Command {
	opts := &recordVectorOptions{now: time.Now}
	cmd := &cobra.Command{
		Use:   "record-vector VECTOR.commands.json VECTOR.cfr -o OUT.rwd",
		Short: "Record a conformance vector's game as a .rwd replay",
		Long: `record-vector plays a conformance vector's command log on the map and players
of its official replay and records the result as a .rwd file (the map is
stored explicitly, the replay's info object is kept for export).`,
		Example: `  rewind record-vector V.commands.json V.cfr -o V.rwd`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.commands, opts.cfr = args[0], args[1]
			opts.stdout = cmd.OutOrStdout()
			return runRecordVector(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.out, "output", "o", "", "output .rwd file (required)")
	cmd.Flags().BoolVar(&opts.force, "force", false, "replace the output file if it exists")
	cmd.MarkFlagRequired("output")
	return cmd
}

func runRecordVector(opts *recordVectorOptions) error {
	for _, in := range []string{opts.commands, opts.cfr} {
		if _, err := statInput(in); err != nil {
			return err
		}
	}
	g, err := cfrimport.LoadVector(opts.commands, opts.cfr)
	if err != nil {
		return err
	}
	if err := checkOutput(opts.out, opts.force); err != nil {
		return err
	}
	err = writeOutput(opts.out, opts.force, func(w io.Writer) error {
		return cfrimport.RecordVector(g, w, opts.now(), "rewind "+version)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", opts.out, err)
	}
	st, _ := os.Stat(opts.out)
	fmt.Fprintf(opts.stdout, "wrote %s: %d rounds, %d bytes\n", opts.out, g.Config.MaxTurn, st.Size())
	return nil
}
