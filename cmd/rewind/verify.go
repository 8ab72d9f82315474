package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
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
		Use:   "verify FILE.rwd [--against FILE.cfr]",
		Short: "Re-simulate a .rwd replay and check every checkpoint",
		Long: `verify re-simulates a .rwd replay of any game on its ruleset's engine and
checks every checkpoint hash and the footer. It prints OK with the round
count, or the round where the re-simulation diverges. With --against it
also compares every frame, field by field, with an official .cfr replay of
the same game (as one written by rewind import).

Given an official .cfr, verify says it takes a .rwd and points to
--against and rewind audit (exit status 1).

Exit status: 0 verified and complete; 1 diverged, damaged, unreadable or
not a .rwd;
2 every whole round verifies but the recording stops early (no footer, as
when the recorder was killed).`,
		Example: `  rewind verify game.rwd
  rewind verify GAME.rwd --against GAME.cfr`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			opts.stdout = cmd.OutOrStdout()
			return runVerify(opts)
		},
	}
	cmd.Flags().StringVar(&opts.against, "against", "", "official .cfr replay to compare every frame with")
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
	if isCFR(f) {
		return fmt.Errorf("%s is an official .cfr replay; verify takes a .rwd (re-simulated from its commands). "+
			"To compare a .rwd with it: rewind verify GAME.rwd --against %s; to check it against the rules: rewind audit %s",
			opts.file, opts.file, opts.file)
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
	if opts.against != "" && game != "" && game != replay.RulesetColorfight2 {
		return fmt.Errorf("%s is a %s replay; --against compares with an official ColorfightII .cfr", opts.file, game)
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
	want, err := cfrimport.OpenFrames(wf)
	if err != nil {
		return fmt.Errorf("%s: %w", opts.against, err)
	}
	defer want.Close()
	res, frames, err := cfrimport.VerifyAgainst(f, want)
	if err != nil {
		return err
	}
	if res.Err != nil && !errors.Is(res.Err, replay.ErrTruncated) {
		res.Err = fmt.Errorf("against %s: %w", opts.against, res.Err)
	}
	return reportVerify(opts, res, frames)
}

func reportVerify(opts *verifyOptions, res *replay.VerifyResult, frames int) error {
	against := ""
	if opts.against != "" {
		against = fmt.Sprintf(", %d frames equal to %s", frames, opts.against)
	}
	switch {
	case res.Err == nil && res.Complete:
		fmt.Fprintf(opts.stdout, "OK %s: %d rounds%s\n", opts.file, res.Rounds, against)
		return nil
	case errors.Is(res.Err, replay.ErrTruncated):
		fmt.Fprintf(opts.stdout, "INCOMPLETE %s: %d whole rounds verify%s; %v\n", opts.file, res.Rounds, against, res.Err)
		return &exitError{code: 2}
	default:
		fmt.Fprintf(opts.stdout, "FAIL %s: %v (%d rounds verified before)\n", opts.file, res.Err, res.Rounds)
		return &exitError{code: 1}
	}
}

// isCFR reports whether f starts like an official .cfr replay (gzip or
// JSON) rather than a .rwd, and rewinds it.
func isCFR(f *os.File) bool {
	var b [2]byte
	n, _ := io.ReadFull(f, b[:])
	f.Seek(0, io.SeekStart)
	if n < 2 {
		return false
	}
	return b[0] == 0x1f && b[1] == 0x8b || b[0] == '{'
}
