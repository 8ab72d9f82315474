package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/replay"
)

func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("shell-script bots")
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// An external bot that dies before answering its first round stops play
// with an error naming it, its first fault and its stderr tail, whatever
// the game; nothing is recorded and an existing replay is kept.
func TestPlayStopsOnDeadBot(t *testing.T) {
	for _, c := range []struct{ game, builtin string }{{"", "greedy"}, {"monad", "expander"}, {"skyport", "hunter"}} {
		t.Run(c.game, func(t *testing.T) {
			dir := t.TempDir()
			dead := script(t, dir, "dead.sh", "echo 'ImportError: no module named colorfight' >&2\nexit 3\n")
			out := existing(t, dir, "g.rwd")
			var stdout bytes.Buffer
			opts := &playOptions{game: c.game, bots: []string{c.builtin, dead}, seed: 1, out: out, force: true, stdout: &stdout, deadline: time.Minute}
			info, _ := gameInfo(c.game)
			opts.turns = info.DefaultTurns
			res, err := runPlay(context.Background(), opts)
			wantErr(t, err, dead, "before answering its first "+strings.TrimSuffix(info.Round, "s"), "ImportError: no module named colorfight")
			if res != nil {
				t.Errorf("a result for a match whose bot died: turn %d", res.Turn)
			}
			assertUntouched(t, out)
		})
	}
}

// A bot that answers some rounds and then dies: the match is played and
// recorded, and play prints its first fault and stderr tail after the
// ranking.
func TestPlayReportsFaultedBot(t *testing.T) {
	dir := t.TempDir()
	crash := script(t, dir, "crash.sh", `read start
i=0
while read line; do
  i=$((i+1))
  echo '{"cmd_list":[]}'
  if [ $i -ge 3 ]; then echo "segfault at round $i" >&2; exit 1; fi
done
`)
	var stdout bytes.Buffer
	res, err := runPlay(context.Background(), &playOptions{bots: []string{"greedy", crash}, turns: 200, seed: 1, out: filepath.Join(dir, "g.rwd"), stdout: &stdout, deadline: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if res.Players[1].Faults == 0 {
		t.Fatalf("no faults:\n%s", stdout.String())
	}
	s := stdout.String()
	rank := strings.Index(s, "rank  seat")
	note := strings.Index(s, "player 2 ("+crash+") faulted")
	if rank < 0 || note < rank || !strings.Contains(s[note:], "bot exited") || !strings.Contains(s[note:], "segfault at round 3") {
		t.Errorf("output:\n%s", s)
	}
}

// A tournament keeps one stderr log per game and seat,
// DIR/game-NNNN.bot-UID.stderr.log, instead of one per seat overwritten
// by every game.
func TestTournamentLogsPerGame(t *testing.T) {
	dir := t.TempDir()
	// The bot writes its start message (uid and seed) to stderr and exits:
	// it faults every round, which a tournament records and carries on.
	echo := script(t, dir, "echo.sh", `read start
echo "$start" >&2
`)
	tdir := filepath.Join(dir, "t")
	opts := &tournamentOptions{play: playOptions{bots: []string{"greedy", echo}, turns: 200, seed: 5, stdout: &bytes.Buffer{}, deadline: time.Minute}, games: 3, parallel: 2, ahead: defaultAhead, dir: tdir}
	if err := runTournament(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(filepath.Join(tdir, "*.stderr.log"))
	if len(logs) != 3 {
		t.Fatalf("logs: %v", logs)
	}
	seen := map[string]bool{}
	for g, l := range logs {
		if !strings.HasPrefix(filepath.Base(l), "game-000") || !strings.Contains(filepath.Base(l), ".bot-") {
			t.Errorf("log %d named %s", g, l)
		}
		b, _ := os.ReadFile(l)
		if !strings.Contains(string(b), `"type":"start"`) {
			t.Errorf("%s: %q", l, b)
		}
		seen[string(b)] = true
	}
	if len(seen) != 3 {
		t.Errorf("the games' logs are not each their own: %d distinct", len(seen))
	}
}

// A bot that stays alive but never answers faults every round it is
// asked: play fails with its first fault instead of passing the match off
// as played, and (issue 25) keeps the replay, whose every round records
// the fault.
func TestPlayFailsWhenBotNeverAnswers(t *testing.T) {
	dir := t.TempDir()
	mute := script(t, dir, "mute.sh", "echo 'thinking...' >&2\nwhile read -r line; do :; done\n")
	out := filepath.Join(dir, "g.rwd")
	_, err := runPlay(context.Background(), &playOptions{bots: []string{"greedy", mute}, turns: 200, seed: 1, out: out, deadline: time.Millisecond, stdout: io.Discard})
	wantErr(t, err, mute, "failed every one of its 199 rounds", "thinking...", "the replay records each fault: "+out)
	f, err := os.Open(out)
	if err != nil {
		t.Fatalf("no replay: %v", err)
	}
	defer f.Close()
	faults := 0
	res, err := replay.VerifySim(f, func(s *replay.Sim) error {
		applied := s.Game().(*colorfight2.Game).Applied()
		if len(applied) == 2 && len(applied[1]) > 0 && applied[1][0].Err == colorfight2.ErrBotFault {
			faults++
		}
		return nil
	})
	if err != nil || res.Err != nil || !res.Complete || res.Rounds != 200 {
		t.Fatalf("verify: %+v %v", res, err)
	}
	if faults != 199 {
		t.Errorf("%d rounds record the bot's fault, want 199", faults)
	}
}
