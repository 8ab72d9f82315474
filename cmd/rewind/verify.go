package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/replay"
	"github.com/spf13/cobra"
)

type verifyOptions struct {
	file, against string
	stdout        io.Writer
}

func newVerifyCmd() *cobra.Command {
	opts := &verifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify FILE.rwd [--against FILE]",
		Short: "Re-simulate a .rwd replay and check every checkpoint",
		Long: `verify re-simulates a .rwd replay of any game on its ruleset's
engine and checks every checkpoint hash and the footer. It prints OK with the round count, or the round where
the re-simulation diverges. With --against it also compares every frame,
field by field, with an official replay of the same game (the formats
compared: ` + formatsWith(compareOp) + `).

Given an official replay, verify says it takes a .rwd and points to
--against and rewind audit where the file's format has them (exit status 2).

Exit status: 0 verified and complete; 1 diverged or damaged; 2 unreadable
or not a .rwd; 3 every whole round verifies but the recording stops early
(no footer, as when the recorder was killed).`,
		Example: `  rewind verify game.rwd
  rewind verify GAME.rwd --against GAME.cfr`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			opts.stdout = cmd.OutOrStdout()
			return runVerify(opts)
		},
	}
	cmd.Flags().StringVar(&opts.against, "against", "", "official replay to compare every frame with ("+formatsWith(compareOp)+")")
	return cmd
}

func runVerify(opts *verifyOptions) error {
	if _, err := statInput(opts.file); err != nil {
		return err
	}
	if opts.against != "" {
		if _, err := statInput(opts.against); err != nil {
			return err
		}
	}
	f, err := os.Open(opts.file)
	if err != nil {
		return plainError(err)
	}
	defer f.Close()
	if off, err := officialOf(f); err != nil {
		return plainError(err)
	} else if off != nil {
		ext, _ := source.StreamEnding(opts.file)
		if ext == "" {
			ext = fileEnding(*off)
		}
		return usagef("%s is an official %s replay; verify takes a .rwd (re-simulated from its commands)%s", opts.file, ext, pointers(opts.file, *off))
	}
	// A file whose header names a game rewind does not know is refused
	// naming it; any other damage is the reader's to report.
	game := ""
	if h, err := replay.ReadHeader(f); err == nil {
		r, err := engine.Get(h.Ruleset)
		if err != nil {
			return fmt.Errorf("%s: %w", opts.file, err)
		}
		game = r.ID()
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return plainError(err)
	}
	var against engine.Format
	if opts.against != "" {
		if against, err = againstFormat(opts.against); err != nil {
			return err
		}
		if g, ok := engine.GameOf(against.Name); ok && game != "" && game != g.Ruleset.ID() {
			return fmt.Errorf("%s is a %s replay; --against compares with an official %s %s", opts.file, game, g.Name, fileEnding(against))
		}
	}
	if opts.against == "" {
		// Every game re-simulates through the seam, with its ruleset's
		// own codec (engine.Codec) or the commands' text.
		res, err := replay.VerifySim(f, nil)
		if err != nil {
			return err
		}
		return reportVerify(opts, res, 0)
	}
	wf, err := os.Open(opts.against)
	if err != nil {
		return err
	}
	defer wf.Close()
	cmp, err := against.Compare(f, wf, opts.against)
	if err != nil {
		return err
	}
	res := &replay.VerifyResult{Rounds: cmp.Rounds, Complete: cmp.Complete, Err: cmp.Err}
	if res.Err != nil && !errors.Is(res.Err, replay.ErrTruncated) {
		res.Err = fmt.Errorf("against %s: %w", opts.against, res.Err)
	}
	return reportVerify(opts, res, cmp.Frames)
}

func reportVerify(opts *verifyOptions, res *replay.VerifyResult, frames int) error {
	against := ""
	if opts.against != "" {
		against = fmt.Sprintf(", %d frames equal to %s", frames, opts.against)
	}
	if res.Err == nil && res.Complete {
		fmt.Fprintf(opts.stdout, "OK %s: %d rounds%s\n", opts.file, res.Rounds, against)
		return nil
	}
	stop := res.Err
	if stop == nil {
		stop = replay.ErrTruncated
	}
	if stopStatus(stop) == exitIncomplete {
		fmt.Fprintf(opts.stdout, "INCOMPLETE %s: %d whole rounds verify%s; %v\n", opts.file, res.Rounds, against, stop)
	} else {
		fmt.Fprintf(opts.stdout, "FAIL %s: %v (%d rounds verified before)\n", opts.file, res.Err, res.Rounds)
	}
	return stopStatusError(stop)
}

// officialOf returns the official format of the file f, nil for a file
// no format claims (a .rwd, or anything else, which the .rwd reader
// refuses), and rewinds f.
func officialOf(f *os.File) (*engine.Format, error) {
	prefix := make([]byte, source.SniffBytes)
	n, err := io.ReadFull(f, prefix)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	if off, ok := source.LookupStreamFormat(prefix[:n]); ok {
		return &off, nil
	}
	return nil, nil
}

// againstFormat returns the official format of the file at path, which
// verify --against compares a .rwd with: one with a Compare.
func againstFormat(path string) (engine.Format, error) {
	in, err := os.Open(path)
	if err != nil {
		return engine.Format{}, plainError(err)
	}
	defer in.Close()
	off, err := officialOf(in)
	switch {
	case err != nil:
		return engine.Format{}, plainError(err)
	case off == nil:
		return engine.Format{}, usagef("--against %s: not an official replay (the formats compared: %s)", path, formatsWith(compareOp))
	case off.Compare == nil:
		return engine.Format{}, withoutOp(path, *off, compareOp, "verify --against")
	}
	return *off, nil
}

// fileEnding is the first file ending of f (".cfr"), its name when it
// has none.
func fileEnding(f engine.Format) string {
	if len(f.Exts) > 0 {
		return f.Exts[0]
	}
	return f.Name
}

// pointers tells what to run instead of verify on the official file at
// path of format f: verify --against when f compares, audit when it
// audits.
func pointers(path string, f engine.Format) string {
	var to []string
	if f.Compare != nil {
		to = append(to, fmt.Sprintf("to compare a .rwd with it: rewind verify GAME.rwd --against %s", path))
	}
	if f.Audit != nil {
		to = append(to, fmt.Sprintf("to check it against the rules: rewind audit %s", path))
	}
	if len(to) == 0 {
		return ""
	}
	s := strings.Join(to, "; ")
	return ". T" + s[1:]
}
