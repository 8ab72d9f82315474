// Package report renders an analysis as one self-contained HTML page:
// go-echarts line charts per player over time (for a game with its own
// document, the metrics it names, engine.Document.Charts; for any other
// game, one chart per metric of its analysis: Page), the
// ranking and the event list. Everything the page needs, ECharts included,
// is inlined, and its Content-Security-Policy forbids any request, so it
// opens from disk with no network. The page is the templ component
// templates.Report.
//
// Player names are untrusted: they reach the page only HTML-escaped (in
// markup, by templ) or as JSON with <, > and & escaped (in the charts'
// non-executable JSON script element).
package report

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/assets"
	"github.com/rewind-game/rewind/internal/templates"
)

// Chart is one chart of the report (and of the viewer's replay page): its
// id, title and ECharts option as JSON.
type Chart = templates.Chart

// Palette is the players' colours: the player at index i of
// Document.Players is drawn in Palette[i % len(Palette)], in these charts
// and on the viewer's board.
var Palette = []string{
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#17becf", "#bcbd22", "#393b79", "#ad494a", "#637939",
}

// DocumentCharts builds the go-echarts line charts of a's document
// (engine.Document.DocumentCharts), one series per player, as options ready to
// embed.
func DocumentCharts(a *analysis.Document) ([]Chart, error) {
	turns := make([]int, a.Rounds)
	for i := range turns {
		turns[i] = i + 1
	}
	names := make([]string, len(a.Players))
	for i, p := range a.Players {
		names[i] = DocumentSeriesName(a, p.UID)
	}
	var out []Chart
	for _, m := range a.Doc.Charts {
		c, err := lineChart(m[0], m[1], "turn", turns, names, func(pl int) []opts.LineData {
			v := a.Values(a.Players[pl].UID, m[0])
			data := make([]opts.LineData, len(v))
			for i, x := range v {
				data[i] = opts.LineData{Value: x}
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

// lineChart builds one chart: x the values of the x axis (named axis),
// a series per player named names[p] with the values data(p).
func lineChart(id, title, axis string, x []int, names []string, data func(p int) []opts.LineData) (Chart, error) {
	line := charts.NewLine()
	line.SetGlobalOptions(
		charts.WithTitleOpts(opts.Title{Title: title}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		// One line of legend that pages (scroll): with 8 long names a
		// wrapped legend would cover the plot on a narrow chart.
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "30", Type: "scroll"}),
		charts.WithXAxisOpts(opts.XAxis{Name: axis}),
		charts.WithGridOpts(opts.Grid{Top: "70", Left: "10", Right: "40", ContainLabel: opts.Bool(true)}),
		charts.WithAnimation(false),
		charts.WithColorsOpts(colors(len(names))),
	)
	line.SetXAxis(x)
	for p, n := range names {
		line.AddSeries(n, data(p), charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}))
	}
	line.Validate()
	// json.Marshal escapes <, > and & so no name can close a script.
	b, err := json.Marshal(line.JSON())
	if err != nil {
		return Chart{}, fmt.Errorf("report: chart %s: %w", id, err)
	}
	return Chart{ID: id, Title: title, Option: b}, nil
}

// DocumentSeriesName is how player uid is named in the charts' legends and
// tooltips: its name (analysis.(*Document).Name), followed by " #uid"
// only when another player has the same name (legends tell series apart
// by name). The viewer's stats chart uses it too (its manifest's label).
func DocumentSeriesName(a *analysis.Document, uid int) string {
	n := a.Name(uid)
	for _, p := range a.Players {
		if p.UID != uid && a.Name(p.UID) == n {
			return fmt.Sprintf("%s #%d", n, uid)
		}
	}
	return n
}

// colors is the palette extended to n players.
func colors(n int) opts.Colors {
	c := make(opts.Colors, max(n, 1))
	for i := range c {
		c[i] = Palette[i%len(Palette)]
	}
	return c
}

// newPage is a report page titled title with the charts cs and ECharts
// inlined (checked that it cannot close its script), its ranking table's
// columns begun with the player's (rank, seat, name, bot); err, the
// error of making cs, is returned as it is.
func newPage(title string, cs []Chart, err error) (templates.ReportPage, error) {
	if err != nil {
		return templates.ReportPage{}, err
	}
	ech := string(assets.ECharts())
	if l := strings.ToLower(ech); strings.Contains(l, "</script") || strings.Contains(l, "<!--") {
		return templates.ReportPage{}, fmt.Errorf("report: ECharts cannot be inlined: it contains a closing tag or comment opener")
	}
	return templates.ReportPage{Title: title, Charts: cs, ECharts: ech, EChartsVersion: assets.EChartsVersion(),
		Columns: []templates.ReportColumn{{Title: "rank"}, {Title: "seat"}, {Title: "name", Name: true}, {Title: "bot", Name: true}}}, nil
}

// render writes the page p to w, or returns err (the error of making p).
func render(w io.Writer, p templates.ReportPage, err error) error {
	if err != nil {
		return err
	}
	return templates.Report(p).Render(context.Background(), w)
}

// DocumentPage is the report of a, titled title, as the data of templates.Report.
func DocumentPage(a *analysis.Document, title string) (templates.ReportPage, error) {
	cs, err := DocumentCharts(a)
	p, err := newPage(title, cs, err)
	if err != nil {
		return p, err
	}
	for _, c := range a.Doc.Table {
		p.Columns = append(p.Columns, templates.ReportColumn{Title: c[0]})
	}
	for _, s := range a.Summary.Ranking {
		row := []string{strconv.Itoa(s.Rank), strconv.Itoa(s.UID), s.Username, s.Bot}
		for _, c := range a.Doc.Table {
			v, _ := s.Get(c[1])
			row = append(row, strconv.FormatInt(v, 10))
		}
		p.Rows = append(p.Rows, row)
	}
	if len(a.Summary.Ranking) > 0 {
		st := a.FirstPlace()
		p.Summary = fmt.Sprintf("%s replay, %s, %d rounds. %s by %d %s",
			a.Format, a.ConfigText(), a.Rounds, strings.ToUpper(st[:1])+st[1:], a.Summary.Margin, a.Unit())
		if a.Summary.LeadSince > 0 {
			p.Summary += fmt.Sprintf(", in the lead for good since turn %d", a.Summary.LeadSince)
		}
		p.Summary += "."
	}
	count := map[string]int{}
	var order []string
	for _, e := range a.Events {
		if ge, ok := a.AnalysisEvent(e); ok && !ge.Shell && count[e.Kind] == 0 {
			order = append(order, e.Kind)
		}
		count[e.Kind]++
		p.Events = append(p.Events, templates.ReportEvent{Turn: e.Turn, Kind: e.Kind, Text: a.EventText(e, a.Name), Folded: !a.ShownAtFirst(e)})
	}
	for _, e := range a.TurningPoints() {
		p.TurningPoints = append(p.TurningPoints, templates.ReportEvent{Turn: e.Turn, Kind: e.Kind, Text: a.EventText(e, a.Name), Explain: a.Explain(e, a.Name)})
	}
	p.Kinds = kindList(a.G, count, order)
	return p, nil
}

// WriteDocument renders the report of a (titled title) to w.
func WriteDocument(w io.Writer, a *analysis.Document, title string) error {
	p, err := DocumentPage(a, title)
	return render(w, p, err)
}
