package match

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine/bot"
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/replay"
)

var created = time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)

// rwdRecorder records a match as a .rwd for the tests. (Package
// replay/recording has the real one; importing it here would be a cycle.)
type rwdRecorder struct {
	w  io.Writer
	rw *replay.Writer
}

func rwd(w io.Writer) *rwdRecorder { return &rwdRecorder{w: w} }

func (r *rwdRecorder) Begin(s Setup) (err error) {
	seed := s.Seed
	h := replay.Header{Config: s.Game, Seed: &seed, Created: created, Tool: "rewind test"}
	for _, p := range s.Players {
		h.Players = append(h.Players, replay.Player{UID: p.UID, Name: p.Name, Home: p.Home, Bot: p.Identity})
	}
	r.rw, err = replay.NewWriter(r.w, h)
	return err
}

func (r *rwdRecorder) Round(cmds [][]colorfight2.Command, st *colorfight2.State) error {
	return r.rw.WriteRound(cmds, st)
}

func (r *rwdRecorder) End(st *colorfight2.State) error { return r.rw.Close(st) }

func seats(t testing.TB, names ...string) []Seat {
	t.Helper()
	var ss []Seat
	for _, n := range names {
		b, err := bot.Builtin(n)
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, Seat{Bot: b})
	}
	return ss
}

func play(t testing.TB, seed uint64, turns int, names ...string) ([]byte, *Result) {
	t.Helper()
	var buf bytes.Buffer
	res, err := Run(context.Background(), Config{
		Game: colorfight2.Config{MaxTurn: turns}, Seed: seed, Seats: seats(t, names...),
		Recorder: rwd(&buf),
	})
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
			v, err := replay.Verify(bytes.NewReader(rwd), nil)
			if err != nil || v.Err != nil || !v.Complete || v.Rounds != 500 {
				t.Fatalf("%d players, seed %d: verify %v %+v", len(names), seed, err, v)
			}
			g, _ := replay.Open(bytes.NewReader(rwd))
			for g.Next() == nil {
			}
			if g.State().Hash() != res.Hash || g.Footer().Ranking[0] != res.Ranking[0] {
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

func (f *faulty) Name() string                     { return "faulty" }
func (f *faulty) Start(uid int, seed uint64) error { return nil }
func (f *faulty) Close() error                     { return nil }
func (f *faulty) Commands(fr *colorfight2.Frame) ([]string, error) {
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
	ss := seats(t, "greedy")
	ss = append(ss, Seat{Bot: &faulty{}})
	res, err := Run(context.Background(), Config{Game: colorfight2.Config{MaxTurn: 200}, Seed: 3, Seats: ss, Recorder: rwd(&buf)})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Players[1]
	// 199 rounds asked: every third is a fault, the others two bad commands.
	if p.Faults != 66 || p.Errors != 66+2*133 {
		t.Fatalf("faults %d errors %d", p.Faults, p.Errors)
	}
	errs := 0
	v, err := replay.Verify(bytes.NewReader(buf.Bytes()), func(g *replay.Game) error {
		for _, e := range g.State().Errors() {
			if e.UID == 2 {
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
	res, err := Run(ctx, Config{Game: colorfight2.Config{MaxTurn: 500}, Seed: 5, Seats: seats(t, "greedy", "turtle"), Recorder: rwd(&buf),
		Progress: func(turn int) {
			if turn == 100 {
				cancel()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Interrupted || res.Turn != 100 {
		t.Fatalf("result %+v", res)
	}
	v, err := replay.Verify(bytes.NewReader(buf.Bytes()), nil)
	if err != nil || v.Err != nil || !v.Complete || v.Rounds != 100 {
		t.Fatalf("verify %v %+v", err, v)
	}
}

// BenchmarkMatch plays a 500-round 8-player match of built-in bots,
// recording it: one op is one match.
func BenchmarkMatch(b *testing.B) {
	names := []string{"economist", "greedy", "raider", "random", "turtle", "greedy", "economist", "raider"}
	for i := 0; b.Loop(); i++ {
		var buf bytes.Buffer
		if _, err := Run(context.Background(), Config{Seed: uint64(i), Seats: seats(b, names...), Recorder: rwd(&buf)}); err != nil {
			b.Fatal(err)
		}
	}
}
