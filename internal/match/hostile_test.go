package match_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/subprocess"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// children lists the processes whose parent is this test process, with
// their states (Z = zombie).
func children(t *testing.T) map[int]string {
	t.Helper()
	me := os.Getpid()
	out := map[int]string{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		rest := s[strings.LastIndexByte(s, ')')+2:]
		f := strings.Fields(rest)
		if len(f) > 1 && f[1] == strconv.Itoa(me) {
			out[pid] = f[0]
		}
	}
	return out
}

// quoteArg quotes s as one word of a bot command line.
func quoteArg(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// roundCmds reads the replay and returns, per player (uid-1), the commands
// of each round by turn.
func roundCmds(t *testing.T, rec []byte) [][][]colorfight2.Command {
	t.Helper()
	s, err := replay.OpenSim(bytes.NewReader(rec))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	np := len(s.Header().Players)
	out := make([][][]colorfight2.Command, np)
	for {
		err := s.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		turn, applied := s.Round().Turn, s.Game().(*colorfight2.Game).Applied()
		for p := 0; p < np; p++ {
			for len(out[p]) <= turn {
				out[p] = append(out[p], nil)
			}
			if p < len(applied) {
				out[p][turn] = append([]colorfight2.Command(nil), applied[p]...)
			}
		}
	}
}

// TestHostileBots plays a match in which subprocess bots print garbage,
// hang, crash, flood and answer late: the match finishes, their faults are
// recorded as their errors with the right kind of reason, no reply is
// applied to the wrong round, the replay verifies, and no process is left.
//
// Bots that answer get a deadline far above any scheduler delay, so what
// they do is deterministic; the hanging and the late bot get a short one,
// and only what holds whatever the timing is asserted about them.
func TestHostileBots(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	py, sh := quoteArg(testutil.NeedTool(t, "python3")), quoteArg(testutil.NeedTool(t, "sh"))
	td, _ := filepath.Abs("../subprocess/testdata")
	script := func(s string) string { return quoteArg(filepath.Join(td, s)) }
	const (
		answer = time.Minute            // for bots that answer
		hang   = 100 * time.Millisecond // for bots that cannot answer in time
	)
	type spec struct {
		cmd      string
		deadline time.Duration
	}
	specs := []spec{
		{"greedy", 0},
		{py + " " + script("garbage.py"), answer},
		{sh + " " + script("hang.sh"), hang},
		{py + " " + script("crash.py"), answer},
		{py + " " + script("flood.py"), answer},
		{py + " " + script("late.py") + " next", hang},
		{sh + " " + script("fork.sh"), answer},
	}
	const (
		garbage = 1 + iota
		hanging
		crash
		flood
		late
		fork
	)
	logs := t.TempDir()
	const maxTurn = 20
	var ss []match.GameSeat
	for i, s := range specs {
		if s.deadline == 0 {
			ss = append(ss, seats(t, s.cmd)...)
			ss[i].Identity, ss[i].Name = s.cmd, strconv.Itoa(i+1)
			continue
		}
		opts := subprocess.Options{Deadline: s.deadline, StderrLog: filepath.Join(logs, strconv.Itoa(i)+".log"), MaxTurn: maxTurn}
		if s.deadline == hang {
			opts.StartupGrace = -1
		}
		b, err := subprocess.New(s.cmd, opts)
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, match.GameSeat{Bot: b.Player(), Identity: s.cmd, Name: strconv.Itoa(i + 1)})
	}
	var buf bytes.Buffer
	res, err := run(context.Background(), 2, maxTurn, ss, &buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Turn != maxTurn || res.Interrupted {
		t.Fatalf("match ended at turn %d", res.Turn)
	}
	for i, p := range res.Players {
		if p.Errors < p.Faults {
			t.Errorf("%s: %d faults but %d errors; want faults recorded as errors", specs[i].cmd, p.Faults, p.Errors)
		}
	}

	// What each bot's rounds were, from the replay: faults (with their
	// reason) and answers.
	rounds := roundCmds(t, buf.Bytes())
	faults := make([]map[int]string, len(specs)) // turn -> reason
	for i := range specs {
		faults[i] = map[int]string{}
		for turn, cmds := range rounds[i] {
			for _, c := range cmds {
				if c.Err == colorfight2.ErrBotFault {
					faults[i][turn] = c.Raw
				}
			}
		}
		if len(faults[i]) != res.Players[i].Faults {
			t.Errorf("%s: %d faults in the replay, %d in the result", specs[i].cmd, len(faults[i]), res.Players[i].Faults)
		}
	}
	// wantFaults asserts that bot i faulted exactly on turns (nil: any)
	// and only with errors wrapping one of reasons.
	wantFaults := func(i int, turns []int, reasons ...error) {
		t.Helper()
		for turn, msg := range faults[i] {
			ok := false
			for _, r := range reasons {
				ok = ok || strings.HasPrefix(msg, r.Error()) || strings.Contains(msg, ": "+r.Error())
			}
			if !ok {
				t.Errorf("%s: fault on turn %d is %q, want one of %v", specs[i].cmd, turn, msg, reasons)
			}
		}
		if turns == nil {
			return
		}
		var got []int
		for turn := 1; turn < maxTurn; turn++ {
			if _, ok := faults[i][turn]; ok {
				got = append(got, turn)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(turns) {
			t.Errorf("%s: faults on turns %v, want %v (%v)", specs[i].cmd, got, turns, faults[i])
		}
	}
	span := func(from, to int) []int {
		var s []int
		for turn := from; turn <= to; turn++ {
			s = append(s, turn)
		}
		return s
	}
	wantFaults(0, []int{})
	wantFaults(garbage, []int{1, 2, 3, 5, 6, 7, 8, 9}, subprocess.ErrBadReply, subprocess.ErrFlood)
	wantFaults(hanging, span(1, maxTurn-1), subprocess.ErrTimeout)
	wantFaults(crash, span(3, maxTurn-1), subprocess.ErrBotExited)
	wantFaults(flood, []int{1}, subprocess.ErrFlood)
	wantFaults(fork, []int{})
	// The late bot holds its reply to turn 2 until turn 3's message
	// arrives: turn 2 is a fault whatever the timing; other rounds may be
	// late too on a loaded machine, but never anything but late.
	wantFaults(late, nil, subprocess.ErrTimeout)
	if _, ok := faults[late][2]; !ok {
		t.Errorf("late bot: no fault on turn 2 (faults %v)", faults[late])
	}
	// The test bots answer turn T with "a 0 0 T": an answer applied to
	// another round than its own would show here.
	for _, i := range []int{garbage, crash, flood, late, fork} {
		answered := 0
		for turn, cmds := range rounds[i] {
			for _, c := range cmds {
				if c.Err == colorfight2.ErrBotFault {
					continue
				}
				answered++
				if c.Kind != colorfight2.CmdAttack || c.X != 0 || c.Y != 0 || c.Energy != int64(turn) {
					t.Errorf("%s: round %d has command %+v, want the answer to turn %d", specs[i].cmd, turn, c, turn)
				}
			}
		}
		if want := maxTurn - 1 - len(faults[i]); i != late && answered != want {
			t.Errorf("%s: %d answered rounds, want %d", specs[i].cmd, answered, want)
		}
	}

	// The faults re-simulate from the replay.
	v, err := replay.VerifySim(bytes.NewReader(buf.Bytes()), nil)
	if err != nil || v.Err != nil || !v.Complete {
		t.Fatalf("verify: %v %+v", err, v)
	}
	// No process left behind, zombie or alive: RunGame closed every bot, and
	// Close returns once the bot's whole process group is reaped. The
	// bound is only there to report a leak instead of hanging.
	limit := time.Now().Add(time.Minute)
	for {
		left := children(t)
		if len(left) == 0 {
			break
		}
		if time.Now().After(limit) {
			t.Fatalf("processes left after the match: %v", left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPythonExampleBotFullMatch: the documented Python example plays a
// full 500-round match against built-ins without a fault.
func TestPythonExampleBotFullMatch(t *testing.T) {
	py, _ := filepath.Abs("../../examples/bots/python/bot.py")
	// A deadline far above any scheduler delay: the bot answers in
	// milliseconds, a fault here must be the bot's, not the machine's.
	ext, err := subprocess.New(quoteArg(testutil.NeedTool(t, "python3"))+" "+quoteArg(py), subprocess.Options{Deadline: time.Minute, MaxTurn: colorfight2.DefaultMaxTurn})
	if err != nil {
		t.Fatal(err)
	}
	ss := append(seats(t, "greedy", "economist"), match.GameSeat{Bot: ext.Player()})
	var buf bytes.Buffer
	res, err := run(context.Background(), 4, 0, ss, &buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Players[2]
	if res.Turn != 500 || p.Faults != 0 || value(t, res, 2, "cells") < 10 {
		t.Fatalf("python bot: turn %d, %+v", res.Turn, p)
	}
	if v, err := replay.VerifySim(bytes.NewReader(buf.Bytes()), nil); err != nil || !v.Complete {
		t.Fatalf("verify: %v %+v", err, v)
	}
}
