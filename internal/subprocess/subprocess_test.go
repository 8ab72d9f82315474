package subprocess

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

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

// testTurns returns the turns 1..n.
func testTurns(n int) []int {
	turns := make([]int, n)
	for i := range turns {
		turns[i] = i + 1
	}
	return turns
}

// turnMsg is a turn message as the test bots read it: they look at its
// "type" and "turn" only. pad adds a string of that many bytes.
func turnMsg(turn, pad int) []byte {
	return fmt.Appendf(nil, `{"type":"turn","turn":%d,"pad":"%s"}`+"\n", turn, strings.Repeat("x", pad))
}

// ask sends the bot the turn message of turn and returns its reply.
func ask(b *Bot, turn int) ([]string, error) { return b.Exchange(turn, turnMsg(turn, 0)) }

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

// wantTurn asserts that turn was answered correctly.
func wantTurn(t *testing.T, b *Bot, turn int) {
	t.Helper()
	cmds, err := ask(b, turn)
	if err != nil {
		t.Fatalf("turn %d: unexpected error: %v", turn, err)
	}
	if want := turnCmd(turn); !reflect.DeepEqual(cmds, want) {
		t.Fatalf("turn %d: commands %q, want %q", turn, cmds, want)
	}
}

// wantErr asserts that turn fails with an error wrapping target.
func wantErr(t *testing.T, b *Bot, turn int, target error) error {
	t.Helper()
	cmds, err := ask(b, turn)
	return wantFailed(t, turn, cmds, err, target)
}

// wantFailed asserts that the exchange of turn failed with an error
// wrapping target, and gave no commands.
func wantFailed(t *testing.T, turn int, cmds []string, err, target error) error {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("turn %d: error %v, want one wrapping %v", turn, err, target)
	}
	if cmds != nil {
		t.Fatalf("turn %d: commands %q returned with error %v", turn, cmds, err)
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
	turns := testTurns(5)
	log := filepath.Join(t.TempDir(), "stderr.log")
	cmd := python(t) + " testdata/echo.py"
	b := startBot(t, cmd, Options{Deadline: answerDeadline, StderrLog: log})
	if b.Name() != cmd {
		t.Errorf("Name() = %q, want %q", b.Name(), cmd)
	}
	for _, turn := range turns {
		wantTurn(t, b, turn)
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
	wantErr(t, b, turns[0], ErrBotExited)
	data := testutil.ReadFile(t, log)
	if !strings.Contains(string(data), "echo bot: hello from stderr") || !strings.Contains(string(data), "uid 1 seed 42") {
		t.Errorf("stderr log = %q, want the bot's greeting and its start message", data)
	}
}

func TestTurnEcho(t *testing.T) {
	turns := testTurns(3)
	b := startBot(t, python(t)+" testdata/echo.py echo", Options{Deadline: answerDeadline})
	for _, turn := range turns {
		wantTurn(t, b, turn)
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

// TestStartMessage: the start message, byte for byte, is each example of
// docs/bot-protocol.md: without a game (ColorfightII's), Monad's and a
// game's played through the seam.
func TestStartMessage(t *testing.T) {
	cases := []struct {
		uid  int
		seed uint64
		opts Options
		want string
	}{
		{2, 1234567890123456789, Options{MaxTurn: 500, Deadline: time.Second},
			`{"type":"start","protocol":1,"uid":2,"seed":1234567890123456789,"max_turn":500,"deadline_ms":1000}`},
		{2, 123, Options{Game: "monad", MaxTurn: 1000, Deadline: time.Second},
			`{"type":"start","protocol":1,"game":"monad","uid":2,"player":1,"seed":123,"max_turn":1000,"deadline_ms":1000}`},
		{3, 123, Options{Game: "toy", MaxTurn: 40, Deadline: time.Second},
			`{"type":"start","protocol":1,"game":"toy","uid":3,"player":2,"seed":123,"max_turn":40,"deadline_ms":1000}`},
		{1, 1<<64 - 1, Options{MaxTurn: 7, Deadline: 1500 * time.Millisecond},
			`{"type":"start","protocol":1,"uid":1,"seed":18446744073709551615,"max_turn":7,"deadline_ms":1500}`},
	}
	for _, c := range cases {
		if got := appendStart(nil, c.uid, c.seed, c.opts); string(got) != c.want+"\n" {
			t.Errorf("start message\n%s\nwant\n%s", got, c.want)
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
	turns := testTurns(10)
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
		turn := turns[i]
		if c.target == nil {
			wantTurn(t, b, turn)
			continue
		}
		err := wantErr(t, b, turn, c.target)
		if !strings.Contains(err.Error(), c.text) {
			t.Errorf("turn %d: error %q does not mention %q", turn, err, c.text)
		}
	}
}

// TestHang: a bot that never reads nor answers times out every round
// (never "exited"), never blocks the runner past the deadline (its unread
// turn messages fill the pipe: the write is then what times out), and
// leaves nothing behind.
func TestHang(t *testing.T) {
	turns := testTurns(12)
	// Enough turn messages to fill any pipe buffer (64 KiB on Linux,
	// at most 64 KiB on darwin) many times over: 11 of 32 KiB before the
	// last.
	const pad = 32 << 10
	b := startBot(t, shell(t)+" testdata/hang.sh", Options{Deadline: hangDeadline, StartupGrace: -1})
	var err error
	for _, turn := range turns {
		cmds, err2 := b.Exchange(turn, turnMsg(turn, pad))
		err = wantFailed(t, turn, cmds, err2, ErrTimeout)
		if errors.Is(err, ErrBotExited) {
			t.Fatalf("turn %d: %v", turn, err)
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
	turns := testTurns(5)
	b := startBot(t, python(t)+" testdata/crash.py", Options{Deadline: answerDeadline})
	wantTurn(t, b, turns[0])
	wantTurn(t, b, turns[1])
	err := wantErr(t, b, turns[2], ErrBotExited)
	if err.Error() != "bot exited: exit status 3" {
		t.Errorf("error %q, want %q", err, "bot exited: exit status 3")
	}
	for _, turn := range turns[3:] {
		if _, err2 := ask(b, turn); err2 != err {
			t.Errorf("turn %d: error %v, want the same error %v", turn, err2, err)
		}
	}
	assertTreeGone(t, b)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestFlood(t *testing.T) {
	turns := testTurns(4)
	b := startBot(t, python(t)+" testdata/flood.py", Options{Deadline: answerDeadline})
	err := wantErr(t, b, turns[0], ErrFlood)
	if !strings.Contains(err.Error(), "longer than 1048576 bytes") || !strings.Contains(err.Error(), `"xxxx`) {
		t.Errorf("flood error %q lacks the limit or an excerpt", err)
	}
	for _, turn := range turns[1:] {
		wantTurn(t, b, turn)
	}
}

func TestFloodSmallLimit(t *testing.T) {
	turns := testTurns(3)
	// Every reply of the echo bot is about 25 bytes.
	b := startBot(t, python(t)+" testdata/echo.py", Options{Deadline: answerDeadline, MaxLineBytes: 10})
	for _, turn := range turns {
		wantErr(t, b, turn, ErrFlood)
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
			turns := testTurns(6)
			b := startBot(t, python(t)+" testdata/late.py next"+mode, Options{Deadline: answerDeadline})
			wantTurn(t, b, turns[0])
			b.opts.Deadline = hangDeadline // only this round: it cannot be answered in time
			wantErr(t, b, turns[1], ErrTimeout)
			b.opts.Deadline = answerDeadline
			for _, turn := range turns[2:] {
				wantTurn(t, b, turn)
			}
		})
	}
	// The late reply is already there when turn 3 starts.
	t.Run("before-next-turn", func(t *testing.T) {
		turns := testTurns(5)
		dir := t.TempDir()
		goFile, sentFile := filepath.Join(dir, "go"), filepath.Join(dir, "sent")
		b := startBot(t, python(t)+" testdata/late.py file "+quoteArg(goFile)+" "+quoteArg(sentFile), Options{Deadline: answerDeadline})
		wantTurn(t, b, turns[0])
		b.opts.Deadline = hangDeadline
		wantErr(t, b, turns[1], ErrTimeout)
		b.opts.Deadline = answerDeadline
		if err := os.WriteFile(goFile, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		waitFile(t, sentFile)
		for _, turn := range turns[2:] {
			wantTurn(t, b, turn)
		}
	})
}

func TestForkedGrandchild(t *testing.T) {
	turns := testTurns(3)
	b := startBot(t, shell(t)+" testdata/fork.sh", Options{Deadline: answerDeadline})
	for _, turn := range turns {
		wantTurn(t, b, turn)
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
	turns := testTurns(3)
	b := startBot(t, shell(t)+" testdata/fork.sh crash", Options{Deadline: answerDeadline})
	wantTurn(t, b, turns[0])
	err := wantErr(t, b, turns[1], ErrBotExited)
	if err.Error() != "bot exited: exit status 4" {
		t.Errorf("error %q, want %q", err, "bot exited: exit status 4")
	}
	assertTreeGone(t, b)
	if _, err2 := ask(b, turns[2]); err2 != err {
		t.Errorf("after exit: error %v, want %v", err2, err)
	}
}

func TestLifecycleErrors(t *testing.T) {
	py := python(t)
	b, err := New(py+" testdata/echo.py", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ask(b, 1); err == nil {
		t.Error("asked before Start: no error")
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
	wantTurn(t, b2, 1)
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

// TestSpam: a bot printing replies without end (never reading its input)
// neither hangs the runner nor leaves anything behind. Whether a round
// times out or takes one of the replies depends on timing; either is
// right, and a reply is always the bot's empty one.
func TestSpam(t *testing.T) {
	turns := testTurns(4)
	b := startBot(t, quoteArg(testutil.NeedTool(t, "yes"))+` '{"cmd_list":[]}'`, Options{Deadline: hangDeadline})
	for _, turn := range turns {
		cmds, err := ask(b, turn)
		if err != nil && !errors.Is(err, ErrTimeout) {
			t.Fatalf("turn %d: %v", turn, err)
		}
		if err == nil && len(cmds) != 0 {
			t.Fatalf("turn %d: commands %q", turn, cmds)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	assertTreeGone(t, b)
}
