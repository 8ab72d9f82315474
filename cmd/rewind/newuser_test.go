package main

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/testutil"
)

// What surprised a new user (issue 40): each test here failed on the
// commit before its fix.

// TestTotalsSayTotal (item 5): analyze's table of a ColorfightII game
// heads its columns of cells captured and lost over the game "total …",
// not the names of the per-round series (captured, lost).
func TestTotalsSayTotal(t *testing.T) {
	out, err := runCLIOut(t, "analyze", c06+".cfr")
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Fields(strings.SplitN(out, "\n", 3)[1])
	for _, w := range []string{"captured", "lost", "stolen"} {
		i := strings.Index(strings.Join(head, " "), "total "+w)
		if i < 0 {
			t.Errorf("analyze's table heads %q: no %q", head, "total "+w)
		}
	}
}

// TestOneNamePerBot (item 10): a command bot's player is named by the
// same rule (match.SeatName: seat and the command's base name) in play
// and in tournament, as analyze of each replay shows it.
func TestOneNamePerBot(t *testing.T) {
	bot := testutil.LoggerBot(t)
	dir := t.TempDir()
	played := filepath.Join(dir, "p.rwd")
	mustRunCLI(t, "play", "--bot", "greedy", "--bot", bot, "--turns", "200", "-o", played)
	tdir := filepath.Join(dir, "t")
	mustRunCLI(t, "tournament", "--bot", "greedy", "--bot", bot, "--games", "1", "--turns", "200", "--dir", tdir)
	games, _ := filepath.Glob(filepath.Join(tdir, "*.rwd"))
	if len(games) != 1 {
		t.Fatalf("tournament games %v", games)
	}
	for _, f := range []string{played, games[0]} {
		out, err := runCLIOut(t, "analyze", f)
		if err != nil {
			t.Fatalf("analyze %s: %v\n%s", f, err, out)
		}
		if !strings.Contains(out, `"2_logger.py"`) {
			t.Errorf("%s: the command bot is not named 2_logger.py (as play names it):\n%s", f, out)
		}
	}
}

// infoSeats are the seat numbers of the "players:" lines rewind info
// prints.
func infoSeats(out string) []int {
	var seats []int
	in := false
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "players:") {
			in = true
			continue
		}
		f := strings.Fields(line)
		if !in || len(f) < 2 || !strings.HasPrefix(line, "    ") {
			continue
		}
		n, err := strconv.Atoi(f[0])
		if err != nil {
			break
		}
		seats = append(seats, n)
	}
	return seats
}

// tableSeats are the numbers of the column "seat" of analyze's table:
// the rows after its header, while that column holds a number.
func tableSeats(out string) []int {
	var seats []int
	col := -1
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if col < 0 {
			col = slices.Index(f, "seat")
			continue
		}
		if col >= len(f) {
			break
		}
		n, err := strconv.Atoi(f[col])
		if err != nil {
			break
		}
		seats = append(seats, n)
	}
	return seats
}

// TestSeatsFromOne (item 11): info's and analyze's tables number the
// players of every game from 1, as --bot SEAT= does: a Monad reference
// log's info listed them from 0, ColorfightII's analyze table headed
// them "uid".
func TestSeatsFromOne(t *testing.T) {
	dir := t.TempDir()
	sky := filepath.Join(dir, "s.rwd")
	mustRunCLI(t, "play", "--game", "skyport", "--turns", "17", "-o", sky)
	for _, f := range []string{c06 + ".cfr", "../../testdata/monad/official/m05.replay.json", sky} {
		out, err := runCLIOut(t, "info", f)
		if err != nil {
			t.Fatalf("info %s: %v", f, err)
		}
		if s := infoSeats(out); len(s) == 0 || s[0] != 1 {
			t.Errorf("info %s: players numbered %v, want from 1:\n%s", f, s, out)
		}
		out, err = runCLIOut(t, "analyze", f)
		if err != nil {
			t.Fatalf("analyze %s: %v", f, err)
		}
		seats := tableSeats(out)
		if len(seats) == 0 || slices.Min(seats) != 1 {
			t.Errorf("analyze %s: seats %v, want from 1", f, seats)
		}
	}
}

// TestForkSaysWhichBot (item 4): fork says, before it plays, which bot
// plays on in each seat and whose place a --fill takes (an external bot
// the replay names is never run); without --fill or --bot for that seat
// it refuses as a wrong command line, exit 2, saying what to give.
func TestForkSaysWhichBot(t *testing.T) {
	bot := testutil.LoggerBot(t)
	dir := t.TempDir()
	parent := filepath.Join(dir, "p.rwd")
	mustRunCLI(t, "play", "--bot", "greedy", "--bot", bot, "--turns", "200", "-o", parent)
	out, err := runCLIOut(t, "fork", parent, "--turn", "100", "--fill", "turtle", "-o", filepath.Join(dir, "f.rwd"))
	if err != nil {
		t.Fatalf("fork --fill: %v\n%s", err, out)
	}
	plan := "playing on from turn 100:\n  seat 1 (1_greedy): greedy, as it played\n  seat 2 (2_logger.py): turtle, in place of "
	if !strings.HasPrefix(out, plan) || !strings.Contains(out, "logger.py") {
		t.Errorf("fork --fill turtle does not begin by saying who plays on:\n%s", out)
	}
	_, err = runCLIOut(t, "fork", parent, "--turn", "100", "-o", filepath.Join(dir, "g.rwd"))
	if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), "--fill NAME") {
		t.Errorf("fork of an external bot's seat without --fill: %v (exit %d), want exit 2 saying --bot or --fill", err, exitCode(err))
	}
}

// TestBotNotOnPath (item 12): a --bot command whose program is not on
// the PATH is refused before anything plays or serves, exit 2, saying
// what to give instead — in tournament and serve as in play.
func TestBotNotOnPath(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"play", "--bot", "greedy", "--bot", "nosuchprog --x", "--turns", "200", "-o", filepath.Join(dir, "p.rwd")},
		{"tournament", "--bot", "greedy", "--bot", "nosuchprog --x", "--games", "1", "--turns", "200", "--dir", filepath.Join(dir, "t")},
		{"serve", dir, "--bot", "nosuchprog --x", "--addr", "127.0.0.1:0"},
	} {
		// The deadline is a safety net (serve would serve on), not a verdict.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := newRootCmd()
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		cmd.SetArgs(args)
		err := cmd.ExecuteContext(ctx)
		cancel()
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), "check its spelling, or give the program's path") {
			t.Errorf("%s with a command not on the PATH: %v (exit %d), want exit 2 saying what to give", args[0], err, exitCode(err))
		}
	}
}
