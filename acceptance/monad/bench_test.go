package monad_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine/bot/monadbot"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/replay/recording"
	"github.com/rewind-game/rewind/replay/source"
	"github.com/rewind-game/rewind/viewer"
)

// benchGame records the game the Monad page's load benchmark used before
// Monad moved onto the generic path: 500 turns, 4 players (expander,
// miner, expander, miner), seed 42, in Monad's compact codec.
func benchGame(tb testing.TB) []byte {
	tb.Helper()
	var seats []match.GameSeat
	for p, name := range []string{"expander", "miner", "expander", "miner"} {
		for _, b := range monadbot.Builtins {
			if b.Name == name {
				seats = append(seats, match.GameSeat{Bot: match.StrategyPlayer(b.New(match.BotSeed(42, p+1)))})
			}
		}
	}
	var buf bytes.Buffer
	res, err := match.RunGame(context.Background(), match.GameConfig{Ruleset: monad.Ruleset, Seed: 42, MaxTurns: 500, Seats: seats,
		Recorder: recording.NewSeam(&buf, time.Time{}, "bench")})
	if err != nil {
		tb.Fatal(err)
	}
	if res.Turn != 500 {
		tb.Fatalf("the game ended at turn %d, want 500", res.Turn)
	}
	return buf.Bytes()
}

// BenchmarkMonadLoad is the server's work to open a Monad replay on the
// generic page: re-simulate the 500-turn 4-player game (its compact
// records played by the game), analyse nothing more than the frames need,
// pack and encode them — what the Monad page's LoadMonad did before, for
// the same game.
//
// go test -run '^$' -bench MonadLoad -count 6 ./acceptance/monad
func BenchmarkMonadLoad(b *testing.B) {
	data := benchGame(b)
	b.ReportAllocs()
	var size int
	for b.Loop() {
		st, err := source.NewStream(bytes.NewReader(data), nil)
		if err != nil {
			b.Fatal(err)
		}
		p, err := viewer.PackStream(st, viewer.StreamLimits{})
		st.Close()
		if err != nil {
			b.Fatal(err)
		}
		blob, err := viewer.EncodePacked(p)
		if err != nil {
			b.Fatal(err)
		}
		size = len(blob)
	}
	b.ReportMetric(float64(size), "blob-bytes")
}
