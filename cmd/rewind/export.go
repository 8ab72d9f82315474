package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/viewer"
	"github.com/rewind-game/rewind/replay"
)

type exportOptions struct {
	in, out string
	format  string
	html    bool
	force   bool
	stdout  io.Writer
	stderr  io.Writer
}

func newExportCmd() *cobra.Command {
	opts := &exportOptions{}
	cmd := &cobra.Command{
		Use:   "export FILE -o OUT | export --html FILE -o OUT.html",
		Short: "Write a replay as its game's official file, or as one self-contained HTML page",
		Long: `export re-simulates a .rwd replay and writes it as its game's official
replay file, which the game's official viewer and tools open (--format
chooses among a game's formats; the formats export writes: ` + formatsWith(exportOp) + `).
The official description recorded with the game is kept; a game without
one gets the description the official server writes for its
configuration. An official file is written again in its own format.

With --html, export writes the viewer's replay page for FILE as one
self-contained file: board, controls, charts and every frame are inside
it, so it works opened from disk, with no server and no network. FILE is a
.rwd or an official file of any game (` + officialFormats() + `);
the page is the game's (its board, scrubber, commands, events and a chart
per metric).`,
		Example: `  rewind export game.rwd -o game.cfr
  rewind export --html game.rwd -o game.html`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.in = args[0]
			opts.stdout, opts.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			return runExport(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.out, "output", "o", "", "output file (required)")
	cmd.Flags().StringVar(&opts.format, "format", "", "the official format to write (formats with export: "+formatsWith(exportOp)+"; default: the game's first)")
	cmd.Flags().BoolVar(&opts.html, "html", false, "write the self-contained viewer page instead of an official file")
	cmd.Flags().BoolVar(&opts.force, "force", false, "replace the output file if it exists")
	cmd.MarkFlagRequired("output")
	return cmd
}

func runExport(opts *exportOptions) error {
	if _, err := statInput(opts.in); err != nil {
		return err
	}
	if ext := strings.ToLower(filepath.Ext(opts.out)); !opts.html && (ext == ".html" || ext == ".htm") {
		return fmt.Errorf("-o %s: without --html, export writes an official replay file, not a page; add --html for the viewer page, or name the output as the format's file", opts.out)
	}
	if opts.html {
		return exportHTML(opts)
	}
	in, err := os.Open(opts.in)
	if err != nil {
		return err
	}
	defer in.Close()
	f, err := exportFormat(opts, in)
	if err != nil {
		return fmt.Errorf("export %s: %w", opts.in, err)
	}
	if _, err := in.Seek(0, io.SeekStart); err != nil {
		return plainError(err)
	}
	var n int
	var cut error
	err = writeOutput(opts.out, opts.force, func(w io.Writer) error {
		var err error
		n, err = f.Export(in, w)
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
	return stopStatusError(cut)
}

// exportFormat returns the official format export writes the replay read
// from r as: --format; otherwise the format with an export whose file
// ending -o has; otherwise the first of the replay's game's formats with
// an export. A .rwd's game is its header's, an official file's its
// format's; a file whose game cannot be told is left to the export to
// report.
func exportFormat(opts *exportOptions, r io.Reader) (engine.Format, error) {
	br := bufio.NewReaderSize(r, source.SniffBytes)
	prefix, _ := br.Peek(source.SniffBytes)
	game := ""
	if k, err := source.Sniff(prefix); err == nil && k == source.RWD {
		if h, err := replay.ReadHeader(br); err == nil {
			game = h.Ruleset
		}
	} else if f, ok := source.LookupStreamFormat(prefix); ok {
		if g, ok := engine.GameOf(f.Name); ok {
			game = g.Ruleset.ID()
		}
	}
	info, known := engine.About(game)
	var f engine.Format
	switch {
	case opts.format != "":
		var err error
		if f, err = officialFormat(nil, opts.format); err != nil {
			return f, err
		}
		if f.Export == nil {
			return f, withoutOp("--format "+opts.format, f, exportOp, "export")
		}
	case byEnding(opts.out).Export != nil:
		f = byEnding(opts.out)
	case known:
		for _, g := range info.Formats {
			if g.Export != nil {
				f = g
				break
			}
		}
		if f.Export == nil {
			return f, fmt.Errorf("%s has no official format rewind writes (export writes: %s); export --html writes this game's page", info.Name, formatsWith(exportOp))
		}
	default:
		return f, fmt.Errorf("not a replay of a game rewind knows; -o's ending or --format names the format to write (%s)", formatsWith(exportOp))
	}
	if g, ok := engine.GameOf(f.Name); known && ok && g.Ruleset.ID() != game {
		ext := f.Name
		if len(f.Exts) > 0 {
			ext = f.Exts[0]
		}
		return f, fmt.Errorf("a %s holds %s games only; export --html writes this game's page", ext, g.Name)
	}
	return f, nil
}

// byEnding returns the registered format with an export whose file
// ending path has (ignoring case), the zero Format when none has.
func byEnding(path string) engine.Format {
	lower := strings.ToLower(path)
	for _, f := range engine.Formats() {
		for _, e := range f.Exts {
			if f.Export != nil && strings.HasSuffix(lower, e) {
				return f
			}
		}
	}
	return engine.Format{}
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
	if err := viewer.WriteReplayHTML(context.Background(), &buf, p, filepath.Base(opts.in)); err != nil {
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
