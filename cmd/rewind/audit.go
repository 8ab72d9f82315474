package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/internal/source"
)

type auditOptions struct {
	in     string
	format string
	limit  int
	stdout io.Writer
}

func newAuditCmd() *cobra.Command {
	opts := &auditOptions{}
	cmd := &cobra.Command{
		Use:   "audit FILE",
		Short: "Check that every transition of an official replay is one the rules allow",
		Long: `audit plays an official replay by the rules, inferring each round's
commands (as rewind import does), and reports every frame the rules do not
give: turn, where, field, the value found and the value the rules allow,
and where the format can, how the rules arrive at it. A violation
is reported only when a rule proves that no commands give the frame; a
round the inference finds no commands for, but no rule refutes, is listed
as "no commands found that explain this round; the file may still be legal".

A .rwd is audited by re-simulation: use rewind verify. The formats audit
takes: ` + formatsWith(auditOp) + `.

Exit status: 0 no violation (rounds the inference does not explain are
listed, and do not fail the audit); 1 violations found; 2 the file cannot
be read; 3 no violation in a file cut short.`,
		Example: `  rewind audit GAME.cfr
  rewind audit GAME.cfr --max 0`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.in, opts.stdout = args[0], cmd.OutOrStdout()
			return runAudit(opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "", formatFlagUsage(auditOp))
	cmd.Flags().IntVar(&opts.limit, "max", 100, "violations listed at most (0: all, never more than 100000)")
	return cmd
}

func runAudit(opts *auditOptions) error {
	src, err := readReplayFile(opts.in)
	if err != nil {
		if strings.HasPrefix(err.Error(), opts.in) {
			fmt.Fprintf(opts.stdout, "UNREADABLE %v\n", err)
		} else {
			fmt.Fprintf(opts.stdout, "UNREADABLE %s: %v\n", opts.in, err)
		}
		return &exitError{code: exitUnusable}
	}
	prefix := src
	if len(prefix) > 8 {
		prefix = prefix[:8]
	}
	if f, err := source.Sniff(prefix); err == nil && f == source.RWD {
		fmt.Fprintf(opts.stdout, "%s is a .rwd: it is audited by re-simulation, run: rewind verify %s\n", opts.in, opts.in)
		return &exitError{code: exitUnusable}
	}
	f, err := officialFormat(src, opts.format)
	if err != nil {
		fmt.Fprintf(opts.stdout, "UNREADABLE %s: %v\n", opts.in, err)
		return &exitError{code: exitUnusable}
	}
	if f.Audit == nil {
		fmt.Fprintf(opts.stdout, "UNREADABLE %v\n", withoutOp(opts.in, f, auditOp, "audit"))
		return &exitError{code: exitUnusable}
	}
	res, err := f.Audit(bytes.NewReader(src), opts.limit)
	if err != nil {
		fmt.Fprintf(opts.stdout, "UNREADABLE %s: %v\n", opts.in, err)
		return &exitError{code: exitUnusable}
	}
	for _, v := range res.Violations {
		fmt.Fprintln(opts.stdout, v)
	}
	for _, u := range res.Unexplained {
		fmt.Fprintln(opts.stdout, u)
	}
	if res.Cut != nil {
		fmt.Fprintf(opts.stdout, "warning: %s is cut short (%v); audited its %d whole rounds\n", opts.in, res.Cut, res.Rounds)
	}
	if len(res.Violations) > 0 {
		more := ""
		if res.More {
			more = fmt.Sprintf(" (the first %d listed; --max 0 lists all)", len(res.Violations))
		}
		fmt.Fprintf(opts.stdout, "VIOLATIONS %s: %d rounds played, %d violation(s)%s\n", opts.in, res.Rounds, len(res.Violations), more)
		return &exitError{code: exitFailed}
	}
	if len(res.Unexplained) > 0 {
		fmt.Fprintf(opts.stdout, "UNEXPLAINED %s: %d rounds played, no violation; %d round(s) the inference does not explain: the file may still be legal\n", opts.in, res.Rounds, len(res.Unexplained))
	} else {
		fmt.Fprintf(opts.stdout, "OK %s: %d rounds, every transition allowed by the rules\n", opts.in, res.Rounds)
	}
	return stopStatusError(res.Cut)
}
