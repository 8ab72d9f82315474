package main

import (
	"bytes"
	"github.com/rewind-game/rewind/internal/testutil"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// export, like analyze and report, works on the whole rounds of a
// recording cut short (a killed match), says so, and writes a valid .cfr
// of them: verify --against finds every frame equal. A file damaged
// inside is still refused, and nothing is written.
func TestExportCutShortRecording(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.rwd")
	if err := runCLI(t, "play", "--bot", "greedy", "--bot", "turtle", "--turns", "200", "-o", full); err != nil {
		t.Fatal(err)
	}
	data := testutil.ReadFile(t, full)
	killed := filepath.Join(dir, "killed.rwd")
	if err := os.WriteFile(killed, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "killed.cfr")
	var stdout, stderr bytes.Buffer
	if err := runCLITo(&stdout, &stderr, "export", killed, "-o", out); exitCode(err) != exitIncomplete {
		t.Fatalf("export of a cut-short recording: %v (want exit status 3)", err)
	}
	if !strings.Contains(stderr.String(), "is cut short") || !strings.Contains(stderr.String(), "whole rounds") {
		t.Errorf("no warning: stderr %q", stderr.String())
	}
	// verify --against: every frame of the .cfr equals the re-simulated
	// one; the recording itself is incomplete (exit status 3).
	stdout.Reset()
	err := runCLITo(&stdout, &stdout, "verify", killed, "--against", out)
	if !strings.Contains(stdout.String(), "frames equal to") {
		t.Errorf("verify --against the exported .cfr: %v\n%s", err, stdout.String())
	}

	// Damage inside the file is not a cut: refused, nothing written.
	bad := append([]byte(nil), data...)
	bad[len(bad)/2] ^= 0x55
	damaged := filepath.Join(dir, "damaged.rwd")
	if err := os.WriteFile(damaged, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	dout := filepath.Join(dir, "damaged.cfr")
	if err := runCLI(t, "export", damaged, "-o", dout); err == nil {
		t.Error("export of a damaged recording succeeded")
	}
	if _, err := os.Stat(dout); err == nil {
		t.Error("a refused export wrote its output")
	}
}
