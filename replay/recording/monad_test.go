package recording

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine/bot/monadbot"
	"github.com/rewind-game/rewind/engine/bot/subprocess"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/replay"
)

type timeoutBot struct{}

func (timeoutBot) Name() string            { return "sleepy" }
func (timeoutBot) Start(int, uint64) error { return nil }
func (timeoutBot) Close() error            { return nil }
func (timeoutBot) Commands(s *monad.State) ([]string, error) {
	if s.Turn() < 7 {
		return []string{`{"l":[5,15],"c":"MINE","d":7,"n":1}`, `[1]`}, nil
	}
	return nil, fmt.Errorf("%w: turn %d", subprocess.ErrTimeout, s.Turn())
}

// TestMonadRecording plays a Monad match with a bot that times out, records
// it and verifies the file by re-simulation: the same final state, the
// fault in its round, the header's players and bots.
func TestMonadRecording(t *testing.T) {
	var seats []match.MonadSeat
	for _, n := range []string{"rusher", "expander", "miner"} {
		b, _ := monadbot.Builtin(n)
		seats = append(seats, match.MonadSeat{Bot: b})
	}
	seats = append(seats, match.MonadSeat{Bot: timeoutBot{}, Name: "late"})
	var buf bytes.Buffer
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	res, err := match.RunMonad(context.Background(), match.MonadConfig{MaxTurns: 250, Seed: 77, Seats: seats, Recorder: NewMonad(&buf, created, "rewind test")})
	if err != nil {
		t.Fatal(err)
	}
	faultTurn := -1
	vr, err := replay.VerifyMonad(bytes.NewReader(buf.Bytes()), func(g *replay.MonadGame) error {
		if g.Round().TimedOut[3] {
			faultTurn = g.Round().Turn
		}
		return nil
	})
	if err != nil || vr.Err != nil || !vr.Complete || vr.Rounds != res.Turn {
		t.Fatalf("verify: %v %+v (played %d)", err, vr, res.Turn)
	}
	if faultTurn != 7 {
		t.Errorf("timeout recorded in round %d, want 7", faultTurn)
	}
	h, err := replay.ReadHeader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if h.Ruleset != "monad" || h.Monad.Seed != 77 || h.Players[3].Name != "late" || h.Players[3].Bot != "sleepy" || h.Players[0].Bot != "rusher" || !h.Created.Equal(created) {
		t.Errorf("header %+v", h)
	}
	g, err := replay.OpenMonad(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := g.Seek(res.Turn); err != nil {
		t.Fatal(err)
	}
	if g.State().Hash() != res.Hash || !g.State().Stats(3).TimedOut {
		t.Error("the recording re-simulates to another final state")
	}
	if err := g.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the last round: %v", err)
	}
}

// TestMonadTournament plays a small Monad tournament into a folder, then
// runs it again: every game is read back from its replay, not replayed,
// with the same results.
func TestMonadTournament(t *testing.T) {
	dir := &Dir{Path: t.TempDir(), Tool: "rewind test"}
	tour := func() *match.Tournament {
		return &match.Tournament{
			Game: "monad", Bots: []string{"expander", "miner", "rusher"}, Games: 3, Players: 3, Parallel: 2, Seed: 5, MaxTurn: 150,
			MonadArchive: dir,
			NewMonadBot:  func(spec string, game, player int) (monadbot.Bot, error) { return monadbot.Builtin(spec) },
		}
	}
	first, err := tour().Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	second, err := tour().Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := range first {
		a, b := first[i], second[i]
		if a.Skipped || !b.Skipped || a.Ruleset != "monad" || b.Ruleset != "monad" || len(a.Seats) != 3 {
			t.Fatalf("game %d: %+v then %+v", i, a, b)
		}
		for k := range a.Seats {
			if a.Seats[k] != b.Seats[k] {
				t.Errorf("game %d seat %d: %+v played, %+v read back", i, k, a.Seats[k], b.Seats[k])
			}
		}
	}
	st := match.Standings(first)
	if len(st) != 3 || st[0].Games != 3 {
		t.Fatalf("standings %+v", st)
	}
	if _, err := (&match.Tournament{Game: "monad", Bots: []string{"a", "b"}, Games: 1}).Run(context.Background()); err == nil {
		t.Error("a monad tournament without an archive ran")
	}
}
