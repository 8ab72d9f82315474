package rerun_test

import (
	"bytes"
	"context"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	_ "github.com/rewind-game/rewind/games/all"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/rerun"
	"github.com/rewind-game/rewind/replay"
)

// record plays a game of id with its first built-ins into a .rwd.
func record(t *testing.T, id string, turns int, bots ...int) []byte {
	t.Helper()
	rs, _ := engine.Get(id)
	info, _ := engine.About(id)
	var seats []match.GameSeat
	for _, b := range bots {
		seats = append(seats, match.GameSeat{Bot: match.BuiltinPlayer(info.Bots[b])})
	}
	var buf bytes.Buffer
	if _, err := match.RunGame(context.Background(), match.GameConfig{Ruleset: rs, Seed: 3, MaxTurns: turns, Seats: seats,
		Recorder: recording.NewRecorder(&buf, time.Unix(0, 0), "rewind test")}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// probe is a built-in that calls at on each turn it is asked.
type probe struct {
	match.GamePlayer
	at func(turn int)
}

func (p *probe) Commands(g engine.Game, pl int) ([]string, error) {
	p.at(g.Turn())
	return p.GamePlayer.Commands(g, pl)
}

// open re-simulates data from its start.
func open(t *testing.T, data []byte) *replay.Sim {
	t.Helper()
	sim, err := replay.OpenSim(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	return sim
}

// TestRunHoldsNoGame: rerun holds the game, one round and one answer:
// over a 3000-round ColorFight v1 game the heap does not grow, and the
// bot that played reproduces every round.
func TestRunHoldsNoGame(t *testing.T) {
	const turns = 3000
	data := record(t, "colorfight1", turns, 0, 1)
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	var early, late uint64
	info, _ := engine.About("colorfight1")
	bot := &probe{GamePlayer: match.BuiltinPlayer(info.Bots[1]), at: func(turn int) {
		switch turn {
		case 100:
			early = heap()
		case turns - 10:
			late = heap()
		}
	}}
	sim := open(t, data)
	seed := *sim.Header().Players[1].BotSeed
	res, err := rerun.Run(context.Background(), sim, "g.rwd", rerun.Options{Seat: 2, Bot: bot, Seed: seed, AskBefore: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Difference != nil || res.Compared < turns-10 || res.Stop != nil {
		t.Fatalf("the bot that played: %+v", res)
	}
	if early == 0 || late > early+1<<20 {
		t.Errorf("the heap grew from %d to %d bytes over the game", early, late)
	}
}

// TestContinue: a bot Run stopped at a difference plays on with the
// answer it gave there first, then is asked again; it is not started
// again.
func TestContinue(t *testing.T) {
	data := record(t, "monad", 30, 0, 1)
	info, _ := engine.About("monad")
	bot := match.BuiltinPlayer(info.Bots[2]) // not the one that played
	res, err := rerun.Run(context.Background(), open(t, data), "g.rwd", rerun.Options{Seat: 1, Bot: bot, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Difference
	if d == nil || !d.Commands.Differs {
		t.Fatalf("no difference: %+v", res)
	}
	c := rerun.Continue(bot, d)
	if err := c.Start(0, 1); err != nil {
		t.Fatal(err)
	}
	got, err := c.Commands(nil, 0)
	if err != nil || !slices.Equal(got, d.Commands.B) {
		t.Fatalf("first answer %q, %v; want the difference's %q", got, err, d.Commands.B)
	}
	if _, err := rerun.Run(context.Background(), open(t, data), "g.rwd", rerun.Options{Seat: 3, Bot: bot}); err == nil {
		t.Error("seat 3 of a 2-seat game accepted")
	}
}

// marker is a built-in that draws one dot a round (match.Marker).
type marker struct{ match.GamePlayer }

func (marker) RoundMarks() ([][]byte, int) { return [][]byte{[]byte(`{"dot":[0,0]}`)}, 0 }

// TestContinueMarkerOnlyOfMarker: Continue's player draws marks
// (match.Marker) only when its bot does, so that a game played on with a
// built-in records no marks (a file of a version without mark records).
func TestContinueMarkerOnlyOfMarker(t *testing.T) {
	data := record(t, "monad", 30, 0, 1)
	info, _ := engine.About("monad")
	for _, c := range []struct {
		name string
		bot  match.GamePlayer
		want bool
	}{
		{"built-in", match.BuiltinPlayer(info.Bots[2]), false},
		{"marker", marker{match.BuiltinPlayer(info.Bots[2])}, true},
	} {
		res, err := rerun.Run(context.Background(), open(t, data), "g.rwd", rerun.Options{Seat: 1, Bot: c.bot, Seed: 9})
		if err != nil || res.Difference == nil {
			t.Fatalf("%s: %+v, %v", c.name, res, err)
		}
		p := rerun.Continue(c.bot, res.Difference)
		if _, ok := p.(match.Marker); ok != c.want {
			t.Errorf("%s: the player continued is a match.Marker: %v, want %v", c.name, ok, c.want)
		}
		if _, ok := p.(match.Logger); !ok {
			t.Errorf("%s: the player continued is not a match.Logger", c.name)
		}
	}
}
