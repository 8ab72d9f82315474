package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/queue"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

func seedText(s *uint64) string {
	if s == nil {
		return "none"
	}
	return fmt.Sprint(*s)
}

// runSplit runs the command tree with args, its standard output and
// error apart.
func runSplit(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errs testutil.SyncBuffer
	err = runCLITo(&out, &errs, args...)
	return out.String(), errs.String(), err
}

// TestForgedResultsRefused is issue 37's attack on a tournament: anyone
// holding the NATS credentials writes REWIND_RESULTS/<tid>.0 before the
// tournament starts (its id follows from its settings), here with the
// replay of a 4-player seed-7 game and standings of its own, and
// REWIND_RESULTS/<tid>.1 with the true replay of game 1 but made-up
// standings; neither carries its job's token. Then a rogue worker that
// takes a job (and so holds its token) stores the 4-player game as its
// result. The coordinator refuses all three (its log names the game, the
// worker and why), queues the games again, and its folder and standings
// are those of the real tournament.
func TestForgedResultsRefused(t *testing.T) {
	url, env := natsServer(t)
	for _, e := range env {
		k, v, _ := strings.Cut(e, "=")
		t.Setenv(k, v)
	}
	work := t.TempDir()
	base := []string{"--bot", "greedy", "--bot", "random", "--players", "2", "--seed", "2", "--turns", "200", "--games", "2"}

	// The forger's material: another game (4 players, seed 7), and the
	// true game 1 of the tournament, played on machines of its own.
	other := filepath.Join(work, "other")
	if _, stderr, err := runSplit(t, "tournament", "--dir", other, "--bot", "greedy", "--bot", "random", "--bot", "economist", "--bot", "raider",
		"--players", "4", "--seed", "7", "--turns", "200", "--games", "1"); err != nil {
		t.Fatalf("the other game: %v\n%s", err, stderr)
	}
	real := filepath.Join(work, "real")
	realOut, stderr, err := runSplit(t, append([]string{"tournament", "--dir", real}, base...)...)
	if err != nil {
		t.Fatalf("the real tournament: %v\n%s", err, stderr)
	}

	js := jetStreamOf(t, url, env)
	ctx, cancel := context.WithTimeout(context.Background(), distSafety)
	defer cancel()
	q, err := queue.Open(ctx, js, 1, queue.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(ctx, queue.ResultsBucket)
	if err != nil {
		t.Fatal(err)
	}
	read := func(file string) []byte {
		data := testutil.ReadFile(t, file)
		return data
	}
	forged, claim := read(filepath.Join(other, "game-0000.rwd")), []match.SeatResult{{Bot: "random", Rank: 1, Score: 1e9}, {Bot: "greedy", Rank: 2}}
	spec := queue.Spec{Game: engine.Default(), Bots: []string{"greedy", "random"}, Players: 2, Seed: 2, MaxTurn: 200}
	forge := func(i int, data []byte) {
		sum := sha256.Sum256(data)
		b, err := json.Marshal(queue.Result{Game: match.GameResult{Seats: claim}, Inline: data, Size: int64(len(data)),
			SHA256: hex.EncodeToString(sum[:]), Worker: "forger"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := kv.Create(ctx, queue.GameKey(spec.ID(), i), b); err != nil {
			t.Fatal(err)
		}
	}
	forge(0, forged)
	forge(1, read(filepath.Join(real, "game-0001.rwd")))

	// The coordinator plays no game itself. A rogue worker takes the first
	// job it is handed (its token with it) and stores the other game's
	// replay as its result; then an honest worker plays.
	dir := filepath.Join(work, "dist")
	type run struct {
		out, stderr string
		err         error
	}
	coord := make(chan run, 1)
	go func() {
		out, stderr, err := runSplit(t, append([]string{"tournament", "--nats", url, "--dir", dir}, base...)...)
		coord <- run{out, stderr, err}
	}()
	rctx, stopRogue := context.WithCancel(ctx)
	rogue := &queue.Worker{Queue: q, ID: "rogue",
		Play: func(context.Context, queue.Job) (match.GameResult, []byte, error) {
			return match.GameResult{Seats: claim}, forged, nil
		},
		Log: func(format string, args ...any) {
			if strings.HasSuffix(fmt.Sprintf(format, args...), ": stored") {
				stopRogue()
			}
		}}
	if err := rogue.Run(rctx); err != nil {
		t.Fatal(err)
	}
	honest := startRewind(t, "worker", env, "worker", "--nats", url)
	var r run
	select {
	case r = <-coord:
	case <-ctx.Done():
		t.Fatal("the tournament did not finish")
	}
	honest.cmd.Process.Signal(os.Interrupt)
	honest.wait(t)
	out, stderr := r.out, r.stderr
	if r.err != nil {
		t.Fatalf("tournament: %v\n%s", r.err, stderr)
	}
	for _, want := range []string{
		`refused the result of game 0 from worker "forger": it does not carry its job's token`,
		`refused the result of game 1 from worker "forger": it does not carry its job's token`,
		`from worker "rogue": its replay is not the game: recording: not the game asked for: 4 players, want 2; the game is queued again`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the coordinator's log lacks %q:\n%s", want, stderr)
		}
	}
	if got, want := standingsTable(out), standingsTable(realOut); got != want {
		t.Errorf("standings:\n%s\nwant those of the real tournament:\n%s", got, want)
	}
	for i := range 2 {
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf("game-%04d.rwd", i)))
		if err != nil {
			t.Fatal(err)
		}
		s, err := replay.OpenSim(f)
		if err != nil {
			t.Fatal(err)
		}
		if h := s.Header(); len(h.Players) != 2 || h.Seed == nil || *h.Seed != match.GameSeed(2, i) {
			t.Errorf("game %d in the folder: %d players, seed %s; want the tournament's 2 players, seed %d", i, len(h.Players), seedText(h.Seed), match.GameSeed(2, i))
		}
		s.Close()
		f.Close()
	}
}

// chattyBotPy writes about 9 KB to stderr every turn it is asked and sends no
// command.
const chattyBotPy = `import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("type") != "turn":
        continue
    sys.stderr.write(("chatter %d " % msg["turn"]) * 700 + "\n")
    sys.stderr.flush()
    sys.stdout.write(json.dumps({"cmd_list": [], "turn": msg["turn"]}) + "\n")
    sys.stdout.flush()
`

// TestTournamentLogBudget: the stderr logs of a tournament's games take
// at most --max-logs MiB together; past it each log is cut with a note
// saying so, and the games are played and kept all the same.
func TestTournamentLogBudget(t *testing.T) {
	py := testutil.NeedTool(t, "python3")
	work := t.TempDir()
	bot := filepath.Join(work, "chatty.py")
	if err := os.WriteFile(bot, []byte(chattyBotPy), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(work, "t")
	_, stderr, err := runSplit(t, "tournament", "--dir", dir, "--bot", "greedy", "--bot", fmt.Sprintf("%q %q", py, bot),
		"--players", "2", "--games", "3", "--turns", "200", "--parallel", "1", "--max-logs", "1")
	if err != nil {
		t.Fatalf("tournament: %v\n%s", err, stderr)
	}
	if rwds, _ := filepath.Glob(filepath.Join(dir, "game-*.rwd")); len(rwds) != 3 {
		t.Errorf("%d replays, want 3", len(rwds))
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "*.stderr.log"))
	if len(logs) != 3 {
		t.Fatalf("%d logs, want one per game: %v", len(logs), logs)
	}
	var total int64
	notes := 0
	for _, l := range logs {
		b := testutil.ReadFile(t, l)
		total += int64(len(b))
		if strings.Contains(string(b), "[rewind: stderr log cut at ") && strings.Contains(string(b), "the logs' budget of 1048576 bytes is spent]") {
			notes++
		}
	}
	// The budget, and a note of under 200 bytes in each log cut.
	if max := int64(1<<20 + 3*200); total > max {
		t.Errorf("the logs take %d bytes, over the budget's %d", total, max)
	}
	if total < 1<<20 {
		t.Errorf("the logs take %d bytes: the budget of 1 MiB should be used up (the bot writes about 5 MB)", total)
	}
	if notes == 0 {
		t.Error("no log says it was cut for the budget")
	}
}
