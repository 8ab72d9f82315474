package report

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/opts"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/internal/assets"
	"github.com/rewind-game/rewind/templates"
)

// The report of a Monad game: the same page (templates.Report) filled
// from an analysis.MonadAnalysis: a chart per series the analysis holds
// (analysis.MonadSeriesMetrics: those a reference log cannot know are
// absent), the ranking with every player's final facts, the outcome
// sentence (MonadAnalysis.Outcome) and the events in their Text wording.

// MonadSeriesName is how player p is named in a Monad report's legends:
// its name (analysis.(*MonadAnalysis).Name), followed by " #p" only when
// another player has the same name.
func MonadSeriesName(a *analysis.MonadAnalysis, p int) string {
	n := a.Name(p)
	for q := 0; q < a.Players(); q++ {
		if q != p && a.Name(q) == n {
			return fmt.Sprintf("%s #%d", n, p)
		}
	}
	return n
}

// seriesTitle is a series' chart title: its name in words, capitalised
// ("units_produced": "Units produced").
func seriesTitle(name string) string {
	t := strings.ReplaceAll(name, "_", " ")
	if t == "" {
		return t
	}
	return strings.ToUpper(t[:1]) + t[1:]
}

// MonadCharts builds one go-echarts line chart per series of a (its id
// the series' name), turns 0..a.Turns, one line per player.
func MonadCharts(a *analysis.MonadAnalysis) ([]Chart, error) {
	turns := make([]int, a.Turns+1)
	for i := range turns {
		turns[i] = i
	}
	names := make([]string, a.Players())
	for p := range names {
		names[p] = MonadSeriesName(a, p)
	}
	var out []Chart
	for _, s := range a.Series {
		c, err := lineChart(s.Metric.Name, seriesTitle(s.Metric.Name), turns, names, func(p int) []opts.LineData {
			var vs []int64
			if p < len(s.Values) {
				vs = s.Values[p]
			}
			data := make([]opts.LineData, len(vs))
			for i, v := range vs {
				data[i] = opts.LineData{Value: v}
			}
			return data
		})
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// MonadPage is the report of a (a whole analysis, series and events
// included), titled title, as the data of templates.Report.
func MonadPage(a *analysis.MonadAnalysis, title string) (templates.ReportPage, error) {
	cs, err := MonadCharts(a)
	if err != nil {
		return templates.ReportPage{}, err
	}
	ech, err := inlineECharts()
	if err != nil {
		return templates.ReportPage{}, err
	}
	p := templates.ReportPage{Title: title, Charts: cs, ECharts: ech, EChartsVersion: assets.EChartsVersion()}
	p.Columns = []templates.ReportColumn{{Title: "rank"}, {Title: "player"}, {Title: "name", Name: true}, {Title: "bot", Name: true},
		{Title: "resources"}, {Title: "units"}, {Title: "hives"}, {Title: "cells"}}
	counters := a.Meta != nil && a.Meta.Counters
	if counters {
		p.Columns = append(p.Columns, templates.ReportColumn{Title: "produced"}, templates.ReportColumn{Title: "lost"}, templates.ReportColumn{Title: "rejected"})
	}
	final := make([]monad.PlayerStats, a.Players())
	copy(final, a.Final)
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, r := range monad.RankStats(final) {
		s, bot := &final[r.Player], ""
		if a.Meta != nil && r.Player < len(a.Meta.Bots) {
			bot = a.Meta.Bots[r.Player]
		}
		row := []string{strconv.Itoa(r.Rank), strconv.Itoa(r.Player), a.Name(r.Player), bot,
			i64(s.Resources), i64(s.Units), strconv.Itoa(s.Hives), strconv.Itoa(s.Cells)}
		if counters {
			row = append(row, i64(s.UnitsProduced), i64(s.UnitsLost), i64(s.Rejected))
		}
		p.Rows = append(p.Rows, row)
	}
	if a.Players() > 0 {
		format := ""
		if a.Meta != nil {
			format = " (" + string(a.Meta.Format) + ")"
		}
		p.Summary = fmt.Sprintf("Monad replay%s, %d players, %d turns: %s.", format, a.Players(), a.Turns, a.Outcome(a.Name))
		if a.EventsDropped > 0 {
			p.Summary += fmt.Sprintf(" %d more events were not kept.", a.EventsDropped)
		}
	}
	for _, e := range a.Events {
		p.Events = append(p.Events, templates.ReportEvent{Turn: e.Turn, Kind: e.Kind, Text: e.Text(a.Name)})
	}
	return p, nil
}

// WriteMonad renders the report of a Monad analysis a (titled title) to w.
func WriteMonad(w io.Writer, a *analysis.MonadAnalysis, title string) error {
	p, err := MonadPage(a, title)
	if err != nil {
		return err
	}
	return templates.Report(p).Render(context.Background(), w)
}
