package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/testutil"
)

// rerunGames are the games rerun is tested on, each with its built-ins
// for a match of a few seats and a short game: every registered game
// (the fifth game of fifthgame_test.go, the toy games of toy_test.go).
var rerunGames = []struct {
	game  string
	bots  []string
	turns string
}{
	{"colorfight2", []string{"greedy", "random", "economist"}, "200"},
	{"monad", []string{"expander", "miner", "rusher"}, "60"},
	{"skyport", []string{"hunter", "random", "miner"}, "60"},
	{"colorfight1", []string{"expander", "random", "aggressor"}, "60"},
	{"toy", []string{"painter", "painter"}, "30"},
	{"toyseq", []string{"painter", "painter"}, "30"},
	{fifthID, []string{"adder", "adder"}, "30"},
}

// playForRerun plays a game of rerunGames through the CLI into dir.
func playForRerun(t *testing.T, dir, game string, bots []string, turns string) string {
	t.Helper()
	rwd := filepath.Join(dir, game+".rwd")
	args := []string{"play", "--game", game, "--seed", "9", "--turns", turns, "-o", rwd}
	for _, b := range bots {
		args = append(args, "--bot", b)
	}
	mustRunRewind(t, args...)
	return rwd
}

// TestRerunOwnBuiltinNoDifference: in every game, each seat's own
// built-in, asked again at every one of its turns of the game it
// played (started with the seed the replay records for it), sends the
// recorded commands: rerun says so and exits 0. A random bot asked in a
// greedy bot's seat differs, and rerun exits 1.
func TestRerunOwnBuiltinNoDifference(t *testing.T) {
	dir := t.TempDir()
	for _, g := range rerunGames {
		t.Run(g.game, func(t *testing.T) {
			rwd := playForRerun(t, dir, g.game, g.bots, g.turns)
			for i, b := range g.bots {
				seat := fmt.Sprint(i + 1)
				out, code := runRewind(t, "rerun", rwd, "--seat", seat, "--bot", seat+"="+b)
				if code != 0 || !strings.Contains(out, "no difference") || !strings.Contains(out, "recorded), from round 0") {
					t.Fatalf("rerun seat %s with its own %s: status %d\n%s", seat, b, code, out)
				}
			}
		})
	}
	rwd := filepath.Join(dir, "colorfight2.rwd")
	out, code := runRewind(t, "rerun", rwd, "--seat", "1", "--bot", "1=random")
	if code != 1 || !strings.Contains(out, "first difference: round 1 ") {
		t.Fatalf("rerun of a greedy seat with random: status %d\n%s", code, out)
	}
}

// TestForkOwnBuiltinsIsParent: a fork whose seats keep their own
// built-ins is its parent again, in every game: each built-in starts with
// the seed the parent records for it and is asked through the kept
// rounds, so it plays on as it played (DECISIONS: a built-in's seed is
// recorded per seat).
func TestForkOwnBuiltinsIsParent(t *testing.T) {
	dir := t.TempDir()
	for _, g := range rerunGames {
		t.Run(g.game, func(t *testing.T) {
			rwd := playForRerun(t, dir, g.game, g.bots, g.turns)
			fk := filepath.Join(dir, g.game+"-fork.rwd")
			mustRunRewind(t, "fork", rwd, "--turn", "10", "-o", fk)
			if out, code := runRewind(t, "diff", rwd, fk); code != 0 || !strings.Contains(out, "verdict: same") {
				t.Fatalf("diff of a game and its fork with its own built-ins: status %d\n%s", code, out)
			}
		})
	}
}

// toyCycleBot is an external bot for the toy game: it paints, then walks
// E, S, W, N in turn, and logs each turn on stderr. With CHANGE_AT set
// it walks N from that turn on, and says so on stderr.
const toyCycleBot = `import json, os, sys
change = int(os.environ.get("CHANGE_AT", "-1"))
if len(sys.argv) > 1:
    change = int(sys.argv[1])
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] != "turn":
        continue
    t = m["turn"]
    step = "ESWN"[t % 4]
    if 0 <= change <= t:
        step = "N"
        sys.stderr.write("changed my mind at turn %d\n" % t)
    else:
        sys.stderr.write("turn %d: walking %s\n" % (t, step))
    sys.stderr.flush()
    print(json.dumps({"turn": t, "cmd_list": ["paint", step]}), flush=True)
`

// TestRerunPythonBotChangesAtTurn: a Python bot that plays as the one
// that played seat 2 of a toy game until turn 17, then otherwise:
// rerun reports exactly round 17, with the recorded and the new commands
// and the bot's log line of that round; the bot that played reproduces
// the game. In ColorfightII, a wrapper of the example bot
// (examples/bots/python/bot.py) that sends nothing from turn 40 on is
// reported at round 40.
func TestRerunPythonBotChangesAtTurn(t *testing.T) {
	py := testutil.NeedTool(t, "python3")
	dir := t.TempDir()
	// A deadline no loaded machine misses: a timeout in the recording
	// would be a difference of its own.
	const slow = "60s"
	bot := filepath.Join(dir, "cycle.py")
	if err := os.WriteFile(bot, []byte(toyCycleBot), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, game := range []string{"toy", "toyseq"} {
		t.Run(game, func(t *testing.T) {
			rwd := filepath.Join(dir, game+".rwd")
			mustRunRewind(t, "play", "--deadline", slow, "--game", game, "--seed", "3", "--turns", "40", "--bot", "painter", "--bot", py+" "+bot, "-o", rwd)
			out, code := runRewind(t, "rerun", rwd, "--deadline", slow, "--seat", "2", "--bot", "2="+py+" "+bot)
			if code != 0 || !strings.Contains(out, "no difference") {
				t.Fatalf("rerun with the bot that played: status %d\n%s", code, out)
			}
			out, code = runRewind(t, "rerun", rwd, "--deadline", slow, "--seat", "2", "--bot", "2="+py+" "+bot+" 17")
			recorded := "paint; " + string("ESWN"[17%4])
			for _, want := range []string{"first difference: round 17 (from turn 17 to 18)", "recorded  " + recorded, "bot       paint; N", "| changed my mind at turn 17"} {
				if code != 1 || !strings.Contains(out, want) {
					t.Fatalf("rerun with a bot that changes at turn 17: status %d, want %q in\n%s", code, want, out)
				}
			}
			// The same in JSON.
			out, code = runRewind(t, "rerun", rwd, "--deadline", slow, "--seat", "2", "--bot", "2="+py+" "+bot+" 17", "--format", "json", "--from", "5")
			var res struct {
				Compared   int `json:"rounds_compared"`
				Difference struct {
					Round    int `json:"round"`
					Commands struct {
						A, B []string
					} `json:"commands"`
					Log string `json:"log"`
				} `json:"difference"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil || code != 1 {
				t.Fatalf("rerun --format json: status %d, %v\n%s", code, err, out)
			}
			if d := res.Difference; d.Round != 17 || strings.Join(d.Commands.A, " ") != strings.ReplaceAll(recorded, ";", "") ||
				strings.Join(d.Commands.B, " ") != "paint N" || d.Log != "changed my mind at turn 17\n" {
				t.Fatalf("rerun --format json: %+v", res)
			}
		})
	}
	t.Run("colorfight2", func(t *testing.T) {
		root, err := testutil.ModuleRoot()
		if err != nil {
			t.Fatal(err)
		}
		example := filepath.Join(root, "examples", "bots", "python", "bot.py")
		wrapper := filepath.Join(dir, "wrapper.py")
		src := `import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("example", ` + fmt.Sprintf("%q", example) + `)
bot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bot)
for line in sys.stdin:
    m = json.loads(line)
    if m.get("type") != "turn":
        continue
    cmds = bot.decide(m)
    if m["turn"] >= 40:
        cmds = []
        sys.stderr.write("resting at turn %d\n" % m["turn"])
        sys.stderr.flush()
    print(json.dumps({"cmd_list": cmds, "turn": m["turn"]}), flush=True)
`
		if err := os.WriteFile(wrapper, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		rwd := filepath.Join(dir, "cf2.rwd")
		mustRunRewind(t, "play", "--deadline", slow, "--seed", "5", "--turns", "200", "--bot", "greedy", "--bot", py+" "+example, "-o", rwd)
		out, code := runRewind(t, "rerun", rwd, "--deadline", slow, "--seat", "2", "--bot", "2="+py+" "+example)
		if code != 0 || !strings.Contains(out, "no difference") {
			t.Fatalf("rerun with the example bot that played: status %d\n%s", code, out)
		}
		out, code = runRewind(t, "rerun", rwd, "--deadline", slow, "--seat", "2", "--bot", "2="+py+" "+wrapper)
		for _, want := range []string{"first difference: round 40 ", "bot       (none)", "| resting at turn 40"} {
			if code != 1 || !strings.Contains(out, want) {
				t.Fatalf("rerun with a bot that rests from turn 40: status %d, want %q in\n%s", code, want, out)
			}
		}
		if !regexp.MustCompile(`recorded  (a|b) \d+ \d+`).MatchString(out) {
			t.Fatalf("rerun does not show the recorded commands:\n%s", out)
		}
	})
}

// TestRerunFollow: --follow plays on from the first difference with the
// bot that differs: the new replay verifies, names its parent and the
// round it forks at, and diff finds its commands first differ there.
func TestRerunFollow(t *testing.T) {
	dir := t.TempDir()
	for _, g := range rerunGames {
		if g.game == fifthID {
			continue // its games start from a seed only: fork refuses them
		}
		t.Run(g.game, func(t *testing.T) {
			rwd := playForRerun(t, dir, g.game, g.bots, g.turns)
			other := "random"
			switch {
			case g.game == "monad":
				other = "idle"
			case strings.HasPrefix(g.game, "toy"):
				// It differs from round 0: the followed game keeps nothing
				// but the parent's setup.
				other = "idler"
			}
			fl := filepath.Join(dir, g.game+"-follow.rwd")
			out, code := runRewind(t, "rerun", rwd, "--seat", "1", "--bot", "1="+other, "--follow", "-o", fl, "--format", "json")
			var res struct {
				Difference struct{ Round int } `json:"difference"`
				Follow     struct {
					File   string `json:"file"`
					Parent int    `json:"parent_turn"`
				} `json:"follow"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil || code != 1 || res.Follow.File == "" {
				t.Fatalf("rerun --follow: status %d, %v\n%s", code, err, out)
			}
			d := res.Difference.Round
			if res.Follow.Parent != d {
				t.Fatalf("follow forks at %d, the difference is at %d", res.Follow.Parent, d)
			}
			mustRunRewind(t, "verify", fl)
			if out, _ := runRewind(t, "info", fl); !strings.Contains(out, fmt.Sprintf("fork of:  %s.rwd (sha256 ", g.game)) || !strings.Contains(out, fmt.Sprintf(") from turn %d", d)) {
				t.Fatalf("info of the followed replay does not name its parent and turn %d:\n%s", d, out)
			}
			out, _ = runRewind(t, "diff", rwd, fl)
			if !strings.Contains(out, fmt.Sprintf("commands: first differ in round %d ", d)) {
				t.Fatalf("diff of the parent and the followed replay, want round %d:\n%s", d, out)
			}
		})
	}
}

// TestRerunCommandLine: a seat out of range, a missing or seatless
// --bot, --follow without -o and a file that is no replay exit 2 with a
// message saying what to type; a file cut short exits 3 when no round
// differs before its end.
func TestRerunCommandLine(t *testing.T) {
	dir := t.TempDir()
	rwd := playForRerun(t, dir, "colorfight2", []string{"greedy", "random"}, "200")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--seat", "3", "--bot", "3=greedy"}, "--seat 3: the game has seats 1..2"},
		{[]string{"--seat", "0", "--bot", "1=greedy"}, "--seat 0: the game has seats 1..2"},
		{[]string{"--seat", "2"}, "no bot for seat 2: rerun asks only the bot you give, never the one a replay names; type rewind rerun " + rwd + " --seat 2 --bot 2=NAME|COMMAND"},
		{[]string{"--seat", "2", "--bot", "greedy"}, "say which seat it plays: rewind rerun"},
		{[]string{"--seat", "2", "--bot", "1=greedy"}, "only seat 2 is asked again"},
		{[]string{"--seat", "2", "--bot", "2=greedy", "--follow"}, "give -o FILE"},
		{[]string{"--seat", "2", "--bot", "2=gredy"}, "no such built-in bot"},
		{[]string{"--bot", "2=greedy"}, "--seat"},
	} {
		out, code := runRewind(t, append([]string{"rerun", rwd}, c.args...)...)
		if code != 2 || !strings.Contains(out, c.want) || strings.Contains(out, "panic") {
			t.Errorf("rerun %v: status %d, want 2 and %q:\n%s", c.args, code, c.want, out)
		}
	}
	if out, code := runRewind(t, "rerun", filepath.Join(dir, "none.rwd"), "--seat", "1", "--bot", "1=greedy"); code != 2 {
		t.Errorf("rerun of a missing file: status %d\n%s", code, out)
	}
	data := testutil.ReadFile(t, rwd)
	cut := filepath.Join(dir, "cut.rwd")
	if err := os.WriteFile(cut, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := runRewind(t, "rerun", cut, "--seat", "1", "--bot", "1=greedy"); code != 3 || !strings.Contains(out, "is cut short") || !strings.Contains(out, "no difference") {
		t.Errorf("rerun of a file cut short: status %d, want 3\n%s", code, out)
	}
}

// TestRerunOldFileWithoutSeeds: a replay written before bot seeds were
// recorded (its header without "bot_seed") still verifies, and rerun of
// its random bot falls back to the seed rewind play gave it, derived from
// the game's seed: no difference, and the table says the seed was
// derived.
func TestRerunOldFileWithoutSeeds(t *testing.T) {
	dir := t.TempDir()
	for _, g := range []struct{ game, bot, turns string }{{"colorfight2", "random", "200"}, {"skyport", "random", "60"}} {
		rwd := playForRerun(t, dir, g.game, []string{g.bot, g.bot}, g.turns)
		old := filepath.Join(dir, g.game+"-old.rwd")
		forged := forgeHeader(t, testutil.ReadFile(t, rwd), func(hj map[string]any) {
			for _, p := range hj["players"].([]any) {
				delete(p.(map[string]any), "bot_seed")
			}
		})
		if err := os.WriteFile(old, forged, 0o644); err != nil {
			t.Fatal(err)
		}
		mustRunRewind(t, "verify", old)
		out, code := runRewind(t, "rerun", old, "--seat", "2", "--bot", "2="+g.bot)
		if code != 0 || !strings.Contains(out, "derived: the replay records none") {
			t.Fatalf("%s: rerun of a file without bot seeds: status %d\n%s", g.game, code, out)
		}
	}
}
