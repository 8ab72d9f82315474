package source

import (
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/testutil"
)

func TestSniff(t *testing.T) {
	for in, want := range map[string]Format{"RWD1\x01\x00": RWD, "\x1f\x8b\x08": "cfr", "  \n[{": "cfr", "[": "cfr"} {
		if got, err := Sniff([]byte(in)); err != nil || got != want {
			t.Errorf("Sniff(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "{}", "PK\x03\x04", "RWD"} {
		if _, err := Sniff([]byte(in)); err == nil {
			t.Errorf("Sniff(%q) accepted", in)
		}
	}
}

// TestOpenRealworld opens the real tournament replay through the
// format-independent stream and reads every frame.
func TestOpenRealworld(t *testing.T) {
	s, err := OpenStream(testutil.RealWorld(t, "RuntimeTerrorsVictory.cfr"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m := s.Meta()
	if m.Format != "cfr" || m.MaxTurns != 500 {
		t.Fatalf("meta %+v", m)
	}
	var f engine.Frame
	n := testutil.EachFrame(t, &f, s.Next, func(int) {
		if f.CommandsKnown {
			t.Fatal(".cfr stream claims a command log")
		}
	})
	if n != 501 || len(m.Players) != 6 || m.Players[4].Name != "RuntimeTerrors" {
		t.Fatalf("%d frames, players %+v", n, m.Players)
	}
}
