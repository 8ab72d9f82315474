package match

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine/bot"
	"github.com/rewind-game/rewind/engine/colorfight2"
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

// TestHostileBots plays a match in which external bots print garbage,
// hang, crash, flood and answer late: the match finishes, their faults are
// recorded as their errors, the replay verifies, and no process is left.
func TestHostileBots(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	td, _ := filepath.Abs("../bot/testdata")
	logs := t.TempDir()
	specs := []string{
		"greedy",
		"python3 " + td + "/garbage.py",
		"sh " + td + "/hang.sh",
		"python3 " + td + "/crash.py",
		"python3 " + td + "/flood.py",
		"python3 " + td + "/slow.py 1.2",
		"sh " + td + "/fork.sh",
	}
	var seats []Seat
	for i, s := range specs {
		var b bot.Bot
		var err error
		if !strings.Contains(s, " ") {
			b, err = bot.Builtin(s)
		} else {
			b, err = bot.NewExternal(s, bot.ExternalOptions{Deadline: 500 * time.Millisecond, StderrLog: filepath.Join(logs, strconv.Itoa(i)+".log")})
		}
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, Seat{Bot: b, Identity: s, Name: strconv.Itoa(i + 1)})
	}
	var buf bytes.Buffer
	res, err := Run(context.Background(), Config{Game: colorfight2.Config{MaxTurn: 20}, Seed: 2, Seats: seats, Recorder: rwd(&buf)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Turn != 20 || res.Interrupted {
		t.Fatalf("match ended at turn %d", res.Turn)
	}
	byName := map[string]PlayerResult{}
	for _, p := range res.Players {
		byName[p.Identity] = p
	}
	if p := byName["greedy"]; p.Faults != 0 {
		t.Errorf("greedy faulted %d times", p.Faults)
	}
	for _, s := range specs[1:6] {
		p := byName[s]
		if p.Faults == 0 || p.Errors < p.Faults {
			t.Errorf("%s: %d faults, %d errors; want faults recorded as errors", s, p.Faults, p.Errors)
		}
	}
	if p := byName[specs[2]]; p.Faults != 19 { // hang: every round times out
		t.Errorf("hanging bot: %d faults, want 19", p.Faults)
	}
	// Slow once (1.2 s against a 0.5 s deadline): late that round and, as
	// it answers in order, a round or two after; then on time again.
	if p := byName[specs[5]]; p.Faults < 1 || p.Faults > 5 {
		t.Errorf("slow-then-fast bot: %d faults, want 1..5 of 19", p.Faults)
	}
	// The faults re-simulate from the replay.
	v, err := replay.Verify(bytes.NewReader(buf.Bytes()), nil)
	if err != nil || v.Err != nil || !v.Complete {
		t.Fatalf("verify: %v %+v", err, v)
	}
	// No process left behind, zombie or alive.
	deadline := time.Now().Add(2 * time.Second)
	for {
		left := children(t)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left after the match: %v", left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPythonExampleBotFullMatch: the documented Python example plays a
// full 500-round match against built-ins without a fault.
func TestPythonExampleBotFullMatch(t *testing.T) {
	py, _ := filepath.Abs("../../examples/bots/python/bot.py")
	ext, err := bot.NewExternal("python3 "+py, bot.ExternalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	seats := append(seats(t, "greedy", "economist"), Seat{Bot: ext})
	var buf bytes.Buffer
	res, err := Run(context.Background(), Config{Seed: 4, Seats: seats, Recorder: rwd(&buf)})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Players[2]
	if res.Turn != 500 || p.Faults != 0 || p.Cells < 10 {
		t.Fatalf("python bot: turn %d, %+v", res.Turn, p)
	}
	if v, err := replay.Verify(bytes.NewReader(buf.Bytes()), nil); err != nil || !v.Complete {
		t.Fatalf("verify: %v %+v", err, v)
	}
}
