package analysis

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil/toyplay"
	"github.com/rewind-game/rewind/internal/toygame"
)

// TestAnalysisFromRecording: a game played by match.RunGame, recorded,
// and read back by source.OpenStream (the path `rewind analyze` takes)
// is analysed with the values of the same game played alongside, its
// events, commands and ranking; a folder of such games gives standings.
func TestAnalysisFromRecording(t *testing.T) {
	toyplay.Register()
	dir := t.TempDir()
	for _, rs := range []engine.Ruleset{toygame.Ruleset, toygame.Sequential} {
		t.Run(rs.ID(), func(t *testing.T) {
			data, res := toyplay.Record(t, rs, 3, 25)
			path := filepath.Join(dir, rs.ID()+".rwd")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := source.OpenStream(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			g, err := AnalyzeStream(s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if g.Turns != 25 || !g.CommandsKnown || g.Truncated != nil || g.Meta.Sequential != (rs == toygame.Sequential) {
				t.Fatalf("turns %d, commands %v, truncated %v, sequential %v", g.Turns, g.CommandsKnown, g.Truncated, g.Meta.Sequential)
			}
			if !reflect.DeepEqual(g.Ranking, res.Ranking) {
				t.Errorf("ranking %v, the match's %v", g.Ranking, res.Ranking)
			}
			// Replay the recorded commands through a fresh game: every
			// value at every frame, and the game's events, are the
			// analysis's.
			s2, _ := source.OpenStream(path)
			defer s2.Close()
			var f engine.Frame
			ref, _ := rs.New(3, engine.Settings{Players: 2, MaxTurns: 25})
			painted, commands := 0, int64(0)
			for tt := 0; s2.Next(&f) == nil; tt++ {
				if tt > 0 {
					ref.Round(f.Commands)
					for _, c := range f.Commands {
						commands += int64(len(c))
					}
				}
				for _, e := range f.Events {
					if e.Kind == "painted" {
						painted++
					}
				}
				for p := 0; p < 2; p++ {
					for i, v := range ref.Values(p, nil) {
						if g.Series[i].Values[p][tt] != v {
							t.Fatalf("turn %d player %d %s: %d, want %d", tt, p, g.Series[i].Metric.Name, g.Series[i].Values[p][tt], v)
						}
					}
				}
			}
			var gotPainted int
			for _, e := range g.Events {
				if e.Kind == "painted" {
					gotPainted++
					if e.Shell || g.EventText(e, g.Name) == "" {
						t.Errorf("event %+v", e)
					}
				}
			}
			if painted == 0 || gotPainted != painted {
				t.Errorf("%d painted events, the frames have %d", gotPainted, painted)
			}
			if got := g.Players[0].Commands + g.Players[1].Commands; got != commands {
				t.Errorf("%d commands counted, the frames have %d", got, commands)
			}
			if g.Players[0].Name != "1_painter" || g.Players[1].Bot != "painter" {
				t.Errorf("players %+v", g.Players)
			}
			if rs == toygame.Sequential && (g.Players[0].OwnTurns != 13 || g.Players[1].OwnTurns != 12 || len(g.RoundFrames()) != 14) {
				t.Errorf("own turns %d %d, round frames %v", g.Players[0].OwnTurns, g.Players[1].OwnTurns, g.RoundFrames())
			}
			var b bytes.Buffer
			if err := g.WriteJSON(&b); err != nil || !json.Valid(b.Bytes()) {
				t.Fatalf("JSON: %v", err)
			}
		})
	}
	// The folder, as analyze DIR reads it.
	files := AnalyzeFiles([]string{filepath.Join(dir, "toy.rwd"), filepath.Join(dir, "toyseq.rwd"), filepath.Join(dir, "none.rwd")}, 2,
		source.OpenStream, Options{}, nil)
	if files[0].Err != nil || files[1].Err != nil || files[2].Err == nil {
		t.Fatalf("files %+v", files)
	}
	st := Standings(files, "toy")
	if len(st) != 1 || st[0].Bot != "painter" || st[0].Games != 2 || st[0].Wins != 1 {
		t.Errorf("standings %+v (one bot in both seats)", st)
	}
}
