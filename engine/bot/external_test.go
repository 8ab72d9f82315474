package bot

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine/colorfight2"
)

// testDeadline is short so that hostile-bot tests are fast.
const testDeadline = 200 * time.Millisecond

// testFrames returns the frames of turns 1..n of a two-player game in which
// nobody sends commands.
func testFrames(t *testing.T, n int) []*colorfight2.Frame {
	t.Helper()
	s, err := colorfight2.NewFromSeed(colorfight2.DefaultConfig(), 1, []string{"ext", "other"})
	if err != nil {
		t.Fatal(err)
	}
	frames := make([]*colorfight2.Frame, n)
	for i := range frames {
		s.Step(nil)
		frames[i] = &colorfight2.Frame{}
		s.Frame(frames[i])
	}
	return frames
}

// startExternal creates and starts an external bot as uid 1; Close runs at
// cleanup (it is idempotent, tests may close earlier).
func startExternal(t *testing.T, command string, opts ExternalOptions) *External {
	t.Helper()
	e, err := NewExternal(command, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Start(1, 42); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// turnCmd is the reply of the echo-style test bots for a turn.
func turnCmd(turn int) []string { return []string{"a 0 0 " + strconv.Itoa(turn)} }

// wantTurn asserts that round f was answered correctly.
func wantTurn(t *testing.T, e *External, f *colorfight2.Frame) {
	t.Helper()
	cmds, err := e.Commands(f)
	if err != nil {
		t.Fatalf("turn %d: unexpected error: %v", f.Turn, err)
	}
	if want := turnCmd(f.Turn); !reflect.DeepEqual(cmds, want) {
		t.Fatalf("turn %d: commands %q, want %q", f.Turn, cmds, want)
	}
}

// wantErr asserts that round f fails with an error wrapping target.
func wantErr(t *testing.T, e *External, f *colorfight2.Frame, target error) error {
	t.Helper()
	cmds, err := e.Commands(f)
	if !errors.Is(err, target) {
		t.Fatalf("turn %d: error %v, want one wrapping %v", f.Turn, err, target)
	}
	if cmds != nil {
		t.Fatalf("turn %d: commands %q returned with error %v", f.Turn, cmds, err)
	}
	return err
}

// groupMembers lists the processes (zombies included) whose process group
// is pgid, from /proc.
func groupMembers(t *testing.T, pgid int) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, ent := range ents {
		pid, err := strconv.Atoi(ent.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", ent.Name(), "stat"))
		if err != nil {
			continue // exited meanwhile
		}
		// pid (comm) state ppid pgrp ...; comm may contain anything.
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) >= 3 && fields[2] == strconv.Itoa(pgid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// assertGroupGone asserts that nothing of process group pgid exists.
func assertGroupGone(t *testing.T, pgid int) {
	t.Helper()
	if err := syscall.Kill(-pgid, 0); err != syscall.ESRCH {
		t.Errorf("kill(-%d, 0) = %v, want ESRCH (members: %v)", pgid, err, groupMembers(t, pgid))
	}
	if pids := groupMembers(t, pgid); len(pids) != 0 {
		t.Errorf("process group %d still has processes %v", pgid, pids)
	}
}

func TestExternalEcho(t *testing.T) {
	frames := testFrames(t, 5)
	log := filepath.Join(t.TempDir(), "stderr.log")
	cmd := "python3 testdata/echo.py"
	e := startExternal(t, cmd, ExternalOptions{Deadline: testDeadline, StderrLog: log})
	if e.Name() != cmd {
		t.Errorf("Name() = %q, want %q", e.Name(), cmd)
	}
	for _, f := range frames {
		wantTurn(t, e, f)
	}
	pgid := e.pgid
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	assertGroupGone(t, pgid)
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	wantErr(t, e, frames[0], ErrBotExited)
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "echo bot: hello from stderr") || !strings.Contains(string(data), "uid 1 seed 42") {
		t.Errorf("stderr log = %q, want the bot's greeting and its start message", data)
	}
}

func TestExternalTurnEcho(t *testing.T) {
	frames := testFrames(t, 3)
	e := startExternal(t, "python3 testdata/echo.py echo", ExternalOptions{Deadline: testDeadline})
	for _, f := range frames {
		wantTurn(t, e, f)
	}
}

// TestExternalTurnMessage checks the turn message against the frame.
func TestExternalTurnMessage(t *testing.T) {
	f := testFrames(t, 3)[2]
	line := appendTurn(nil, f, 2, ExternalOptions{MaxTurn: 700, Deadline: 1500 * time.Millisecond})
	if n := strings.Count(string(line), "\n"); n != 1 || line[len(line)-1] != '\n' {
		t.Fatalf("message is not one line (%d newlines)", n)
	}
	var msg struct {
		Type  string
		Turn  int
		UID   int
		Info  map[string]int
		Users map[string]struct {
			UID            int64            `json:"uid"`
			Username       string           `json:"username"`
			Energy         int64            `json:"energy"`
			Gold           int64            `json:"gold"`
			Dead           bool             `json:"dead"`
			EnergySource   int64            `json:"energy_source"`
			GoldSource     int64            `json:"gold_source"`
			TechLevel      int64            `json:"tech_level"`
			TaxLevel       int64            `json:"tax_level"`
			TaxAmount      int64            `json:"tax_amount"`
			BuildingNumber map[string]int64 `json:"building_number"`
			CellNumber     int64            `json:"cell_number"`
		}
		GameMap struct {
			Headers []string
			Data    [][][]json.RawMessage
		} `json:"game_map"`
	}
	if err := json.Unmarshal(line, &msg); err != nil {
		t.Fatal(err)
	}
	if msg.Type != "turn" || msg.Turn != 3 || msg.UID != 2 {
		t.Errorf("type/turn/uid = %q/%d/%d", msg.Type, msg.Turn, msg.UID)
	}
	wantInfo := map[string]int{"max_turn": 700, "width": 30, "height": 30, "deadline_ms": 1500}
	if !reflect.DeepEqual(msg.Info, wantInfo) {
		t.Errorf("info = %v, want %v", msg.Info, wantInfo)
	}
	if len(msg.Users) != 2 {
		t.Fatalf("%d users, want 2", len(msg.Users))
	}
	for _, u := range f.Users {
		got := msg.Users[strconv.FormatInt(u.UID, 10)]
		if got.UID != u.UID || got.Username != u.Username || got.Energy != u.Energy || got.Gold != u.Gold ||
			got.Dead != u.Dead || got.EnergySource != u.EnergySource || got.GoldSource != u.GoldSource ||
			got.TechLevel != u.TechLevel || got.TaxLevel != u.TaxLevel || got.TaxAmount != u.TaxAmount ||
			got.CellNumber != u.CellNumber || got.BuildingNumber["home"] != u.Buildings[colorfight2.Home] {
			t.Errorf("user %d = %+v, frame has %+v", u.UID, got, u)
		}
	}
	wantHeaders := []string{"attack_cost", "force_field", "building", "gold", "energy", "owner", "position", "natural_gold", "natural_energy", "natural_cost"}
	if !reflect.DeepEqual(msg.GameMap.Headers, wantHeaders) {
		t.Errorf("headers = %v", msg.GameMap.Headers)
	}
	if len(msg.GameMap.Data) != f.Height {
		t.Fatalf("%d rows, want %d", len(msg.GameMap.Data), f.Height)
	}
	for y, row := range msg.GameMap.Data {
		if len(row) != f.Width {
			t.Fatalf("row %d has %d cells", y, len(row))
		}
		for x, cell := range row {
			c := f.Cell(x, y)
			want := fmt.Sprintf(`[%d %d ["%c",%d] %d %d %d [%d,%d] %d %d %d]`, c.AttackCost, c.ForceField,
				c.Building.Letter(), c.Level, c.Gold, c.Energy, c.Owner, c.X, c.Y, c.NaturalGold, c.NaturalEnergy, c.NaturalCost)
			if got := fmt.Sprintf("%s", cell); got != want {
				t.Fatalf("cell (%d,%d) = %s, want %s", x, y, got, want)
			}
		}
	}
}

func TestExternalGarbage(t *testing.T) {
	frames := testFrames(t, 10)
	e := startExternal(t, "python3 testdata/garbage.py", ExternalOptions{Deadline: testDeadline})
	cases := []struct {
		target error
		text   string // part of the message
	}{
		{ErrBadReply, `"hello world, this is not JSON"`},
		{ErrBadReply, `"cmd_list" is not an array`},
		{ErrBadReply, `not a JSON object`},
		{nil, ""},
		{ErrFlood, "10001 commands"},
		{ErrFlood, "at most 1024"},
		{ErrBadReply, "command 1 is not a string"},
		{ErrBadReply, "reply is for turn 13"},
		{ErrBadReply, `no "cmd_list"`},
		{nil, ""},
	}
	for i, c := range cases {
		f := frames[i]
		if c.target == nil {
			wantTurn(t, e, f)
			continue
		}
		err := wantErr(t, e, f, c.target)
		if !strings.Contains(err.Error(), c.text) {
			t.Errorf("turn %d: error %q does not mention %q", f.Turn, err, c.text)
		}
	}
}

func TestExternalHang(t *testing.T) {
	frames := testFrames(t, 4)
	e := startExternal(t, "sh testdata/hang.sh", ExternalOptions{Deadline: testDeadline, StartupGrace: -1})
	for _, f := range frames {
		// Turn messages soon fill the pipe the bot never reads: the write
		// itself times out then, which must also be a plain timeout.
		err := wantErr(t, e, f, ErrTimeout)
		if errors.Is(err, ErrBotExited) {
			t.Fatalf("turn %d: %v", f.Turn, err)
		}
	}
	pgid := e.pgid
	if len(groupMembers(t, pgid)) == 0 {
		t.Fatal("hanging bot is not running before Close")
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	assertGroupGone(t, pgid)
}

func TestExternalCrash(t *testing.T) {
	frames := testFrames(t, 5)
	e := startExternal(t, "python3 testdata/crash.py", ExternalOptions{Deadline: testDeadline})
	wantTurn(t, e, frames[0])
	wantTurn(t, e, frames[1])
	err := wantErr(t, e, frames[2], ErrBotExited)
	if err.Error() != "bot exited: exit status 3" {
		t.Errorf("error %q, want %q", err, "bot exited: exit status 3")
	}
	for _, f := range frames[3:] {
		if _, err2 := e.Commands(f); err2 != err {
			t.Errorf("turn %d: error %v, want the same error %v", f.Turn, err2, err)
		}
	}
	assertGroupGone(t, e.pgid)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestExternalFlood(t *testing.T) {
	frames := testFrames(t, 4)
	e := startExternal(t, "python3 testdata/flood.py", ExternalOptions{Deadline: 2 * time.Second})
	err := wantErr(t, e, frames[0], ErrFlood)
	if !strings.Contains(err.Error(), "longer than 1048576 bytes") || !strings.Contains(err.Error(), `"xxxx`) {
		t.Errorf("flood error %q lacks the limit or an excerpt", err)
	}
	for _, f := range frames[1:] {
		wantTurn(t, e, f)
	}
}

func TestExternalFloodSmallLimit(t *testing.T) {
	frames := testFrames(t, 3)
	// Every reply of the echo bot is about 25 bytes.
	e := startExternal(t, "python3 testdata/echo.py", ExternalOptions{Deadline: testDeadline, MaxLineBytes: 10})
	for _, f := range frames {
		wantErr(t, e, f, ErrFlood)
	}
}

// TestExternalSlowThenFast: the bot answers turn 2 after its deadline, and
// is fast again afterwards. Its late reply must be dropped, never used as
// the reply to turn 3 or later.
func TestExternalSlowThenFast(t *testing.T) {
	for _, mode := range []string{"", " echo"} {
		t.Run("count"+strings.TrimSpace(mode), func(t *testing.T) {
			frames := testFrames(t, 6)
			const deadline = 500 * time.Millisecond
			e := startExternal(t, "python3 testdata/slow.py 0.7"+mode, ExternalOptions{Deadline: deadline})
			wantTurn(t, e, frames[0])
			wantErr(t, e, frames[1], ErrTimeout)
			// The late reply to turn 2 arrives while the runner waits for
			// turn 3; the reply to turn 3 may then be late too, but it must
			// not be the reply to turn 2.
			cmds, err := e.Commands(frames[2])
			if err != nil && !errors.Is(err, ErrTimeout) {
				t.Fatalf("turn 3: %v", err)
			}
			if err == nil && !reflect.DeepEqual(cmds, turnCmd(3)) {
				t.Fatalf("turn 3: commands %q, want %q", cmds, turnCmd(3))
			}
			if err != nil {
				t.Logf("turn 3 was late too: %v", err)
				time.Sleep(deadline) // let the bot catch up before turn 4
			}
			for _, f := range frames[3:] {
				wantTurn(t, e, f)
			}
		})
	}
	t.Run("late-reply-before-next-turn", func(t *testing.T) {
		frames := testFrames(t, 5)
		e := startExternal(t, "python3 testdata/slow.py 0.4", ExternalOptions{Deadline: testDeadline})
		wantTurn(t, e, frames[0])
		wantErr(t, e, frames[1], ErrTimeout)
		time.Sleep(600 * time.Millisecond) // the late reply is waiting when turn 3 starts
		for _, f := range frames[2:] {
			wantTurn(t, e, f)
		}
	})
}

func TestExternalForkedGrandchild(t *testing.T) {
	frames := testFrames(t, 3)
	e := startExternal(t, "sh testdata/fork.sh", ExternalOptions{Deadline: testDeadline})
	for _, f := range frames {
		wantTurn(t, e, f)
	}
	pgid := e.pgid
	if n := len(groupMembers(t, pgid)); n < 2 {
		t.Fatalf("process group has %d processes before Close, want the bot and its sleeping child", n)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	assertGroupGone(t, pgid)
}

// TestExternalCrashWithGrandchild: a bot that dies leaving a child behind
// (which keeps its stdout open) is reported as exited, and its whole group
// is gone before Close.
func TestExternalCrashWithGrandchild(t *testing.T) {
	frames := testFrames(t, 3)
	e := startExternal(t, "sh testdata/fork.sh crash", ExternalOptions{Deadline: testDeadline})
	wantTurn(t, e, frames[0])
	err := wantErr(t, e, frames[1], ErrBotExited)
	if err.Error() != "bot exited: exit status 4" {
		t.Errorf("error %q, want %q", err, "bot exited: exit status 4")
	}
	assertGroupGone(t, e.pgid)
	if _, err2 := e.Commands(frames[2]); err2 != err {
		t.Errorf("after exit: error %v, want %v", err2, err)
	}
}

func TestExternalLifecycleErrors(t *testing.T) {
	f := testFrames(t, 1)[0]
	e, err := NewExternal("python3 testdata/echo.py", ExternalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Commands(f); err == nil {
		t.Error("Commands before Start: no error")
	}
	if err := e.Close(); err != nil {
		t.Errorf("Close before Start: %v", err)
	}
	if err := e.Start(1, 1); err == nil {
		t.Error("Start after Close: no error")
	}
	e2 := startExternal(t, "python3 testdata/echo.py", ExternalOptions{Deadline: testDeadline})
	if err := e2.Start(1, 1); err == nil {
		t.Error("second Start: no error")
	}
	wantTurn(t, e2, f)
}

func TestNewExternalErrors(t *testing.T) {
	for _, cmd := range []string{"", "   ", "python3 'unterminated", `sh "x`, `sh x\`, "no-such-program-rewind-test", "./testdata/missing.sh"} {
		if _, err := NewExternal(cmd, ExternalOptions{}); err == nil {
			t.Errorf("NewExternal(%q): no error", cmd)
		}
	}
	// A relative program path is resolved against Dir.
	if _, err := NewExternal("./hang.sh", ExternalOptions{Dir: "testdata"}); err != nil {
		t.Errorf("relative path with Dir: %v", err)
	}
}

func TestSplitCommand(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"python3 mybot.py", []string{"python3", "mybot.py"}},
		{"  a\t b  ", []string{"a", "b"}},
		{`sh -c 'echo "hi there"'`, []string{"sh", "-c", `echo "hi there"`}},
		{`bot "my dir/x y" --name="a b"`, []string{"bot", "my dir/x y", "--name=a b"}},
		{`a "q\"uote" b\ c ''`, []string{"a", `q"uote`, "b c", ""}},
		{`"a\\b" 'c\d'`, []string{`a\b`, `c\d`}},
	}
	for _, c := range cases {
		got, err := splitCommand(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitCommand(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestParseReply(t *testing.T) {
	cmds, echo, err := parseReply([]byte(`{"cmd_list":["a 1 2 3","b 1 1 g"],"turn":7,"extra":{"x":1}}`))
	if err != nil || echo != 7 || !reflect.DeepEqual(cmds, []string{"a 1 2 3", "b 1 1 g"}) {
		t.Errorf("got %q, %d, %v", cmds, echo, err)
	}
	cmds, echo, err = parseReply([]byte(`{"cmd_list":[]}`))
	if err != nil || echo != -1 || cmds == nil || len(cmds) != 0 {
		t.Errorf("empty list: got %q, %d, %v", cmds, echo, err)
	}
	for _, bad := range []string{`{"cmd_list":null}`, `{"cmd_list":"a 1 1 1"}`, `{"cmd_list":[1]}`, `{}`, `null`, `"x"`, `{"cmd_list":[]} {}`, `{"turn":"3","cmd_list":[]}`} {
		if _, _, err := parseReply([]byte(bad)); !errors.Is(err, ErrBadReply) {
			t.Errorf("parseReply(%s): error %v, want ErrBadReply", bad, err)
		}
	}
}

// playExample plays rounds of the external bot (uid 1) against the greedy
// built-in (uid 2) and checks that it never fails and grows.
func playExample(t *testing.T, command string, rounds int) {
	t.Helper()
	cfg := colorfight2.DefaultConfig()
	cfg.MaxPlayer = 2
	s, err := colorfight2.NewFromSeed(cfg, 7, []string{"example", "greedy"})
	if err != nil {
		t.Fatal(err)
	}
	ext := startExternal(t, command, ExternalOptions{Deadline: 5 * time.Second, StderrLog: filepath.Join(t.TempDir(), "stderr.log")})
	greedy, err := Builtin("greedy")
	if err != nil {
		t.Fatal(err)
	}
	if err := greedy.Start(2, 99); err != nil {
		t.Fatal(err)
	}
	bots := []Bot{ext, greedy}
	var f colorfight2.Frame
	cmds := make([][]colorfight2.Command, 2)
	sent, failed := 0, 0
	s.Step(nil)
	for r := 0; r < rounds; r++ {
		s.Frame(&f)
		for i, b := range bots {
			out, err := b.Commands(&f)
			if err != nil {
				t.Fatalf("turn %d: %s: %v", f.Turn, b.Name(), err)
			}
			cmds[i] = cmds[i][:0]
			for _, c := range out {
				cmds[i] = append(cmds[i], colorfight2.ParseCommand(c))
			}
			if i == 0 {
				sent += len(out)
			}
		}
		s.Step(cmds)
		for _, ce := range s.Errors() {
			if ce.UID == 1 {
				failed++
			}
		}
	}
	s.Frame(&f)
	me := f.Users[0]
	t.Logf("%s after %d rounds: %d cells, %d gold, %d energy, buildings %v; %d commands, %d failed",
		command, rounds, me.CellNumber, me.Gold, me.Energy, me.Buildings, sent, failed)
	if me.CellNumber < 10 {
		t.Errorf("the example bot holds %d cells after %d rounds, want at least 10", me.CellNumber, rounds)
	}
	if me.Buildings[colorfight2.GoldMine] == 0 {
		t.Errorf("the example bot built no gold mine in %d rounds", rounds)
	}
	if failed*5 > sent {
		t.Errorf("%d of the example bot's %d commands failed", failed, sent)
	}
}

func TestExamplePythonBot(t *testing.T) {
	playExample(t, "python3 ../../examples/bots/python/bot.py", 50)
}

func TestExampleGoBot(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found:", err)
	}
	bin := filepath.Join(t.TempDir(), "gobot")
	build := exec.Command(goTool, "build", "-o", bin, "../../examples/bots/go")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	playExample(t, bin, 50)
}

// TestExternalSpam: a bot printing replies without end (never reading its
// input) neither hangs the runner nor leaves anything behind.
func TestExternalSpam(t *testing.T) {
	frames := testFrames(t, 4)
	e := startExternal(t, `yes '{"cmd_list":[]}'`, ExternalOptions{Deadline: testDeadline})
	for _, f := range frames {
		cmds, err := e.Commands(f)
		if err != nil && !errors.Is(err, ErrTimeout) {
			t.Fatalf("turn %d: %v", f.Turn, err)
		}
		if err == nil && len(cmds) != 0 {
			t.Fatalf("turn %d: commands %q", f.Turn, cmds)
		}
	}
	pgid := e.pgid
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	assertGroupGone(t, pgid)
}
