package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// verify given a .cfr says it takes a .rwd and points to --against and
// rewind audit.
func TestVerifyRefusesCFR(t *testing.T) {
	err := runVerify(&verifyOptions{file: c06 + ".cfr", stdout: io.Discard})
	wantErr(t, err, ".cfr", "takes a .rwd", "--against", "rewind audit")
}

// A directory where a file is expected, and a missing file, are said
// plainly: no system call names.
func TestInputsArePlain(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.rwd")
	out := filepath.Join(dir, "out")
	runs := map[string]func(in string) error{
		"verify": func(in string) error { return runVerify(&verifyOptions{file: in, stdout: io.Discard}) },
		"export": func(in string) error { return runExport(&exportOptions{in: in, out: out, stdout: io.Discard}) },
		"html": func(in string) error {
			return runExport(&exportOptions{in: in, out: out, html: true, stdout: io.Discard})
		},
		"report":  func(in string) error { return runReport(&reportOptions{in: in, out: out, stdout: io.Discard}) },
		"analyze": func(in string) error { return runAnalyze(&analyzeOptions{path: in, parallel: 1, stdout: io.Discard}) },
		"info":    func(in string) error { return runCLI(t, "info", in) },
		"import":  func(in string) error { return runImport(&importOptions{in: in, out: out, stdout: io.Discard}) },
		"record-vector": func(in string) error {
			return runRecordVector(&recordVectorOptions{commands: in, cfr: c06 + ".cfr", out: out, stdout: io.Discard, now: fixedNow})
		},
	}
	for name, run := range runs {
		err := run(missing)
		wantErr(t, err, missing+": no such file")
		for _, op := range []string{"stat", "open "} {
			if err != nil && strings.Contains(err.Error(), op) {
				t.Errorf("%s: message names a system call: %v", name, err)
			}
		}
		if name == "analyze" {
			continue // a directory is what analyze DIR takes
		}
		wantErr(t, run(dir), dir+" is a directory")
	}
}

func TestPlainError(t *testing.T) {
	pe := &fs.PathError{Op: "statat", Path: "x.rwd", Err: syscall.ENOENT}
	for _, err := range []error{pe, fmt.Errorf("reading: %w", pe)} {
		got := plainError(err)
		if strings.Contains(got.Error(), "statat") || !strings.Contains(got.Error(), "x.rwd: no such file") {
			t.Errorf("plainError(%v) = %v", err, got)
		}
		if !errors.Is(got, fs.ErrNotExist) {
			t.Errorf("plainError(%v) no longer unwraps", err)
		}
	}
	le := &os.LinkError{Op: "rename", Old: ".x.partial", New: "x.rwd", Err: syscall.EACCES}
	if got := plainError(le).Error(); got != "x.rwd: permission denied" {
		t.Errorf("plainError(%v) = %q", le, got)
	}
	if plainError(nil) != nil {
		t.Error("plainError(nil) != nil")
	}
}
