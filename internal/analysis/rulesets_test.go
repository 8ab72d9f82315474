package analysis

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/analysis/internal/toy"
	"github.com/rewind-game/rewind/internal/source"
)

// TestAnalysisEveryRuleset analyses a short game of every registered
// ruleset through the seam (no commands: what the rules do alone) and
// checks the series against the values the game reports, frame by frame,
// and the ranking against its own.
func TestAnalysisEveryRuleset(t *testing.T) {
	const turns = 30
	for _, r := range engine.All() {
		t.Run(r.ID(), func(t *testing.T) {
			names := []string{"alice", "bob", "carol"}
			script := make([]toy.Turn, turns)
			s, err := toy.NewStream(r, names, turns+5, script)
			if err != nil {
				t.Fatal(err)
			}
			g, err := AnalyzeStream(s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			// The same game again, read frame by frame.
			ref, err := r.New(1, engine.Settings{Players: len(names), MaxTurns: turns + 5, Names: names})
			if err != nil {
				t.Fatal(err)
			}
			if g.Turns != turns || len(g.Series) != len(source.MetaOf(r, len(names)).Metrics) {
				t.Fatalf("turns %d, %d series", g.Turns, len(g.Series))
			}
			own := 0 // alice's turns: every round, or those she acts in (engine.Game.Active)
			for tt := 0; tt <= turns; tt++ {
				if tt > 0 {
					if a := ref.Active(); a < 0 || a == 0 {
						own++
					}
					ref.Round(nil)
				}
				for p := range names {
					vs := ref.Values(p, nil)
					for i := range vs {
						if got := g.Series[i].Values[p][tt]; got != vs[i] {
							t.Fatalf("turn %d player %d %s: %d, the game says %d", tt, p, g.Series[i].Metric.Name, got, vs[i])
						}
					}
				}
			}
			if !reflect.DeepEqual(g.Ranking, ref.Ranking()) {
				t.Errorf("ranking %v, the game says %v", g.Ranking, ref.Ranking())
			}
			var b bytes.Buffer
			if err := g.WriteJSON(&b); err != nil || !json.Valid(b.Bytes()) {
				t.Errorf("JSON: %v", err)
			}
			if g.Players[0].Commands != 0 || g.Players[0].OwnTurns != own {
				t.Errorf("alice %+v", g.Players[0])
			}
		})
	}
}
