package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// existing writes a file with known contents and returns its path.
func existing(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func assertUntouched(t *testing.T, p string) {
	t.Helper()
	if b, err := os.ReadFile(p); err != nil || string(b) != "precious" {
		t.Errorf("%s was changed: %q %v", p, b, err)
	}
}

func wantErr(t *testing.T, err error, subs ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("no error; want one mentioning %q", subs)
		return
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not mention %q", err, s)
		}
	}
}

// play refuses to replace a file without --force, and a bad setting never
// touches an existing output file.
func TestPlayKeepsExistingOutput(t *testing.T) {
	dir := t.TempDir()
	out := existing(t, dir, "g.rwd")
	base := playOptions{bots: []string{"greedy", "random"}, turns: 200, seed: 1, out: out, stdout: io.Discard}

	o := base
	_, err := runPlay(context.Background(), &o)
	wantErr(t, err, "--force")
	assertUntouched(t, out)

	for _, bad := range []playOptions{
		{bots: base.bots, turns: 0},
		{bots: []string{"greedy", "nosuchbot"}, turns: 200},
		{bots: []string{"greedy", "./no/such/bot --flag"}, turns: 200},
		{bots: []string{"greedy"}, turns: 200},
	} {
		bad.out, bad.force, bad.stdout, bad.logDir = out, true, io.Discard, dir
		_, err := runPlay(context.Background(), &bad)
		if err == nil {
			t.Errorf("play %v --turns %d accepted", bad.bots, bad.turns)
		}
		assertUntouched(t, out)
	}

	o = base
	o.force = true
	if _, err := runPlay(context.Background(), &o); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(out); string(b) == "precious" {
		t.Error("--force did not replace the file")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*partial")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	o.out = dir
	_, err = runPlay(context.Background(), &o)
	wantErr(t, err, "directory")
}

// export (.cfr and --html), report and record-vector refuse to replace a
// file without --force and replace it with it.
func TestWritersNeedForce(t *testing.T) {
	dir := t.TempDir()
	rwd := filepath.Join(dir, "c06.rwd")
	rv := &recordVectorOptions{commands: c06 + ".commands.json", cfr: c06 + ".cfr", out: rwd, stdout: io.Discard, now: fixedNow}
	if err := runRecordVector(rv); err != nil {
		t.Fatal(err)
	}
	wantErr(t, runRecordVector(rv), "--force")
	rv.force = true
	if err := runRecordVector(rv); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name string
		run  func(out string, force bool) error
	}{
		{"export", func(out string, force bool) error {
			return runExport(&exportOptions{in: rwd, out: out, force: force, stdout: io.Discard})
		}},
		{"export --html", func(out string, force bool) error {
			return runExport(&exportOptions{in: rwd, out: out, html: true, force: force, stdout: io.Discard})
		}},
		{"report", func(out string, force bool) error {
			return runReport(&reportOptions{in: rwd, out: out, force: force, stdout: io.Discard})
		}},
	}
	for _, c := range cases {
		out := existing(t, dir, strings.ReplaceAll(c.name, " ", "")+".out")
		err := c.run(out, false)
		wantErr(t, err, "--force")
		assertUntouched(t, out)
		if err := c.run(out, true); err != nil {
			t.Errorf("%s --force: %v", c.name, err)
		}
		if b, _ := os.ReadFile(out); string(b) == "precious" {
			t.Errorf("%s --force did not replace the file", c.name)
		}
		wantErr(t, c.run(dir, true), "directory")
	}
}

func fixedNow() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
