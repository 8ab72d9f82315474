package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/analysis/report"
	"github.com/rewind-game/rewind/replay/source"
	"github.com/rewind-game/rewind/viewer"
)

// isStreamFile reports whether path is a replay of a game played through
// the seam (source.OpenStream reads it): the commands then take the
// generic path.
func isStreamFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return source.IsStream(f)
}

// openStreamFile is viewer.Options.OpenStream: the stream owns f.
func openStreamFile(f *os.File) (source.Stream, error) { return source.NewStream(f, f) }

// analyzeStream analyzes a replay of a game played through the seam.
func analyzeStream(opts *analyzeOptions) error {
	switch opts.format {
	case "table", "json", "csv":
	default:
		return fmt.Errorf("unknown --format %q (want table, json or csv)", opts.format)
	}
	if opts.explain != 0 {
		return fmt.Errorf("--explain is ColorfightII's (its lead changes' causes); %s is another game's replay", opts.path)
	}
	a, err := analyzeStreamFile(opts.path)
	if err != nil {
		return err
	}
	if a.Truncated != nil && opts.stderr != nil {
		fmt.Fprintf(opts.stderr, "warning: %s is cut short (%v); analysed its %d whole turns\n", opts.path, a.Truncated, a.Turns)
	}
	switch opts.format {
	case "table":
		return a.WriteTable(opts.stdout)
	case "json":
		return a.WriteJSON(opts.stdout)
	}
	switch opts.kind {
	case "series":
		return a.WriteSeriesCSV(opts.stdout)
	case "summary":
		return a.WriteCSV(opts.stdout)
	}
	return fmt.Errorf("--csv %q: want series or summary", opts.kind)
}

// analyzeStreamFile opens and analyzes one replay of the generic path.
func analyzeStreamFile(path string) (*analysis.Generic, error) {
	s, err := source.OpenStream(path)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	a, err := analysis.AnalyzeStream(s, analysis.GenericOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// reportStream writes the report of a replay of the generic path.
func reportStream(opts *reportOptions) error {
	a, err := analyzeStreamFile(opts.in)
	if err != nil {
		return err
	}
	err = writeOutput(opts.out, opts.force, func(w io.Writer) error {
		return report.WriteGeneric(w, a, "rewind: "+filepath.Base(opts.in))
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

// exportStreamHTML writes the self-contained generic page of a replay of
// the generic path (export --html).
func exportStreamHTML(opts *exportOptions) error {
	s, err := source.OpenStream(opts.in)
	if err != nil {
		return err
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
