// Package toyplay plays internal/toygame's games for tests: it registers
// the toy rulesets and records duels of its painter bots, the replays the
// tests of the generic path (source, analysis, viewer) read.
package toyplay

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/toygame"
)

// Register registers toygame.Ruleset and toygame.Sequential (each once,
// whoever asks), so that their recordings open.
func Register() {
	for _, r := range []engine.Ruleset{toygame.Ruleset, toygame.Sequential} {
		if _, ok := engine.Lookup(r.ID()); !ok {
			engine.Register(engine.Registration{Ruleset: r, Name: r.ID(), MinPlayers: 1, MaxPlayers: 4, MinTurns: 1, MaxTurns: 1000, DefaultTurns: 40, Round: "rounds"})
		}
	}
}

// Duel plays a game of rs (seed, turns) between painters 1 and 2 (named
// 1_painter and 2_painter), recorded by rec, failing the test on any
// error.
func Duel(tb testing.TB, rs engine.Ruleset, seed uint64, turns int, rec match.GameRecorder) *match.Result {
	tb.Helper()
	seats := []match.GameSeat{
		{Bot: match.StrategyPlayer(toygame.NewPainter(1))},
		{Bot: match.StrategyPlayer(toygame.NewPainter(2))},
	}
	res, err := match.RunGame(context.Background(), match.GameConfig{Ruleset: rs, Seed: seed, MaxTurns: turns, Seats: seats, Recorder: rec})
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// Recorder is the recorder of a test's duel into buf: created at the
// Unix epoch by "rewind test".
func Recorder(buf *bytes.Buffer) *recording.Recorder {
	return recording.NewRecorder(buf, time.Unix(0, 0), "rewind test")
}

// Record is Duel recorded by Recorder: the .rwd bytes and the result.
func Record(tb testing.TB, rs engine.Ruleset, seed uint64, turns int) ([]byte, *match.Result) {
	tb.Helper()
	var buf bytes.Buffer
	res := Duel(tb, rs, seed, turns, Recorder(&buf))
	return buf.Bytes(), res
}
