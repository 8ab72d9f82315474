package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/engine"
)

type recordVectorOptions struct {
	commands, cfr, out string
	force              bool
	stdout             io.Writer
	now                func() time.Time
}

func newRecordVectorCmd() *cobra.Command {
	opts := &recordVectorOptions{now: time.Now}
	cmd := &cobra.Command{
		Use:   "record-vector INPUT EXPECTED -o OUT.rwd",
		Short: "Record a conformance vector's game as a .rwd replay",
		Long: `record-vector plays a conformance vector's input on the setup of its
expected output (the reference's) and records the result as a .rwd file,
for a game whose vectors record (` + recordingVectors() + `).
The game is the one whose vector files end as INPUT and EXPECTED do (when
none's do, the only game whose vectors record).`,
		Example: `  rewind record-vector V.commands.json V.cfr -o V.rwd`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.commands, opts.cfr = args[0], args[1]
			opts.stdout = cmd.OutOrStdout()
			return runRecordVector(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.out, "output", "o", "", "output .rwd file (required)")
	cmd.Flags().BoolVar(&opts.force, "force", false, "replace the output file if it exists")
	cmd.MarkFlagRequired("output")
	return cmd
}

func runRecordVector(opts *recordVectorOptions) error {
	for _, in := range []string{opts.commands, opts.cfr} {
		if _, err := statInput(in); err != nil {
			return err
		}
	}
	v, err := vectorsOf(opts.commands, opts.cfr)
	if err != nil {
		return err
	}
	input, err := readReplayFile(opts.commands)
	if err != nil {
		return err
	}
	expected, err := readReplayFile(opts.cfr)
	if err == nil && strings.HasSuffix(v.Expected, ".gz") {
		expected, err = gunzip(opts.cfr, expected)
	}
	if err != nil {
		return err
	}
	if err := checkOutput(opts.out, opts.force); err != nil {
		return err
	}
	var rounds int
	err = writeOutput(opts.out, opts.force, func(w io.Writer) error {
		var err error
		rounds, err = v.Record(input, expected, w, opts.now(), "rewind "+version)
		return err
	})
	var fe *engine.VectorFileError
	switch {
	case errors.As(err, &fe) && fe.Expected:
		return fmt.Errorf("%s: %w", opts.cfr, err)
	case errors.As(err, &fe):
		return fmt.Errorf("%s: %w", opts.commands, err)
	case err != nil:
		return fmt.Errorf("%s: %w", opts.out, err)
	}
	st, _ := os.Stat(opts.out)
	fmt.Fprintf(opts.stdout, "wrote %s: %d rounds, %d bytes\n", opts.out, rounds, st.Size())
	return nil
}

// vectorsOf returns the vectors of the first registered game, in id
// order, that records them (engine.Vectors.Record) and whose input and
// expected files end as input and expected do; when none's do, those of
// the only game that records its vectors.
func vectorsOf(input, expected string) (*engine.Vectors, error) {
	var recording []*engine.Vectors
	for _, id := range engine.IDs() {
		g, _ := engine.About(id)
		if v := g.Vectors; v != nil && v.Record != nil {
			if strings.HasSuffix(input, v.Input) && strings.HasSuffix(expected, v.Expected) {
				return v, nil
			}
			recording = append(recording, v)
		}
	}
	if len(recording) == 1 {
		return recording[0], nil
	}
	return nil, fmt.Errorf("%s and %s: not the input and expected files of a vector rewind records (%s)", input, expected, recordingVectors())
}

// recordingVectors lists the games whose vectors record, each with its
// vector files' endings ("ColorfightII: NAME.commands.json NAME.cfr").
func recordingVectors() string {
	var out []string
	for _, id := range engine.IDs() {
		g, _ := engine.About(id)
		if v := g.Vectors; v != nil && v.Record != nil {
			out = append(out, fmt.Sprintf("%s: NAME%s NAME%s", g.Name, v.Input, v.Expected))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, "; ")
}

// gunzip decompresses data, the file at path, at most maxReplayFile
// bytes.
func gunzip(path string, data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxReplayFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(out) > maxReplayFile {
		return nil, fmt.Errorf("%s: over %d MiB decompressed", path, maxReplayFile>>20)
	}
	return out, nil
}
