package source_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/rewind-game/rewind/engine/bot/monadbot"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/source"
)

// recordMonad plays built-ins for turns turns and returns the recording
// and every state the match went through.
func recordMonad(t *testing.T, seed int64, turns int, names ...string) ([]byte, []*monad.State, []monad.Round) {
	t.Helper()
	cfg := monad.Config{Players: len(names), MaxTurns: turns, Seed: seed}
	s, err := monad.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := replay.NewMonadWriter(&buf, replay.MonadHeader(cfg, names, names))
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
	states := []*monad.State{s.Clone()}
	var rounds []monad.Round
	for !s.Over() {
		var r monad.Round
		r.Commands = make([][]monad.Command, len(names))
		for i, b := range bots {
			texts, _ := b.Commands(s)
			for _, c := range texts {
				r.Commands[i] = append(r.Commands[i], monad.ParseCommand([]byte(c)))
			}
		}
		if s.Turn() == 5 {
			r.Commands[0] = append(r.Commands[0], monad.ParseCommand([]byte(`{"l":[1,1],"c":"JUMP","d":1,"n":1}`)))
		}
		s.Play(&r)
		if err := w.WriteRound(&r, s); err != nil {
			t.Fatal(err)
		}
		states, rounds = append(states, s.Clone()), append(rounds, r)
	}
	if err := w.Close(s); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), states, rounds
}

// TestMonadSourceFrames: every frame of a .rwd is the state the match was
// in, cell by cell and player by player, with the turn's moves.
func TestMonadSourceFrames(t *testing.T) {
	data, states, rounds := recordMonad(t, 7, 80, "expander", "miner", "rusher")
	if !source.IsMonadRWD(bufio.NewReaderSize(bytes.NewReader(data), 64<<10)) {
		t.Fatal("IsMonadRWD is false on a Monad recording")
	}
	src, err := source.NewMonad(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	m := src.Meta()
	if m.Format != source.MonadRWD || !m.Counters || !m.SeedKnown || m.Config.Seed != 7 || len(m.Names) != 3 || m.Names[1] != "miner" {
		t.Fatalf("meta %+v", m)
	}
	var f source.MonadFrame
	n := 0
	for ; ; n++ {
		err := src.Next(&f)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("frame %d: %v", n, err)
		}
		if n >= len(states) || f.Turn != n {
			t.Fatalf("frame %d has turn %d (%d states)", n, f.Turn, len(states))
		}
		st := states[n]
		for y := 0; y < monad.Height; y++ {
			for x := 0; x < monad.Width; x++ {
				c := f.Cell(x, y)
				p, u := st.Occupant(x, y)
				o, _, ok := st.Hive(x, y)
				if !ok {
					o = -1
				}
				if int(c.Owner) != p || int(c.Units) != u || int(c.Hive) != o || int(c.Resource) != st.Resource(x, y) {
					t.Fatalf("turn %d (%d,%d): frame %+v, state owner %d units %d hive %d resource %d", n, x, y, *c, p, u, o, st.Resource(x, y))
				}
			}
		}
		for p := range f.Players {
			if f.Players[p].PlayerStats != st.Stats(p) {
				t.Fatalf("turn %d player %d: %+v, want %+v", n, p, f.Players[p].PlayerStats, st.Stats(p))
			}
		}
		if n == 0 {
			if len(f.Moves) != 0 {
				t.Fatalf("frame 0 has %d moves", len(f.Moves))
			}
			continue
		}
		// Every command sent appears once among the moves.
		sent := 0
		for _, cs := range rounds[n-1].Commands {
			sent += len(cs)
		}
		listed := 0
		for _, mv := range f.Moves {
			if mv.Index >= 0 {
				listed++
			}
		}
		if listed != sent {
			t.Fatalf("turn %d: %d commands sent, %d listed among the moves", n, sent, listed)
		}
		if n == 6 {
			found := false
			for _, mv := range f.Moves {
				found = found || (mv.Player == 0 && mv.Code == monad.ErrUnknownType)
			}
			if !found {
				t.Fatalf("turn 6: the rejected JUMP is not among the moves %+v", f.Moves)
			}
		}
	}
	if n != len(states) {
		t.Fatalf("%d frames, %d states", n, len(states))
	}
}

// TestMonadSourceRefusesOthers: a .cfr is not a Monad replay.
func TestMonadSourceRefusesOthers(t *testing.T) {
	if _, err := source.OpenMonad("../../testdata/conformance/c01.cfr"); err == nil {
		t.Fatal("a .cfr opened as a Monad replay")
	}
	f, err := os.Open("../../testdata/conformance/c01.cfr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if source.IsMonadRWD(bufio.NewReaderSize(f, 64<<10)) {
		t.Fatal("IsMonadRWD is true on a .cfr")
	}
}
