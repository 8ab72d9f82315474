package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorsSayWhatToType: each refusal of a command line exits 2 and
// says, besides what is wrong, what to type instead: the valid range and
// a value, an example, `rewind COMMAND --help`, or "did you mean".
func TestErrorsSayWhatToType(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.rwd")
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"bad --round-time", []string{"server", "--round-time", "abc", "--addr", "127.0.0.1:0"}, []string{"0..60", "such as --round-time 0.5"}},
		{"--players out of range", []string{"tournament", "--bot", "greedy", "--bot", "raider", "--players", "99", "--dir", dir}, []string{"outside 2..8", "give a number from 2 to 8, such as --players 8"}},
		{"too few --bot", []string{"play", "--bot", "greedy", "-o", out}, []string{"needs 2 to 8 --bot, got 1", "such as --bot economist --bot greedy"}},
		{"view DIR", []string{"view", dir}, []string{"a folder, not a replay", "`rewind serve " + dir + "`"}},
		{"unparsable --seed", []string{"play", "--seed", "xyz", "-o", out}, []string{"--seed takes a whole number from 0, such as --seed 42", "`rewind play --help` lists its flags"}},
		{"unknown flag", []string{"play", "--bogus", "-o", out}, []string{"unknown flag: --bogus", "`rewind play --help` lists its flags"}},
		{"misspelt flag", []string{"play", "--turn", "5", "-o", out}, []string{"did you mean --turns?", "`rewind play --help`"}},
		{"misspelt built-in", []string{"play", "--bot", "greedyy", "--bot", "raider", "-o", out}, []string{"did you mean greedy?"}},
		{"bot command not on the PATH", []string{"play", "--bot", "greedy", "--bot", "no-such-program-rewind bot.py", "-o", out}, []string{"not found", "give the program's path (such as ./mybot"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, code := runRewind(t, c.args...)
			if code != exitUnusable {
				t.Errorf("rewind %s: status %d, want %d\n%s", strings.Join(c.args, " "), code, exitUnusable, got)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("rewind %s says\n%s\nwithout %q", strings.Join(c.args, " "), got, w)
				}
			}
		})
	}
}
