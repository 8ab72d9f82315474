package testutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records Skip and Fatal instead of ending
// the goroutine, so NeedTool's policy can be checked.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()               { r.TB.Helper() }
func (r *recorder) Skip(args ...any)      { r.skipped = strings.TrimSpace(sprint(args)) }
func (r *recorder) Fatal(args ...any)     { r.failed = strings.TrimSpace(sprint(args)) }
func (r *recorder) Fatalf(string, ...any) { r.failed = "fatalf" }
func (r *recorder) Skipf(string, ...any)  { r.skipped = "skipf" }
func sprint(args []any) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(a.(string))
	}
	return b.String()
}

func TestNeedTool(t *testing.T) {
	dir := t.TempDir()
	name := "rewind-testutil-tool"
	file := name
	if runtime.GOOS == "windows" {
		file += ".exe"
	}
	if err := os.WriteFile(filepath.Join(dir, file), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)

	t.Setenv("CI", "")
	r := &recorder{TB: t}
	if p := NeedTool(r, "rewind-no-such-tool", name); p != filepath.Join(dir, file) || r.skipped != "" || r.failed != "" {
		t.Errorf("present tool: path %q, skipped %q, failed %q", p, r.skipped, r.failed)
	}
	if _, err := exec.LookPath(name); err != nil {
		t.Fatalf("LookPath: %v", err)
	}

	r = &recorder{TB: t}
	NeedTool(r, "rewind-no-such-tool", "rewind-no-such-tool-2")
	if r.failed != "" || !strings.HasPrefix(r.skipped, "rewind-no-such-tool or rewind-no-such-tool-2 not on PATH: ") || strings.Contains(r.skipped, "\n") {
		t.Errorf("missing tool outside CI: skipped %q, failed %q; want a one-line skip", r.skipped, r.failed)
	}

	t.Setenv("CI", "true")
	r = &recorder{TB: t}
	NeedTool(r, "rewind-no-such-tool")
	if r.skipped != "" || !strings.HasPrefix(r.failed, "rewind-no-such-tool not on PATH: ") {
		t.Errorf("missing tool under CI=true: skipped %q, failed %q; want a failure", r.skipped, r.failed)
	}
}
