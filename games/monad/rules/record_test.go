package rules

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// scriptedRound returns random commands for every player, well formed
// and malformed, and sometimes a fault.
func scriptedRound(rng *rand.Rand, g *Game) ([][]string, []engine.Fault) {
	junk := []string{`null`, `{}`, `{"l":[0,0],"c":"MOVE","d":9,"n":1}`, `{"l":"x","c":"MOVE","d":1,"n":1}`,
		`{"l":[1,1],"c":"MOVE","d":1,"n":1.5}`, `{"l":[50,1],"c":"MOVE","d":1,"n":1}`, `{"l":[1,1],"c":"FLY","d":1,"n":-4}`, `{"l":[3,3],"c":"MINE","d":7,"n":99999999999}`}
	kinds := []string{"MOVE", "MOVE", "BUILD", "MINE"}
	n := g.Players()
	cmds := make([][]string, n)
	faults := make([]engine.Fault, n)
	for p := range n {
		if rng.IntN(80) == 0 {
			faults[p] = engine.Fault(1 + rng.IntN(3))
			continue
		}
		for range rng.IntN(6) {
			if rng.IntN(5) == 0 {
				cmds[p] = append(cmds[p], junk[rng.IntN(len(junk))])
				continue
			}
			cmds[p] = append(cmds[p], fmt.Sprintf(`{"l":[%d,%d],"c":%q,"d":%d,"n":%d}`, rng.IntN(Width), rng.IntN(Height), kinds[rng.IntN(4)], 1+rng.IntN(7), rng.IntN(4)))
		}
	}
	return cmds, faults
}

// TestRecord: every round's record, played by a second game, reaches the
// same state; the text the record gives (PlayRecord and DecodeRound alike)
// played through Fault and Round by a third reaches it too, and records
// the same bytes again. A fourth plays the record without its text and
// is given the same faults.
func TestRecord(t *testing.T) {
	turns := 0
	defer func() {
		if turns < 200 {
			t.Errorf("the games lasted %d turns in all: too few to test the records", turns)
		}
	}()
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 7))
		settings := engine.Settings{Players: 2 + int(seed%3), MaxTurns: 120}
		setup := fmt.Appendf(nil, `{"seed":%d}`, seed)
		var games [4]*Game
		for i := range games {
			g, err := Ruleset.NewFromSetup(setup, settings)
			if err != nil {
				t.Fatal(err)
			}
			games[i] = g.(*Game)
		}
		a, b, c, d := games[0], games[1], games[2], games[3]
		dec, err := Ruleset.(engine.Codec).NewDecoder(c)
		if err != nil {
			t.Fatal(err)
		}
		if a.AppendRecord(nil) != nil {
			t.Fatal("a record before the first round")
		}
		for !a.Over() {
			cmds, faults := scriptedRound(rng, a)
			for p, f := range faults {
				if f != 0 {
					a.Fault(p, f, "")
				}
			}
			a.Round(cmds)
			rec := a.AppendRecord(nil)
			text := make([][]string, a.Players())
			tf := make([]engine.Fault, a.Players())
			if _, err := b.PlayRecord(bytes.NewReader(rec), text, tf, nil); err != nil {
				t.Fatalf("seed %d turn %d: %v", seed, a.Turn(), err)
			}
			nf := make([]engine.Fault, a.Players())
			if _, err := d.PlayRecord(bytes.NewReader(rec), nil, nf, make([]string, a.Players())); err != nil {
				t.Fatalf("seed %d turn %d without text: %v", seed, a.Turn(), err)
			}
			if !slices.Equal(nf, tf) || d.Hash() != b.Hash() {
				t.Fatalf("seed %d turn %d: without text faults %v hash %016x, with text %v %016x", seed, a.Turn(), nf, d.Hash(), tf, b.Hash())
			}
			dtext := make([][]string, a.Players())
			df := make([]engine.Fault, a.Players())
			if err := dec(bytes.NewReader(rec), dtext, df, nil); err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(text, dtext, slices.Equal) || !slices.Equal(tf, df) {
				t.Fatalf("turn %d: PlayRecord's text %q %v, DecodeRound's %q %v", a.Turn(), text, tf, dtext, df)
			}
			for p, f := range tf {
				if f != 0 {
					c.Fault(p, f, "")
				}
			}
			c.Round(text)
			if b.Hash() != a.Hash() || c.Hash() != a.Hash() || b.Turn() != a.Turn() {
				t.Fatalf("seed %d turn %d: played %016x, from the record %016x, from its text %016x", seed, a.Turn(), a.Hash(), b.Hash(), c.Hash())
			}
			turns++
			if again := c.AppendRecord(nil); !bytes.Equal(again, rec) {
				t.Fatalf("turn %d: the text records as %x, the round as %x", a.Turn(), again, rec)
			}
		}
	}
}

// FuzzRecord: any bytes decode to commands or an error, never a panic;
// a record that decodes plays, and the game records it again as bytes
// that decode to the same commands.
func FuzzRecord(f *testing.F) {
	g, _ := Ruleset.New(3, engine.Settings{Players: 3, MaxTurns: 10})
	rng := rand.New(rand.NewPCG(1, 2))
	cmds, _ := scriptedRound(rng, g.(*Game))
	g.Round(cmds)
	f.Add(g.(*Game).AppendRecord(nil), uint8(3))
	f.Add([]byte{0, 0xff, 0x12}, uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, players uint8) {
		n := 1 + int(players%MaxPlayers)
		text := make([][]string, n)
		faults := make([]engine.Fault, n)
		dec, err := Ruleset.(engine.Codec).NewDecoder(nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := dec(bytes.NewReader(data), text, faults, nil); err != nil {
			return
		}
		g, err := Ruleset.New(5, engine.Settings{Players: n, MaxTurns: 10})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.(*Game).PlayRecord(bytes.NewReader(data), nil, nil, nil); err != nil {
			t.Fatalf("decodes but does not play: %v", err)
		}
		again := make([][]string, n)
		if err := dec(bytes.NewReader(g.(*Game).AppendRecord(nil)), again, make([]engine.Fault, n), nil); err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(text, again, slices.Equal) {
			t.Fatalf("recorded again as %q, was %q", again, text)
		}
	})
}

// TestAppendNatural checks the command text's numbers against strconv
// on every one- and two-digit number, the borders of the digit counts
// and MaxCount.
func TestAppendNatural(t *testing.T) {
	vals := []int64{999, 1000, 1 << 31, MaxCount}
	for v := int64(0); v <= 120; v++ {
		vals = append(vals, v)
	}
	for _, v := range vals {
		if got, want := string(appendNatural([]byte("x"), v)), "x"+strconv.FormatInt(v, 10); got != want {
			t.Errorf("appendNatural(%d) = %q, want %q", v, got, want)
		}
	}
}

// TestRecordKeepsRejectedText: a command rejected before the turn is
// recorded with its text as sent, which the record gives back, while it
// is at most MaxRawCommandBytes and the player's round within
// MaxRawBytesPerRound; past either it gives a short text of the same
// code. The record read back records the same bytes.
func TestRecordKeepsRejectedText(t *testing.T) {
	long := `{"l":[1,1],"c":"MOVE","n":1,"pad":"` + strings.Repeat("x", MaxRawCommandBytes) + `"}`
	sent := `{"l": [2, 3], "c": "MOVE", "n": 4}`
	flood := make([]string, 0, MaxRawBytesPerRound/len(sent)+2)
	for len(flood)*len(sent) <= MaxRawBytesPerRound {
		flood = append(flood, sent)
	}
	g, _ := Ruleset.New(3, engine.Settings{Players: 2, MaxTurns: 10})
	g.Round([][]string{{sent, long, `{"l":[5,6],"c":"MOVE","d":9,"n":1}`}, flood})
	rec := g.(*Game).AppendRecord(nil)
	text := make([][]string, 2)
	dec, _ := Ruleset.(engine.Codec).NewDecoder(nil)
	if err := dec(bytes.NewReader(rec), text, make([]engine.Fault, 2), nil); err != nil {
		t.Fatal(err)
	}
	want := []string{sent, malformedText[ErrMissingField], `{"l":[5,6],"c":"MOVE","d":9,"n":1}`}
	if !slices.Equal(text[0], want) {
		t.Errorf("the record gives %q, want %q", text[0], want)
	}
	kept := 0
	for _, c := range text[1] {
		if c == sent {
			kept++
		} else if c != malformedText[ErrMissingField] {
			t.Fatalf("a flooded command reads back as %q", c)
		}
	}
	if len(text[1]) != len(flood) || kept != MaxRawBytesPerRound/len(sent) {
		t.Errorf("of %d flooded commands %d read back (%d as sent), want %d as sent", len(flood), len(text[1]), kept, MaxRawBytesPerRound/len(sent))
	}
	h, _ := Ruleset.New(3, engine.Settings{Players: 2, MaxTurns: 10})
	if _, err := h.(*Game).PlayRecord(bytes.NewReader(rec), nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	if again := h.(*Game).AppendRecord(nil); !bytes.Equal(again, rec) || h.Hash() != g.Hash() {
		t.Errorf("the record played again records %d bytes (%d before), hash %016x (%016x)", len(again), len(rec), h.Hash(), g.Hash())
	}
}
