package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"text/tabwriter"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/replay/source"
)

type analyzeOptions struct {
	path     string
	format   string
	kind     string
	parallel int
	stdout   io.Writer
	stderr   io.Writer
	progress bool
}

func newAnalyzeCmd() *cobra.Command {
	opts := &analyzeOptions{}
	cmd := &cobra.Command{
		Use:   "analyze FILE|DIR [--format table|json|csv]",
		Short: "Analyze a replay (.rwd or .cfr), or every replay in a folder",
		Long: `analyze computes per-player, per-round series (gold, energy, income, tax,
cells, buildings, captures, theft, attack energy, commands and errors), the
game's events and a summary, from either replay format.

For a FILE: --format table (default) prints the summary and events; json
prints one object (schema: docs/analysis-json.md); csv prints the series, one
row per player per round (--csv summary: one row per player).

For a DIR: every .rwd and .cfr in it is analyzed in parallel; the output is
one CSV row per (game, player), followed by an aggregate per bot name
(games, wins, mean rank, mean gold, mean cells) on stderr as a table — or,
with --format table, only the aggregate.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.path = args[0]
			opts.stdout, opts.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			if f, ok := opts.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				opts.progress = true
			}
			return runAnalyze(opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "table", "table, json or csv")
	cmd.Flags().StringVar(&opts.kind, "csv", "series", "what --format csv writes for a file: series or summary")
	cmd.Flags().IntVar(&opts.parallel, "parallel", runtime.NumCPU(), "replays analyzed at once (DIR)")
	return cmd
}

func analyzeFile(path string) (*analysis.Analysis, error) {
	src, err := source.Open(path)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	a, err := analysis.Analyze(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

func runAnalyze(opts *analyzeOptions) error {
	st, err := os.Stat(opts.path)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return analyzeDir(opts)
	}
	a, err := analyzeFile(opts.path)
	if err != nil {
		return err
	}
	switch opts.format {
	case "table":
		return a.WriteTable(opts.stdout)
	case "json":
		return a.WriteJSON(opts.stdout)
	case "csv":
		return a.WriteCSV(opts.stdout, opts.kind)
	}
	return fmt.Errorf("unknown --format %q (want table, json or csv)", opts.format)
}

// botKey is how a player counts in the per-bot aggregate: its bot
// identity when the replay records one, else its username.
func botKey(p analysis.Standing) string {
	if p.Bot != "" {
		return p.Bot
	}
	return p.Username
}

func analyzeDir(opts *analyzeOptions) error {
	var files []string
	for _, pat := range []string{"*.rwd", "*.cfr"} {
		m, err := filepath.Glob(filepath.Join(opts.path, pat))
		if err != nil {
			return err
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	if len(files) == 0 {
		return fmt.Errorf("%s: no .rwd or .cfr replays", opts.path)
	}
	results := make([]*analysis.Analysis, len(files))
	errs := make([]error, len(files))
	var bar *progressbar.ProgressBar
	if opts.progress {
		bar = progressbar.NewOptions(len(files), progressbar.OptionSetWriter(opts.stderr),
			progressbar.OptionSetDescription("analyzing"), progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, opts.parallel); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i], errs[i] = analyzeFile(files[i])
				if bar != nil {
					bar.Add(1)
				}
			}
		}()
	}
	for i := range files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if bar != nil {
		bar.Finish()
	}

	type agg struct {
		games, wins     int
		rank, gold, cel float64
	}
	aggs := map[string]*agg{}
	var order []string
	cw := csv.NewWriter(opts.stdout)
	if opts.format != "table" {
		cw.Write([]string{"game", "format", "rounds", "rank", "uid", "username", "bot", "gold", "cells", "energy", "peak_cells", "captured", "lost", "stolen_in", "stolen_out"})
	}
	failed := 0
	for i, a := range results {
		if errs[i] != nil {
			failed++
			fmt.Fprintf(opts.stderr, "skipped %v\n", errs[i])
			continue
		}
		for _, s := range a.Summary.Ranking {
			if opts.format != "table" {
				cw.Write([]string{filepath.Base(files[i]), string(a.Format), strconv.Itoa(a.Rounds), strconv.Itoa(s.Rank), strconv.Itoa(s.UID),
					s.Username, s.Bot, i64(s.Gold), i64(s.Cells), i64(s.Energy), i64(s.PeakCells), i64(s.Captured), i64(s.Lost), i64(s.StolenIn), i64(s.StolenOut)})
			}
			k := botKey(s)
			g := aggs[k]
			if g == nil {
				g = &agg{}
				aggs[k] = g
				order = append(order, k)
			}
			g.games++
			if s.Rank == 1 {
				g.wins++
			}
			g.rank += float64(s.Rank)
			g.gold += float64(s.Gold)
			g.cel += float64(s.Cells)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := aggs[order[a]], aggs[order[b]]
		return x.rank/float64(x.games) < y.rank/float64(y.games)
	})
	out := opts.stderr
	if opts.format == "table" {
		out = opts.stdout
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "bot\tgames\twins\tmean rank\tmean gold\tmean cells")
	for _, k := range order {
		g := aggs[k]
		n := float64(g.games)
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%.0f\t%.1f\n", strconv.Quote(k), g.games, g.wins, g.rank/n, g.gold/n, g.cel/n)
	}
	tw.Flush()
	fmt.Fprintf(out, "%d replays analyzed, %d skipped\n", len(files)-failed, failed)
	if failed == len(files) {
		return fmt.Errorf("no replay in %s could be analyzed", opts.path)
	}
	return nil
}

func i64(v int64) string { return strconv.FormatInt(v, 10) }
