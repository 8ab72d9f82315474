package testutil

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SharedEnv names the environment variable that points at the folder
// ../shared/<name> (REWIND_ and name in upper case: REWIND_SKYPORT for
// "skyport").
func SharedEnv(name string) string { return "REWIND_" + strings.ToUpper(name) }

// Shared returns the folder of files from other people's repositories a
// test reads: $SharedEnv(name), else ../shared/<name> beside the module
// root. It skips the test with a one-line reason when marker, a file the
// folder must hold, is absent (also under CI=true: CI has ../shared).
// Nothing in it is ever copied into the tree.
func Shared(tb testing.TB, name, marker string) string {
	tb.Helper()
	env := SharedEnv(name)
	dir := os.Getenv(env)
	if dir == "" {
		root, err := ModuleRoot()
		if err != nil {
			tb.Skipf("%s: %v", name, err)
		}
		dir = filepath.Join(filepath.Dir(root), "shared", name)
	}
	if fi, err := os.Stat(filepath.Join(dir, marker)); err != nil || !fi.Mode().IsRegular() {
		tb.Skipf("no %s in %s (set $%s)", marker, dir, env)
	}
	noteRealWorld(tb, name)
	return dir
}
