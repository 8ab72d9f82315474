package analysis

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/source"
)

// playUntil records a match of game between the built-ins names, of
// turns turns, stopped after turn stop (0: played to its end).
func playUntil(t *testing.T, game string, seed uint64, turns, stop int, names ...string) []byte {
	t.Helper()
	rs, err := engine.Get(game)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := engine.About(game)
	var seats []match.GameSeat
	for _, n := range names {
		b, ok := info.FindBot(n)
		if !ok {
			t.Fatalf("no built-in %q", n)
		}
		seats = append(seats, match.GameSeat{Bot: match.BuiltinPlayer(b)})
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var buf bytes.Buffer
	cfg := match.GameConfig{Ruleset: rs, Seed: seed, MaxTurns: turns, Seats: seats,
		Recorder: recording.NewRecorder(&buf, time.Unix(0, 0), "rewind test"),
		Progress: func(turn int) {
			if turn == stop {
				cancel()
			}
		}}
	if _, err := match.RunGame(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestAnalysisIncomplete: the analysis calls the first of a game
// stopped before its end (a match interrupted at turn 51 of 200, its
// recording whole, footer included) a leader, not a winner, and the
// first of a game played to its end — at its turn limit, or earlier
// when its rules end it (a Monad game won before turn 400) — a winner.
func TestAnalysisIncomplete(t *testing.T) {
	for _, c := range []struct {
		name       string
		data       []byte
		incomplete bool
		turns      int
	}{
		{"ColorfightII stopped at 51 of 200", playUntil(t, "colorfight2", 4, 200, 51, "greedy", "raider"), true, 51},
		{"ColorfightII played to 200", playUntil(t, "colorfight2", 4, 200, 0, "greedy", "raider"), false, 200},
		{"Monad ended by its rules", playUntil(t, "monad", 1, 400, 0, "expander", "rusher"), false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := source.NewStream(bytes.NewReader(c.data), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if !s.Meta().EndKnown {
				t.Fatal("a re-simulated stream does not know whether its game is over")
			}
			g, err := AnalyzeStream(s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c.turns > 0 && g.Turns != c.turns {
				t.Fatalf("%d turns, want %d", g.Turns, c.turns)
			}
			if c.turns == 0 && g.Turns >= 400 {
				t.Fatalf("the Monad game lasted %d turns: not ended by its rules", g.Turns)
			}
			out := g.Outcome(g.Name)
			if g.Incomplete() != c.incomplete || g.Over == c.incomplete || g.Truncated != nil {
				t.Errorf("incomplete %v, over %v, truncated %v; want incomplete %v", g.Incomplete(), g.Over, g.Truncated, c.incomplete)
			}
			if want := "leader at turn 51 (game incomplete): "; c.incomplete != strings.HasPrefix(out, want) || !c.incomplete && !strings.HasPrefix(out, "winner ") {
				t.Errorf("outcome %q", out)
			}
		})
	}
}
