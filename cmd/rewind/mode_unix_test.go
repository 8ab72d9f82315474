//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOutputMode: the files play, fork, export, report and import write
// get 0666 less the umask (0644 under the usual 022), like any file the
// user creates — not a temporary file's 0600.
func TestOutputMode(t *testing.T) {
	for _, umask := range []int{0o022, 0o027} {
		old := syscall.Umask(umask)
		dir := t.TempDir()
		rwd := filepath.Join(dir, "p.rwd")
		runs := [][]string{
			{"play", "--bot", "greedy", "--bot", "raider", "-o", rwd},
			{"fork", rwd, "--turn", "100", "-o", filepath.Join(dir, "f.rwd")},
			{"export", rwd, "-o", filepath.Join(dir, "e.cfr")},
			{"export", "--html", rwd, "-o", filepath.Join(dir, "e.html")},
			{"report", rwd, "-o", filepath.Join(dir, "r.html")},
		}
		for _, args := range runs {
			if out, err := runCLIOut(t, args...); err != nil {
				syscall.Umask(old)
				t.Fatalf("%q: %v\n%s", args, err, out)
			}
		}
		syscall.Umask(old)
		want := os.FileMode(0o666 &^ umask)
		for _, name := range []string{"p.rwd", "f.rwd", "e.cfr", "e.html", "r.html"} {
			st, err := os.Stat(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if got := st.Mode().Perm(); got != want {
				t.Errorf("umask %03o: %s has mode %03o, want %03o", umask, name, got, want)
			}
		}
	}
}
