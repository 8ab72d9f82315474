// Command rewind runs, records, verifies, analyzes and shows matches of
// turn-based AI games. Its commands are documented in docs/commands,
// generated from their help by "rewind gendocs".
package main

import (
	"errors"
	"fmt"
	"os"
)

// exitError carries a specific exit status without printing anything more.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	cmd := newRootCmd()
	err := cmd.Execute()
	if err == nil {
		return
	}
	var ee *exitError
	if errors.As(err, &ee) {
		os.Exit(ee.code)
	}
	fmt.Fprintln(os.Stderr, "rewind:", plainError(err))
	os.Exit(1)
}
