package bot_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine/bot"
	"github.com/rewind-game/rewind/engine/bot/subprocess"
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/internal/testutil"
)

// quoteArg quotes s as one word of a command line (subprocess.New).
func quoteArg(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// recordPy is a test bot that appends every message it reads to the file
// named by its argument, logs "asked T" to stderr when asked for turn T,
// and answers "a 0 0 T" — with a command that is not a string on turn 3.
const recordPy = `import json, sys
out = open(sys.argv[1], "a")
for line in sys.stdin:
    out.write(line)
    out.flush()
    msg = json.loads(line)
    if msg["type"] != "turn":
        continue
    t = msg["turn"]
    sys.stderr.write("asked %d\n" % t)
    sys.stderr.flush()
    cmds = ["a 0 0 %d" % t] if t != 3 else [{"a": 3}]
    sys.stdout.write(json.dumps({"cmd_list": cmds, "turn": t}) + "\n")
    sys.stdout.flush()
`

// TestSubprocessMessages: a ColorfightII bot outside the process is sent
// exactly the start message of docs/bot-protocol.md and, each round,
// colorfight2.AppendBotTurn's message for the frame, told max_turn 500 by
// default; its commands are strings (anything else is a bad reply), and
// its stderr while asked is the round's log.
func TestSubprocessMessages(t *testing.T) {
	py := testutil.NeedTool(t, "python3")
	dir := t.TempDir()
	script, got := filepath.Join(dir, "record.py"), filepath.Join(dir, "messages")
	if err := os.WriteFile(script, []byte(recordPy), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := bot.NewSubprocess(quoteArg(py)+" "+quoteArg(script)+" "+quoteArg(got), subprocess.Options{Deadline: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Start(2, 1<<63+5); err != nil {
		t.Fatal(err)
	}
	want := `{"type":"start","protocol":1,"uid":2,"seed":9223372036854775813,"max_turn":500,"deadline_ms":60000}` + "\n"
	s, err := colorfight2.NewFromSeed(colorfight2.DefaultConfig(), 1, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	var f colorfight2.Frame
	for turn := 1; turn <= 3; turn++ {
		s.Step(nil)
		s.Frame(&f)
		want += string(colorfight2.AppendBotTurn(nil, &f, 2, colorfight2.DefaultMaxTurn, 60000))
		cmds, err := b.Commands(&f)
		if turn == 3 {
			if !errors.Is(err, subprocess.ErrBadReply) || cmds != nil {
				t.Fatalf("turn 3: %q, %v; want a bad reply", cmds, err)
			}
		} else if err != nil || !reflect.DeepEqual(cmds, []string{"a 0 0 " + strconv.Itoa(turn)}) {
			t.Fatalf("turn %d: %q, %v", turn, cmds, err)
		}
		if log := string(b.(bot.Logger).RoundLog()); log != "asked "+strconv.Itoa(turn)+"\n" {
			t.Fatalf("turn %d: round log %q", turn, log)
		}
	}
	sent, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	if string(sent) != want {
		t.Fatalf("the bot was sent\n%.300s\nwant\n%.300s", sent, want)
	}
}

// TestSubprocessGame: a ColorfightII bot outside the process is not
// created for another game.
func TestSubprocessGame(t *testing.T) {
	py := testutil.NeedTool(t, "python3")
	if _, err := bot.NewSubprocess(quoteArg(py), subprocess.Options{Game: "monad", MaxTurn: 10}); err == nil {
		t.Fatal("a ColorfightII bot created for monad")
	}
}

// playExample plays rounds of the external bot command (uid 1) against
// the greedy built-in (uid 2) and checks that it never fails and grows.
func playExample(t *testing.T, command string, rounds int) {
	t.Helper()
	cfg := colorfight2.DefaultConfig()
	cfg.MaxPlayer = 2
	s, err := colorfight2.NewFromSeed(cfg, 7, []string{"example", "greedy"})
	if err != nil {
		t.Fatal(err)
	}
	ext, err := bot.NewSubprocess(command, subprocess.Options{Deadline: time.Minute, StderrLog: filepath.Join(t.TempDir(), "stderr.log")})
	if err != nil {
		t.Fatal(err)
	}
	if err := ext.Start(1, 42); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ext.Close() })
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
	playExample(t, quoteArg(testutil.NeedTool(t, "python3"))+" ../../examples/bots/python/bot.py", 50)
}

func TestExampleGoBot(t *testing.T) {
	goTool := testutil.NeedTool(t, "go")
	bin := filepath.Join(t.TempDir(), "gobot")
	build := exec.Command(goTool, "build", "-o", bin, "../../examples/bots/go")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	playExample(t, quoteArg(bin), 50)
}
