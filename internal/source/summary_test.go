package source

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	cf2vectors "github.com/rewind-game/rewind/games/colorfight2/vectors"
	"github.com/rewind-game/rewind/internal/conform"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

func summarize(t *testing.T, b []byte) *Summary {
	t.Helper()
	s, err := Summarize(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// lastFrame decodes every frame of a .cfr and returns the last.
func lastFrame(t *testing.T, b []byte) (colorfight2.Frame, int) {
	t.Helper()
	s, err := cfrimport.OpenFrames(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var f colorfight2.Frame
	n := testutil.EachFrame(t, &f, s.Next, nil)
	return f, n
}

// TestSummaryCFR: a real replay is complete; its leader is the player with
// the most gold in the last frame; a truncated copy is incomplete with the
// whole frames before the cut; a game stopped early says so.
func TestSummaryCFR(t *testing.T) {
	type leader struct {
		name    string
		gold    int64
		players int
	}
	want := map[string]leader{
		"c04.cfr":                   {"bot4_greedy", 591533, 8},
		"RuntimeTerrorsVictory.cfr": {"RuntimeTerrors", 648787, 6},
	}
	var b []byte
	for _, p := range append([]string{"../../testdata/conformance/c04.cfr"}, testutil.RealWorldOptional(t)...) {
		w, ok := want[filepath.Base(p)]
		if !ok {
			continue
		}
		var err error
		if b, err = os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
		s := summarize(t, b)
		if !s.Complete || s.Damage != nil || s.Rounds != 500 || s.EndedEarly() || s.Status() != "complete" {
			t.Fatalf("%s: summary %+v, status %q", p, s, s.Status())
		}
		if s.PlayerName(s.Winner) != w.name || s.WinnerScore != w.gold || len(s.Players) != w.players {
			t.Fatalf("%s: leader %d %q %d, players %+v", p, s.Winner, s.PlayerName(s.Winner), s.WinnerScore, s.Players)
		}
	}

	// Cut the decompressed JSON in the middle.
	raw := testutil.Gunzip(t, b)
	cut := raw[:len(raw)/2]
	s := summarize(t, cut)
	_, whole := lastFrame(t, raw)
	if s.Complete || s.Damage == nil || s.Rounds < 100 || s.Rounds >= whole-1 || !strings.HasPrefix(s.Status(), "incomplete: ") {
		t.Fatalf("truncated: %+v, status %q", s, s.Status())
	}

	// Re-encode the first 201 frames of c06 (max_turn 200 → write 101).
	c06 := testutil.ReadFile(t, "../../testdata/conformance/c06.cfr")
	d, err := cfr.NewDecoder(gzipReader(t, c06))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	enc, err := cfr.NewJSONEncoder(&out, d.Header())
	if err != nil {
		t.Fatal(err)
	}
	var f colorfight2.Frame
	for i := 0; i <= 101; i++ {
		if err := d.Next(&f); err != nil {
			t.Fatal(err)
		}
		if err := enc.WriteFrame(&f); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	s = summarize(t, out.Bytes())
	if !s.Complete || s.Rounds != 101 || !s.EndedEarly() || s.Status() != "ended at turn 101 of 200" {
		t.Fatalf("early end: %+v, status %q", s, s.Status())
	}

	if _, err := Summarize(strings.NewReader("hello")); err == nil {
		t.Fatal("not a replay summarized")
	}
}

func gzipReader(t *testing.T, b []byte) io.Reader {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

// TestSummaryRWD: a recorded game is complete with its footer's winner; a
// recording cut short (a killed process) is incomplete with its whole
// rounds counted.
func TestSummaryRWD(t *testing.T) {
	vs, err := conform.Find([]string{"../../testdata/conformance/c06.cfr"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := cf2vectors.Load(vs[0].Input, vs[0].Expected)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := cfrimport.RecordVector(g, &buf, created, "t"); err != nil {
		t.Fatal(err)
	}
	s := summarize(t, buf.Bytes())
	if !s.Complete || s.Rounds != 200 || !s.Created.Equal(created) || s.Format != RWD || len(s.Players) != 3 {
		t.Fatalf("summary %+v", s)
	}
	// Created reads the same time from the file's header alone; an
	// official file, and a missing one, record none.
	rwd := filepath.Join(t.TempDir(), "c06.rwd")
	if err := os.WriteFile(rwd, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if at := Created(rwd); !at.Equal(created) {
		t.Errorf("Created = %v, want %v", at, created)
	}
	if at := Created(vs[0].Expected); !at.IsZero() {
		t.Errorf("Created of %s = %v, want none", vs[0].Expected, at)
	}
	if at := Created(rwd + ".absent"); !at.IsZero() {
		t.Errorf("Created of a missing file = %v", at)
	}
	// The leader agrees with the official replay's last frame.
	c06, _ := os.ReadFile(vs[0].Expected)
	last, _ := lastFrame(t, c06)
	best := last.Users[0]
	for _, u := range last.Users {
		if u.Gold > best.Gold {
			best = u
		}
	}
	if s.Winner != int(best.UID) || s.WinnerScore != best.Gold {
		t.Fatalf("leader %d %d, last frame %d %d", s.Winner, s.WinnerScore, best.UID, best.Gold)
	}
	cut := buf.Bytes()[:buf.Len()*2/3]
	s = summarize(t, cut)
	if s.Complete || !errors.Is(s.Damage, replay.ErrTruncated) || s.Rounds == 0 || s.Rounds >= 200 {
		t.Fatalf("cut recording: %+v", s)
	}
}
