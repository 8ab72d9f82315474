package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/analysis/report"
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
		Long: `report analyzes a replay (.rwd, or an official file of its game: ` + officialFormats() + `)
and writes one HTML page. The page embeds everything it needs (Apache
ECharts included) and opens from disk with no network.

For a game with an analysis document of its own (` + documentedGames() + `) the page
charts the document's series per player over time and lists the events.
For any other game it charts every metric the game declares per player
per round, ranks the players with their final values, says who won, and
lists the game's events.`,
		Example: `  rewind report game.rwd -o report.html`,
		Args:    cobra.ExactArgs(1),
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
	g, a, err := analyzeFile(opts.in)
	if err != nil {
		return err
	}
	if a == nil {
		return reportStream(opts, g)
	}
	err = writeOutput(opts.out, opts.force, func(w io.Writer) error {
		return report.WriteDocument(w, a, "rewind: "+filepath.Base(opts.in))
	})
	if err != nil {
		return err
	}
	if a.Truncated != nil {
		fmt.Fprintf(opts.stdout, "warning: %s %s (%v); the report covers its %d whole rounds\n", opts.in, stopWords(a.Truncated), a.Truncated, a.Rounds)
	}
	fmt.Fprintf(opts.stdout, "wrote %s\n", opts.out)
	return stopStatusError(a.Truncated)
}

// reportStream writes the report of a, the analysis of a replay
// of a game without a document of its own.
func reportStream(opts *reportOptions, a *analysis.Analysis) error {
	err := writeOutput(opts.out, opts.force, func(w io.Writer) error {
		return report.Write(w, a, "rewind: "+filepath.Base(opts.in))
	})
	if err != nil {
		return err
	}
	if a.Truncated != nil {
		fmt.Fprintf(opts.stdout, "warning: %s %s (%v); the report covers its %d whole turns\n", opts.in, stopWords(a.Truncated), a.Truncated, a.Turns)
	}
	fmt.Fprintf(opts.stdout, "wrote %s\n", opts.out)
	return stopStatusError(a.Truncated)
}
