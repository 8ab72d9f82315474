package source_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/internal/testutil/toyplay"
	"github.com/rewind-game/rewind/internal/toygame"
)

func init() { toyplay.Register() }

// TestStreamFramesEqualThePlayedGame: a toy game recorded by RunGame and
// read back by OpenStream gives, frame by frame, the values, events,
// board and ranking of the same game played alongside.
func TestStreamFramesEqualThePlayedGame(t *testing.T) {
	for _, rs := range []engine.Ruleset{toygame.Ruleset, toygame.Sequential} {
		t.Run(rs.ID(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "g.rwd")
			data, res := toyplay.Record(t, rs, 3, 25)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := source.OpenStream(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			m := s.Meta()
			if m.Ruleset != rs.ID() || !m.Resimulated || m.Sequential != (rs == toygame.Sequential) || len(m.Players) != 2 ||
				m.Players[0].Name != "1_painter" || m.Players[1].Bot != "painter" || len(m.Metrics) != 2 || len(m.EventKinds) != 1 {
				t.Fatalf("meta %+v", m)
			}
			// The same game, played alongside with the same bots.
			g, _ := rs.New(3, engine.Settings{Players: 2, MaxTurns: 25})
			var f engine.Frame
			events := 0
			frames := testutil.EachFrame(t, &f, s.Next, func(frames int) {
				if frames > 0 {
					if !f.CommandsKnown {
						t.Fatalf("frame %d: commands unknown", frames)
					}
					g.Round(f.Commands)
				}
				var want engine.Frame
				source.Observe(g, &want)
				if f.Turn != frames || f.Turn != want.Turn {
					t.Fatalf("frame %d has turn %d (want %d)", frames, f.Turn, want.Turn)
				}
				for p := range want.Values {
					for k := range want.Values[p] {
						if f.Values[p][k] != want.Values[p][k] {
							t.Fatalf("turn %d player %d %s: %d, want %d", f.Turn, p, m.Metrics[k].Name, f.Values[p][k], want.Values[p][k])
						}
					}
				}
				if len(f.Events) != len(want.Events) || len(f.Board.Cells) != toygame.Size*toygame.Size || len(f.Board.Entities) != 2 {
					t.Fatalf("turn %d: %d events (want %d), %d cells, %d entities", f.Turn, len(f.Events), len(want.Events), len(f.Board.Cells), len(f.Board.Entities))
				}
				for i := range f.Board.Cells {
					if f.Board.Cells[i] != want.Board.Cells[i] {
						t.Fatalf("turn %d cell %d: %+v, want %+v", f.Turn, i, f.Board.Cells[i], want.Board.Cells[i])
					}
				}
				if m.Sequential && frames > 0 && f.Active != (frames-1)%2 {
					t.Fatalf("turn %d active %d", f.Turn, f.Active)
				}
				events += len(f.Events)
			})
			if frames != 26 || events == 0 {
				t.Fatalf("%d frames, %d events", frames, events)
			}
			if got := f.Ranking; got[0] != res.Ranking[0] {
				t.Fatalf("last frame's ranking %v, the match's %v", got, res.Ranking)
			}
		})
	}
}

// TestOpenStreamReadsCFR: an official ColorfightII .cfr is a registered
// stream format, read by OpenStream with its commands unknown (the
// analysis's) and by NewInferredStream with them inferred (the
// viewer's); a file of no format is refused.
func TestOpenStreamReadsCFR(t *testing.T) {
	const name = "../../testdata/conformance/c01.cfr"
	s, err := source.OpenStream(name)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if m := s.Meta(); m.Format != "cfr" || m.Ruleset != "colorfight2" || m.CommandsInferred {
		t.Errorf("OpenStream meta: format %q, ruleset %q, inferred %v", m.Format, m.Ruleset, m.CommandsInferred)
	}
	data := testutil.ReadFile(t, name)
	if f, ok := source.LookupStreamFormat(data[:source.SniffBytes]); !ok || f.Name != "cfr" || f.OpenInferred == nil {
		t.Errorf("LookupStreamFormat(.cfr) = %q, %v", f.Name, ok)
	}
	is, err := source.NewInferredStream(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer is.Close()
	if !is.Meta().CommandsInferred {
		t.Error("NewInferredStream: commands not inferred")
	}
	var f engine.Frame
	known := 0
	for i := 0; i < 5 && is.Next(&f) == nil; i++ {
		if f.CommandsKnown {
			known++
		}
	}
	if known == 0 {
		t.Error("NewInferredStream: no round of the first five has its commands")
	}
	if _, err := source.NewStream(strings.NewReader("hello, world"), nil); err == nil {
		t.Error("a text file opened as a replay")
	}
}

// TestStreamEnding: a registered format's endings are matched whatever
// their case, the longest first (".mp.gz", not ".gz"), and spelled as the
// name spells them; shared endings (.json) are said so and left out of
// StreamExts, which a file is taken as a replay by.
func TestStreamEnding(t *testing.T) {
	for _, c := range []struct {
		name, ext string
		shared    bool
	}{
		{"game.jsn", ".jsn", false},
		{"GAME.JSN", ".JSN", false},
		{"replay.json", ".json", true},
		{"m06.MP.gz", ".MP.gz", true},
		{"x.gz", "", false},
		{"x.rwd", "", false},
	} {
		ext, shared := source.StreamEnding(c.name)
		if ext != c.ext || shared != c.shared {
			t.Errorf("StreamEnding(%q) = %q, %v; want %q, %v", c.name, ext, shared, c.ext, c.shared)
		}
	}
	if exts := source.StreamExts(); slices.Contains(exts, ".json") || !slices.Contains(exts, ".jsn") {
		t.Errorf("StreamExts() = %v", exts)
	}
	if all := source.StreamEndings(); !slices.Contains(all, ".json") || !slices.Contains(all, ".mp.gz") {
		t.Errorf("StreamEndings() = %v", all)
	}
}
