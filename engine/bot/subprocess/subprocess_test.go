package subprocess

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
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine/bot"
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/internal/testutil"
)

// No verdict here depends on how fast the machine is: a bot that should
// answer gets answerDeadline, far above any scheduler delay (a bot that
// answers does so in milliseconds, so the tests stay fast); a round that
// must time out gets hangDeadline, and only what holds whatever the timing
// is asserted about it (the bot cannot answer in time: it never answers, or
// only after an event that follows the deadline).
const (
	answerDeadline = time.Minute
	hangDeadline   = 50 * time.Millisecond
)

// quoteArg quotes s as one word of a command line (see splitCommand).
func quoteArg(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// python returns the python3 program, quoted for a command line; the test
// is skipped (failed under CI=true) without it.
func python(t *testing.T) string {
	t.Helper()
	return quoteArg(testutil.NeedTool(t, "python3"))
}

// shell returns the sh program, quoted for a command line.
func shell(t *testing.T) string {
	t.Helper()
	return quoteArg(testutil.NeedTool(t, "sh"))
}

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

// startBot creates and starts a bot as uid 1; Close runs at cleanup (it is
// idempotent, tests may close earlier). The clean-up bounds are raised so
// that exit statuses and reaping are observed however loaded the machine.
func startBot(t *testing.T, command string, opts Options) *Bot {
	t.Helper()
	b, err := New(command, opts)
	if err != nil {
		t.Fatal(err)
	}
	b.reapTimeout, b.drainTimeout = time.Minute, time.Minute
	if err := b.Start(1, 42); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// turnCmd is the reply of the echo-style test bots for a turn.
func turnCmd(turn int) []string { return []string{"a 0 0 " + strconv.Itoa(turn)} }

// wantTurn asserts that round f was answered correctly.
func wantTurn(t *testing.T, b *Bot, f *colorfight2.Frame) {
	t.Helper()
	cmds, err := b.Commands(f)
	if err != nil {
		t.Fatalf("turn %d: unexpected error: %v", f.Turn, err)
	}
	if want := turnCmd(f.Turn); !reflect.DeepEqual(cmds, want) {
		t.Fatalf("turn %d: commands %q, want %q", f.Turn, cmds, want)
	}
}

// wantErr asserts that round f fails with an error wrapping target.
func wantErr(t *testing.T, b *Bot, f *colorfight2.Frame, target error) error {
	t.Helper()
	cmds, err := b.Commands(f)
	if !errors.Is(err, target) {
		t.Fatalf("turn %d: error %v, want one wrapping %v", f.Turn, err, target)
	}
	if cmds != nil {
		t.Fatalf("turn %d: commands %q returned with error %v", f.Turn, cmds, err)
	}
	return err
}

// waitFile waits until path exists (an event a test bot signals), failing
// the test only after answerDeadline.
func waitFile(t *testing.T, path string) {
	t.Helper()
	limit := time.Now().Add(answerDeadline)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(limit) {
			t.Fatalf("%s did not appear within %v", path, answerDeadline)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestEcho(t *testing.T) {
	frames := testFrames(t, 5)
	log := filepath.Join(t.TempDir(), "stderr.log")
	cmd := python(t) + " testdata/echo.py"
	b := startBot(t, cmd, Options{Deadline: answerDeadline, StderrLog: log})
	if b.Name() != cmd {
		t.Errorf("Name() = %q, want %q", b.Name(), cmd)
	}
	for _, f := range frames {
		wantTurn(t, b, f)
	}
	if len(treeMembers(t, b)) == 0 {
		t.Fatal("the bot is not running before Close")
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	assertTreeGone(t, b)
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	wantErr(t, b, frames[0], ErrBotExited)
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "echo bot: hello from stderr") || !strings.Contains(string(data), "uid 1 seed 42") {
		t.Errorf("stderr log = %q, want the bot's greeting and its start message", data)
	}
}

func TestTurnEcho(t *testing.T) {
	frames := testFrames(t, 3)
	b := startBot(t, python(t)+" testdata/echo.py echo", Options{Deadline: answerDeadline})
	for _, f := range frames {
		wantTurn(t, b, f)
	}
}

// TestTurnMessage checks the turn message against the frame.
func TestTurnMessage(t *testing.T) {
	f := testFrames(t, 3)[2]
	line := appendTurn(nil, f, 2, Options{MaxTurn: 700, Deadline: 1500 * time.Millisecond})
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
	cmds, echo, err := parseReply([]byte(`{"cmd_list":["a 1 2 3","b 1 1 g"],"turn":7,"extra":{"x":1}}`), false)
	if err != nil || echo != 7 || !reflect.DeepEqual(cmds, []string{"a 1 2 3", "b 1 1 g"}) {
		t.Errorf("got %q, %d, %v", cmds, echo, err)
	}
	cmds, echo, err = parseReply([]byte(`{"cmd_list":[]}`), false)
	if err != nil || echo != -1 || cmds == nil || len(cmds) != 0 {
		t.Errorf("empty list: got %q, %d, %v", cmds, echo, err)
	}
	for _, bad := range []string{`{"cmd_list":null}`, `{"cmd_list":"a 1 1 1"}`, `{"cmd_list":[1]}`, `{}`, `null`, `"x"`, `{"cmd_list":[]} {}`, `{"turn":"3","cmd_list":[]}`} {
		if _, _, err := parseReply([]byte(bad), false); !errors.Is(err, ErrBadReply) {
			t.Errorf("parseReply(%s): error %v, want ErrBadReply", bad, err)
		}
	}
}

func TestGarbage(t *testing.T) {
	frames := testFrames(t, 10)
	b := startBot(t, python(t)+" testdata/garbage.py", Options{Deadline: answerDeadline})
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
			wantTurn(t, b, f)
			continue
		}
		err := wantErr(t, b, f, c.target)
		if !strings.Contains(err.Error(), c.text) {
			t.Errorf("turn %d: error %q does not mention %q", f.Turn, err, c.text)
		}
	}
}

// TestHang: a bot that never reads nor answers times out every round
// (never "exited"), never blocks the runner past the deadline (its unread
// turn messages fill the pipe: the write is then what times out), and
// leaves nothing behind.
func TestHang(t *testing.T) {
	frames := testFrames(t, 12)
	// Enough turn messages to fill any pipe buffer (64 KiB on Linux,
	// at most 64 KiB on darwin) many times over.
	total := 0
	for _, f := range frames[:len(frames)-1] {
		total += len(appendTurn(nil, f, 1, Options{}))
	}
	if total < 256<<10 {
		t.Fatalf("turn messages are only %d bytes in all", total)
	}
	b := startBot(t, shell(t)+" testdata/hang.sh", Options{Deadline: hangDeadline, StartupGrace: -1})
	var err error
	for _, f := range frames {
		err = wantErr(t, b, f, ErrTimeout)
		if errors.Is(err, ErrBotExited) {
			t.Fatalf("turn %d: %v", f.Turn, err)
		}
	}
	if !strings.Contains(err.Error(), "did not read its input") {
		t.Errorf("last round: %v, want the write of the turn message to have timed out", err)
	}
	if len(treeMembers(t, b)) == 0 {
		t.Fatal("hanging bot is not running before Close")
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	assertTreeGone(t, b)
}

func TestCrash(t *testing.T) {
	frames := testFrames(t, 5)
	b := startBot(t, python(t)+" testdata/crash.py", Options{Deadline: answerDeadline})
	wantTurn(t, b, frames[0])
	wantTurn(t, b, frames[1])
	err := wantErr(t, b, frames[2], ErrBotExited)
	if err.Error() != "bot exited: exit status 3" {
		t.Errorf("error %q, want %q", err, "bot exited: exit status 3")
	}
	for _, f := range frames[3:] {
		if _, err2 := b.Commands(f); err2 != err {
			t.Errorf("turn %d: error %v, want the same error %v", f.Turn, err2, err)
		}
	}
	assertTreeGone(t, b)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestFlood(t *testing.T) {
	frames := testFrames(t, 4)
	b := startBot(t, python(t)+" testdata/flood.py", Options{Deadline: answerDeadline})
	err := wantErr(t, b, frames[0], ErrFlood)
	if !strings.Contains(err.Error(), "longer than 1048576 bytes") || !strings.Contains(err.Error(), `"xxxx`) {
		t.Errorf("flood error %q lacks the limit or an excerpt", err)
	}
	for _, f := range frames[1:] {
		wantTurn(t, b, f)
	}
}

func TestFloodSmallLimit(t *testing.T) {
	frames := testFrames(t, 3)
	// Every reply of the echo bot is about 25 bytes.
	b := startBot(t, python(t)+" testdata/echo.py", Options{Deadline: answerDeadline, MaxLineBytes: 10})
	for _, f := range frames {
		wantErr(t, b, f, ErrFlood)
	}
}

// TestLateReply: the bot answers turn 2 only after its deadline, and is
// fast again afterwards. Its late reply must be dropped, never used as the
// reply to turn 3 or later. The lateness is not a matter of timing: the
// bot holds the reply until an event that follows the deadline.
func TestLateReply(t *testing.T) {
	for _, mode := range []string{"", " echo"} {
		// The late reply arrives while the runner waits for turn 3's: the
		// bot sends it when it reads turn 3's message.
		t.Run("while-waiting"+strings.ReplaceAll(mode, " ", "-"), func(t *testing.T) {
			frames := testFrames(t, 6)
			b := startBot(t, python(t)+" testdata/late.py next"+mode, Options{Deadline: answerDeadline})
			wantTurn(t, b, frames[0])
			b.opts.Deadline = hangDeadline // only this round: it cannot be answered in time
			wantErr(t, b, frames[1], ErrTimeout)
			b.opts.Deadline = answerDeadline
			for _, f := range frames[2:] {
				wantTurn(t, b, f)
			}
		})
	}
	// The late reply is already there when turn 3 starts.
	t.Run("before-next-turn", func(t *testing.T) {
		frames := testFrames(t, 5)
		dir := t.TempDir()
		goFile, sentFile := filepath.Join(dir, "go"), filepath.Join(dir, "sent")
		b := startBot(t, python(t)+" testdata/late.py file "+quoteArg(goFile)+" "+quoteArg(sentFile), Options{Deadline: answerDeadline})
		wantTurn(t, b, frames[0])
		b.opts.Deadline = hangDeadline
		wantErr(t, b, frames[1], ErrTimeout)
		b.opts.Deadline = answerDeadline
		if err := os.WriteFile(goFile, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		waitFile(t, sentFile)
		for _, f := range frames[2:] {
			wantTurn(t, b, f)
		}
	})
}

func TestForkedGrandchild(t *testing.T) {
	frames := testFrames(t, 3)
	b := startBot(t, shell(t)+" testdata/fork.sh", Options{Deadline: answerDeadline})
	for _, f := range frames {
		wantTurn(t, b, f)
	}
	// The bot forked its child before reading its first message.
	if n := len(treeMembers(t, b)); n < 2 {
		t.Fatalf("the bot's process tree has %d processes before Close, want the bot and its sleeping child", n)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	assertTreeGone(t, b)
}

// TestCrashWithGrandchild: a bot that dies leaving a child behind (which
// keeps its stdout open) is reported as exited, and its whole tree is gone
// before Close.
func TestCrashWithGrandchild(t *testing.T) {
	frames := testFrames(t, 3)
	b := startBot(t, shell(t)+" testdata/fork.sh crash", Options{Deadline: answerDeadline})
	wantTurn(t, b, frames[0])
	err := wantErr(t, b, frames[1], ErrBotExited)
	if err.Error() != "bot exited: exit status 4" {
		t.Errorf("error %q, want %q", err, "bot exited: exit status 4")
	}
	assertTreeGone(t, b)
	if _, err2 := b.Commands(frames[2]); err2 != err {
		t.Errorf("after exit: error %v, want %v", err2, err)
	}
}

func TestLifecycleErrors(t *testing.T) {
	f := testFrames(t, 1)[0]
	py := python(t)
	b, err := New(py+" testdata/echo.py", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Commands(f); err == nil {
		t.Error("Commands before Start: no error")
	}
	if err := b.Close(); err != nil {
		t.Errorf("Close before Start: %v", err)
	}
	if err := b.Start(1, 1); err == nil {
		t.Error("Start after Close: no error")
	}
	b2 := startBot(t, py+" testdata/echo.py", Options{Deadline: answerDeadline})
	if err := b2.Start(1, 1); err == nil {
		t.Error("second Start: no error")
	}
	wantTurn(t, b2, f)
}

func TestNewErrors(t *testing.T) {
	for _, cmd := range []string{"", "   ", "python3 'unterminated", `sh "x`, `sh x\`, "no-such-program-rewind-test", "./testdata/missing.sh"} {
		if _, err := New(cmd, Options{}); err == nil {
			t.Errorf("New(%q): no error", cmd)
		}
	}
	// A relative program path is resolved against Dir.
	if _, err := New("./hang.sh", Options{Dir: "testdata"}); err != nil {
		t.Errorf("relative path with Dir: %v", err)
	}
}

// playExample plays rounds of the subprocess bot (uid 1) against the
// greedy built-in (uid 2) and checks that it never fails and grows.
func playExample(t *testing.T, command string, rounds int) {
	t.Helper()
	cfg := colorfight2.DefaultConfig()
	cfg.MaxPlayer = 2
	s, err := colorfight2.NewFromSeed(cfg, 7, []string{"example", "greedy"})
	if err != nil {
		t.Fatal(err)
	}
	ext := startBot(t, command, Options{Deadline: answerDeadline, StderrLog: filepath.Join(t.TempDir(), "stderr.log")})
	greedy, err := bot.Builtin("greedy")
	if err != nil {
		t.Fatal(err)
	}
	if err := greedy.Start(2, 99); err != nil {
		t.Fatal(err)
	}
	bots := []bot.Bot{ext, greedy}
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
	playExample(t, python(t)+" ../../../examples/bots/python/bot.py", 50)
}

func TestExampleGoBot(t *testing.T) {
	goTool := testutil.NeedTool(t, "go")
	bin := filepath.Join(t.TempDir(), "gobot")
	build := exec.Command(goTool, "build", "-o", bin, "../../../examples/bots/go")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	playExample(t, quoteArg(bin), 50)
}

// TestSpam: a bot printing replies without end (never reading its input)
// neither hangs the runner nor leaves anything behind. Whether a round
// times out or takes one of the replies depends on timing; either is
// right, and a reply is always the bot's empty one.
func TestSpam(t *testing.T) {
	frames := testFrames(t, 4)
	b := startBot(t, quoteArg(testutil.NeedTool(t, "yes"))+` '{"cmd_list":[]}'`, Options{Deadline: hangDeadline})
	for _, f := range frames {
		cmds, err := b.Commands(f)
		if err != nil && !errors.Is(err, ErrTimeout) {
			t.Fatalf("turn %d: %v", f.Turn, err)
		}
		if err == nil && len(cmds) != 0 {
			t.Fatalf("turn %d: commands %q", f.Turn, cmds)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	assertTreeGone(t, b)
}
