package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/games/skyport/formats/jsn/jsntest"
	"github.com/rewind-game/rewind/internal/testutil"
)

// runRewind runs `rewind args...` as a process of its own (the test
// binary running main) and returns its output, stdout and stderr
// together, and its exit status.
func runRewind(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return string(out), ee.ExitCode()
	case err != nil:
		t.Fatalf("rewind %s: %v", strings.Join(args, " "), err)
	}
	return string(out), 0
}

// TestExitCodes: every reading command tells a whole file (0), a damaged
// one (1), one it cannot read or a wrong command line (2) and a file cut
// short (3) apart, as the process's exit status (DECISIONS: exit codes,
// docs/exit-codes.md).
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.rwd")
	if out, code := runRewind(t, "play", "--seed", "4", "--turns", "200", "--bot", "greedy", "--bot", "random", "-o", whole); code != 0 {
		t.Fatalf("play: status %d\n%s", code, out)
	}
	data := testutil.ReadFile(t, whole)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cut := write("cut.rwd", data[:len(data)*2/3])
	damaged := append([]byte(nil), data...)
	damaged[len(damaged)/2] ^= 0x10
	bad := write("damaged.rwd", damaged)
	junk := write("junk.rwd", []byte("hello, this is no replay\n"))
	jsn := jsntest.Recording()
	jsnCut := write("cut.jsn", jsn[:len(jsn)*2/3])
	missing := filepath.Join(dir, "missing.rwd")

	cases := []struct {
		args []string
		want int
		says string
	}{
		{[]string{"verify", whole}, 0, "OK "},
		{[]string{"info", whole}, 0, "complete"},
		{[]string{"analyze", whole}, 0, ""},
		{[]string{"report", whole, "-o", filepath.Join(dir, "whole.html")}, 0, "wrote "},

		{[]string{"verify", cut}, 3, "INCOMPLETE "},
		{[]string{"info", cut}, 3, "incomplete"},
		{[]string{"analyze", cut}, 3, "cut short"},
		{[]string{"analyze", cut, "--format", "json"}, 3, ""},
		{[]string{"report", cut, "-o", filepath.Join(dir, "cut.html")}, 3, "cut short"},
		{[]string{"export", cut, "-o", filepath.Join(dir, "cut.cfr")}, 3, "cut short"},
		{[]string{"info", jsnCut}, 3, "incomplete (cut short"},
		{[]string{"analyze", jsnCut}, 3, "cut short"},
		{[]string{"info", whole, cut}, 3, "incomplete"},

		{[]string{"server", "--game", "colorfight2", "--addr", "127.0.0.1:0", "--dir", filepath.Join(dir, "srv"), "--games", "1"}, 2, "--games is not for"},

		{[]string{"verify", bad}, 1, "FAIL "},
		{[]string{"info", bad}, 1, "damage"},
		{[]string{"analyze", bad}, 1, ""},
		{[]string{"report", bad, "-o", filepath.Join(dir, "bad.html")}, 1, ""},
		{[]string{"info", cut, bad}, 1, ""},

		{[]string{"verify", missing}, 2, "missing.rwd"},
		{[]string{"info", missing}, 2, "missing.rwd"},
		{[]string{"analyze", missing}, 2, "missing.rwd"},
		{[]string{"report", missing, "-o", filepath.Join(dir, "m.html")}, 2, "missing.rwd"},
		{[]string{"info", junk}, 2, "not a replay"},
		{[]string{"analyze", junk}, 2, "not a replay"},
		{[]string{"verify", junk}, 2, ""},
		{[]string{"analyze", whole, "--format", "xml"}, 2, "--format"},
		{[]string{"verify", whole, "--no-such-flag"}, 2, "no-such-flag"},
		{[]string{"verify"}, 2, "arg"},
		{[]string{"no-such-command"}, 2, "unknown command"},
	}
	for _, c := range cases {
		out, code := runRewind(t, c.args...)
		if code != c.want || !strings.Contains(out, c.says) {
			t.Errorf("rewind %s: status %d, want %d (with %q)\n%s", strings.Join(c.args, " "), code, c.want, c.says, out)
		}
	}

	// analyze DIR: the worst of its replays (a cut one: 3; a damaged one: 1).
	for _, c := range []struct {
		files map[string][]byte
		want  int
	}{
		{map[string][]byte{"a.rwd": data}, 0},
		{map[string][]byte{"a.rwd": data, "b.rwd": data[:len(data)*2/3]}, 3},
		{map[string][]byte{"a.rwd": data, "b.rwd": data[:len(data)*2/3], "c.rwd": damaged}, 1},
	} {
		sub := t.TempDir()
		for name, b := range c.files {
			if err := os.WriteFile(filepath.Join(sub, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if out, code := runRewind(t, "analyze", sub); code != c.want {
			t.Errorf("analyze of a folder of %d: status %d, want %d\n%s", len(c.files), code, c.want, out)
		}
	}
}
