package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// diffJSON is the part of `rewind diff --format json` the tests read
// (docs/diff-json.md).
type diffJSON struct {
	Verdict          string   `json:"verdict"`
	SetupDifferences []string `json:"setup_differences"`
	Frames           int      `json:"frames_compared"`
	StateBy          string   `json:"state_compared_by"`
	Commands         *struct {
		Round int `json:"round"`
		Turn  int `json:"turn"`
		Seats []struct {
			Seat    int      `json:"seat"`
			Differs bool     `json:"differs"`
			A       []string `json:"a"`
			B       []string `json:"b"`
		} `json:"seats"`
	} `json:"commands"`
	State *struct {
		Turn int `json:"turn"`
	} `json:"state"`
	Series []struct {
		Metric          string `json:"metric"`
		Seat            int    `json:"seat"`
		FirstDifference int    `json:"first_difference"`
	} `json:"series"`
	Outcome []struct {
		Seat   int   `json:"seat"`
		ScoreA int64 `json:"score_a"`
		ScoreB int64 `json:"score_b"`
	} `json:"outcome"`
}

// runRewindStdout runs `rewind args...` as runRewind does, its stdout
// and stderr apart.
func runRewindStdout(t *testing.T, args ...string) (res struct {
	stdout, stderr string
	code           int
}) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("rewind %s: %v", strings.Join(args, " "), err)
	}
	res.stdout, res.stderr = out.String(), errOut.String()
	return res
}

// runDiffJSON runs `rewind diff A B --format json` as a process and
// decodes its output.
func runDiffJSON(t *testing.T, a, b string) (diffJSON, int) {
	t.Helper()
	cmd := runRewindStdout(t, "diff", a, b, "--format", "json")
	var d diffJSON
	if err := json.Unmarshal([]byte(cmd.stdout), &d); err != nil {
		t.Fatalf("diff %s %s --format json: %v\n%s%s", a, b, err, cmd.stdout, cmd.stderr)
	}
	return d, cmd.code
}

// firstCommandDifference reads two .rwd files round by round through
// replay.Sim (not through diff) and returns the turn after the first
// round whose commands differ, with both rounds' commands; 0 when none
// does.
func firstCommandDifference(t *testing.T, a, b string) (int, [][]string, [][]string) {
	t.Helper()
	open := func(p string) *replay.Sim {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		r, err := replay.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := replay.NewSim(r)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	sa, sb := open(a), open(b)
	for turn := 1; ; turn++ {
		ea, eb := sa.Next(), sb.Next()
		if ea != nil || eb != nil {
			return 0, nil, nil
		}
		ra, rb := sa.Round(), sb.Round()
		if ra.Active != rb.Active || !slices.EqualFunc(ra.Commands, rb.Commands, slices.Equal) {
			return turn, slices.Clone(ra.Commands), slices.Clone(rb.Commands)
		}
	}
}

// TestDiffBotDiffers: for each game, two games played through the CLI
// from the same seed, one seat's bot changed, are the same setup; diff
// names the first turn whose commands differ — the one a round-by-round
// reading of both files finds — with every seat's commands in A and B,
// marks the seat whose commands differ, and exits 1.
func TestDiffBotDiffers(t *testing.T) {
	for _, tc := range []struct {
		game, turns, same, a, b string
	}{
		{"colorfight2", "200", "greedy", "random", "raider"},
		{"monad", "200", "miner", "idle", "rusher"},
		{"skyport", "40", "hunter", "miner", "random"},
		{"colorfight1", "300", "expander", "economist", "aggressor"},
		{"toy", "40", "painter", "painter", "idler"}, // toy_test.go registers it
	} {
		t.Run(tc.game, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a.rwd"), filepath.Join(dir, "b.rwd")
			for _, g := range [][2]string{{a, tc.a}, {b, tc.b}} {
				mustRunRewind(t, "play", "--game", tc.game, "--seed", "5", "--turns", tc.turns, "--bot", tc.same, "--bot", g[1], "-o", g[0])
			}
			turn, ca, cb := firstCommandDifference(t, a, b)
			if turn == 0 {
				t.Fatalf("the two games never differ in their commands: choose other bots")
			}
			d, code := runDiffJSON(t, a, b)
			if code != 1 || d.Verdict != "diverged" || len(d.SetupDifferences) != 0 {
				t.Fatalf("status %d, verdict %q, setup differences %q; want 1, diverged, none", code, d.Verdict, d.SetupDifferences)
			}
			if d.Commands == nil || d.Commands.Turn != turn {
				t.Fatalf("commands diverge at %+v, want turn %d", d.Commands, turn)
			}
			if len(d.Commands.Seats) != 2 {
				t.Fatalf("seats %+v", d.Commands.Seats)
			}
			for p, s := range d.Commands.Seats {
				if !slices.Equal(s.A, nonNil(ca[p])) || !slices.Equal(s.B, nonNil(cb[p])) {
					t.Errorf("seat %d: A %q B %q, recorded %q and %q", s.Seat, s.A, s.B, ca[p], cb[p])
				}
			}
			if d.Commands.Seats[0].Differs || !d.Commands.Seats[1].Differs {
				t.Errorf("seat 1 differs %v, seat 2 %v; want only seat 2", d.Commands.Seats[0].Differs, d.Commands.Seats[1].Differs)
			}
			if d.State == nil || d.State.Turn < turn {
				t.Errorf("state diverges at %+v, before the commands at %d", d.State, turn)
			}
			out, code := runRewind(t, "diff", a, b)
			if want := "commands: first differ in round " + strconv.Itoa(turn-1); code != 1 || !strings.Contains(out, want) || !strings.Contains(out, "verdict: diverged") {
				t.Errorf("table: status %d, want 1 and %q\n%s", code, want, out)
			}
		})
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// TestDiffFork: a fork made with rewind fork --turn 200 and another bot
// for seat 2 is the parent's game up to turn 200 and first differs in
// round 200 (to turn 201), in its commands and its state; no earlier
// round differs. Its CSV has a row per turn, metric and seat, B − A in
// each, and a metric's first non-zero gap where the JSON says.
func TestDiffFork(t *testing.T) {
	game, fork := gameAndFork(t, 500, 200)
	d, code := runDiffJSON(t, game, fork)
	if code != 1 || d.Verdict != "diverged" {
		t.Fatalf("status %d, verdict %q", code, d.Verdict)
	}
	if d.Commands == nil || d.Commands.Round != 200 || d.Commands.Turn != 201 || d.State == nil || d.State.Turn != 201 || d.StateBy != "hash" {
		t.Fatalf("commands %+v, state %+v by %s; want round 200 (to turn 201) and the state at turn 201, by hash", d.Commands, d.State, d.StateBy)
	}
	if turn, _, _ := firstCommandDifference(t, game, fork); turn != 201 {
		t.Fatalf("read round by round, the files first differ at turn %d, want 201", turn)
	}
	out, code := runRewind(t, "diff", game, fork)
	if code != 1 || !strings.Contains(out, "commands: first differ in round 200") {
		t.Errorf("table: status %d\n%s", code, out)
	}

	res := runRewindStdout(t, "diff", game, fork, "--format", "csv")
	if res.code != 1 {
		t.Fatalf("csv: status %d\n%s", res.code, res.stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(res.stdout)).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("csv: %v\n%s", err, res.stdout)
	}
	if want := []string{"turn", "seat", "metric", "a", "b", "gap"}; !slices.Equal(rows[0], want) {
		t.Fatalf("csv header %q, want %q", rows[0], want)
	}
	if want := d.Frames * len(d.Series); len(rows)-1 != want {
		t.Fatalf("csv: %d rows, want %d (%d frames × %d series)", len(rows)-1, want, d.Frames, len(d.Series))
	}
	first := map[string]int{}
	for _, r := range rows[1:] {
		a, _ := strconv.ParseInt(r[3], 10, 64)
		b, _ := strconv.ParseInt(r[4], 10, 64)
		gap, _ := strconv.ParseInt(r[5], 10, 64)
		if gap != b-a {
			t.Fatalf("csv row %q: gap is not b − a", r)
		}
		turn, _ := strconv.Atoi(r[0])
		if k := r[2] + "/" + r[1]; gap != 0 {
			if _, seen := first[k]; !seen {
				first[k] = turn
			}
			if turn < 201 {
				t.Fatalf("csv row %q: the games differ before turn 201", r)
			}
		}
	}
	for _, sd := range d.Series {
		k := sd.Metric + "/" + strconv.Itoa(sd.Seat)
		if got, ok := first[k]; ok != (sd.FirstDifference >= 0) || ok && got != sd.FirstDifference {
			t.Errorf("%s: csv's first gap at %d (%v), json's %d", k, got, ok, sd.FirstDifference)
		}
	}
}

// TestDiffSame: two copies of one file, and a .rwd and its export to the
// official .cfr (compared by frames, no commands in the .cfr), are the
// same game: exit 0.
func TestDiffSame(t *testing.T) {
	dir := t.TempDir()
	game, cfr := filepath.Join(dir, "game.rwd"), filepath.Join(dir, "game.cfr")
	mustRunRewind(t, "play", "--seed", "5", "--turns", "200", "--bot", "greedy", "--bot", "random", "-o", game)
	cp := filepath.Join(dir, "copy.rwd")
	if err := os.WriteFile(cp, testutil.ReadFile(t, game), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRunRewind(t, "export", game, "-o", cfr)
	d, code := runDiffJSON(t, game, cp)
	if code != 0 || d.Verdict != "same" || d.Commands != nil || d.State != nil || d.Frames != 201 || d.StateBy != "hash" {
		t.Errorf("copy: status %d, %+v", code, d)
	}
	d, code = runDiffJSON(t, game, cfr)
	if code != 0 || d.Verdict != "same" || d.State != nil || d.StateBy != "frames" {
		t.Errorf("its .cfr: status %d, %+v", code, d)
	}
	if out, code := runRewind(t, "diff", game, cp); code != 0 || !strings.Contains(out, "verdict: same") {
		t.Errorf("table: status %d\n%s", code, out)
	}
}

// TestDiffDifferentSetups: games of other seeds are said to be of
// different setups; only their outcomes are compared; exit 1.
func TestDiffDifferentSetups(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.rwd"), filepath.Join(dir, "b.rwd")
	for i, p := range []string{a, b} {
		mustRunRewind(t, "play", "--seed", strconv.Itoa(5+i), "--turns", "200", "--bot", "greedy", "--bot", "random", "-o", p)
	}
	d, code := runDiffJSON(t, a, b)
	if code != 1 || d.Verdict != "different setups" || len(d.SetupDifferences) == 0 || d.Commands != nil || d.State != nil || len(d.Outcome) != 2 {
		t.Fatalf("status %d, %+v", code, d)
	}
	out, code := runRewind(t, "diff", a, b)
	if code != 1 || !strings.Contains(out, "setup: different") || !strings.Contains(out, "outcome:") {
		t.Errorf("table: status %d\n%s", code, out)
	}
}

// TestDiffBadFiles: a damaged file is compared up to the damage and
// exits 1; a file cut short that is the same as far as it goes exits 3;
// a missing file, bytes that are no replay and a wrong command line exit
// 2 (docs/exit-codes.md).
func TestDiffBadFiles(t *testing.T) {
	s := newSpoiltReplays(t)
	dir, whole, cut, bad, junk := s.dir, s.whole, s.cut, s.damaged, s.junk
	for _, tc := range []struct {
		args []string
		want int
		says string
	}{
		{[]string{"diff", whole, cut}, 3, "cut.rwd is cut short"},
		{[]string{"diff", cut, whole}, 3, "cut.rwd is cut short"},
		{[]string{"diff", whole, bad}, 1, "damaged.rwd is damaged"},
		{[]string{"diff", whole, junk}, 2, "not a replay"},
		{[]string{"diff", whole, filepath.Join(dir, "missing.rwd")}, 2, "missing.rwd: no such file"},
		{[]string{"diff", whole, dir}, 2, "is a directory"},
		{[]string{"diff", whole}, 2, "accepts 2 arg"},
		{[]string{"diff", whole, whole, "--format", "xml"}, 2, `unknown --format "xml"`},
	} {
		out, code := runRewind(t, tc.args...)
		if code != tc.want || !strings.Contains(out, tc.says) {
			t.Errorf("rewind %s: status %d, want %d saying %q\n%s", strings.Join(tc.args[1:], " "), code, tc.want, tc.says, out)
		}
	}
}

// FuzzDiff: any bytes given as B, against a whole replay, make diff
// report or refuse — never panic — with one of the four statuses.
func FuzzDiff(f *testing.F) {
	dir := f.TempDir()
	whole := filepath.Join(dir, "whole.rwd")
	if out, err := runCLIOut(f, "play", "--seed", "4", "--turns", "200", "--bot", "greedy", "--bot", "random", "-o", whole); err != nil {
		f.Fatalf("play: %v\n%s", err, out)
	}
	data := testutil.ReadFile(f, whole)
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add([]byte("RWD1"))
	f.Add([]byte(`[{"turn":0}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(t.TempDir(), "b.rwd")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := runCLIOut(t, "diff", whole, p, "--format", "json")
		if err == nil {
			return
		}
		var ee *exitError
		if code := exitCode(err); code < 1 || code > 3 || !errors.As(err, &ee) && err.Error() == "" {
			t.Fatalf("status %d for %v\n%s", code, err, out)
		}
	})
}

// gameAndFork plays a game of turns turns (seed 5, greedy against random)
// and forks it at turn with raider in seat 2, each as a process of its
// own, and returns the two replays' paths.
func gameAndFork(t *testing.T, turns, turn int) (game, fork string) {
	t.Helper()
	dir := t.TempDir()
	game, fork = filepath.Join(dir, "game.rwd"), filepath.Join(dir, "fork.rwd")
	mustRunRewind(t, "play", "--seed", "5", "--turns", strconv.Itoa(turns), "--bot", "greedy", "--bot", "random", "-o", game)
	mustRunRewind(t, "fork", game, "--turn", strconv.Itoa(turn), "--bot", "2=raider", "-o", fork)
	return game, fork
}
