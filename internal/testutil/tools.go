package testutil

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// NeedTool returns the path of the first of names found in PATH (e.g.
// NeedTool(t, "chromium", "chromium-browser")). When none is found the test
// is skipped with a one-line reason, except under CI (the environment
// variable CI is "true"), where every test must run: there it fails.
func NeedTool(tb testing.TB, names ...string) string {
	tb.Helper()
	if len(names) == 0 {
		tb.Fatal("testutil.NeedTool: no tool named")
	}
	var firstErr error
	for _, name := range names {
		p, err := exec.LookPath(name)
		if err == nil {
			return p
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	msg := strings.Join(names, " or ") + " not on PATH: " + oneLine(firstErr)
	if os.Getenv("CI") == "true" {
		tb.Fatal(msg + " (CI=true: required tools must be installed)")
	} else {
		tb.Skip(msg)
	}
	return ""
}

// oneLine renders err on a single line.
func oneLine(err error) string {
	if err == nil {
		return "not found"
	}
	var ee *exec.Error
	if errors.As(err, &ee) && ee.Err != nil {
		err = ee.Err
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}

// LoggerBot returns the command line of the test bot that logs to stderr
// (internal/subprocess/testdata/logger.py, one file for every package
// that runs it) under python3, skipping the test as NeedTool does when
// python3 is absent.
func LoggerBot(tb testing.TB) string {
	tb.Helper()
	py := NeedTool(tb, "python3")
	root, err := ModuleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	return `"` + py + `" "` + filepath.Join(root, "internal", "subprocess", "testdata", "logger.py") + `"`
}
