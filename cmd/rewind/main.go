// Command rewind runs, records, verifies, analyzes and shows matches of
// turn-based AI games. Its commands are documented in docs/commands,
// generated from their help by "rewind gendocs".
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/replay"
)

// The exit statuses of every command (docs/exit-codes.md), decided here
// from the error a command returns and nowhere else; 0 is success.
const (
	// exitFailed: the check failed (a damaged file, an audit violation,
	// a divergence) or the command could not do its work.
	exitFailed = 1
	// exitUnusable: the input cannot be read, or the command line is
	// wrong.
	exitUnusable = 2
	// exitIncomplete: the file is cut short and sound as far as it goes.
	exitIncomplete = 3
)

// exitCodes is the help's paragraph on the exit statuses.
const exitCodes = `Exit status, for every command: 0 success; 1 the check failed (a damaged
file, an audit violation) or the work could not be done; 2 the input cannot
be read or the command line is wrong; 3 the file is incomplete (cut short)
and sound as far as it goes (docs/exit-codes.md).`

// exitError carries a specific exit status without printing anything more.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// usageError is a command line a command cannot act on (exitUnusable).
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usagef is a usageError with fmt.Errorf's message.
func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// exitCode is the exit status of a command that returned err (not nil):
// an exitError's own; exitUnusable for a wrong command line (a
// usageError, or cobra's own checks of commands, flags and arguments) and
// for input that cannot be read (a missing or unreadable file, not a
// replay, a newer format); else stopStatus's.
func exitCode(err error) int {
	var ee *exitError
	var ue *usageError
	switch {
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue), cobraUsage(err):
		return exitUnusable
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission),
		errors.Is(err, replay.ErrNotReplay), errors.Is(err, source.ErrNotReplay), errors.Is(err, replay.ErrNewerVersion):
		return exitUnusable
	}
	return stopStatus(err)
}

// stopStatus is the exit status of a command that read a file until the
// error stop (nil: to its proper end): exitIncomplete when the file only
// ends early (source.CutShort: sound as far as it goes), exitFailed
// for anything else (damage, a divergence, a limit).
func stopStatus(stop error) int {
	switch {
	case stop == nil:
		return 0
	case source.CutShort(stop):
		return exitIncomplete
	}
	return exitFailed
}

// stopStatusError is stopStatus as a command's error: nil for a file read
// to its end, else an exitError (the reason already printed).
func stopStatusError(stop error) error {
	if code := stopStatus(stop); code != 0 {
		return &exitError{code: code}
	}
	return nil
}

// worseStatus is the outcome of a command that did two parts of its work
// with outcomes a and b: an error that is no exitError first (the work
// could not be done), then the worse exit status (exitUnusable, then
// exitFailed, then exitIncomplete), nil when both are.
func worseStatus(a, b error) error {
	rank := func(err error) int {
		var ee *exitError
		switch {
		case err == nil:
			return 0
		case !errors.As(err, &ee):
			return 4
		case ee.code == exitUnusable:
			return 3
		case ee.code == exitFailed:
			return 2
		}
		return 1
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// stopWords says why reading a file stopped early (stop not nil), as the
// warnings of analyze and report put it: "is cut short" or "is damaged".
func stopWords(stop error) string {
	if stopStatus(stop) == exitIncomplete {
		return "is cut short"
	}
	return "is damaged"
}

// cobraUsage reports whether err is one of cobra's refusals of a command
// line that it does not pass through the flag error function or the
// commands' Args (newRootCmd routes those to usageError).
func cobraUsage(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "unknown command ") || strings.HasPrefix(msg, "required flag(s) ") ||
		strings.HasPrefix(msg, "if any flags in the group ")
}

func main() {
	cmd := newRootCmd()
	err := cmd.Execute()
	if err == nil {
		return
	}
	var ee *exitError
	if !errors.As(err, &ee) {
		fmt.Fprintln(os.Stderr, "rewind:", plainError(err))
	}
	os.Exit(exitCode(err))
}
