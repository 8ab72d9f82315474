package cfrstream_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrstream"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/testutil"
)

// TestOpen: a conformance .cfr reads as a stream of every frame the
// decoder gives, each showing that frame's users' values and owners,
// with the ruleset's metrics and then its accounting figures; a file
// that ends at frame 0 is refused.
func TestOpen(t *testing.T) {
	data := testutil.ReadFile(t, "../../../../../testdata/conformance/c02.cfr")
	s, err := cfrstream.Open(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m := s.Meta()
	want := len(colorfight2.Ruleset.Metrics()) + len(colorfight2.Ruleset.(engine.Accounting).AccountMetrics(len(m.Players)))
	if m.Format != cfrstream.Name || m.Resimulated || m.Ruleset != "colorfight2" || len(m.Metrics) != want {
		t.Fatalf("meta: format %q, resimulated %v, ruleset %q, %d metrics (want %d)", m.Format, m.Resimulated, m.Ruleset, len(m.Metrics), want)
	}
	d, err := cfr.NewDecoder(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var cf colorfight2.Frame
	var f engine.Frame
	frames := 0
	for ; ; frames++ {
		err := d.Next(&cf)
		serr := s.Next(&f)
		if errors.Is(err, io.EOF) {
			if !errors.Is(serr, io.EOF) {
				t.Fatalf("frame %d: the decoder ends, the stream gives %v", frames, serr)
			}
			break
		}
		if err != nil || serr != nil {
			t.Fatalf("frame %d: decoder %v, stream %v", frames, err, serr)
		}
		if f.Turn != frames || f.CommandsKnown || len(f.Values) != len(m.Players) {
			t.Fatalf("frame %d: turn %d, commands known %v, %d players", frames, f.Turn, f.CommandsKnown, len(f.Values))
		}
		if frames == 0 {
			continue // the game at turn 0: players at their homes
		}
		for _, u := range cf.Users {
			if v := f.Values[u.UID-1]; len(v) != want || v[0] != u.Gold || v[1] != u.Energy || v[2] != u.CellNumber {
				t.Fatalf("frame %d: uid %d values %v, the file's gold %d energy %d cells %d", frames, u.UID, v, u.Gold, u.Energy, u.CellNumber)
			}
		}
		for i, c := range cf.Cells {
			if got := f.Board.Cells[i].Owner; got != int(c.Owner)-1 {
				t.Fatalf("frame %d: cell %d owner %d, the file's uid %d", frames, i, got, c.Owner)
			}
		}
	}
	if frames < 10 {
		t.Fatalf("only %d frames", frames)
	}

	// Frame 0 alone: no players to show.
	var only bytes.Buffer
	var f0 colorfight2.Frame
	d2, _ := cfr.NewDecoder(bytes.NewReader(data))
	if err := d2.Next(&f0); err != nil {
		t.Fatal(err)
	}
	e, err := cfr.NewJSONEncoder(&only, d2.Header())
	if err != nil {
		t.Fatal(err)
	}
	if err := e.WriteFrame(&f0); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := cfrstream.Open(bytes.NewReader(only.Bytes())); err == nil {
		t.Error("a replay of frame 0 alone opened")
	}
}
