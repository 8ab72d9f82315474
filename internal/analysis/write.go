package analysis

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/rewind-game/rewind/engine"
)

// AnalysisName is the "analysis" field of an analysis's
// JSON, which tells it apart from the per-game ones.
const AnalysisName = "generic"

type eventJSON struct {
	Event
	Text string `json:"text"`
}

// WriteJSON writes the analysis as one JSON object; the schema is in
// docs/analysis-json.md ("Any game (generic)"). Keys are in a fixed
// order and nothing depends on map iteration: the same analysis gives the
// same bytes.
func (g *Analysis) WriteJSON(w io.Writer) error {
	j := &jsonWriter{w: bufio.NewWriterSize(w, 64<<10)}
	m := &g.Meta
	j.raw("{")
	j.key("analysis", true)
	j.value(AnalysisName)
	j.key("game", false)
	j.value(m.Ruleset)
	j.key("ruleset_version", false)
	j.value(m.RulesetVersion)
	j.key("format", false)
	j.value(m.Format)
	j.key("label", false)
	j.value(m.Label)
	j.key("sequential", false)
	j.value(m.Sequential)
	j.key("config", false)
	settings := m.Settings
	if settings == nil {
		settings = [][2]string{}
	}
	j.value(struct {
		MaxTurns int         `json:"max_turns"`
		Seed     uint64      `json:"seed"`
		Seeded   bool        `json:"seeded"`
		Settings [][2]string `json:"settings"`
	}{m.MaxTurns, m.Seed, m.Seeded, settings})
	j.key("turns", false)
	j.value(g.Turns)
	j.key("commands_known", false)
	j.value(g.CommandsKnown)
	j.key("resimulated", false)
	j.value(m.Resimulated)
	if g.Truncated != nil {
		j.key("truncated", false)
		j.value(g.Truncated.Error())
	}
	j.key("metrics", false)
	jsonArray(j, m.Metrics, func(mt engine.Metric) {
		j.value(struct {
			Name         string `json:"name"`
			Unit         string `json:"unit"`
			Kind         string `json:"kind"`
			FromCommands bool   `json:"from_commands,omitempty"`
		}{mt.Name, mt.Unit, mt.Kind.String(), mt.FromCommands})
	})
	j.key("score", false)
	if s := g.Score(); s >= 0 {
		j.value(m.Metrics[s].Name)
	} else {
		j.value("")
	}
	j.key("event_kinds", false)
	jsonArray(j, m.EventKinds, func(k engine.EventKind) {
		j.value(struct {
			Name string `json:"name"`
			Text string `json:"text"`
		}{k.Name, k.Text})
	})
	j.key("players", false)
	jsonArray(j, g.Players, func(p Player) {
		j.value(struct {
			Player int    `json:"player"`
			Seat   int    `json:"seat"`
			Name   string `json:"name"`
			Bot    string `json:"bot"`
		}{p.Player, engine.Seat(p.Player), p.Name, p.Bot})
	})
	j.key("ranking", false)
	j.ints(intsToInt64(g.Ranking))
	j.key("winner", false)
	j.value(g.Winner())
	j.key("lead_since", false)
	j.value(g.LeadSince)
	j.key("summary", false)
	jsonArray(j, g.Ranking, func(p int) { g.writePlayerJSON(j, &g.Players[p]) })
	j.key("events", false)
	jsonArray(j, g.Events, func(e Event) { j.value(eventJSON{e, g.EventText(e, g.Name)}) })
	j.key("events_dropped", false)
	j.value(g.EventsDropped)
	writeReplyTimesJSON(j, g.ReplyTimes)
	j.key("leader", false)
	j.ints(intsToInt64(g.Leader))
	if m.Sequential {
		j.key("active", false)
		j.ints(intsToInt64(g.Active))
		j.key("round_frames", false)
		j.ints(intsToInt64(g.RoundFrames()))
	}
	j.key("series", false)
	jsonArray(j, g.Series, func(s Series) {
		j.raw("{")
		j.key("name", true)
		j.value(s.Metric.Name)
		j.key("unit", false)
		j.value(s.Metric.Unit)
		j.key("kind", false)
		j.value(s.Metric.Kind.String())
		j.key("values", false)
		jsonArray(j, s.Values, j.ints)
		j.raw("}")
	})
	j.raw("}\n")
	if j.err != nil {
		return j.err
	}
	return j.w.Flush()
}

// writePlayerJSON writes one entry of the JSON's summary.
func (g *Analysis) writePlayerJSON(j *jsonWriter, p *Player) {
	j.raw("{")
	j.key("rank", true)
	j.value(p.Rank)
	j.key("player", false)
	j.value(p.Player)
	j.key("seat", false)
	j.value(engine.Seat(p.Player))
	j.key("name", false)
	j.value(p.Name)
	j.key("bot", false)
	j.value(p.Bot)
	j.key("own_turns", false)
	j.value(p.OwnTurns)
	j.key("commands", false)
	j.value(p.Commands)
	j.key("rejected", false)
	j.value(p.Rejected)
	j.key("faults", false)
	j.value(p.Faults)
	j.key("metrics", false)
	j.raw("{")
	for i, mt := range g.Meta.Metrics {
		ms := p.Metrics[i]
		j.key(mt.Name, i == 0)
		j.raw("{")
		j.key("final", true)
		j.value(ms.Final)
		if mt.Kind == engine.Gauge {
			j.key("peak", false)
			j.value(ms.Peak)
			j.key("peak_turn", false)
			j.value(ms.PeakTurn)
		}
		j.raw("}")
	}
	j.raw("}}")
}

func intsToInt64(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// CSVColumns returns the header of WriteCSV: rank, player, name,
// bot, own_turns, commands, rejected, faults, then per metric in order
// its final value (headed by its name) and, for a gauge, <name>_peak and
// <name>_peak_turn.
func (g *Analysis) CSVColumns() []string {
	cols := []string{"rank", "player", "name", "bot", "own_turns", "commands", "rejected", "faults"}
	for _, mt := range g.Meta.Metrics {
		cols = append(cols, mt.Name)
		if mt.Kind == engine.Gauge {
			cols = append(cols, mt.Name+"_peak", mt.Name+"_peak_turn")
		}
	}
	return cols
}

// WriteCSV writes the summary: a header row (CSVColumns), then one
// row per player in ranking order. Names are quoted per RFC 4180, a
// leading = + - @ prefixed with '.
func (g *Analysis) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var b []byte
	for i, c := range g.CSVColumns() {
		if i > 0 {
			b = append(b, ',')
		}
		b = csvField(b, c)
	}
	b = append(b, '\n')
	for _, pi := range g.Ranking {
		p := &g.Players[pi]
		b = strconv.AppendInt(b, int64(p.Rank), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(p.Player), 10)
		b = append(b, ',')
		b = csvField(b, p.Name)
		b = append(b, ',')
		b = csvField(b, p.Bot)
		for _, v := range []int64{int64(p.OwnTurns), p.Commands, p.Rejected, int64(p.Faults)} {
			b = append(b, ',')
			b = strconv.AppendInt(b, v, 10)
		}
		for i, mt := range g.Meta.Metrics {
			ms := p.Metrics[i]
			b = append(b, ',')
			b = strconv.AppendInt(b, ms.Final, 10)
			if mt.Kind == engine.Gauge {
				b = append(b, ',')
				b = strconv.AppendInt(b, ms.Peak, 10)
				b = append(b, ',')
				b = strconv.AppendInt(b, int64(ms.PeakTurn), 10)
			}
		}
		b = append(b, '\n')
	}
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteSeriesCSV writes the series as SeriesCSV lays them out for a
// game without a document (analysisCSV): a header row (turn, player,
// name, then one column per metric in order), then one row per player
// per frame, turn 0..Turns, players in order within a turn.
func (g *Analysis) WriteSeriesCSV(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	l := analysisCSV(&g.Meta, len(g.Players))
	b := []byte(l.Head)
	for i := range g.Series {
		b = append(b, ',')
		b = append(b, l.Columns[i]...)
	}
	b = append(b, '\n')
	for t := l.First; t <= g.Turns; t++ {
		for p := range g.Players {
			b = strconv.AppendInt(b, int64(t), 10)
			b = append(b, ',')
			b = append(b, l.Keys[p]...)
			for _, s := range g.Series {
				b = append(b, ',')
				b = strconv.AppendInt(b, s.Values[p][t], 10)
			}
			b = append(b, '\n')
			if _, err := bw.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteTable writes the ranking with every player's seat (engine.Seat),
// its final metric values,
// commands sent and rejected and faults, the outcome (Outcome), and the
// first MaxTableEvents events. Names are always quoted (strconv.Quote),
// so no control character reaches the terminal.
func (g *Analysis) WriteTable(w io.Writer) error {
	bw := bufio.NewWriter(w)
	m := &g.Meta
	turns := "turns"
	if m.Sequential {
		turns = "player-turns"
	}
	fmt.Fprintf(bw, "%s replay (%s), %d players, %d %s\n", strconv.Quote(m.Ruleset), strconv.Quote(m.Format), len(g.Players), g.Turns, turns)
	if m.Label != "" {
		fmt.Fprintln(bw, strconv.Quote(m.Label))
	}
	if g.Truncated != nil {
		fmt.Fprintf(bw, "cut short: %s\n", strconv.Quote(g.Truncated.Error()))
	}
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "rank\tseat\tname\t")
	for _, mt := range m.Metrics {
		fmt.Fprintf(tw, "%s\t", printable(mt.Name))
	}
	fmt.Fprintln(tw, "commands\trejected\tfaults\t")
	for _, pi := range g.Ranking {
		p := &g.Players[pi]
		fmt.Fprintf(tw, "%d\t%d\t%s\t", p.Rank, engine.Seat(p.Player), strconv.Quote(p.Name))
		for _, ms := range p.Metrics {
			fmt.Fprintf(tw, "%d\t", ms.Final)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t\n", knownCount(p.Commands), knownCount(p.Rejected), p.Faults)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	quoted := func(p int) string {
		if p == -1 {
			return g.Name(p)
		}
		return strconv.Quote(g.Name(p))
	}
	fmt.Fprintln(bw, g.Outcome(quoted))
	writeReplyTimesTable(bw, g.ReplyTimes, quoted)
	writeEventTable(bw, len(g.Events)+g.EventsDropped, len(g.Events), func(i int) (int, string) {
		return g.Events[i].Turn, printable(g.EventText(g.Events[i], quoted))
	})
	return bw.Flush()
}

// printable replaces the control characters of s (a kind or metric name
// a stream supplied) with '?', so the text table cannot move the
// terminal's cursor; quoted names have none left.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '?'
		}
		return r
	}, s)
}

// knownCount is v, or "-" for -1 (not known).
func knownCount(v int64) string {
	if v < 0 {
		return "-"
	}
	return strconv.FormatInt(v, 10)
}
