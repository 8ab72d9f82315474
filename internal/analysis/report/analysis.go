package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/opts"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/templates"
)

// The report of any game from its analysis (analysis.Analysis):
// the same self-contained page (templates.Report), with one chart per
// metric the ruleset declares, the summary table (rank, the final value
// of every metric, commands sent and rejected, faults), the outcome
// sentence (Analysis.Outcome) and every event in its Analysis.EventText
// wording, filterable by kind.

// SeriesName is how player p is named in a report's
// legends: its name (analysis.(*Analysis).Name), followed by " #p" only
// when another player has the same name.
func SeriesName(g *analysis.Analysis, p int) string {
	n := g.Name(p)
	for q := range g.Players {
		if q != p && g.Name(q) == n {
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

// metricTitle is a metric's chart title: its name in words, and its
// unit when that says more ("units_lost" in "units": "Units lost (units)").
func metricTitle(m engine.Metric) string {
	t := seriesTitle(m.Name)
	if m.Unit != "" && m.Unit != m.Name {
		t += " (" + m.Unit + ")"
	}
	return t
}

// Charts builds one go-echarts line chart per series of g (its id
// the metric's name), one line per player. The x axis is the turn,
// frames 0..Turns; for a Sequential game it is the round, the series
// sampled at Analysis.RoundFrames (the game after each full cycle of the
// players).
func Charts(g *analysis.Analysis) ([]Chart, error) {
	frames := g.RoundFrames()
	axis := "turn"
	if g.Meta.Sequential {
		axis = "round"
	}
	x := make([]int, len(frames))
	for i := range x {
		x[i] = i
	}
	if !g.Meta.Sequential {
		copy(x, frames)
	}
	names := make([]string, len(g.Players))
	for p := range names {
		names[p] = SeriesName(g, p)
	}
	var out []Chart
	for _, s := range g.Series {
		title := metricTitle(s.Metric)
		c, err := lineChart(s.Metric.Name, title, axis, x, names, func(p int) []opts.LineData {
			data := make([]opts.LineData, 0, len(frames))
			if p < len(s.Values) {
				for _, f := range frames {
					if f < len(s.Values[p]) {
						data = append(data, opts.LineData{Value: s.Values[p][f]})
					}
				}
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

// shellKindTitles are the titles of the events the analysis derives, in
// the order the filter shows them after the game's own kinds.
var shellKindTitles = []struct{ Kind, Title string }{
	{analysis.EventBotFault, "bot faults"},
	{analysis.EventCommandErrors, "rejected commands"},
	{analysis.EventLeadSwing, "lead swings"},
	{analysis.EventLeadForGood, "lead for good"},
	{analysis.EventLeadChange, "lead changes"},
}

// kindList lists the kinds of g's events that occur (count), for the
// report's filter: the game's declared kinds in its order, then any
// other it reported (order), then the analysis's (its surges by their
// titles, engine.Surge).
func kindList(g *analysis.Analysis, count map[string]int, order []string) []templates.ReportKind {
	var out []templates.ReportKind
	seen := map[string]bool{}
	add := func(kind, title string) {
		if count[kind] > 0 && !seen[kind] {
			seen[kind] = true
			out = append(out, templates.ReportKind{Kind: kind, Title: title, Count: count[kind]})
		}
	}
	for _, k := range g.Meta.EventKinds {
		add(k.Name, strings.ReplaceAll(k.Name, "_", " "))
	}
	for _, k := range order {
		add(k, strings.ReplaceAll(k, "_", " "))
	}
	for _, m := range g.Meta.Metrics {
		if m.Surge.Event != "" {
			add(m.Surge.Event, m.Surge.Title)
		}
	}
	for _, k := range shellKindTitles {
		add(k.Kind, k.Title)
	}
	return out
}

// Page is the report of g (a whole analysis, series and events
// included), titled title, as the data of templates.Report. The lead
// changes after the opening (analysis.EarlyLeadTurns) are folded, as in
// the ColorfightII report.
func Page(g *analysis.Analysis, title string) (templates.ReportPage, error) {
	cs, err := Charts(g)
	p, err := newPage(title, cs, err)
	if err != nil {
		return p, err
	}
	for _, m := range g.Meta.Metrics {
		p.Columns = append(p.Columns, templates.ReportColumn{Title: m.Name})
	}
	p.Columns = append(p.Columns, templates.ReportColumn{Title: "commands"}, templates.ReportColumn{Title: "rejected"}, templates.ReportColumn{Title: "faults"})
	if g.Meta.Sequential {
		p.Columns = append(p.Columns, templates.ReportColumn{Title: "own turns"})
	}
	known := func(v int64) string {
		if v < 0 {
			return "-"
		}
		return strconv.FormatInt(v, 10)
	}
	for _, pi := range g.Ranking {
		pl := &g.Players[pi]
		row := []string{strconv.Itoa(pl.Rank), strconv.Itoa(engine.Seat(pl.Player)), pl.Name, pl.Bot}
		for _, ms := range pl.Metrics {
			row = append(row, strconv.FormatInt(ms.Final, 10))
		}
		row = append(row, known(pl.Commands), known(pl.Rejected), strconv.Itoa(pl.Faults))
		if g.Meta.Sequential {
			row = append(row, strconv.Itoa(pl.OwnTurns))
		}
		p.Rows = append(p.Rows, row)
	}
	if len(g.Players) > 0 {
		turns := "turns"
		if g.Meta.Sequential {
			turns = "player-turns"
		}
		p.Summary = fmt.Sprintf("%s replay (%s), %d players, %d %s: %s.", g.Meta.Ruleset, g.Meta.Format, len(g.Players), g.Turns, turns, g.Outcome(g.Name))
		if g.Meta.Label != "" {
			p.Summary += " " + g.Meta.Label + "."
		}
		if g.Truncated != nil {
			p.Summary += " Cut short: " + g.Truncated.Error() + "."
		}
		if g.EventsDropped > 0 {
			p.Summary += fmt.Sprintf(" %d more events were not kept.", g.EventsDropped)
		}
	}
	early := analysis.EarlyLeadTurns(g.Turns)
	count := map[string]int{}
	var order []string // the game's kinds in order of first appearance
	for _, e := range g.Events {
		if !e.Shell && count[e.Kind] == 0 {
			order = append(order, e.Kind)
		}
		count[e.Kind]++
		folded := e.Shell && e.Kind == analysis.EventLeadChange && e.Turn > early
		p.Events = append(p.Events, templates.ReportEvent{Turn: e.Turn, Kind: e.Kind, Text: g.EventText(e, g.Name), Folded: folded})
	}
	p.Kinds = kindList(g, count, order)
	return p, nil
}

// Write renders the report of an analysis g (titled title)
// to w.
func Write(w io.Writer, g *analysis.Analysis, title string) error {
	p, err := Page(g, title)
	return render(w, p, err)
}
