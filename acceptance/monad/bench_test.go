package monad_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	monadbot "github.com/rewind-game/rewind/games/monad/bots"
	monad "github.com/rewind-game/rewind/games/monad/rules"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/internal/viewer"
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
		Recorder: recording.NewRecorder(&buf, time.Time{}, "bench")})
	if err != nil {
		tb.Fatal(err)
	}
	if res.Turn != 500 {
		tb.Fatalf("the game ended at turn %d, want 500", res.Turn)
	}
	return buf.Bytes()
}

// BenchmarkMonadLoad is the server's work to open a Monad replay on the
// generic page (viewer.ReplayHandler's data): re-simulate the 500-turn
// 4-player game (its compact records played by the game), analyse nothing
// more than the frames need, pack, encode and compress them as they come
// (viewer.EncodeStream) — what the Monad page's LoadMonad did before, for
// the same game.
//
// go test -run '^$' -bench MonadLoad -count 6 ./acceptance/monad
func BenchmarkMonadLoad(b *testing.B) {
	benchPage(b, func(st engine.Stream) ([]byte, error) { return viewer.EncodeStream(st, viewer.StreamLimits{}) })
}

// BenchmarkMonadPack is BenchmarkMonadLoad in two steps, as the live
// page and export --html take them: viewer.PackStream keeps every frame,
// then viewer.EncodePacked encodes and compresses them.
//
// go test -run '^$' -bench 'MonadLoad|MonadPack' -count 6 ./acceptance/monad
func BenchmarkMonadPack(b *testing.B) {
	benchPage(b, func(st engine.Stream) ([]byte, error) {
		p, err := viewer.PackStream(st, viewer.StreamLimits{})
		if err != nil {
			return nil, err
		}
		return viewer.EncodePacked(p)
	})
}

// benchPage measures opening benchGame's recording as a stream and
// turning it into the page's data with page, reporting the data's size.
func benchPage(b *testing.B, page func(engine.Stream) ([]byte, error)) {
	data := benchGame(b)
	b.ReportAllocs()
	var size int
	for b.Loop() {
		st, err := source.NewStream(bytes.NewReader(data), nil)
		if err != nil {
			b.Fatal(err)
		}
		blob, err := page(st)
		st.Close()
		if err != nil {
			b.Fatal(err)
		}
		size = len(blob)
	}
	b.ReportMetric(float64(size), "blob-bytes")
}

// BenchmarkMonadStream is the stream alone of BenchmarkMonadLoad's game:
// open it with source.NewStream and read every frame (re-simulate each
// round, describe the game after it), with no viewer work, so the split
// between the stream and the page's packing and encoding shows.
//
// go test -run '^$' -bench 'MonadLoad|MonadStream' -count 6 ./acceptance/monad
func BenchmarkMonadStream(b *testing.B) {
	data := benchGame(b)
	b.ReportAllocs()
	var f engine.Frame
	frames := 0
	for b.Loop() {
		st, err := source.NewStream(bytes.NewReader(data), nil)
		if err != nil {
			b.Fatal(err)
		}
		frames = testutil.EachFrame(b, &f, st.Next, nil)
		st.Close()
	}
	if frames != 501 {
		b.Fatalf("%d frames, want 501", frames)
	}
}
