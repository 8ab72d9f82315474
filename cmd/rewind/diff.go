package main

import (
	"fmt"
	"io"

	"github.com/rewind-game/rewind/internal/diff"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/spf13/cobra"
)

type diffOptions struct {
	a, b   string
	format string
	stdout io.Writer
	stderr io.Writer
}

func newDiffCmd() *cobra.Command {
	opts := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff A B [--format table|json|csv]",
		Short: "Compare two replays of a game: where they diverge, how their outcomes differ",
		Long: `diff reads two replays of one game side by side (each a .rwd or an official
file of its game: ` + officialFormats() + `) and compares them.

For two games of the same setup (the same game and ruleset version, seed,
map, turn limit and number of seats: the same state before the first round)
it gives the first turn whose commands differ, with what each seat sent in
A and in B, and the first turn whose state differs: by the games' hashes
when both files are .rwd (re-simulated), else by their frames (board,
values, ranking), with the cells, entities and values that differ. Turn T
is the game after T rounds; its commands are those of the round that led
to it, round T−1 (rounds numbered from 0, as fork counts them), so a
fork made with rewind fork --turn N and another bot first differs in
round N, its state at turn N+1. An official file of states records no commands: its
commands are not compared.

For any two games it compares the outcomes (each seat's rank and score at
each game's last frame) and every metric both declare, per seat, over the
turns both hold: the final values, the first turn they differ, the largest
gap (B − A) and the turns the lead between the games changed.

--format table (default) prints it for people; json prints one object
(docs/diff-json.md); csv prints the compared series, one row per turn,
metric and seat: turn,seat,metric,a,b,gap (gap = B − A), turns and seats
as the table numbers them.

Exit status: 0 the same game (same setup, same commands and states at every
turn, as many turns); 1 they differ, or a file is damaged (compared up to
the damage); 2 a file cannot be read or the command line is wrong; 3 no
difference up to where a file cut short ends.`,
		Example: `  rewind diff old.rwd new.rwd
  rewind diff game.rwd fork.rwd --format json
  rewind diff old.rwd new.rwd --format csv > series.csv
  rewind diff GAME.cfr game.rwd`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.a, opts.b = args[0], args[1]
			opts.stdout, opts.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			return runDiff(opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "table", "table, json or csv")
	return cmd
}

func runDiff(opts *diffOptions) error {
	switch opts.format {
	case "table", "json", "csv":
	default:
		return usagef("unknown --format %q (want table, json or csv)", opts.format)
	}
	for _, p := range []string{opts.a, opts.b} {
		if _, err := statInput(p); err != nil {
			return &usageError{err} // missing, unreadable, a folder
		}
	}
	a, err := source.OpenStream(opts.a)
	if err != nil {
		return plainError(err)
	}
	defer a.Close()
	b, err := source.OpenStream(opts.b)
	if err != nil {
		return plainError(err)
	}
	defer b.Close()
	var rows *diff.SeriesCSV
	var each func(diff.SeriesRow)
	if opts.format == "csv" {
		rows = diff.NewSeriesCSV(opts.stdout)
		each = rows.Row
	}
	res, err := diff.CompareRows(a, b, opts.a, opts.b, each)
	if err != nil {
		return err
	}
	for _, s := range []*diff.Side{&res.A, &res.B} {
		if s.Stop != nil {
			fmt.Fprintf(opts.stderr, "warning: %s %s (%v); compared its %d whole turns\n", s.File, stopWords(s.Stop), s.Stop, s.Turns)
		}
	}
	switch opts.format {
	case "json":
		err = res.WriteJSON(opts.stdout)
	case "csv":
		err = rows.Flush()
	default:
		err = res.WriteTable(opts.stdout)
	}
	if err != nil {
		return err
	}
	return diffStatus(res)
}

// diffStatus is diff's outcome (docs/exit-codes.md): exitFailed when a
// file is damaged or the games differ, exitIncomplete when a file is cut
// short and no difference was found before its end, nil for the same
// game.
func diffStatus(res *diff.Result) error {
	cut := false
	for _, s := range []*diff.Side{&res.A, &res.B} {
		if s.Stop != nil && !s.Cut {
			return &exitError{code: exitFailed}
		}
		cut = cut || s.Cut
	}
	onlyLength := res.Verdict == diff.Diverged && res.Commands == nil && res.State == nil
	switch {
	case cut && (res.Verdict == diff.Same || onlyLength):
		// The same as far as the file cut short goes.
		return &exitError{code: exitIncomplete}
	case res.Verdict == diff.Same:
		return nil
	}
	return &exitError{code: exitFailed}
}
