package rules_test

import (
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight1/rules"
	"github.com/rewind-game/rewind/games/colorfight1/vectors"
)

// The benchmarks' game: 8 built-ins (two of each, seed 9) for benchTicks
// ticks, timed from tick benchWarm on, when all 8 have joined and play.
const (
	benchSeed  = 9
	benchWarm  = 300
	benchTicks = benchWarm + 1000
)

// benchRounds plays the benchmarks' game through the seam and returns
// each tick's commands (seat by seat) and the game at its end.
var benchRounds = sync.OnceValues(func() ([][][]string, *rules.Game) {
	eg, err := rules.Ruleset.New(benchSeed, engine.Settings{Players: 8, MaxTurns: benchTicks})
	if err != nil {
		panic(err)
	}
	ss := builtins(8)
	var rounds [][][]string
	for !eg.Over() {
		cmds := make([][]string, 8)
		for p := range ss {
			cmds[p] = ss[p].Commands(eg, p, nil)
		}
		rounds = append(rounds, cmds)
		eg.Round(cmds)
	}
	return rounds, eg.(*rules.Game)
})

// benchGame is the benchmarks' game played through the seam up to tick
// benchWarm.
func benchGame(tb testing.TB, rounds [][][]string) *rules.Game {
	eg, err := rules.Ruleset.New(benchSeed, engine.Settings{Players: 8, MaxTurns: benchTicks})
	if err != nil {
		tb.Fatal(err)
	}
	for _, cmds := range rounds[:benchWarm] {
		eg.Round(cmds)
	}
	g := eg.(*rules.Game)
	alive := 0
	for p := range 8 {
		if g.UID(p) != 0 {
			alive++
		}
	}
	if alive < 8 {
		tb.Fatalf("%d players alive at tick %d, want 8", alive, benchWarm)
	}
	return g
}

// BenchmarkTick times one tick of a game of 8 players through the seam
// (rules.Game.Round: the poll's world update, then the tick's commands,
// parsed from their text): the ticks 300..1299 of the benchmarks' game,
// played again from tick 300 when they run out.
func BenchmarkTick(b *testing.B) {
	rounds, _ := benchRounds()
	g := benchGame(b, rounds)
	b.ReportAllocs()
	b.ResetTimer()
	t := benchWarm
	for i := 0; i < b.N; i++ {
		if t == len(rounds) {
			b.StopTimer()
			g, t = benchGame(b, rounds), benchWarm
			b.StartTimer()
		}
		g.Round(rounds[t])
		t++
	}
}

// benchInput is the benchmarks' game as a vector input (the format of
// ../shared/colorfight1, README): the setup, each seat's join with its
// spawn, its actions with {"$join": j} for its token. Played on the
// reference by scripts/colorfight1-reference-bench.py, and by
// BenchmarkUpdate here.
func benchInput(tb testing.TB) []byte {
	rounds, _ := benchRounds()
	eg, err := rules.Ruleset.New(benchSeed, engine.Settings{Players: 8, MaxTurns: benchTicks})
	if err != nil {
		tb.Fatal(err)
	}
	g := eg.(*rules.Game)
	setup := rules.DrawSetup(benchSeed)
	type command struct {
		Ep    string         `json:"ep"`
		Body  map[string]any `json:"body"`
		Spawn *[2]int        `json:"spawn,omitempty"`
	}
	type tick struct {
		K    int       `json:"k"`
		Cmds []command `json:"cmds"`
	}
	var ticks []tick
	joinOf := make([]int, 8) // seat → its join's index
	joins := 0
	var evs []engine.Event
	for k, cmds := range rounds {
		tk := tick{K: k}
		for p, cs := range cmds {
			for _, c := range cs {
				path, body, _ := strings.Cut(c, " ")
				var b map[string]any
				if err := json.Unmarshal([]byte(body), &b); err != nil {
					tb.Fatalf("tick %d: seat %d: %q: %v", k, p+1, c, err)
				}
				if path == "/joingame" {
					joinOf[p] = joins
					joins++
				} else {
					b["token"] = map[string]int{"$join": joinOf[p]}
				}
				tk.Cmds = append(tk.Cmds, command{Ep: path, Body: b})
			}
		}
		if errs := g.Round(cmds); len(errs) > 0 {
			for _, e := range errs {
				if e.Code >= rules.CodeNotCommand {
					tb.Fatalf("tick %d: the seam refused seat %d's %q: %s", k, e.Player+1, cmds[e.Player][e.Index], e.Text)
				}
			}
		}
		// The joins' spawns, in join order (a tick's joins are in seat order).
		i := 0
		for _, e := range g.Events(evs[:0]) {
			if e.Kind != "join" {
				continue
			}
			for i < len(tk.Cmds) && tk.Cmds[i].Ep != "/joingame" {
				i++
			}
			if i == len(tk.Cmds) {
				tb.Fatalf("tick %d: a join event without its /joingame", k)
			}
			tk.Cmds[i].Spawn = &[2]int{e.X, e.Y}
			i++
		}
		if len(tk.Cmds) > 0 {
			ticks = append(ticks, tk)
		}
	}
	in := map[string]any{
		"format": vectors.InputFormat, "name": "bench8",
		"clock":      map[string]float64{"t0": setup.T0, "tick": setup.Tick},
		"seed":       setup.Seed,
		"startgame":  map[string]any{"admin_password": "", "last_time": 0, "ai_join_time": 0},
		"gold_cells": setup.GoldCells, "energy_cells": setup.EnergyCells,
		"ticks": len(rounds) - 1, "commands": ticks,
		"bench": map[string]int{"warm": benchWarm, "players": 8},
	}
	// The end, for a driver to check that it played the same game: every
	// cell's owner, every user's id, cells and bases.
	owners := make([]int32, len(g.State.Cells))
	for i := range g.State.Cells {
		owners[i] = g.State.Cells[i].Owner
	}
	var users [][3]int
	for _, u := range g.State.Users {
		users = append(users, [3]int{u.ID, u.Cells, u.Bases})
	}
	in["final"] = map[string]any{"owners": owners, "users": users}
	out, err := json.Marshal(in)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestBenchInput: the benchmarks' game as a vector input replays on
// rules.State as it played through the seam (the same state at the end),
// and is written to the file $REWIND_CF1_BENCH_INPUT when that is set
// (for scripts/colorfight1-reference-bench.py).
func TestBenchInput(t *testing.T) {
	in := benchInput(t)
	s, _ := replayInput(t, in, nil)
	_, g := benchRounds()
	if s.Cells != g.State.Cells || s.Info != g.State.Info || len(s.Users) != len(g.State.Users) {
		t.Fatalf("the input replayed ends in another state than the seam's game")
	}
	for i, u := range s.Users {
		w := g.State.Users[i]
		u.Token, w.Token = "", "" // the seam's tokens are its own
		if u != w {
			t.Errorf("user %d: replayed %+v, the seam's %+v", u.ID, u, w)
		}
	}
	alive := 0
	for _, u := range s.Users {
		if u.DeadTime == 0 {
			alive++
		}
	}
	t.Logf("%d bytes, %d users alive at tick %d", len(in), alive, s.Tick())
	if path := os.Getenv("REWIND_CF1_BENCH_INPUT"); path != "" {
		if err := os.WriteFile(path, in, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// replayInput plays a vector input on rules.State, the README's way:
// tick 0's commands, then for each tick its world update and its
// commands; update, when given, is called for each tick k ≥ 1 to run
// the update (s.Advance) and may time it.
func replayInput(tb testing.TB, in []byte, update func(k int, s *rules.State)) (*rules.State, *vectors.Vector) {
	v, err := vectors.ParseInput(in)
	if err != nil {
		tb.Fatal(err)
	}
	cfg, err := v.Config()
	if err != nil {
		tb.Fatal(err)
	}
	s, err := rules.New(cfg, nil)
	if err != nil {
		tb.Fatal(err)
	}
	joins, ci := 0, 0
	for k := 0; k <= v.Ticks; k++ {
		if k > 0 {
			if update != nil {
				update(k, s)
			} else {
				s.Advance()
			}
		}
		if ci < len(v.Commands) && v.Commands[ci].K == k {
			for i := range v.Commands[ci].Cmds {
				c := &v.Commands[ci].Cmds[i]
				r, err := vectors.Request(c, joins)
				if err != nil {
					tb.Fatalf("tick %d: %v", k, err)
				}
				if r.Endpoint == rules.JoinGame {
					joins++
				}
				s.Do(r)
			}
			ci++
		}
	}
	return s, v
}

// BenchmarkUpdate times the world update alone (rules.State.Advance: the
// reference's UpdateGame with its clock and last_update) of the ticks
// 301..1299 of the benchmarks' game with 8 players, its vector input
// replayed on rules.State (the commands between not timed), as
// scripts/colorfight1-reference-bench.py times the reference's
// UpdateGame on the same input. One op is one replay; the figure is
// ns/update, each update timed with time.Now around it (which adds the
// clock's own cost, some 20–40 ns, to each).
func BenchmarkUpdate(b *testing.B) {
	in := benchInput(b)
	var total time.Duration
	updates := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		replayInput(b, in, func(k int, s *rules.State) {
			if k <= benchWarm {
				s.Advance()
				return
			}
			t0 := time.Now()
			s.Advance()
			total += time.Since(t0)
			updates++
		})
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(updates), "ns/update")
}
