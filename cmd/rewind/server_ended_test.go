package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/testutil"
)

// endedLine is the log line of a game's end (gameEnded).
// A ColorFight v1 player goes by its name and uid ("expander #1").
var endedLine = regexp.MustCompile(`(?m)game (\S+) ended after (\d+) of (\d+) turns: (\S+)(?: #\d+)? won \(([^)]*)\); recorded in (\S+)$`)

// TestServerLogsGameEnd runs `rewind server` for every game with a
// protocol, its seats filled by built-ins: the log says, once for each
// game, that the game ended, who won and where its file is (a file
// that is there, in --dir).
func TestServerLogsGameEnd(t *testing.T) {
	for _, c := range []struct {
		game string
		bots []string
		args []string
	}{
		{"skyport", []string{"hunter", "artillery"}, []string{"--max-player", "2", "--max-turn", "17", "--games", "1"}},
		{"colorfight2", []string{"economist", "greedy"}, []string{"--max-player", "2", "--max-turn", "200", "--first-round-time", "0"}},
		{"colorfight1", []string{"expander", "economist"}, []string{"--max-turn", "12", "--games", "1"}},
	} {
		t.Run(c.game, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "replays")
			args := append([]string{"--game", c.game, "--addr", "127.0.0.1:0", "--dir", dir, "--round-time", "0"}, c.args...)
			for _, b := range c.bots {
				args = append(args, "--bot", b)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var logs testutil.SyncBuffer
			cmd := serverCommand(&serverOptions{})
			cmd.SetOut(&logs)
			cmd.SetErr(&logs)
			cmd.SetArgs(args)
			done := make(chan error, 1)
			go func() { done <- cmd.ExecuteContext(ctx) }()
			waitFor(t, "a game's end in the log", func() bool { return endedLine.MatchString(logs.String()) }, logs.String)
			cancel()
			select {
			case <-done:
			case <-time.After(2 * time.Minute): // a safety net, not a verdict
				t.Fatalf("server did not stop\n%s", logs.String())
			}
			out := logs.String()
			m := endedLine.FindStringSubmatch(out)
			if !slices.Contains(c.bots, m[4]) || m[5] == "" {
				t.Errorf("the winner is %q (%q), not one of the bots %v:\n%s", m[4], m[5], c.bots, out)
			}
			if filepath.Dir(m[6]) != dir || !strings.HasSuffix(m[6], ".rwd") {
				t.Errorf("the file %s is not a .rwd in %s", m[6], dir)
			}
			if _, err := os.Stat(m[6]); err != nil {
				t.Errorf("the file the log names: %v", err)
			}
			told := 0
			for _, l := range strings.Split(out, "\n") {
				if strings.Contains(l, "ended") && strings.Contains(l, m[6]) {
					told++
				}
			}
			if told != 1 {
				t.Errorf("the game's end is told %d times:\n%s", told, out)
			}
		})
	}
}
