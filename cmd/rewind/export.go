package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/viewer"
	"github.com/rewind-game/rewind/replay"
)

type exportOptions struct {
	in, out string
	html    bool
	force   bool
	stdout  io.Writer
	stderr  io.Writer
}

func newExportCmd() *cobra.Command {
	opts := &exportOptions{}
	cmd := &cobra.Command{
		Use:   "export FILE -o OUT.cfr | export --html FILE -o OUT.html",
		Short: "Write a replay as an official .cfr, or as one self-contained HTML page",
		Long: `export re-simulates a .rwd replay and writes it as an official ColorfightII
.cfr replay (gzip'd JSON, replay_version 2) that the official viewer and any
.cfr tool can open. The info object recorded with the game is kept; games
without one get an info object built from their configuration.

With --html, export writes the viewer's replay page for FILE as one
self-contained file: board, controls, charts and every frame are inside
it, so it works opened from disk, with no server and no network. FILE is a
ColorfightII .rwd or .cfr, which gets ColorfightII's page, or a replay of
another game (its .rwd, or an official file read as a stream: a Monad
reference log, a Skyport .jsn), which gets the generic page (its board,
scrubber, commands, events and a chart per metric).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.in = args[0]
			opts.stdout, opts.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			return runExport(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.out, "output", "o", "", "output .cfr file (required)")
	cmd.Flags().BoolVar(&opts.html, "html", false, "write the self-contained viewer page instead of a .cfr")
	cmd.Flags().BoolVar(&opts.force, "force", false, "replace the output file if it exists")
	cmd.MarkFlagRequired("output")
	return cmd
}

func runExport(opts *exportOptions) error {
	if _, err := statInput(opts.in); err != nil {
		return err
	}
	if ext := strings.ToLower(filepath.Ext(opts.out)); !opts.html && (ext == ".html" || ext == ".htm") {
		return fmt.Errorf("-o %s: without --html, export writes a .cfr replay (gzip), not a page; add --html for the viewer page, or name the output .cfr", opts.out)
	}
	if opts.html {
		return exportHTML(opts)
	}
	if m, ok := streamMeta(opts.in); ok && m.Ruleset != replay.RulesetColorfight2 {
		return fmt.Errorf("export %s: a .cfr holds ColorfightII games only; export --html writes this game's page", opts.in)
	}
	in, err := os.Open(opts.in)
	if err != nil {
		return err
	}
	defer in.Close()
	var n int
	var cut error
	err = writeOutput(opts.out, opts.force, func(w io.Writer) error {
		var err error
		n, err = cfrimport.Export(in, w)
		if err != nil && n > 1 && source.CutShort(err) {
			// A recording cut short: its whole rounds make a valid
			// replay, as verify, analyze and the viewer use them.
			cut, err = err, nil
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("export %s: %w", opts.in, err)
	}
	if cut != nil {
		fmt.Fprintf(opts.stderr, "warning: %s is cut short (%v); exported its %d whole rounds\n", opts.in, cut, n-1)
	}
	fmt.Fprintf(opts.stdout, "wrote %s: %d frames\n", opts.out, n)
	return nil
}

// streamMeta returns the meta of the replay at path, read as a generic
// stream (source.OpenStream); ok is false when it does not open.
func streamMeta(path string) (m engine.StreamMeta, ok bool) {
	s, err := source.OpenStream(path)
	if err != nil {
		return m, false
	}
	defer s.Close()
	return *s.Meta(), true
}

// exportHTML writes the self-contained generic page of a replay (export
// --html), read as the viewer reads it (openStreamFile).
func exportHTML(opts *exportOptions) error {
	f, err := os.Open(opts.in)
	if err != nil {
		return err
	}
	s, err := openStreamFile(f)
	if err != nil {
		f.Close()
		return fmt.Errorf("export %s: %w", opts.in, err)
	}
	defer s.Close()
	p, err := viewer.PackStream(s, viewer.StreamLimits{})
	if err != nil {
		return fmt.Errorf("export %s: %w", opts.in, err)
	}
	var buf bytes.Buffer
	if err := viewer.WriteGenericHTML(context.Background(), &buf, p, filepath.Base(opts.in)); err != nil {
		return fmt.Errorf("export %s: %w", opts.in, err)
	}
	if err := writeOutput(opts.out, opts.force, func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	}); err != nil {
		return err
	}
	if p.Warning != "" {
		fmt.Fprintf(opts.stdout, "warning: %s\n", p.Warning)
	}
	fmt.Fprintf(opts.stdout, "wrote %s: %d turns, %d bytes, opens from disk with no network\n", opts.out, len(p.Frames)-1, buf.Len())
	return nil
}
