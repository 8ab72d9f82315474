package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// runCLI runs the root command with args and returns its error.
func runCLI(t *testing.T, args ...string) error {
	t.Helper()
	return runCLITo(io.Discard, io.Discard, args...)
}

// Every range a flag's help states is enforced, with a message that names
// the flag and no package name.
func TestFlagRanges(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "g.rwd")
	tdir := filepath.Join(dir, "t")
	sdir := filepath.Join(dir, "s")
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
		{[]string{"serve", "--memory", "1", dir}, "--memory"},
		{[]string{"server", "--memory", "1", "--addr", "127.0.0.1:0", "--dir", sdir}, "--memory"},
		{[]string{"server", "--max-turn", "199", "--dir", sdir}, "--max-turn"},
		{[]string{"server", "--max-turn", "2001", "--dir", sdir}, "--max-turn"},
		{[]string{"server", "--max-player", "3", "--dir", sdir}, "--max-player"},
		{[]string{"server", "--round-time", "0.1", "--dir", sdir}, "--round-time"},
		{[]string{"server", "--round-time", "21", "--dir", sdir}, "--round-time"},
		{[]string{"server", "--round-time", "fast", "--dir", sdir}, "--round-time"},
		{[]string{"server", "--first-round-time", "soon", "--dir", sdir}, "--first-round-time"},
		{[]string{"server", "--first-round-time", "61", "--dir", sdir}, "--first-round-time"},
		{[]string{"server", "--finish-time", "61", "--dir", sdir}, "--finish-time"},
		{[]string{"server", "--replay", "sometimes", "--dir", sdir}, "--replay"},
		{[]string{"server", "--bot", "nosuch", "--dir", sdir}, "--bot"},
		{[]string{"server", "--max-player", "2", "--bot", "greedy", "--bot", "greedy", "--bot", "turtle", "--dir", sdir}, "--bot"},
		{[]string{"server", "--preset", "ranked", "--dir", sdir}, "--preset"},
		{[]string{"server", "--lockstep-deadline", "0s", "--dir", sdir}, "--lockstep-deadline"},
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
	if _, err := os.Stat(sdir); err == nil {
		t.Error("a refused server made its replay folder")
	}
}
