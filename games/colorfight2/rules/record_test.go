package rules

import (
	"bytes"
	"reflect"
	"strconv"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// recordSeeds are round records of a real game: four seeded players'
// rounds with commands of every kind, a malformed one among them; fresh
// returns a codec of that game's recording at its first round.
func recordSeeds(tb testing.TB) (fresh func() *RecordCodec, recs [][]byte) {
	g, err := Ruleset.New(7, engine.Settings{Players: 4, MaxTurns: 30})
	if err != nil {
		tb.Fatal(err)
	}
	game := g.(*Game)
	w, h, homes := game.State.Config().Width, game.State.Config().Height, game.State.homes()
	fresh = func() *RecordCodec { return NewRecordCodec(w, h, homes) }
	enc := fresh()
	for t := 0; t < 6; t++ {
		cmds := make([][]string, 4)
		if t > 0 {
			for p := range cmds {
				h := game.State.homes()[p]
				cmds[p] = []string{"a " + strconv.Itoa(h.X+1) + " " + strconv.Itoa(h.Y) + " 10", "b " + strconv.Itoa(h.X) + " " + strconv.Itoa(h.Y+1) + " g", "u " + strconv.Itoa(h.X) + " " + strconv.Itoa(h.Y), "zz 1 2 ?"}
			}
		}
		g.Round(cmds)
		if t > 0 {
			recs = append(recs, enc.AppendRound(nil, game.Applied()))
		}
	}
	return fresh, recs
}

// TestRecordRoundTrip: a real game's records read back as the commands
// the game applied, in order.
func TestRecordRoundTrip(t *testing.T) {
	g, err := Ruleset.New(7, engine.Settings{Players: 2, MaxTurns: 30})
	if err != nil {
		t.Fatal(err)
	}
	game := g.(*Game)
	w, h := game.State.Config().Width, game.State.Config().Height
	enc, dec := NewRecordCodec(w, h, game.State.homes()), NewRecordCodec(w, h, game.State.homes())
	var got [][]Command
	for turn := 0; turn < 5; turn++ {
		home := game.State.homes()[0]
		g.Round([][]string{{"a " + strconv.Itoa(home.X+1) + " " + strconv.Itoa(home.Y) + " 5", "nonsense"}, {"b 0 0 f"}})
		if turn == 0 {
			continue
		}
		want := game.Applied()
		if len(want) != 2 || len(want[0]) != 2 || len(want[1]) != 1 {
			t.Fatalf("turn %d: applied %+v, want player 1's two commands and player 2's one", game.Turn(), want)
		}
		rec := enc.AppendRound(nil, want)
		got, err = dec.ReadRound(bytes.NewReader(rec), got)
		if err != nil {
			t.Fatalf("turn %d: %v", game.Turn(), err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("turn %d: read %+v, applied %+v", game.Turn(), got, want)
		}
	}
}

// FuzzRecordCodec: any bytes read as a round's commands or an error,
// never a panic; what reads is written again as a record that reads as
// the same commands.
func FuzzRecordCodec(f *testing.F) {
	fresh, recs := recordSeeds(f)
	for _, r := range recs {
		f.Add(r)
	}
	f.Add([]byte{0x7f, 0xff, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		cmds, err := fresh().ReadRound(bytes.NewReader(data), nil)
		if err != nil {
			return
		}
		rec := fresh().AppendRound(nil, cmds)
		again, err := fresh().ReadRound(bytes.NewReader(rec), nil)
		if err != nil {
			t.Fatalf("written again, does not read: %v", err)
		}
		if !reflect.DeepEqual(again, cmds) {
			t.Fatalf("read again as %+v, was %+v", again, cmds)
		}
	})
}
