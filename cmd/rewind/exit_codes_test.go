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

// mustRunRewind runs `rewind args...` as runRewind does and returns its
// output, failing t with the output unless it exits with status 0.
func mustRunRewind(t *testing.T, args ...string) string {
	t.Helper()
	out, code := runRewind(t, args...)
	if code != 0 {
		t.Fatalf("rewind %s: status %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// spoiltReplays are a played game's replay (seed 4, 200 turns, greedy
// against random) and copies of it spoilt in the ways the exit statuses
// tell apart, all in dir.
type spoiltReplays struct {
	dir   string
	whole string // the replay
	data  []byte // whole's bytes
	cut   string // whole's first two thirds
	// damaged is whole with one bit of its middle byte flipped, its
	// bytes damagedData.
	damaged     string
	damagedData []byte
	junk        string // bytes that are no replay
}

// newSpoiltReplays plays the game (a process of its own, runRewind) and
// writes the files in a folder of the test's.
func newSpoiltReplays(t *testing.T) spoiltReplays {
	t.Helper()
	s := spoiltReplays{dir: t.TempDir()}
	s.whole = filepath.Join(s.dir, "whole.rwd")
	mustRunRewind(t, "play", "--seed", "4", "--turns", "200", "--bot", "greedy", "--bot", "random", "-o", s.whole)
	s.data = testutil.ReadFile(t, s.whole)
	s.cut = s.write(t, "cut.rwd", s.data[:len(s.data)*2/3])
	s.damagedData = append([]byte(nil), s.data...)
	s.damagedData[len(s.damagedData)/2] ^= 0x10
	s.damaged = s.write(t, "damaged.rwd", s.damagedData)
	s.junk = s.write(t, "junk.rwd", []byte("hello, this is no replay\n"))
	return s
}

// write writes b as the file name in s's folder and returns its path.
func (s spoiltReplays) write(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(s.dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExitCodes: every reading command tells a whole file (0), a damaged
// one (1), one it cannot read or a wrong command line (2) and a file cut
// short (3) apart, as the process's exit status (DECISIONS: exit codes,
// docs/exit-codes.md).
func TestExitCodes(t *testing.T) {
	s := newSpoiltReplays(t)
	dir, whole, data, cut, bad, damaged, junk := s.dir, s.whole, s.data, s.cut, s.damaged, s.damagedData, s.junk
	jsn := jsntest.Recording()
	jsnCut := s.write(t, "cut.jsn", jsn[:len(jsn)*2/3])
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
