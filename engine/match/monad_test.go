package match

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/rewind-game/rewind/engine/bot/monadbot"
	"github.com/rewind-game/rewind/engine/bot/subprocess"
	"github.com/rewind-game/rewind/engine/monad"
)

// replayRecorder re-simulates every recorded round on its own state and
// checks it reaches the match's state.
type replayRecorder struct {
	t      *testing.T
	s      *monad.State
	rounds int
	ended  bool
}

func (r *replayRecorder) Begin(s MonadSetup) error {
	var err error
	r.s, err = monad.New(s.Game)
	return err
}

func (r *replayRecorder) Round(rd *monad.Round, st *monad.State) error {
	r.s.Play(rd)
	r.rounds++
	if r.s.Hash() != st.Hash() {
		return fmt.Errorf("turn %d: the recorded round re-simulates to another state", st.Turn())
	}
	return nil
}

func (r *replayRecorder) End(st *monad.State) error { r.ended = true; return nil }

func builtinSeats(t *testing.T, names ...string) []MonadSeat {
	var seats []MonadSeat
	for _, n := range names {
		b, err := monadbot.Builtin(n)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, MonadSeat{Bot: b})
	}
	return seats
}

func TestRunMonad(t *testing.T) {
	rec := &replayRecorder{t: t}
	res, err := RunMonad(context.Background(), MonadConfig{MaxTurns: 200, Seed: 12, Seats: builtinSeats(t, "expander", "miner", "rusher"), Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.ended || rec.rounds != res.Turn || res.Turn == 0 || len(res.Ranking) != 3 {
		t.Fatalf("result %+v, %d rounds recorded", res, rec.rounds)
	}
	if res.Players[2].Name != "3_rusher" || res.Players[0].Identity != "expander" {
		t.Errorf("players %+v", res.Players)
	}
	again, err := RunMonad(context.Background(), MonadConfig{MaxTurns: 200, Seed: 12, Seats: builtinSeats(t, "expander", "miner", "rusher")})
	if err != nil || again.Hash != res.Hash || again.Turn != res.Turn {
		t.Fatalf("the same match twice: %v, %x@%d vs %x@%d", err, again.Hash, again.Turn, res.Hash, res.Turn)
	}
}

// faultyBot answers turns before failAt normally (nothing), then fails
// with err every turn.
type faultyBot struct {
	failAt int
	err    error
	asked  int
}

func (b *faultyBot) Name() string            { return "faulty" }
func (b *faultyBot) Start(int, uint64) error { return nil }
func (b *faultyBot) Close() error            { return nil }
func (b *faultyBot) Commands(s *monad.State) ([]string, error) {
	b.asked++
	if s.Turn() >= b.failAt {
		return nil, b.err
	}
	return nil, nil
}

type brokenStart struct{ faultyBot }

func (b *brokenStart) Start(int, uint64) error { return errors.New("no such program") }

// TestRunMonadFaults: a timeout marks the player timed out and a crash
// crashed, for good (the bot is not asked again); a garbled reply is one
// ErrNotList command that turn; a bot that cannot start is crashed at
// turn 0; every fault re-simulates from the recorded rounds.
func TestRunMonadFaults(t *testing.T) {
	timeout := &faultyBot{failAt: 3, err: fmt.Errorf("%w: turn 3", subprocess.ErrTimeout)}
	crash := &faultyBot{failAt: 5, err: fmt.Errorf("%w: exit status 1", subprocess.ErrBotExited)}
	garbage := &faultyBot{failAt: 0, err: fmt.Errorf("%w: not JSON", subprocess.ErrBadReply)}
	rec := &replayRecorder{t: t}
	seats := []MonadSeat{{Bot: timeout}, {Bot: crash}, {Bot: garbage}, {Bot: &brokenStart{}}}
	res, err := RunMonad(context.Background(), MonadConfig{MaxTurns: 30, Seed: 1, Seats: seats, Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Players
	if !p[0].Stats.TimedOut || p[0].Stats.Crashed || timeout.asked != 4 || p[0].Faults != 1 {
		t.Errorf("timeout: %+v, asked %d times", p[0], timeout.asked)
	}
	if !p[1].Stats.Crashed || crash.asked != 6 {
		t.Errorf("crash: %+v, asked %d times", p[1], crash.asked)
	}
	if p[2].Stats.TimedOut || p[2].Stats.Crashed || p[2].Stats.Rejected != int64(res.Turn) || p[2].Faults != res.Turn {
		t.Errorf("garbage: %+v after %d turns", p[2], res.Turn)
	}
	if !p[3].Stats.Crashed {
		t.Errorf("a bot that cannot start: %+v", p[3])
	}
	if res.Turn != 30 || rec.rounds != 30 {
		t.Errorf("turn %d, %d rounds recorded", res.Turn, rec.rounds)
	}
	// Every player out: the game ends.
	res, err = RunMonad(context.Background(), MonadConfig{MaxTurns: 30, Seed: 1, Seats: []MonadSeat{{Bot: &brokenStart{}}, {Bot: &brokenStart{}}}})
	if err != nil || res.Turn != 1 {
		t.Errorf("two broken bots: %v, turn %+v", err, res)
	}
}

func TestRunMonadInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	rec := &replayRecorder{t: t}
	res, err := RunMonad(ctx, MonadConfig{MaxTurns: 500, Seed: 3, Seats: builtinSeats(t, "miner", "miner"), Recorder: rec,
		Progress: func(turn int) {
			if turn == 10 {
				cancel()
			}
		}})
	if err != nil || !res.Interrupted || res.Turn != 10 || !rec.ended {
		t.Fatalf("%v %+v", err, res)
	}
}
