package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/replay/cfr"
)

// TestImportVerifyAudit: import writes a .rwd that verifies against its
// source and says where it came from; an existing output is kept unless
// --force; audit passes a clean replay (exit 0), lists a tampered one's
// violation (exit 1), refuses junk (exit 2) and points a .rwd to verify.
func TestImportVerifyAudit(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "c06.rwd")
	fixed := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	var out bytes.Buffer
	if err := runImport(&importOptions{in: c06 + ".cfr", out: rwd, stdout: &out, now: fixed}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "200 rounds") || !strings.Contains(out.String(), "sha256 ") {
		t.Errorf("import said %q", out.String())
	}
	out.Reset()
	if err := runVerify(&verifyOptions{file: rwd, against: c06 + ".cfr", stdout: &out}); err != nil || !strings.Contains(out.String(), "201 frames equal") {
		t.Fatalf("verify --against: %v %q", err, out.String())
	}
	out.Reset()
	if err := runInfo(&infoOptions{stdout: &out}, rwd); err != nil || !strings.Contains(out.String(), "imported: from c06.cfr") || !strings.Contains(out.String(), "commands inferred") {
		t.Fatalf("info: %v %q", err, out.String())
	}

	// No overwrite without --force; the file is untouched.
	before, _ := os.ReadFile(rwd)
	if err := runImport(&importOptions{in: c06 + ".cfr", out: rwd, stdout: &out, now: time.Now}); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("overwrite without --force: %v", err)
	}
	if after, _ := os.ReadFile(rwd); !bytes.Equal(before, after) {
		t.Fatal("refused import changed the file")
	}
	if err := runImport(&importOptions{in: c06 + ".cfr", out: rwd, force: true, stdout: &out, now: time.Now}); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*partial")); len(m) != 0 {
		t.Fatalf("temporary files left: %v", m)
	}

	out.Reset()
	if err := runAudit(&auditOptions{in: c06 + ".cfr", stdout: &out}); err != nil || !strings.HasPrefix(out.String(), "OK ") {
		t.Fatalf("audit clean: %v %q", err, out.String())
	}
	var ee *exitError
	junk := filepath.Join(dir, "junk.cfr")
	os.WriteFile(junk, []byte("not a replay"), 0o644)
	out.Reset()
	if err := runAudit(&auditOptions{in: junk, stdout: &out}); !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(out.String(), "UNREADABLE") {
		t.Fatalf("audit junk: %v %q", err, out.String())
	}
	out.Reset()
	if err := runAudit(&auditOptions{in: rwd, stdout: &out}); !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(out.String(), "rewind verify") {
		t.Fatalf("audit .rwd: %v %q", err, out.String())
	}
	// A replay whose gold was raised at turn 120: audit lists it (exit 1),
	// import refuses it and writes nothing.
	tampered := filepath.Join(dir, "tampered.cfr")
	writeTampered(t, c06+".cfr", tampered, 120)
	out.Reset()
	if err := runAudit(&auditOptions{in: tampered, stdout: &out}); !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(out.String(), "turn 120, user 1: gold") {
		t.Fatalf("audit with a violation: %v %q", err, out.String())
	}
	bad := filepath.Join(dir, "tampered.rwd")
	if err := runImport(&importOptions{in: tampered, out: bad, stdout: &out, now: time.Now}); err == nil || !strings.Contains(err.Error(), "turn 120") {
		t.Fatalf("import of a violating replay: %v", err)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Fatalf("output written for a refused import: %v", err)
	}
	if err := runImport(&importOptions{in: dir, out: bad, stdout: &out, now: time.Now}); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Fatalf("import of a directory: %v", err)
	}
}

// writeTampered copies the official replay src to dst with user 1's gold
// raised by 1 at turn.
func writeTampered(t *testing.T, src, dst string, turn int) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	d, err := cfr.NewDecoder(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc, err := cfr.NewEncoder(f, d.Header())
	if err != nil {
		t.Fatal(err)
	}
	var fr colorfight2.Frame
	for d.Next(&fr) == nil {
		if fr.Turn == turn {
			for k := range fr.Users {
				if fr.Users[k].UID == 1 {
					fr.Users[k].Gold++
				}
			}
		}
		if err := enc.WriteFrame(&fr); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
}
