package monad_test

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/bot/monadbot"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/recording"
	"github.com/rewind-game/rewind/replay/source"
)

// The events engine/monad reports itself (monad.Game.Events, and
// monad.BoardEvents for a stream of states) against those package
// analysis derives from a replay's frames (analysis.AnalyzeMonad) for the
// same games.

const vectorDir = "../../testdata/monad"

// turnEvent is an event with its turn, as both sides are compared.
type turnEvent struct {
	Turn int
	engine.Event
}

// gameKinds are the kinds the game reports; the analysis's others
// (bot_fault, lead_change, lead_for_good) are the generic analysis's.
var gameKinds = []string{monad.EventHiveBuilt, monad.EventHiveDestroyed, monad.EventDied}

// analysisEvents returns the analysis's events of the game's kinds.
func analysisEvents(a *analysis.MonadAnalysis) []turnEvent {
	var out []turnEvent
	for _, e := range a.Events {
		if slices.Contains(gameKinds, e.Kind) {
			out = append(out, turnEvent{e.Turn, engine.Event{Kind: e.Kind, Player: e.Player, Other: e.Other, X: e.X, Y: e.Y, Value: e.Value}})
		}
	}
	return out
}

// sorted orders events by turn, kind (as gameKinds), row, column: within a
// turn the game reports hives built in execution order, the analysis in
// row order.
func sorted(es []turnEvent) []turnEvent {
	es = slices.Clone(es)
	slices.SortStableFunc(es, func(a, b turnEvent) int {
		return cmp.Or(cmp.Compare(a.Turn, b.Turn), cmp.Compare(slices.Index(gameKinds, a.Kind), slices.Index(gameKinds, b.Kind)),
			cmp.Compare(a.Y, b.Y), cmp.Compare(a.X, b.X), cmp.Compare(a.Player, b.Player))
	})
	return es
}

// sameEvents reports the first difference between two event lists, ""
// when they are equal.
func sameEvents(game, ana []turnEvent) string {
	g, a := sorted(game), sorted(ana)
	for i := 0; i < max(len(g), len(a)); i++ {
		switch {
		case i >= len(g):
			return fmt.Sprintf("event %d: only the analysis has %+v", i, a[i])
		case i >= len(a):
			return fmt.Sprintf("event %d: only the game has %+v", i, g[i])
		case g[i] != a[i]:
			return fmt.Sprintf("event %d: the game has %+v, the analysis %+v", i, g[i], a[i])
		}
	}
	return ""
}

// eventTee records a match and keeps the game's events of every turn.
type eventTee struct {
	*recording.MonadRecorder
	events []turnEvent
}

func (r *eventTee) Round(rd *monad.Round, st *monad.State) error {
	for _, e := range (&monad.Game{State: st}).Events(nil) {
		r.events = append(r.events, turnEvent{st.Turn(), e})
	}
	return r.MonadRecorder.Round(rd, st)
}

func analyzeRWD(t *testing.T, data []byte) *analysis.MonadAnalysis {
	t.Helper()
	src, err := source.NewMonad(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	a, err := analysis.AnalyzeMonad(src)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestGameEventsMatchAnalysis: for seeded matches of the built-in bots,
// and for the six conformance games (one of which has a hive built and
// destroyed in the same turn, which a .rwd's fights show the analysis
// too), the events the game reports as it is played are the hive_built,
// hive_destroyed and died events the analysis of its recording derives:
// the same turns, players, others, cells and values (sorted alike: the
// game gives a turn's builds in execution order, the analysis in row
// order).
func TestGameEventsMatchAnalysis(t *testing.T) {
	counts := map[string]int{}
	type cellTurn struct{ turn, x, y int }
	check := func(t *testing.T, game []turnEvent, a *analysis.MonadAnalysis) {
		t.Helper()
		if diff := sameEvents(game, analysisEvents(a)); diff != "" {
			t.Error(diff)
		}
		built := map[cellTurn]bool{}
		for _, e := range game {
			counts[e.Kind]++
			if e.Kind == monad.EventHiveBuilt {
				built[cellTurn{e.Turn, e.X, e.Y}] = true
			}
		}
		for _, e := range game {
			if e.Kind == monad.EventHiveDestroyed && built[cellTurn{e.Turn, e.X, e.Y}] {
				counts["built and destroyed at once"]++
			}
		}
	}
	matches := []struct {
		seed uint64
		bots []string
	}{
		{11, []string{"rusher", "expander", "miner", "rusher"}},
		{12, []string{"expander", "rusher", "miner"}},
		{13, []string{"rusher", "rusher"}},
		{14, []string{"miner", "rusher", "expander", "rusher"}},
	}
	for _, m := range matches {
		t.Run(fmt.Sprintf("seed%d", m.seed), func(t *testing.T) {
			var seats []match.MonadSeat
			for _, name := range m.bots {
				b, err := monadbot.Builtin(name)
				if err != nil {
					t.Fatal(err)
				}
				seats = append(seats, match.MonadSeat{Bot: b})
			}
			var buf bytes.Buffer
			tee := &eventTee{MonadRecorder: recording.NewMonad(&buf, time.Time{}, "test")}
			if _, err := match.RunMonad(context.Background(), match.MonadConfig{MaxTurns: 400, Seed: m.seed, Seats: seats, Recorder: tee}); err != nil {
				t.Fatal(err)
			}
			check(t, tee.events, analyzeRWD(t, buf.Bytes()))
		})
	}
	for n := 1; n <= 6; n++ {
		name := fmt.Sprintf("m%02d", n)
		t.Run(name, func(t *testing.T) {
			v := testutil.MonadVector(t, filepath.Join(vectorDir, name+".commands.json"))
			s, err := monad.New(v.Config())
			if err != nil {
				t.Fatal(err)
			}
			g := &monad.Game{State: s} // Events reads the State's last turn
			var buf bytes.Buffer
			w, err := replay.NewMonadWriter(&buf, replay.MonadHeader(v.Config(), v.Bots.Names, v.Bots.Names))
			if err != nil {
				t.Fatal(err)
			}
			var game []turnEvent
			for turn := 0; !s.Over(); turn++ {
				cmds, timedOut := v.Commands(turn)
				r := monad.Round{Commands: cmds}
				for _, p := range timedOut {
					r.TimedOut[p] = true
				}
				s.Play(&r)
				for _, e := range g.Events(nil) {
					game = append(game, turnEvent{s.Turn(), e})
				}
				if err := w.WriteRound(&r, s); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(s); err != nil {
				t.Fatal(err)
			}
			check(t, game, analyzeRWD(t, buf.Bytes()))
		})
	}
	t.Logf("events compared: %v", counts)
	for _, k := range append(slices.Clone(gameKinds), "built and destroyed at once") {
		if counts[k] == 0 {
			t.Errorf("no %s event in the games: the comparison shows nothing of it", k)
		}
	}
}

// boardOf describes a frame's cells as monad.Game.Board does.
func boardOf(f *source.MonadFrame, b *engine.Board) {
	b.Topology, b.Badges = engine.Hex, []string{"hive"}
	b.Resize(monad.Width, monad.Height)
	for k, c := range f.Cells {
		cell := engine.Cell{Terrain: int64(c.Resource), Owner: int(c.Owner), Value: int64(c.Units)}
		if c.Hive >= 0 {
			cell.Badges = 1
			if c.Owner < 0 {
				cell.Owner = int(c.Hive)
			}
		}
		b.Cells[k] = cell
	}
}

// TestBoardEventsMatchLogAnalysis: from the reference engine's own log of
// each conformance game (states only: no fights), monad.BoardEvents of
// each pair of consecutive entries gives the events the analysis of the
// log derives, hives built and destroyed in one turn missing from both.
func TestBoardEventsMatchLogAnalysis(t *testing.T) {
	for n := 1; n <= 6; n++ {
		name := fmt.Sprintf("m%02d", n)
		t.Run(name, func(t *testing.T) {
			data := referenceLogOf(t, name)
			src, err := source.NewMonad(bytes.NewReader(data), nil)
			if err != nil {
				t.Fatal(err)
			}
			var f source.MonadFrame
			var prev, cur engine.Board
			var board []turnEvent
			for i := 0; ; i++ {
				if err := src.Next(&f); errors.Is(err, io.EOF) {
					break
				} else if err != nil {
					t.Fatal(err)
				}
				prev, cur = cur, prev
				boardOf(&f, &cur)
				if i == 0 {
					continue
				}
				for _, e := range monad.BoardEvents(&prev, &cur, nil) {
					board = append(board, turnEvent{f.Turn, e})
				}
			}
			src.Close()
			src, err = source.NewMonad(bytes.NewReader(data), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			a, err := analysis.AnalyzeMonad(src)
			if err != nil {
				t.Fatal(err)
			}
			if diff := sameEvents(board, analysisEvents(a)); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// referenceLogOf returns the reference engine's log of a conformance
// vector (the "log" of its states file), as it writes replay.json.
func referenceLogOf(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join(vectorDir, name+".states.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Log json.RawMessage `json:"log"`
	}
	if err := json.NewDecoder(zr).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st.Log
}
