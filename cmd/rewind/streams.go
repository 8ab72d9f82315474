package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/analysis/report"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/viewer"
	"github.com/schollz/progressbar/v3"
)

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

// documented reports whether the replay at path is of a game with a
// document of its own (engine.Documented: StreamMeta.Document), which
// analyze takes through analysis.AnalyzeDocument; a file that does not
// open is taken as one, for that path to report why.
func documented(path string) bool {
	m, ok := streamMeta(path)
	return !ok || m.Document != nil
}

// openStreamFile is viewer.Options.OpenStream: any replay, a .cfr with
// its commands inferred (source.NewInferredStream); the stream owns f.
func openStreamFile(f *os.File) (engine.Stream, error) { return source.NewInferredStream(f, f) }

// analyzeStream writes the analysis a of a replay of a game
// without a document of its own.
func analyzeStream(opts *analyzeOptions, a *analysis.Analysis) error {
	switch opts.format {
	case "table", "json", "csv":
	default:
		return fmt.Errorf("unknown --format %q (want table, json or csv)", opts.format)
	}
	if a.Truncated != nil && opts.stderr != nil {
		fmt.Fprintf(opts.stderr, "warning: %s is cut short (%v); analysed its %d whole turns\n", opts.path, a.Truncated, a.Turns)
	}
	if opts.explain != 0 {
		return writeExplain(opts, func(turn int) (string, bool) {
			return a.ExplainLeadChange(turn, func(p int) string { return strconv.Quote(a.Name(p)) })
		})
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

// analyzeFile opens and analyzes one replay of any game
// (source.OpenStream): its analysis, and its game's own
// document (analysis.Document) when the game has one, else nil.
func analyzeFile(path string) (*analysis.Analysis, *analysis.Document, error) {
	s, err := source.OpenStream(path)
	if err != nil {
		return nil, nil, err
	}
	defer s.Close()
	if s.Meta().Document != nil {
		a, err := analysis.AnalyzeDocument(s)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		return a.G, a, nil
	}
	g, err := analysis.AnalyzeStream(s, analysis.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return g, nil, nil
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
		fmt.Fprintf(opts.stdout, "warning: %s is cut short (%v); the report covers its %d whole turns\n", opts.in, a.Truncated, a.Turns)
	}
	fmt.Fprintf(opts.stdout, "wrote %s\n", opts.out)
	return nil
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

// analyzeStreamDir is analyze DIR for the replays of games played through
// the seam: the analysis of each, in parallel, then per game its
// standings (table) or one CSV row per (game, player).
func analyzeStreamDir(opts *analyzeOptions, files []string) error {
	var bar *progressbar.ProgressBar
	var done func()
	if opts.progress {
		bar = filesBar(opts.stderr, len(files))
		done = func() { bar.Add(1) }
	}
	games := analysis.AnalyzeFiles(files, opts.parallel, source.OpenStream, analysis.Options{}, done)
	if bar != nil {
		bar.Finish()
	}
	failed := 0
	for _, g := range games {
		switch {
		case g.Err != nil:
			failed++
			fmt.Fprintf(opts.stderr, "skipped %v\n", g.Err)
		case g.Analysis.Truncated != nil:
			fmt.Fprintf(opts.stderr, "warning: %s is cut short (%v); analysed its %d whole turns\n", g.Path, g.Analysis.Truncated, g.Analysis.Turns)
		}
	}
	out := opts.stderr
	if opts.format == "table" {
		out = opts.stdout
	} else if err := analysis.WriteCorpusCSV(opts.stdout, games); err != nil {
		return err
	}
	for _, id := range engine.IDs() {
		n := 0
		for _, g := range games {
			if g.Analysis != nil && g.Analysis.Meta.Ruleset == id {
				n++
			}
		}
		if n == 0 {
			continue
		}
		info, _ := engine.About(id)
		rs, _ := engine.Get(id)
		fmt.Fprintf(out, "%s: %d games\n", info.Name, n)
		if err := analysis.WriteBotStandings(out, rs.Metrics()[engine.ScoreIndex(rs)].Name, analysis.Standings(games, id)); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "%d replays analyzed, %d skipped\n", len(files)-failed, failed)
	if failed == len(files) {
		return fmt.Errorf("no replay in %s could be analyzed", opts.path)
	}
	return nil
}
