package testutil

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRealWorld(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "game.cfr"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "realworld.log")
	t.Setenv(RealWorldEnv, dir)
	t.Setenv(RealWorldLogEnv, log)
	t.Setenv("CI", "true")

	r := &recorder{TB: t}
	if p := RealWorld(r, "game.cfr"); p != filepath.Join(dir, "game.cfr") || r.skipped != "" || r.failed != "" {
		t.Errorf("present replay: path %q, skipped %q, failed %q", p, r.skipped, r.failed)
	}
	r = &recorder{TB: t}
	if ps := RealWorldAll(r); len(ps) != 1 || ps[0] != filepath.Join(dir, "game.cfr") || r.skipped != "" {
		t.Errorf("RealWorldAll: %q, skipped %q", ps, r.skipped)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if want := "internal/testutil TestRealWorld: game.cfr\n"; string(b) != want+want {
		t.Errorf("log %q, want two lines %q", b, want)
	}

	// Absent, also under CI=true: a one-line skip, never a failure.
	r = &recorder{TB: t}
	RealWorld(r, "other.cfr")
	if r.failed != "" || !strings.HasPrefix(r.skipped, "real replay absent: ") || strings.Contains(r.skipped, "\n") {
		t.Errorf("absent replay: skipped %q, failed %q", r.skipped, r.failed)
	}
	t.Setenv(RealWorldEnv, filepath.Join(dir, "nowhere"))
	r = &recorder{TB: t}
	RealWorldDir(r)
	if r.failed != "" || !strings.Contains(r.skipped, "is not a folder") {
		t.Errorf("absent folder: skipped %q, failed %q", r.skipped, r.failed)
	}
}

// TestGunzipFile: a gzip file written here reads back as what was written.
func TestGunzipFile(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write([]byte("frames")); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "x.gz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := GunzipFile(t, p); string(got) != "frames" {
		t.Errorf("GunzipFile = %q, want %q", got, "frames")
	}
	if got := ReadFile(t, p); !bytes.Equal(got, buf.Bytes()) {
		t.Errorf("ReadFile = %d bytes, want the %d written", len(got), buf.Len())
	}
}
