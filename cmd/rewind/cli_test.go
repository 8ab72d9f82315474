package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// runCLIOut runs the root command in the test process with args and
// returns its output (stdout and stderr together) and its error.
func runCLIOut(tb testing.TB, args ...string) (string, error) {
	tb.Helper()
	var out bytes.Buffer
	err := runCLITo(&out, &out, args...)
	return out.String(), err
}

// mustRunCLI runs the root command in the test process with args and
// returns its output, failing tb with the output when the command fails.
func mustRunCLI(tb testing.TB, args ...string) string {
	tb.Helper()
	out, err := runCLIOut(tb, args...)
	if err != nil {
		tb.Fatalf("rewind %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// runCLITo runs the root command in the test process with args, writing
// its output to stdout and its errors and warnings to stderr, and returns
// its error.
func runCLITo(stdout, stderr io.Writer, args ...string) error {
	cmd := newRootCmd()
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	cmd.SetArgs(args)
	return cmd.Execute()
}
