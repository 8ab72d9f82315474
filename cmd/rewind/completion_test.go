package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// complete runs cobra's hidden completion command as a shell would and
// returns the candidates and the directive line.
func complete(t *testing.T, args ...string) ([]string, string) {
	t.Helper()
	var out bytes.Buffer
	if err := runCLITo(&out, io.Discard, append([]string{"__complete"}, args...)...); err != nil {
		t.Fatalf("complete %v: %v", args, err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	return lines[:len(lines)-1], lines[len(lines)-1]
}

// Shell completion offers replay files for the commands that read them,
// every built-in bot for --bot, and the choices of enumerated flags.
func TestCompletion(t *testing.T) {
	// ColorfightII's built-ins: play's and server's when no --game says
	// otherwise.
	cf2Bots := []string{"economist", "greedy", "raider", "random", "runtimeterrors", "turtle"}
	// cobra's directives: 4 no file completion, 8 filter by extension,
	// 16 folders only.
	for _, c := range []struct {
		args      []string
		want      []string
		directive string
	}{
		{[]string{"verify", ""}, []string{"rwd"}, ":8"},
		{[]string{"view", ""}, []string{"rwd", "cfr", "json", "mp.gz"}, ":8"},
		{[]string{"audit", ""}, []string{"cfr"}, ":8"},
		{[]string{"info", "a.rwd", ""}, []string{"rwd", "cfr", "json", "mp.gz"}, ":8"},
		{[]string{"verify", "--against", ""}, []string{"cfr"}, ":8"},
		{[]string{"serve", ""}, nil, ":16"},
		{[]string{"play", "--bot", ""}, cf2Bots, ":4"},
		{[]string{"play", "--game", "monad", "--bot", ""}, []string{"expander", "idle", "miner", "rusher"}, ":4"},
		{[]string{"tournament", "--game", "skyport", "--bot", ""}, []string{"artillery", "hunter", "miner", "random"}, ":4"},
		{[]string{"tournament", "--bot", "gr"}, []string{"greedy"}, ":4"},
		{[]string{"server", "--bot", ""}, cf2Bots, ":4"},
		{[]string{"analyze", "--format", ""}, []string{"table", "json", "csv"}, ":4"},
		{[]string{"server", "--preset", "rank"}, []string{"rank_2", "rank_4", "rank_8"}, ":4"},
		{[]string{"server", "--replay", ""}, []string{"always", "end", "never"}, ":4"},
	} {
		got, dir := complete(t, c.args...)
		if strings.Join(got, ",") != strings.Join(c.want, ",") || dir != c.directive {
			t.Errorf("complete %q: got %q %s, want %q %s", c.args, got, dir, c.want, c.directive)
		}
	}
	// An external command line for --bot: no built-in matches, so the
	// shell completes files.
	if got, dir := complete(t, "play", "--bot", "./my"); len(got) != 0 || dir != ":0" {
		t.Errorf("complete play --bot ./my: got %q %s, want file completion", got, dir)
	}
}
