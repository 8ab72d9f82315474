// Package report renders an analysis as one self-contained HTML page:
// go-echarts line charts of gold, energy, cells and tax per player over
// time, and the event list. Everything the page needs, ECharts included,
// is inlined, so it opens from disk with no network.
//
// Player names are untrusted: they reach the page only HTML-escaped (in
// markup) or as JSON with <, > and & escaped (in scripts).
package report

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/internal/assets"
)

// Chart names one chart of the report.
type Chart struct {
	ID     string
	Title  string
	Option template.JS // ECharts option, JSON with HTML-sensitive characters escaped
}

// Palette is the players' colours: the player at index i of
// Analysis.Players is drawn in Palette[i % len(Palette)], in these charts
// and on the viewer's board.
var Palette = []string{
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#17becf", "#bcbd22", "#393b79", "#ad494a", "#637939",
}

// metrics are the charted series.
var metrics = []struct {
	id, title string
	value     func(r *analysis.Round) int64
}{
	{"gold", "Gold", func(r *analysis.Round) int64 { return r.Gold }},
	{"energy", "Energy", func(r *analysis.Round) int64 { return r.Energy }},
	{"cells", "Cells", func(r *analysis.Round) int64 { return r.Cells }},
	{"tax", "Tax per round", func(r *analysis.Round) int64 { return r.Tax }},
}

// Charts builds the four go-echarts line charts of a, one series per
// player, as options ready to embed.
func Charts(a *analysis.Analysis) ([]Chart, error) {
	turns := make([]int, a.Rounds)
	for i := range turns {
		turns[i] = i + 1
	}
	var out []Chart
	for _, m := range metrics {
		line := charts.NewLine()
		line.SetGlobalOptions(
			charts.WithTitleOpts(opts.Title{Title: m.title}),
			charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
			charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "30"}),
			charts.WithXAxisOpts(opts.XAxis{Name: "turn"}),
			charts.WithGridOpts(opts.Grid{Top: "80"}),
			charts.WithAnimation(false),
			charts.WithColorsOpts(colors(len(a.Players))),
		)
		line.SetXAxis(turns)
		for _, p := range a.Players {
			data := make([]opts.LineData, len(p.Series))
			for i := range p.Series {
				data[i] = opts.LineData{Value: m.value(&p.Series[i])}
			}
			line.AddSeries(fmt.Sprintf("%d %s", p.UID, p.Username), data, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}))
		}
		line.Validate()
		// json.Marshal escapes <, > and & so no name can close the script.
		b, err := json.Marshal(line.JSON())
		if err != nil {
			return nil, fmt.Errorf("report: chart %s: %w", m.id, err)
		}
		out = append(out, Chart{ID: m.id, Title: m.title, Option: template.JS(b)})
	}
	return out, nil
}

// colors is the palette extended to n players.
func colors(n int) opts.Colors {
	c := make(opts.Colors, max(n, 1))
	for i := range c {
		c[i] = Palette[i%len(Palette)]
	}
	return c
}

type eventRow struct {
	Turn int
	Text string
}

type page struct {
	Title   string
	Summary string
	Ranking []analysis.Standing
	Charts  []Chart
	Events  []eventRow
	ECharts template.JS
	Version string
}

var tpl = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; }
td, th { padding: 2px 10px; text-align: right; }
td.name, th.name { text-align: left; }
.chart { width: 100%; max-width: 1100px; height: 380px; margin: 1em 0; }
.events { max-height: 24em; overflow: auto; font-size: 90%; }
</style>
<script>/* Apache ECharts {{.Version}}, Apache License 2.0 */
{{.ECharts}}</script>
</head>
<body>
<h1>{{.Title}}</h1>
<p>{{.Summary}}</p>
<table data-testid="ranking">
<tr><th>rank</th><th>uid</th><th class="name">player</th><th class="name">bot</th><th>gold</th><th>cells</th><th>energy</th></tr>
{{range .Ranking}}<tr><td>{{.Rank}}</td><td>{{.UID}}</td><td class="name">{{.Username}}</td><td class="name">{{.Bot}}</td><td>{{.Gold}}</td><td>{{.Cells}}</td><td>{{.Energy}}</td></tr>
{{end}}</table>
{{range .Charts}}<div class="chart" id="chart-{{.ID}}" data-testid="chart"></div>
<script>echarts.init(document.getElementById("chart-{{.ID}}")).setOption({{.Option}});</script>
{{end}}
<h2>Events</h2>
<div class="events" data-testid="events"><table>
{{range .Events}}<tr><td>{{.Turn}}</td><td class="name">{{.Text}}</td></tr>
{{end}}</table></div>
</body>
</html>
`))

// Write renders the report of a (titled title) to w.
func Write(w io.Writer, a *analysis.Analysis, title string) error {
	cs, err := Charts(a)
	if err != nil {
		return err
	}
	name := func(uid int) string {
		if p := a.Player(uid); p != nil {
			return p.Username
		}
		return fmt.Sprintf("player %d", uid)
	}
	p := page{Title: title, Ranking: a.Summary.Ranking, Charts: cs, Version: assets.EChartsVersion(),
		ECharts: template.JS(assets.ECharts())}
	if len(a.Summary.Ranking) > 0 {
		p.Summary = fmt.Sprintf("%s replay, %dx%d, %d rounds. Winner %s by %d gold, in the lead for good since turn %d.",
			a.Format, a.Config.Width, a.Config.Height, a.Rounds, name(a.Summary.Winner), a.Summary.Margin, a.Summary.LeadSince)
	}
	for _, e := range a.Events {
		p.Events = append(p.Events, eventRow{Turn: e.Turn, Text: describe(e, name)})
	}
	return tpl.Execute(w, p)
}

func describe(e analysis.Event, name func(int) string) string {
	switch e.Kind {
	case analysis.EventHomeCaptured:
		return fmt.Sprintf("%s loses its home to %s", name(e.UID), name(e.Other))
	case analysis.EventDied:
		return fmt.Sprintf("%s is eliminated", name(e.UID))
	case analysis.EventTechUp:
		return fmt.Sprintf("%s reaches tech level %d", name(e.UID), e.Value)
	case analysis.EventLeadChange:
		return fmt.Sprintf("%s takes the gold lead (%d gold)", name(e.UID), e.Value)
	case analysis.EventTaxBracket:
		return fmt.Sprintf("%s enters tax bracket %d with %d cells", name(e.UID), e.Other, e.Value)
	case analysis.EventBuildingBracket:
		return fmt.Sprintf("%s enters building tax bracket %d with %d mines and wells", name(e.UID), e.Other, e.Value)
	}
	return strings.ReplaceAll(e.Kind, "_", " ")
}
