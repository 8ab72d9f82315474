package analysis_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/replay/source"
)

// byteSource is a Monad source whose frames are made from arbitrary bytes,
// as a hostile official log could make them: any owner, hive, count,
// move or fight.
type byteSource struct {
	b        []byte
	players  int
	frames   int
	counters bool
}

func (s *byteSource) next() int64 {
	if len(s.b) < 2 {
		s.b = nil
		return 0
	}
	v := int16(binary.LittleEndian.Uint16(s.b))
	s.b = s.b[2:]
	return int64(v)
}

func (s *byteSource) Meta() *source.MonadMeta {
	return &source.MonadMeta{Format: "fuzz", Counters: s.counters, Names: []string{"a", "", "\x1b[31mc"}}
}

func (s *byteSource) Next(f *source.MonadFrame) error {
	if s.frames == 0 || (len(s.b) == 0 && f.Players != nil) {
		return io.EOF
	}
	s.frames--
	players := s.players
	if s.next()%17 == 0 {
		players++ // a frame with another player count
	}
	f.Players = make([]source.MonadPlayer, players)
	for p := range f.Players {
		st := &f.Players[p].PlayerStats
		st.Resources, st.Units, st.Hives, st.Cells = s.next()*1000, s.next(), int(s.next()), int(s.next())
		st.UnitsProduced, st.UnitsLost, st.Rejected = s.next(), s.next(), s.next()
		st.TimedOut, st.Crashed = s.next()&1 == 1, s.next()&1 == 1
	}
	for i := range f.Cells {
		f.Cells[i] = source.MonadCell{Owner: -1, Hive: -1}
	}
	for k := s.next() & 31; k > 0; k-- {
		i := int(uint16(s.next())) % monad.NumCells
		f.Cells[i] = source.MonadCell{Owner: int8(s.next()), Hive: int8(s.next()), Units: int32(s.next()), Resource: int32(s.next())}
	}
	f.Moves = f.Moves[:0]
	for k := s.next() & 15; k > 0; k-- {
		f.Moves = append(f.Moves, source.MonadMove{Player: int(s.next()), Index: int(s.next()), X: int(s.next() % 25), Y: int(s.next() % 25),
			Kind: monad.Kind(s.next() & 3), Dir: monad.Dir(s.next() & 7), Count: s.next() << 40, Code: monad.ErrCode(s.next() & 1)})
	}
	f.Fights = f.Fights[:0]
	for k := s.next() & 3; k > 0; k-- {
		f.Fights = append(f.Fights, monad.Fight{X: int(s.next() % 25), Y: int(s.next() % 25), Hive: int(s.next()), Outcome: int(s.next() & 3)})
	}
	return nil
}

func (s *byteSource) Close() error { return nil }

// FuzzAnalyzeMonad: whatever frames a source gives, AnalyzeMonad does not
// panic, and what it returns is consistent: every series has turns+1
// values per player, events are in turn order, the ranking holds every
// player once, and the outputs write.
func FuzzAnalyzeMonad(f *testing.F) {
	f.Add([]byte{}, uint8(2), uint8(3), true)
	f.Add(bytes.Repeat([]byte{1, 0, 2, 0, 255, 255, 0, 128}, 200), uint8(4), uint8(40), true)
	f.Add(bytes.Repeat([]byte{7, 3, 0, 1}, 500), uint8(3), uint8(20), false)
	f.Add(bytes.Repeat([]byte{0x11, 0x90, 3, 0, 5, 0, 0, 0, 0xff, 0x7f}, 300), uint8(1), uint8(60), true)
	f.Fuzz(func(t *testing.T, data []byte, players, frames uint8, counters bool) {
		src := &byteSource{b: data, players: int(players % 6), frames: int(frames % 80), counters: counters}
		a, err := analysis.AnalyzeMonad(src)
		if err != nil {
			return
		}
		for _, s := range a.Series {
			if len(s.Values) != a.Players() {
				t.Fatalf("series %s: %d players of %d", s.Metric.Name, len(s.Values), a.Players())
			}
			for _, v := range s.Values {
				if len(v) != a.Turns+1 {
					t.Fatalf("series %s: %d values for %d turns", s.Metric.Name, len(v), a.Turns)
				}
			}
		}
		if len(a.Leader) != a.Turns+1 {
			t.Fatalf("%d leaders for %d turns", len(a.Leader), a.Turns)
		}
		seen := make([]bool, a.Players())
		for _, p := range a.Ranking {
			if p < 0 || p >= len(seen) || seen[p] {
				t.Fatalf("ranking %v", a.Ranking)
			}
			seen[p] = true
		}
		if len(a.Ranking) != a.Players() {
			t.Fatalf("ranking %v of %d players", a.Ranking, a.Players())
		}
		for i := 1; i < len(a.Events); i++ {
			if a.Events[i].Turn < a.Events[i-1].Turn {
				t.Fatalf("events out of order: %+v", a.Events[i-1:i+1])
			}
		}
		for _, e := range a.Events {
			_ = e.Text(a.Name)
		}
		if err := a.WriteJSON(io.Discard); err != nil {
			t.Fatal(err)
		}
		if err := a.WriteCSV(io.Discard); err != nil {
			t.Fatal(err)
		}
		if err := a.WriteTable(io.Discard); err != nil {
			t.Fatal(err)
		}
	})
}
