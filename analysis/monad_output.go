package analysis

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
)

// MonadGame is the "game" field of a Monad analysis's JSON.
const MonadGame = "monad"

type monadPlayerJSON struct {
	Player int    `json:"player"`
	Name   string `json:"name"`
	Bot    string `json:"bot"`
}

// WriteJSON writes the analysis as one JSON object; the schema is in
// docs/analysis-json.md ("Monad").
func (a *MonadAnalysis) WriteJSON(w io.Writer) error {
	j := &jsonWriter{w: bufio.NewWriterSize(w, 64<<10)}
	m := a.Meta
	j.raw("{")
	j.key("game", true)
	j.value(MonadGame)
	j.key("format", false)
	j.value(string(m.Format))
	j.key("config", false)
	j.value(struct {
		Players   int   `json:"players"`
		MaxTurns  int   `json:"max_turns"`
		Seed      int64 `json:"seed"`
		SeedKnown bool  `json:"seed_known"`
		Uniform   bool  `json:"uniform"`
	}{a.Players(), m.Config.MaxTurns, m.Config.Seed, m.SeedKnown, m.Config.Uniform})
	j.key("turns", false)
	j.value(a.Turns)
	j.key("counters", false)
	j.value(m.Counters)
	if a.Truncated != nil {
		j.key("truncated", false)
		j.value(a.Truncated.Error())
	}
	j.key("players", false)
	ps := make([]monadPlayerJSON, a.Players())
	for p := range ps {
		ps[p] = monadPlayerJSON{Player: p, Name: a.Names[p]}
		if p < len(m.Bots) {
			ps[p].Bot = m.Bots[p]
		}
	}
	j.value(ps)
	j.key("ranking", false)
	j.value(a.Ranking)
	j.key("winner", false)
	j.value(a.Winner)
	j.key("lead_since", false)
	j.value(a.LeadSince)
	j.key("leader", false)
	j.value(a.Leader)
	j.key("events", false)
	ev := a.Events
	if ev == nil {
		ev = []MonadEvent{}
	}
	j.value(ev)
	j.key("events_dropped", false)
	j.value(a.EventsDropped)
	j.key("series", false)
	j.raw("[")
	for i, s := range a.Series {
		if i > 0 {
			j.raw(",")
		}
		j.raw("{")
		j.key("name", true)
		j.value(s.Metric.Name)
		j.key("unit", false)
		j.value(s.Metric.Unit)
		j.key("kind", false)
		j.value(s.Metric.Kind.String())
		j.key("values", false)
		j.raw("[")
		for p, v := range s.Values {
			if p > 0 {
				j.raw(",")
			}
			j.ints(v)
		}
		j.raw("]}")
	}
	j.raw("]}\n")
	if j.err != nil {
		return j.err
	}
	return j.w.Flush()
}

// WriteCSV writes a header row (turn, player, name, then one column per
// series in a.Series order), then one row per player per turn, turn 0..
// Turns, players in order within a turn.
func (a *MonadAnalysis) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	b := []byte("turn,player,name")
	for _, s := range a.Series {
		b = append(b, ',')
		b = append(b, s.Metric.Name...)
	}
	b = append(b, '\n')
	for t := 0; t <= a.Turns; t++ {
		for p := range a.Names {
			b = strconv.AppendInt(b, int64(t), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(p), 10)
			b = append(b, ',')
			b = csvField(b, a.Names[p])
			for _, s := range a.Series {
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

// final returns series name's value for player p at the last turn, and
// whether the series exists.
func (a *MonadAnalysis) final(name string, p int) (int64, bool) {
	s := a.SeriesNamed(name)
	if s == nil || p < 0 || p >= len(s.Values) || len(s.Values[p]) == 0 {
		return 0, false
	}
	return s.Values[p][len(s.Values[p])-1], true
}

// Outcome says in one line who won, with what, and since when they led
// for good, naming players with name (the viewer's header and the text
// table both show it): e.g. `winner alice (12 hives, 340 units), in the
// lead for good since turn 61`.
func (a *MonadAnalysis) Outcome(name func(player int) string) string {
	if a.Winner < 0 {
		return "no winner: no player leads alone (level on hives and units, or all crashed)"
	}
	h, _ := a.final("hives", a.Winner)
	u, _ := a.final("units", a.Winner)
	s := fmt.Sprintf("%s (%d hives, %d units)", FirstPlace(a.Truncated != nil, "turn", a.Turns, name(a.Winner)), h, u)
	if a.LeadSince > 0 {
		s += fmt.Sprintf(", in the lead for good since turn %d", a.LeadSince)
	}
	return s
}

// WriteTable writes the ranking with every player's final resources,
// units, hives and cells (and, when the source knows them, units produced
// and lost and commands rejected), the winner, and the first
// MaxTableEvents events. Names are always quoted (strconv.Quote), so no
// control character reaches the terminal.
func (a *MonadAnalysis) WriteTable(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "monad replay (%s), %d players, %d turns\n", a.Meta.Format, a.Players(), a.Turns)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
	cols := []string{"resources", "units", "hives", "cells"}
	head := "rank\tplayer\tname\tresources\tunits\thives\tcells\t"
	if a.Meta.Counters {
		cols = append(cols, "units_produced", "units_lost", "rejected")
		head += "produced\tlost\trejected\t"
	}
	fmt.Fprintln(tw, head)
	for i, p := range a.Ranking {
		fmt.Fprintf(tw, "%d\t%d\t%s\t", i+1, p, strconv.Quote(a.Name(p)))
		for _, c := range cols {
			v, _ := a.final(c, p)
			fmt.Fprintf(tw, "%d\t", v)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	quoted := func(p int) string { return strconv.Quote(a.Name(p)) }
	fmt.Fprintln(bw, a.Outcome(quoted))
	writeEventTable(bw, len(a.Events)+a.EventsDropped, len(a.Events), func(i int) (int, string) {
		return a.Events[i].Turn, a.Events[i].Text(quoted)
	})
	return bw.Flush()
}
