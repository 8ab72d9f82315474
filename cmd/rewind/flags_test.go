package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// runCLI runs the root command with args and returns its error.
func runCLI(t *testing.T, args ...string) error {
	t.Helper()
	var out bytes.Buffer
	cmd := newRootCmd()
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	return cmd.Execute()
}

// Every range a flag's help states is enforced, with a message that names
// the flag and no package name.
func TestFlagRanges(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "g.rwd")
	tdir := filepath.Join(dir, "t")
	cases := []struct {
		args []string
		flag string
	}{
		{[]string{"play", "--turns", "0", "-o", out}, "--turns"},
		{[]string{"play", "--turns", "199", "-o", out}, "--turns"},
		{[]string{"play", "--turns", "2001", "-o", out}, "--turns"},
		{[]string{"play", "--deadline", "0s", "-o", out}, "--deadline"},
		{[]string{"play", "--deadline", "-1s", "-o", out}, "--deadline"},
		{[]string{"play", "--bot", "greedy", "-o", out}, "--bot"},
		{[]string{"tournament", "--games", "0", "--dir", tdir}, "--games"},
		{[]string{"tournament", "--parallel", "0", "--dir", tdir}, "--parallel"},
		{[]string{"tournament", "--players", "1", "--dir", tdir}, "--players"},
		{[]string{"tournament", "--players", "0", "--dir", tdir}, "--players"},
		{[]string{"tournament", "--players", "9", "--dir", tdir}, "--players"},
		{[]string{"tournament", "--turns", "100", "--dir", tdir}, "--turns"},
		{[]string{"tournament", "--turns", "3000", "--dir", tdir}, "--turns"},
		{[]string{"tournament", "--deadline", "0s", "--dir", tdir}, "--deadline"},
		{[]string{"tournament", "--bot", "greedy", "--dir", tdir}, "--bot"},
		{[]string{"analyze", "--parallel", "0", dir}, "--parallel"},
	}
	for _, c := range cases {
		err := runCLI(t, c.args...)
		wantErr(t, err, c.flag)
		if err != nil {
			for _, pkg := range []string{"colorfight2", "match:", "tournament:"} {
				if bytes.Contains([]byte(err.Error()), []byte(pkg)) {
					t.Errorf("%v: message names a package: %v", c.args, err)
				}
			}
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused play wrote its output")
	}
	if _, err := os.Stat(tdir); err == nil {
		t.Error("a refused tournament made its directory")
	}
}
