package source

import (
	"bytes"
	"testing"

	"github.com/rewind-game/rewind/games/skyport/formats/jsn"
	"github.com/rewind-game/rewind/games/skyport/formats/jsn/jsntest"
	"github.com/rewind-game/rewind/replay"
)

// TestStreamFormatTable: the .jsn format is registered, claimed by its
// sniff and not confused with a .rwd; SummarizeStream reads it whole.
func TestStreamFormatTable(t *testing.T) {
	rec := jsntest.Recording()
	found := false
	for _, e := range StreamExts() {
		found = found || e == ".jsn"
	}
	if !found {
		t.Fatalf("StreamExts %v", StreamExts())
	}
	if name, ok := StreamFormatOf(rec[:SniffBytes]); !ok || name != jsn.Name {
		t.Errorf("StreamFormatOf(.jsn) = %q, %v", name, ok)
	}
	if _, ok := StreamFormatOf(append([]byte(replay.Magic), rec[:100]...)); ok {
		t.Error("a file starting with the .rwd magic is claimed")
	}
	if f, ok := LookupStreamFormat(rec[:SniffBytes]); !ok || f.Name != jsn.Name {
		t.Errorf("LookupStreamFormat(.jsn) = %q, %v: the .cfr's catch-all claimed it", f.Name, ok)
	}
	sum, m, err := SummarizeStream(bytes.NewReader(rec))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Format != jsn.Name || m.Label != jsn.Label || sum.Rounds != jsntest.Turns || !sum.Complete || sum.Winner != 1 || sum.WinnerScore != 120 ||
		sum.Players[1].Rank != 2 || sum.Players[1].Score != -10 {
		t.Errorf("summary %+v", sum)
	}
	sum, _, err = SummarizeStream(bytes.NewReader(rec[:len(rec)-40]))
	if err != nil || sum.Complete || sum.Damage == nil || sum.Rounds != jsntest.Turns-1 {
		t.Errorf("cut: %v, %+v", err, sum)
	}
}
