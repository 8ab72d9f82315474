package analysis

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/rewind-game/rewind/engine/colorfight2"
)

// column is one per-round numeric column of the series.
type column struct {
	name string
	get  func(*Round) int64
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// columns lists the series columns, in output order, for uids up to maxUID:
// the figures of a round (colorfight2.AccountMetrics, by name), then the
// exchanges (colorfight2.ExchangeMetrics): captured_from_K for K =
// 0..maxUID and lost_to_K for K = 1..maxUID.
func columns(maxUID int) []column {
	var cs []column
	for i, m := range colorfight2.AccountMetrics {
		cs = append(cs, column{m.Name, func(r *Round) int64 { return r.Figure(i) }})
	}
	ex := colorfight2.ExchangeMetrics(maxUID)
	for k := 0; k <= maxUID; k++ {
		cs = append(cs, column{ex[k].Name, func(r *Round) int64 { return r.CapturedFrom(k) }})
	}
	for k := 1; k <= maxUID; k++ {
		cs = append(cs, column{ex[maxUID+k].Name, func(r *Round) int64 { return r.LostTo(k) }})
	}
	return cs
}

// SeriesColumn returns the getter of the series column name (as in the
// JSON and CSV, e.g. "captured", "faults", "captured_from_3"), so other
// packages (the viewer) show exactly these values; ok is false for no
// such column.
func SeriesColumn(name string, maxUID int) (get func(*Round) int64, ok bool) {
	for _, c := range columns(maxUID) {
		if c.name == name {
			return c.get, true
		}
	}
	return nil, false
}

// jsonWriter writes JSON by hand, keeping key order, and remembers the
// first error.
type jsonWriter struct {
	w   *bufio.Writer
	err error
}

func (j *jsonWriter) raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

func (j *jsonWriter) value(v any) {
	if j.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		j.err = err
		return
	}
	_, j.err = j.w.Write(b)
}

func (j *jsonWriter) key(k string, first bool) {
	if !first {
		j.raw(",")
	}
	j.value(k)
	j.raw(":")
}

func (j *jsonWriter) ints(v []int64) {
	j.raw("[")
	var b []byte
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, x, 10)
	}
	j.raw(string(b))
	j.raw("]")
}

type playerJSON struct {
	UID       int    `json:"uid"`
	Username  string `json:"username"`
	Bot       string `json:"bot"`
	FirstTurn int    `json:"first_turn"`
}

// WriteJSON writes the analysis as one JSON object; the schema is in
// docs/analysis-json.md.
func (a *Analysis) WriteJSON(w io.Writer) error {
	j := &jsonWriter{w: bufio.NewWriterSize(w, 64<<10)}
	j.raw("{")
	j.key("format", true)
	j.value(string(a.Format))
	j.key("config", false)
	j.value(map[string]int{"width": a.Config.Width, "height": a.Config.Height, "max_turn": a.Config.MaxTurn, "max_player": a.Config.MaxPlayer})
	j.key("rounds", false)
	j.value(a.Rounds)
	j.key("has_commands", false)
	j.value(a.HasCommands)
	if a.Truncated != nil {
		j.key("truncated", false)
		j.value(a.Truncated.Error())
	}
	j.key("players", false)
	ps := make([]playerJSON, 0, len(a.Players))
	for _, p := range a.Players {
		ps = append(ps, playerJSON{p.UID, p.Username, p.Bot, p.FirstTurn})
	}
	j.value(ps)
	j.key("summary", false)
	j.value(a.Summary)
	j.key("events", false)
	ev := a.Events
	if ev == nil {
		ev = []Event{}
	}
	j.value(ev)
	j.key("series", false)
	j.raw("{")
	j.key("turn", true)
	turns := make([]int64, a.Rounds)
	for i := range turns {
		turns[i] = int64(i + 1)
	}
	j.ints(turns)
	j.key("players", false)
	j.raw("{")
	cols := columns(a.MaxUID)
	vals := make([]int64, a.Rounds)
	for pi, p := range a.Players {
		j.key(strconv.Itoa(p.UID), pi == 0)
		j.raw("{")
		for ci, c := range cols {
			j.key(c.name, ci == 0)
			for i := range vals {
				vals[i] = c.get(&p.Series[i])
			}
			j.ints(vals)
		}
		j.raw("}")
	}
	j.raw("}}}\n")
	if j.err != nil {
		return j.err
	}
	return j.w.Flush()
}

// WriteCSV writes kind "series" (a header row, then one row per player per
// round: turn, uid, then the series columns) or "summary" (a header row,
// then one row per player in ranking order).
func (a *Analysis) WriteCSV(w io.Writer, kind string) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var b []byte
	switch kind {
	case "series":
		cols := columns(a.MaxUID)
		b = append(b, "turn,uid"...)
		for _, c := range cols {
			b = append(b, ',')
			b = append(b, c.name...)
		}
		b = append(b, '\n')
		for t := 1; t <= a.Rounds; t++ {
			for _, p := range a.Players {
				r := &p.Series[t-1]
				b = strconv.AppendInt(b, int64(t), 10)
				b = append(b, ',')
				b = strconv.AppendInt(b, int64(p.UID), 10)
				for _, c := range cols {
					b = append(b, ',')
					b = strconv.AppendInt(b, c.get(r), 10)
				}
				b = append(b, '\n')
				if _, err := bw.Write(b); err != nil {
					return err
				}
				b = b[:0]
			}
		}
	case "summary":
		b = append(b, "rank,uid,username,bot,gold,cells,energy,tech_level,dead,peak_cells,peak_turn,died_turn,captured,lost,gold_spent,stolen_in,stolen_out,refund,mine_bonus,attack_energy,capture_energy,wasted_energy,commands,errors\n"...)
		for _, s := range a.Summary.Ranking {
			b = strconv.AppendInt(b, int64(s.Rank), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(s.UID), 10)
			b = append(b, ',')
			b = csvField(b, s.Username)
			b = append(b, ',')
			b = csvField(b, s.Bot)
			for _, v := range []int64{s.Gold, s.Cells, s.Energy, s.TechLevel, b2i(s.Dead), s.PeakCells, int64(s.PeakTurn), int64(s.DiedTurn),
				s.Captured, s.Lost, s.GoldSpent, s.StolenIn, s.StolenOut, s.Refund, s.MineBonus, s.AttackEnergy, s.CaptureEnergy, s.WastedEnergy, s.Commands, s.Errors} {
				b = append(b, ',')
				b = strconv.AppendInt(b, v, 10)
			}
			b = append(b, '\n')
		}
	default:
		return fmt.Errorf("analysis: unknown CSV kind %q (want series or summary)", kind)
	}
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

// csvField quotes s as RFC 4180 requires, and neutralises leading
// characters spreadsheets would treat as a formula.
func csvField(b []byte, s string) []byte {
	need := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ',', '"', '\n', '\r':
			need = true
		}
	}
	if len(s) > 0 && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@') {
		s = "'" + s
		need = true
	}
	if !need {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// MaxTableEvents is how many events WriteTable lists.
const MaxTableEvents = 30

// WriteTable writes the summary as an aligned text table and the first
// MaxTableEvents events. Names are always quoted (strconv.Quote), so no
// control character reaches the terminal.
func (a *Analysis) WriteTable(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s replay, %dx%d, %d rounds\n", a.Format, a.Config.Width, a.Config.Height, a.Rounds)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rank\tuid\tname\tgold\tcells\tenergy\ttech\tpeak cells\tpeak turn\tcaptured\tlost\tstolen\t")
	for _, s := range a.Summary.Ranking {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", s.Rank, s.UID, strconv.Quote(s.Username),
			s.Gold, s.Cells, s.Energy, s.TechLevel, s.PeakCells, s.PeakTurn, s.Captured, s.Lost, s.StolenIn)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(a.Summary.Ranking) > 0 {
		fmt.Fprintf(bw, "%s by %d gold", FirstPlace(a.Incomplete(), "round", a.Rounds, strconv.Quote(a.Summary.Ranking[0].Username)), a.Summary.Margin)
		if a.Summary.LeadSince > 0 {
			fmt.Fprintf(bw, ", in the lead for good since turn %d", a.Summary.LeadSince)
		}
		fmt.Fprintln(bw)
	}
	quoted := func(uid int) string { return strconv.Quote(a.Name(uid)) }
	if tp := a.TurningPoints(); len(tp) > 0 {
		fmt.Fprintln(bw, "turning points:")
		for _, e := range tp {
			fmt.Fprintf(bw, "  turn %4d  %s\n", e.Turn, e.Text(quoted))
			if x := a.Explain(e, quoted); x != "" {
				fmt.Fprintf(bw, "             %s\n", x)
			}
		}
	}
	// The lead changes after the opening are folded, as in the viewer
	// and the report (ShownAtFirst); the JSON lists them all.
	var shown []Event
	for _, e := range a.Events {
		if a.ShownAtFirst(e) {
			shown = append(shown, e)
		}
	}
	writeEventTable(bw, len(a.Events), len(shown), func(i int) (int, string) {
		return shown[i].Turn, shown[i].Text(quoted)
	})
	if folded := len(a.Events) - len(shown); folded > 0 {
		fmt.Fprintf(bw, "  (%d lead changes after turn %d folded; --format json lists every event)\n", folded, EarlyLeadTurns(a.Rounds))
	}
	return bw.Flush()
}

// writeEventTable writes the event list of a text table: "events (total",
// ", first MaxTableEvents" when kept is more, then one line per event of
// the first MaxTableEvents of kept; event(i) gives event i's turn and
// sentence. It is the one layout of both games' tables.
func writeEventTable(w io.Writer, total, kept int, event func(i int) (turn int, text string)) {
	fmt.Fprintf(w, "events (%d", total)
	if kept > MaxTableEvents {
		fmt.Fprintf(w, ", first %d", MaxTableEvents)
	}
	fmt.Fprintln(w, "):")
	for i := 0; i < kept && i < MaxTableEvents; i++ {
		turn, text := event(i)
		fmt.Fprintf(w, "  turn %4d  %s\n", turn, text)
	}
}
