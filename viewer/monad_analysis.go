package viewer

import (
	"fmt"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/replay/source"
)

// monadAnalysis is what the Monad page takes from the analysis
// (analysis.AnalyzeMonad, the one place Monad's aggregates are computed):
// its series and events as the manifest carries them, the players' names,
// the header's winner and why the replay ends early.
type monadAnalysis struct {
	a       *analysis.MonadAnalysis
	series  []MonadManifestSeries
	events  []MonadManifestEvent
	warning string
}

// analyzeMonad analyses src (the collector's tee) once.
func analyzeMonad(src source.MonadSource) (*monadAnalysis, error) {
	a, err := analysis.AnalyzeMonad(src)
	if err != nil {
		return nil, err
	}
	out := &monadAnalysis{a: a, series: []MonadManifestSeries{}, events: []MonadManifestEvent{}}
	for _, s := range a.Series {
		out.series = append(out.series, MonadManifestSeries{Name: s.Metric.Name, Unit: s.Metric.Unit, Kind: s.Metric.Kind.String(), Values: s.Values})
	}
	for _, e := range a.Events {
		out.events = append(out.events, MonadManifestEvent{MonadEvent: e, Text: e.Text(a.Name)})
	}
	if a.Truncated != nil {
		out.warning = fmt.Sprintf("the replay ends early after turn %d: %v", a.Turns, a.Truncated)
	}
	return out, nil
}

// monadSummary is the page header's line: game, map, turns, players and
// the analysis's winner with its hives and units at the end.
func monadSummary(mr *MonadReplay, ma *monadAnalysis) string {
	a := ma.a
	s := fmt.Sprintf("Monad · 20×20 hex · %d turns · %d players", a.Turns, len(a.Names))
	if a.Winner < 0 {
		return s + " · no sole leader at the end"
	}
	s += " · " + analysis.FirstPlace(a.Truncated != nil, "turn", a.Turns, a.Name(a.Winner))
	if h, u := a.SeriesNamed("hives"), a.SeriesNamed("units"); h != nil && u != nil {
		s += fmt.Sprintf(" with %d hives and %d units", h.Values[a.Winner][a.Turns], u.Values[a.Winner][a.Turns])
	}
	return s
}
