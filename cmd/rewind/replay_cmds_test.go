package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/testutil"
)

const c06 = "../../testdata/conformance/c06"

func TestRecordVerifyExportInfo(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "c06.rwd")
	var out bytes.Buffer
	fixed := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	if err := runRecordVector(&recordVectorOptions{commands: c06 + ".commands.json", cfr: c06 + ".cfr", out: rwd, stdout: &out, now: fixed}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "200 rounds") {
		t.Errorf("record-vector said %q", out.String())
	}

	out.Reset()
	if err := runVerify(&verifyOptions{file: rwd, against: c06 + ".cfr", stdout: &out}); err != nil {
		t.Fatalf("verify --against: %v\n%s", err, out.String())
	}
	if !strings.HasPrefix(out.String(), "OK ") || !strings.Contains(out.String(), "200 rounds, 201 frames equal") {
		t.Errorf("verify said %q", out.String())
	}

	cfrOut := filepath.Join(dir, "c06.cfr")
	out.Reset()
	if err := runExport(&exportOptions{in: rwd, out: cfrOut, stdout: &out}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(testutil.GunzipFile(t, cfrOut), testutil.GunzipFile(t, c06+".cfr")) {
		t.Error("exported .cfr differs from the official one")
	}

	out.Reset()
	if err := runCLITo(&out, os.Stderr, "info", rwd, c06+".cfr"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"format:   rwd", "stored explicitly", "2026-01-02T03:04:05Z", "bot0_greedy", "format:   cfr", `"game_id":"1795288112840"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("info output lacks %q:\n%s", want, out.String())
		}
	}

	// A truncated copy: exit status 3 and the number of whole rounds.
	b, _ := os.ReadFile(rwd)
	trunc := filepath.Join(dir, "trunc.rwd")
	os.WriteFile(trunc, b[:len(b)*2/3], 0o644)
	out.Reset()
	err := runVerify(&verifyOptions{file: trunc, stdout: &out})
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitIncomplete || !strings.HasPrefix(out.String(), "INCOMPLETE ") {
		t.Errorf("truncated: err %v, output %q", err, out.String())
	}
	// A corrupted copy: exit status 1.
	bad := bytes.Clone(b)
	bad[len(bad)/2] ^= 0xff
	corrupt := filepath.Join(dir, "corrupt.rwd")
	os.WriteFile(corrupt, bad, 0o644)
	out.Reset()
	err = runVerify(&verifyOptions{file: corrupt, stdout: &out})
	if !errors.As(err, &ee) || ee.code != 1 || !strings.HasPrefix(out.String(), "FAIL ") {
		t.Errorf("corrupt: err %v, output %q", err, out.String())
	}
	// Not a replay.
	junk := filepath.Join(dir, "junk.rwd")
	os.WriteFile(junk, []byte("hello"), 0o644)
	if err := runVerify(&verifyOptions{file: junk, stdout: &out}); err == nil || !strings.Contains(err.Error(), "not a .rwd") {
		t.Errorf("junk: %v", err)
	}
}
