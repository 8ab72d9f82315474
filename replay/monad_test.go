package replay_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/rewind-game/rewind/engine/bot/monadbot"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/replay"
)

// recordMonad plays a Monad game of built-ins directly and records it: at
// turn 20 player 0 sends malformed commands, during turn 30 player 2
// times out and during turn 40 player 1 crashes (when there are that many). It
// returns the file and the final state.
func recordMonad(t testing.TB, seed int64, maxTurns int, every int, close bool, names ...string) ([]byte, *monad.State) {
	t.Helper()
	cfg := monad.Config{Players: len(names), MaxTurns: maxTurns, Seed: seed}
	s, err := monad.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := replay.MonadHeader(cfg, names, names)
	h.CheckpointEvery = every
	var buf bytes.Buffer
	w, err := replay.NewMonadWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]monadbot.Bot, len(names))
	for i, n := range names {
		if bots[i], err = monadbot.Builtin(n); err != nil {
			t.Fatal(err)
		}
		bots[i].Start(i, uint64(seed)+uint64(i))
	}
	var r monad.Round
	r.Commands = make([][]monad.Command, len(names))
	for !s.Over() {
		r.TimedOut, r.Crashed = [monad.MaxPlayers]bool{}, [monad.MaxPlayers]bool{}
		for i, b := range bots {
			texts, _ := b.Commands(s)
			r.Commands[i] = r.Commands[i][:0]
			for _, c := range texts {
				r.Commands[i] = append(r.Commands[i], monad.ParseCommand([]byte(c)))
			}
		}
		switch s.Turn() {
		case 20:
			r.Commands[0] = append(r.Commands[0], monad.Command{Err: monad.ErrNotList},
				monad.ParseCommand([]byte(`{"l":[1,1],"c":"MOVE","d":9,"n":1}`)),
				monad.ParseCommand([]byte(`{"l":[1,1],"c":"JUMP","d":1,"n":-4}`)),
				monad.Command{X: 50, Y: 1, Kind: monad.KindMove, Dir: monad.East})
		case 30:
			if len(names) > 2 {
				r.TimedOut[2], r.Commands[2] = true, r.Commands[2][:0]
			}
		case 40:
			r.Crashed[1], r.Commands[1] = true, r.Commands[1][:0]
		}
		s.Play(&r)
		if err := w.WriteRound(&r, s); err != nil {
			t.Fatal(err)
		}
	}
	if close {
		if err := w.Close(s); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes(), s
}

func TestMonadRoundTrip(t *testing.T) {
	data, final := recordMonad(t, 9, 150, 7, true, "expander", "miner", "rusher")
	t.Logf("%d rounds, %d bytes", final.Turn(), len(data))
	rounds := 0
	res, err := replay.VerifyMonad(bytes.NewReader(data), func(g *replay.MonadGame) error {
		rounds++
		if g.Round() == nil || g.Round().Turn != g.State().Turn()-1 {
			t.Fatalf("round %v at turn %d", g.Round(), g.State().Turn())
		}
		return nil
	})
	if err != nil || res.Err != nil || !res.Complete {
		t.Fatalf("verify: %v %+v", err, res)
	}
	if rounds != final.Turn() || res.Rounds != final.Turn() {
		t.Fatalf("%d rounds verified, %d played", rounds, final.Turn())
	}
	g, err := replay.OpenMonad(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if h := g.Header(); h.Ruleset != "monad" || h.Monad == nil || h.Monad.Seed != 9 || len(h.Players) != 3 || h.Players[2].Bot != "rusher" {
		t.Fatalf("header %+v", h)
	}
	if err := g.Seek(final.Turn()); err != nil {
		t.Fatal(err)
	}
	if g.State().Hash() != final.Hash() || !g.State().Stats(1).Crashed || !g.State().Stats(2).TimedOut {
		t.Fatal("re-simulated final state differs")
	}
	if err := g.Seek(21); err != nil {
		t.Fatal(err)
	}
	var codes []monad.ErrCode
	for _, e := range g.State().Errors() {
		if e.Player == 0 {
			codes = append(codes, e.Code)
		}
	}
	want := []monad.ErrCode{monad.ErrNotList, monad.ErrBadDirection, monad.ErrUnknownType, monad.ErrOffMap}
	if len(codes) < 4 || codes[0] != want[0] || codes[1] != want[1] || codes[2] != want[2] || codes[3] != want[3] {
		t.Errorf("turn 20's rejected commands re-simulate as %v, want %v first", codes, want)
	}
	if err := g.Next(); err != nil {
		t.Fatal(err)
	}
	for g.Next() == nil {
	}
	if f := g.Footer(); f == nil || f.Turn != final.Turn() || len(f.Ranking) != 3 || f.Gold[0] != final.Stats(0).Resources {
		t.Fatalf("footer %+v", f)
	}
}

func TestMonadRulesetsApart(t *testing.T) {
	data, _ := recordMonad(t, 1, 30, 10, true, "miner", "idle")
	if _, err := replay.Open(bytes.NewReader(data)); !errors.Is(err, replay.ErrRuleset) {
		t.Errorf("Open of a monad recording: %v", err)
	}
	r, err := replay.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); !errors.Is(err, replay.ErrRuleset) {
		t.Errorf("Next on a monad recording: %v", err)
	}
	cf := small(t, 5)
	if _, err := replay.OpenMonad(bytes.NewReader(cf)); !errors.Is(err, replay.ErrRuleset) {
		t.Errorf("OpenMonad of a colorfight2 recording: %v", err)
	}
	h, err := replay.ReadHeader(bytes.NewReader(data))
	if err != nil || h.Ruleset != replay.RulesetMonad || h.Config.MaxTurn != 30 {
		t.Fatalf("ReadHeader: %v %+v", err, h)
	}
	if _, err := replay.NewWriter(io.Discard, *h); !errors.Is(err, replay.ErrRuleset) {
		t.Errorf("NewWriter with a monad header: %v", err)
	}
	for _, n := range []int{0} {
		if _, err := replay.NewMonadWriter(io.Discard, replay.MonadHeader(monad.Config{Players: n}, nil, nil)); err == nil {
			t.Errorf("a monad header for %d players was written", n)
		}
	}
}

// TestMonadCutAndDamage: a recording without a footer verifies its whole
// rounds and says it is truncated; every cut is truncated or a clean
// error, never a panic; a changed checkpoint hash diverges.
func TestMonadCutAndDamage(t *testing.T) {
	data, final := recordMonad(t, 4, 60, 5, false, "rusher", "expander")
	res, err := replay.VerifyMonad(bytes.NewReader(data), nil)
	if err != nil || !errors.Is(res.Err, replay.ErrTruncated) || res.Rounds != final.Turn() {
		t.Fatalf("unclosed: %v %+v", err, res)
	}
	sum, err := replay.SummarizeMonad(bytes.NewReader(data))
	if err != nil || sum.Rounds != final.Turn() || sum.Footer != nil || !errors.Is(sum.Err, replay.ErrTruncated) || sum.Faults != 1 || sum.Checkpoints != final.Turn()/5 {
		t.Fatalf("summary of the unclosed recording: %v %+v", err, sum)
	}
	full, _ := recordMonad(t, 4, 60, 5, true, "rusher", "expander")
	sum, err = replay.SummarizeMonad(bytes.NewReader(full))
	if err != nil || sum.Err != nil || sum.Footer == nil || sum.Rounds != sum.Footer.Turn {
		t.Fatalf("summary: %v %+v", err, sum)
	}
	if _, err := replay.SummarizeMonad(bytes.NewReader(small(t, 5))); !errors.Is(err, replay.ErrRuleset) {
		t.Errorf("SummarizeMonad of a colorfight2 recording: %v", err)
	}
	for n := 0; n < len(full); n += 7 {
		res, err := replay.VerifyMonad(bytes.NewReader(full[:n]), nil)
		if err == nil && res.Err == nil {
			t.Fatalf("cut at %d verified", n)
		}
	}
}

func FuzzMonadReader(f *testing.F) {
	a, _ := recordMonad(f, 2, 40, 3, true, "rusher", "miner")
	b, _ := recordMonad(f, 3, 45, 10, false, "expander", "miner", "rusher", "idle")
	f.Add(a)
	f.Add(b)
	f.Add(loggedMonadGame(f, 12, true))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := replay.VerifyMonad(bytes.NewReader(data), nil)
		if err != nil {
			var fe *replay.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a FormatError", err, err)
			}
			return
		}
		if res.Err != nil {
			var fe *replay.FormatError
			if !errors.As(res.Err, &fe) {
				t.Fatalf("error %v (%T) is not a FormatError", res.Err, res.Err)
			}
		}
	})
}

// BenchmarkMonadOpenResimulate opens a 4-player Monad recording of 300
// turns from memory and re-simulates it, checking every checkpoint and
// the footer: one op is one whole game.
func BenchmarkMonadOpenResimulate(b *testing.B) {
	data, final := recordMonad(b, 6, 300, 50, true, "expander", "miner", "rusher", "expander")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := replay.VerifyMonad(bytes.NewReader(data), nil)
		if err != nil || !res.Complete {
			b.Fatal(err, res)
		}
	}
	b.ReportMetric(float64(final.Turn()), "turns")
	b.ReportMetric(float64(len(data)), "file-bytes")
}
