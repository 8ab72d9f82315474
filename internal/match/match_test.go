package match_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/replay"
)

var created = time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)

// rwd records a match as a .rwd for the tests.
func rwd(w io.Writer) *recording.Recorder { return recording.NewRecorder(w, created, "rewind test") }

// seats seats ColorfightII's built-ins called names.
func seats(t testing.TB, names ...string) []match.GameSeat {
	t.Helper()
	info, _ := engine.About("colorfight2")
	var ss []match.GameSeat
	for _, n := range names {
		b, ok := info.FindBot(n)
		if !ok {
			t.Fatalf("no built-in %q", n)
		}
		ss = append(ss, match.GameSeat{Bot: match.BuiltinPlayer(b)})
	}
	return ss
}

// run plays a ColorfightII match of turns rounds (0: the default).
func run(ctx context.Context, seed uint64, turns int, ss []match.GameSeat, w io.Writer, progress func(int)) (*match.Result, error) {
	return match.RunGame(ctx, match.GameConfig{Ruleset: colorfight2.Ruleset, Seed: seed, MaxTurns: turns, Seats: ss, Recorder: rwd(w), Progress: progress})
}

func play(t testing.TB, seed uint64, turns int, names ...string) ([]byte, *match.Result) {
	t.Helper()
	var buf bytes.Buffer
	res, err := run(context.Background(), seed, turns, seats(t, names...), &buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), res
}

// TestDeterministic: the same seed and bots give the same replay bytes.
func TestDeterministic(t *testing.T) {
	a, ra := play(t, 7, 300, "greedy", "raider", "economist", "turtle")
	b, rb := play(t, 7, 300, "greedy", "raider", "economist", "turtle")
	if !bytes.Equal(a, b) || ra.Hash != rb.Hash {
		t.Fatal("same seed and bots gave different replays")
	}
	c, _ := play(t, 8, 300, "greedy", "raider", "economist", "turtle")
	if bytes.Equal(a, c) {
		t.Fatal("different seeds gave the same replay")
	}
}

// TestRecordedMatchesVerify plays matches of 2, 4 and 8 players on a few
// seeds and re-simulates each recording.
func TestRecordedMatchesVerify(t *testing.T) {
	lineups := [][]string{
		{"greedy", "random"},
		{"economist", "raider", "turtle", "greedy"},
		{"economist", "greedy", "raider", "random", "turtle", "greedy", "economist", "raider"},
	}
	for _, names := range lineups {
		for seed := uint64(1); seed <= 3; seed++ {
			rwd, res := play(t, seed, 500, names...)
			v, err := replay.VerifySim(bytes.NewReader(rwd), nil)
			if err != nil || v.Err != nil || !v.Complete || v.Rounds != 500 {
				t.Fatalf("%d players, seed %d: verify %v %+v", len(names), seed, err, v)
			}
			g, err := replay.OpenSim(bytes.NewReader(rwd))
			if err != nil {
				t.Fatal(err)
			}
			for g.Next() == nil {
			}
			if g.Game().Hash() != res.Hash || g.Footer().Ranking[0] != res.Ranking[0]+1 {
				t.Fatalf("re-simulation ends at a different state than the match")
			}
			h := g.Header()
			if len(h.Players) != len(names) || h.Players[0].Bot != names[0] || h.Seed == nil || *h.Seed != seed {
				t.Fatalf("header %+v", h)
			}
		}
	}
}

// faulty fails in the ways a hostile external bot can.
type faulty struct{ n int }

func (f *faulty) Name() string            { return "faulty" }
func (f *faulty) Start(int, uint64) error { return nil }
func (f *faulty) Close() error            { return nil }
func (f *faulty) Commands(engine.Game, int) ([]string, error) {
	f.n++
	if f.n%3 == 0 {
		return nil, errors.New("bot: timeout: no answer within 1s")
	}
	return []string{"garbage", "a 99 99 1"}, nil
}

// TestFaultsRecorded: a bot's faults are recorded as its errors and
// re-simulate.
func TestFaultsRecorded(t *testing.T) {
	var buf bytes.Buffer
	ss := append(seats(t, "greedy"), match.GameSeat{Bot: &faulty{}})
	res, err := run(context.Background(), 3, 200, ss, &buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Players[1]
	// 199 rounds asked: every third is a fault, the others two bad commands.
	if p.Faults != 66 || p.Errors != 66+2*133 {
		t.Fatalf("faults %d errors %d", p.Faults, p.Errors)
	}
	errs := 0
	v, err := replay.VerifySim(bytes.NewReader(buf.Bytes()), func(s *replay.Sim) error {
		for _, e := range s.Errors() {
			if e.Player == 1 {
				errs++
			}
		}
		return nil
	})
	if err != nil || !v.Complete || errs != p.Errors {
		t.Fatalf("re-simulated %d errors (want %d): %v %+v", errs, p.Errors, err, v)
	}
}

// TestInterrupted: a cancelled match ends cleanly with a valid replay.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var buf bytes.Buffer
	res, err := run(ctx, 5, 500, seats(t, "greedy", "turtle"), &buf, func(turn int) {
		if turn == 100 {
			cancel()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Interrupted || res.Turn != 100 {
		t.Fatalf("result %+v", res)
	}
	v, err := replay.VerifySim(bytes.NewReader(buf.Bytes()), nil)
	if err != nil || v.Err != nil || !v.Complete || v.Rounds != 100 {
		t.Fatalf("verify %v %+v", err, v)
	}
}

// value is player p's final value of the metric called name.
func value(t testing.TB, res *match.Result, p int, name string) int64 {
	t.Helper()
	for k, m := range res.Metrics {
		if m.Name == name {
			return res.Players[p].Values[k]
		}
	}
	t.Fatalf("no metric %q", name)
	return 0
}

// BenchmarkMatch plays a 500-round 8-player match of built-in bots,
// recording it: one op is one match.
func BenchmarkMatch(b *testing.B) {
	names := []string{"economist", "greedy", "raider", "random", "turtle", "greedy", "economist", "raider"}
	for i := 0; b.Loop(); i++ {
		var buf bytes.Buffer
		if _, err := run(context.Background(), uint64(i), 0, seats(b, names...), &buf, nil); err != nil {
			b.Fatal(err)
		}
	}
}
