package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// SkyportEnv names the environment variable that points at Skyport's
// vectors, maps and recordings (../shared/skyport beside the module root
// when unset).
const SkyportEnv = "REWIND_SKYPORT"

// Skyport returns the folder of Skyport's vectors, or skips the test with
// a one-line reason when it is absent (also under CI=true: CI has it).
// Nothing in it is ever copied into the tree.
func Skyport(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv(SkyportEnv)
	if dir == "" {
		root, err := ModuleRoot()
		if err != nil {
			tb.Skipf("skyport vectors: %v", err)
		}
		dir = filepath.Join(filepath.Dir(root), "shared", "skyport")
	}
	if fi, err := os.Stat(filepath.Join(dir, "s01.input.json")); err != nil || !fi.Mode().IsRegular() {
		tb.Skipf("no Skyport vectors in %s (set $%s)", dir, SkyportEnv)
	}
	noteRealWorld(tb, "skyport")
	return dir
}
