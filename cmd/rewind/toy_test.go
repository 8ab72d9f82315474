package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/internal/toygame"
)

// A toy third game (internal/toygame, written only against the seam) is
// registered for this package's tests and nowhere else: everything below
// drives it through the commands a user runs, with no other change to
// the shell.
func init() {
	for _, r := range []engine.Ruleset{toygame.Ruleset, toygame.Sequential} {
		engine.Register(engine.Registration{Ruleset: r,
			Name: "Toy " + r.ID(), MinPlayers: 1, MaxPlayers: 4, MinTurns: 1, MaxTurns: 1000, DefaultTurns: 40, Round: "rounds",
			Bots: []engine.Builtin{{Name: "painter", Doc: "paints where it stands, else walks", New: toygame.NewPainter},
				{Name: "idler", Doc: "sends nothing", New: func(uint64) engine.Strategy {
					return engine.Strategy{Name: "idler", Commands: func(_ engine.Game, _ int, dst []string) []string { return dst }}
				}}},
			Vectors: toygame.Vectors,
		})
	}
}

// toyBot is an external bot for the toy game speaking the generic
// protocol (docs/bot-protocol.md, "Any game"): it paints every turn and
// logs its turn on stderr.
const toyBot = `import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] != "turn":
        continue
    st = m["state"]
    assert st["you"] == m["player"], st
    sys.stderr.write("turn %d at %d,%d\n" % (m["turn"], st["x"], st["y"]))
    sys.stderr.flush()
    print(json.dumps({"turn": m["turn"], "cmd_list": ["paint", "E", "S", "bogus"]}), flush=True)
`

func TestToyGameThroughCLI(t *testing.T) {
	dir := t.TempDir()
	for _, game := range []string{"toy", "toyseq"} {
		t.Run(game, func(t *testing.T) {
			rwd := filepath.Join(dir, game+".rwd")
			// A deadline no loaded machine misses: the external bot's
			// errors are counted, and a timeout would be a fault.
			args := []string{"play", "--game", game, "--seed", "5", "--turns", "30", "--deadline", "60s", "--bot", "painter", "--bot", "painter", "-o", rwd}
			py, err := exec.LookPath("python3")
			if err == nil {
				bot := filepath.Join(dir, "toybot.py")
				if err := os.WriteFile(bot, []byte(toyBot), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, "--bot", py+" "+bot)
			} else {
				t.Log("no python3: the external bot's seat is left out")
			}
			out, err := runCLIOut(t, args...)
			if err != nil {
				t.Fatalf("play: %v\n%s", err, out)
			}
			if py != "" {
				// The external bot's "bogus" is rejected once per turn it
				// plays (every round, or every third in turn order), and
				// it never faults.
				want := map[string]string{"toy": "30", "toyseq": "10"}[game]
				found := false
				for _, line := range strings.Split(out, "\n") {
					if f := strings.Fields(line); strings.Contains(line, "toybot.py") && len(f) > 2 {
						found = f[len(f)-2] == want && f[len(f)-1] == "0"
					}
				}
				if !found {
					t.Fatalf("the external bot's row does not show %s errors and no fault:\n%s", want, out)
				}
			}
			for _, want := range []string{"score", "moves", "1_painter", "2_painter", "(" + game + ", 30 rounds)"} {
				if !strings.Contains(out, want) {
					t.Fatalf("play output lacks %q:\n%s", want, out)
				}
			}
			out, err = runCLIOut(t, "verify", rwd)
			if err != nil || !strings.HasPrefix(out, "OK ") || !strings.Contains(out, "30 rounds") {
				t.Fatalf("verify: %v\n%s", err, out)
			}
			out, err = runCLIOut(t, "info", rwd)
			if err != nil {
				t.Fatalf("info: %v\n%s", err, out)
			}
			for _, want := range []string{"ruleset:  " + game + " v1", "codec text", "rounds: 30, complete", "drawn from seed 5", "rank 1, score"} {
				if !strings.Contains(out, want) {
					t.Fatalf("info lacks %q:\n%s", want, out)
				}
			}
			if py != "" && !strings.Contains(out, "toybot.py") {
				t.Fatalf("info does not name the external bot:\n%s", out)
			}
			// A cut copy: every whole round verifies, exit 3, info says
			// incomplete (exit 3).
			data := testutil.ReadFile(t, rwd)
			cut := filepath.Join(dir, game+"-cut.rwd")
			if err := os.WriteFile(cut, data[:len(data)*3/4], 0o644); err != nil {
				t.Fatal(err)
			}
			out, err = runCLIOut(t, "verify", cut)
			if ee, ok := err.(*exitError); !ok || ee.code != exitIncomplete || !strings.HasPrefix(out, "INCOMPLETE ") {
				t.Fatalf("verify of a cut copy: %v\n%s", err, out)
			}
			out, err = runCLIOut(t, "info", cut)
			if ee, ok := err.(*exitError); !ok || ee.code != exitIncomplete || !strings.Contains(out, "incomplete") {
				t.Fatalf("info of a cut copy: %v\n%s", err, out)
			}
		})
	}
}

// TestToyTournamentThroughCLI: tournament --game toy plays every game
// through the queue into a folder whose replays verify, prints standings
// by the toy's score with the ratings' columns (μ − 3σ, μ, σ, Elo), and a
// second run resumes (every game kept).
func TestToyTournamentThroughCLI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "t")
	args := []string{"tournament", "--game", "toyseq", "--bot", "painter", "--bot", "painter", "--players", "3", "--games", "4", "--parallel", "2", "--turns", "20", "--dir", dir}
	out, err := runCLIOut(t, args...)
	if err != nil {
		t.Fatalf("tournament: %v\n%s", err, out)
	}
	if !strings.Contains(out, "mean score") || !strings.Contains(out, `"painter"`) || !strings.Contains(out, "4 games (0 already played") {
		t.Fatalf("tournament output:\n%s", out)
	}
	checkRatingColumns(t, out, 1)
	files, _ := filepath.Glob(filepath.Join(dir, "*.rwd"))
	if len(files) != 4 {
		t.Fatalf("%d replays in the folder: %v", len(files), files)
	}
	for _, f := range files {
		if out, err := runCLIOut(t, "verify", f); err != nil || !strings.Contains(out, "OK ") || !strings.Contains(out, "20 rounds") {
			t.Fatalf("verify %s: %v\n%s", f, err, out)
		}
	}
	out, err = runCLIOut(t, args...)
	if err != nil || !strings.Contains(out, "4 games (4 already played") {
		t.Fatalf("second run: %v\n%s", err, out)
	}
}

// TestToyConformThroughCLI: a game with conformance vectors of its own
// (engine.Conformer) is checked by rewind conform, vector by vector, a
// wrong expected hash named at its round.
func TestToyConformThroughCLI(t *testing.T) {
	dir := t.TempDir()
	cmds := [][][]string{{{"paint"}, {"E"}}, {{"S"}, {"paint", "junk"}}, {{"paint"}, {"N"}}}
	g, _ := toygame.Ruleset.New(4, engine.Settings{Players: 2, MaxTurns: 3})
	var hashes []uint64
	for _, c := range cmds {
		g.Round(c)
		hashes = append(hashes, g.Hash())
	}
	write := func(name string, v any, gz bool) {
		b, _ := json.Marshal(v)
		if gz {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(b)
			zw.Close()
			b = buf.Bytes()
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := map[string]any{"seed": 4, "players": 2, "turns": 3, "commands": cmds}
	write("t1.toy.json", in, false)
	write("t1.toyhash.json.gz", hashes, true)
	write("t2.toy.json", in, false)
	bad := append([]uint64(nil), hashes...)
	bad[1]++
	write("t2.toyhash.json.gz", bad, true)
	out, err := runCLIOut(t, "conform", dir)
	if err == nil || strings.Count(out, "\n") != 2 || !strings.Contains(out, "t1: PASS (3 rounds)") || !strings.Contains(out, "t2: FAIL round 1: hash") {
		t.Fatalf("conform: %v\n%s", err, out)
	}
	out, err = runCLIOut(t, "conform", filepath.Join(dir, "t1.toy.json"))
	if err != nil || !strings.Contains(out, "t1: PASS") {
		t.Fatalf("conform t1: %v\n%s", err, out)
	}
}
