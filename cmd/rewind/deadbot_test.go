package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
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

// An external bot that dies before answering turn 1 stops play with an
// error naming it, its first fault and its stderr tail; nothing is
// recorded and an existing replay is kept.
func TestPlayStopsOnDeadBot(t *testing.T) {
	dir := t.TempDir()
	dead := script(t, dir, "dead.sh", "echo 'ImportError: no module named colorfight' >&2\nexit 3\n")
	out := existing(t, dir, "g.rwd")
	var stdout bytes.Buffer
	res, err := runPlay(context.Background(), &playOptions{bots: []string{"greedy", dead}, turns: 200, seed: 1, out: out, force: true, stdout: &stdout})
	wantErr(t, err, dead, "before answering turn 1", "bot exited", "ImportError: no module named colorfight")
	if res != nil {
		t.Errorf("a result for a match whose bot died: turn %d", res.Turn)
	}
	assertUntouched(t, out)
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
	res, err := runPlay(context.Background(), &playOptions{bots: []string{"greedy", crash}, turns: 200, seed: 1, out: filepath.Join(dir, "g.rwd"), stdout: &stdout})
	if err != nil {
		t.Fatal(err)
	}
	if res.Players[1].Faults == 0 {
		t.Fatalf("no faults:\n%s", stdout.String())
	}
	s := stdout.String()
	rank := strings.Index(s, "rank  uid")
	note := strings.Index(s, "uid 2 ("+crash+") faulted")
	if rank < 0 || note < rank || !strings.Contains(s[note:], "bot exited") || !strings.Contains(s[note:], "segfault at round 3") {
		t.Errorf("output:\n%s", s)
	}
}
