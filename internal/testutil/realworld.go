package testutil

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// RealWorldEnv names the folder of real tournament replays the tests read
// when set; otherwise they are read from ../shared/realworld beside the
// module root. The replays come from other people's repositories and are
// never committed to this project.
const RealWorldEnv = "REWIND_REALWORLD"

// RealWorldLogEnv, when set, names a file to which every test that reads a
// real replay appends one line (package, test, file), so that CI can list
// the real-replay tests it ran.
const RealWorldLogEnv = "REWIND_REALWORLD_LOG"

// RealWorldDir returns the folder of real replays: $REWIND_REALWORLD when
// set, else ../shared/realworld beside the module root. When the folder is
// absent the test is skipped with a one-line reason, also under CI=true: a
// fresh clone has no ../shared.
func RealWorldDir(tb testing.TB) string {
	tb.Helper()
	dir, err := realWorldDir()
	if err != nil {
		tb.Skip("real replays absent: " + err.Error())
	}
	return dir
}

// RealWorld returns the path of the real replay name (e.g.
// "RuntimeTerrorsVictory.cfr") in RealWorldDir, skipping the test with a
// one-line reason when it is absent, and notes the test in
// $REWIND_REALWORLD_LOG.
func RealWorld(tb testing.TB, name string) string {
	tb.Helper()
	p := filepath.Join(RealWorldDir(tb), name)
	if _, err := os.Stat(p); err != nil {
		tb.Skip("real replay absent: " + oneLine(err))
	}
	noteRealWorld(tb, name)
	return p
}

// RealWorldAll returns the paths of every .cfr real replay, sorted,
// skipping the test when there are none.
func RealWorldAll(tb testing.TB) []string {
	tb.Helper()
	RealWorldDir(tb)
	paths := RealWorldOptional(tb)
	if len(paths) == 0 {
		tb.Skip("no real replays (*.cfr) in " + RealWorldDir(tb))
	}
	return paths
}

// RealWorldOptional returns the paths of every .cfr real replay, sorted,
// or nil (with a one-line log) when there are none: for a test that covers
// the real replays among other fixtures and must not skip the others.
func RealWorldOptional(tb testing.TB) []string {
	tb.Helper()
	dir, err := realWorldDir()
	if err != nil {
		tb.Log("real replays absent: " + err.Error())
		return nil
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.cfr"))
	if len(paths) == 0 {
		tb.Log("no real replays (*.cfr) in " + dir)
		return nil
	}
	sort.Strings(paths)
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = filepath.Base(p)
	}
	noteRealWorld(tb, strings.Join(names, ","))
	return paths
}

// realWorldDir finds the folder without a test, for RealWorldDir.
func realWorldDir() (string, error) {
	if dir := os.Getenv(RealWorldEnv); dir != "" {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return "", fmt.Errorf("$%s=%s is not a folder", RealWorldEnv, dir)
		}
		return dir, nil
	}
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(filepath.Dir(root), "shared", "realworld")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("no %s (set $%s to a folder of real replays)", dir, RealWorldEnv)
	}
	return dir, nil
}

// ModuleRoot returns the folder holding go.mod, searched upward from the
// working directory (a test runs in its package's folder).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// noteRealWorld appends "test: files" to $REWIND_REALWORLD_LOG when set.
// A failure to write is reported as a test log line only: the note is for
// CI's listing, not part of any test's verdict.
func noteRealWorld(tb testing.TB, files string) {
	log := os.Getenv(RealWorldLogEnv)
	if log == "" {
		return
	}
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		tb.Logf("%s: %v", RealWorldLogEnv, err)
		return
	}
	defer f.Close()
	wd, _ := os.Getwd()
	pkg := wd
	if root, err := ModuleRoot(); err == nil {
		if rel, err := filepath.Rel(root, wd); err == nil {
			pkg = filepath.ToSlash(rel)
		}
	}
	fmt.Fprintf(f, "%s %s: %s\n", pkg, tb.Name(), files)
}
