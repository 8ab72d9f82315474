package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConformCommand(t *testing.T) {
	var out bytes.Buffer
	err := runConform(&conformOptions{paths: []string{"../../testdata/conformance"}, out: &out})
	if err != nil {
		t.Fatalf("conform failed: %v\n%s", err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 6 {
		t.Fatalf("got %d lines, want 6:\n%s", len(lines), out.String())
	}
	for _, l := range lines {
		if !strings.Contains(l, ": PASS (") {
			t.Errorf("line %q is not a PASS", l)
		}
	}
}

func TestConformCommandFails(t *testing.T) {
	dir := t.TempDir()
	src := "../../testdata/conformance/c06"
	cmds, err := os.ReadFile(src + ".commands.json")
	if err != nil {
		t.Fatal(err)
	}
	replay, err := os.ReadFile(src + ".cfr")
	if err != nil {
		t.Fatal(err)
	}
	// c06's replay with c06's log minus one command: frame 2 differs.
	bad := strings.Replace(string(cmds), `"a `, `"u `, 1)
	os.WriteFile(filepath.Join(dir, "bad.commands.json"), []byte(bad), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.cfr"), replay, 0o644)
	os.WriteFile(filepath.Join(dir, "good.commands.json"), cmds, 0o644)
	os.WriteFile(filepath.Join(dir, "good.cfr"), replay, 0o644)
	var out bytes.Buffer
	err = runConform(&conformOptions{paths: []string{dir}, out: &out})
	if err == nil {
		t.Fatalf("a diverging vector did not fail the command:\n%s", out.String())
	}
	got := out.String()
	if !strings.Contains(got, "bad: FAIL round ") || !strings.Contains(got, "good: PASS (200 rounds)") {
		t.Errorf("output:\n%s", got)
	}
	exit := newRootCmd()
	exit.SetArgs([]string{"conform", filepath.Join(dir, "nonexistent.cfr")})
	exit.SetOut(&out)
	if err := exit.Execute(); err == nil {
		t.Error("missing file did not fail")
	}
}
