package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/analysis/report"
	"github.com/rewind-game/rewind/replay/source"
)

type reportOptions struct {
	in, out string
	force   bool
	stdout  io.Writer
}

func newReportCmd() *cobra.Command {
	opts := &reportOptions{}
	cmd := &cobra.Command{
		Use:   "report FILE -o report.html",
		Short: "Write a self-contained HTML report of a replay",
		Long: `report analyzes a replay (.rwd or .cfr) and writes one HTML page with charts of
gold, energy, cells and tax per player over time and the list of events. The
page embeds everything it needs (Apache ECharts included) and opens from disk
with no network.

For a Monad replay (a .rwd of --game monad, or a reference log: replay.json,
.mp.gz) the page charts every series its analysis has (resources, units,
hives, cells, ... per player per turn), ranks the players with their final
facts, says who won, and lists its events.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.in, opts.stdout = args[0], cmd.OutOrStdout()
			return runReport(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.out, "output", "o", "report.html", "HTML file to write")
	cmd.Flags().BoolVar(&opts.force, "force", false, "replace the output file if it exists")
	return cmd
}

func runReport(opts *reportOptions) error {
	if _, err := statInput(opts.in); err != nil {
		return err
	}
	if isStreamFile(opts.in) {
		return reportStream(opts)
	}
	if source.IsMonadFile(opts.in) {
		return reportMonad(opts)
	}
	a, err := analysis.AnalyzeFile(opts.in)
	if err != nil {
		return err
	}
	err = writeOutput(opts.out, opts.force, func(w io.Writer) error {
		return report.Write(w, a, "rewind: "+filepath.Base(opts.in))
	})
	if err != nil {
		return err
	}
	if a.Truncated != nil {
		fmt.Fprintf(opts.stdout, "warning: %s is cut short (%v); the report covers its %d whole rounds\n", opts.in, a.Truncated, a.Rounds)
	}
	fmt.Fprintf(opts.stdout, "wrote %s\n", opts.out)
	return nil
}

// reportMonad writes the report of the Monad replay opts.in.
func reportMonad(opts *reportOptions) error {
	a, err := analysis.AnalyzeMonadFile(opts.in)
	if err != nil {
		return err
	}
	err = writeOutput(opts.out, opts.force, func(w io.Writer) error {
		return report.WriteMonad(w, a, "rewind: "+filepath.Base(opts.in))
	})
	if err != nil {
		return err
	}
	if a.Truncated != nil {
		fmt.Fprintf(opts.stdout, "warning: %s is cut short (%v); the report covers its %d whole turns\n", opts.in, a.Truncated, a.Turns)
	}
	fmt.Fprintf(opts.stdout, "wrote %s\n", opts.out)
	return nil
}
