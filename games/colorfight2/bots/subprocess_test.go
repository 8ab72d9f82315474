package bots_test

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

	"github.com/rewind-game/rewind/engine"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/subprocess"
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

// TestSubprocessMessages: a ColorfightII bot outside the process
// (subprocess.New for no game, as a seam player) is sent exactly the
// start message of docs/bot-protocol.md with the max_turn it is given
// and, each round, colorfight2.AppendBotTurn's message for the game's
// frame; its commands are strings (anything else is a bad reply), and
// its stderr while asked is the round's log.
func TestSubprocessMessages(t *testing.T) {
	py := testutil.NeedTool(t, "python3")
	dir := t.TempDir()
	script, got := filepath.Join(dir, "record.py"), filepath.Join(dir, "messages")
	if err := os.WriteFile(script, []byte(recordPy), 0o644); err != nil {
		t.Fatal(err)
	}
	sb, err := subprocess.New(quoteArg(py)+" "+quoteArg(script)+" "+quoteArg(got), subprocess.Options{Deadline: time.Minute, MaxTurn: colorfight2.DefaultMaxTurn})
	if err != nil {
		t.Fatal(err)
	}
	b := sb.Player()
	defer b.Close()
	if err := b.Start(1, 1<<63+5); err != nil {
		t.Fatal(err)
	}
	want := `{"type":"start","protocol":1,"uid":2,"seed":9223372036854775813,"max_turn":500,"deadline_ms":60000}` + "\n"
	g, err := colorfight2.Ruleset.New(1, engine.Settings{Players: 2, Names: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	cg := g.(*colorfight2.Game)
	for turn := 1; turn <= 3; turn++ {
		g.Round(nil)
		want += string(colorfight2.AppendBotTurn(nil, cg.Frame(), 2, colorfight2.DefaultMaxTurn, 60000))
		cmds, err := b.Commands(g, 1)
		if turn == 3 {
			if !errors.Is(err, subprocess.ErrBadReply) || cmds != nil {
				t.Fatalf("turn 3: %q, %v; want a bad reply", cmds, err)
			}
		} else if err != nil || !reflect.DeepEqual(cmds, []string{"a 0 0 " + strconv.Itoa(turn)}) {
			t.Fatalf("turn %d: %q, %v", turn, cmds, err)
		}
		if log := string(b.RoundLog()); log != "asked "+strconv.Itoa(turn)+"\n" {
			t.Fatalf("turn %d: round log %q", turn, log)
		}
	}
	sent := testutil.ReadFile(t, got)
	if string(sent) != want {
		t.Fatalf("the bot was sent\n%.300s\nwant\n%.300s", sent, want)
	}
}

// playExample plays rounds of the external bot command (uid 1) against
// the greedy built-in (uid 2) and checks that it never fails and grows.
func playExample(t *testing.T, command string, rounds int) {
	t.Helper()
	g, err := colorfight2.Ruleset.New(7, engine.Settings{Players: 2, Names: []string{"example", "greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	ext, err := subprocess.New(command, subprocess.Options{Deadline: time.Minute, StderrLog: filepath.Join(t.TempDir(), "stderr.log"), MaxTurn: colorfight2.DefaultMaxTurn})
	if err != nil {
		t.Fatal(err)
	}
	greedy := builtin(t, "greedy")
	bots := []match.GamePlayer{ext.Player(), greedy}
	for p, b := range bots {
		if err := b.Start(p, uint64(42+57*p)); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
	}
	cmds := make([][]string, 2)
	sent, failed := 0, 0
	g.Round(nil)
	for r := 0; r < rounds; r++ {
		for i, b := range bots {
			out, err := b.Commands(g, i)
			if err != nil {
				t.Fatalf("turn %d: %s: %v", g.Turn(), b.Name(), err)
			}
			cmds[i] = append(cmds[i][:0], out...)
			if i == 0 {
				sent += len(out)
			}
		}
		for _, ce := range g.Round(cmds) {
			if ce.Player == 0 {
				failed++
			}
		}
	}
	me := g.(*colorfight2.Game).Frame().Users[0]
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
	playExample(t, quoteArg(testutil.NeedTool(t, "python3"))+" ../../../examples/bots/python/bot.py", 50)
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
