package analysis

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/rewind-game/rewind/engine"
)

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

// jsonArray writes xs as a JSON array, each element written by each.
func jsonArray[T any](j *jsonWriter, xs []T, each func(x T)) {
	j.raw("[")
	for i, x := range xs {
		if i > 0 {
			j.raw(",")
		}
		each(x)
	}
	j.raw("]")
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

// WriteJSON writes the document as one JSON object; the schema is in
// docs/analysis-json.md.
func (a *Document) WriteJSON(w io.Writer) error {
	j := &jsonWriter{w: bufio.NewWriterSize(w, 64<<10)}
	a.writeJSONTo(j)
	if j.err != nil {
		return j.err
	}
	return j.w.Flush()
}

// WriteCSV writes kind "series" (as SeriesCSV lays them out for a game
// with a document, documentCSV: a header row, then one row per player
// per round: turn, uid, then the series columns) or "summary" (a header
// row, then one row per player in ranking order).
func (a *Document) WriteCSV(w io.Writer, kind string) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var b []byte
	switch kind {
	case "series":
		cols := a.columns()
		l := documentCSV(&a.G.Meta, len(a.G.Players))
		b = append(b, l.Head...)
		for _, c := range cols {
			b = append(b, ',')
			b = append(b, l.Columns[c]...)
		}
		b = append(b, '\n')
		for t := l.First; t <= a.Rounds; t++ {
			for _, p := range a.Players {
				b = strconv.AppendInt(b, int64(t), 10)
				b = append(b, ',')
				b = append(b, l.Keys[p.p]...)
				for _, c := range cols {
					b = append(b, ',')
					b = strconv.AppendInt(b, a.G.Series[c].Values[p.p][t], 10)
				}
				b = append(b, '\n')
				if _, err := bw.Write(b); err != nil {
					return err
				}
				b = b[:0]
			}
		}
	case "summary":
		b = append(b, "rank,uid,username,bot"...)
		for _, f := range a.Doc.Standing {
			b = append(b, ',')
			b = append(b, f.Key...)
		}
		b = append(b, '\n')
		for _, s := range a.Summary.Ranking {
			b = strconv.AppendInt(b, int64(s.Rank), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(s.UID), 10)
			b = append(b, ',')
			b = csvField(b, s.Username)
			b = append(b, ',')
			b = csvField(b, s.Bot)
			for i, f := range a.Doc.Standing {
				b = append(b, ',')
				v := s.Values[i]
				if f.Of == engine.Flag && v != 0 {
					v = 1
				}
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
func (a *Document) WriteTable(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s replay, %s, %d rounds\n", a.Format, a.ConfigText(), a.Rounds)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "rank\tseat\tname\t")
	for _, c := range a.Doc.Table {
		fmt.Fprintf(tw, "%s\t", c[0])
	}
	fmt.Fprintln(tw)
	for _, s := range a.Summary.Ranking {
		fmt.Fprintf(tw, "%d\t%d\t%s\t", s.Rank, s.UID, strconv.Quote(s.Username))
		for _, c := range a.Doc.Table {
			v, _ := s.Get(c[1])
			fmt.Fprintf(tw, "%d\t", v)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(a.Summary.Ranking) > 0 {
		fmt.Fprintf(bw, "%s by %d %s", FirstPlace(a.Incomplete(), "round", a.Rounds, strconv.Quote(a.Summary.Ranking[0].Username)), a.Summary.Margin, a.Unit())
		if a.Summary.LeadSince > 0 {
			fmt.Fprintf(bw, ", in the lead for good since turn %d", a.Summary.LeadSince)
		}
		fmt.Fprintln(bw)
	}
	writeReplyTimesTable(bw, a.replyTimes(), func(p int) string { return strconv.Quote(a.G.Name(p)) })
	quoted := func(uid int) string { return strconv.Quote(a.Name(uid)) }
	if tp := a.TurningPoints(); len(tp) > 0 {
		fmt.Fprintln(bw, "turning points:")
		for _, e := range tp {
			fmt.Fprintf(bw, "  turn %4d  %s\n", e.Turn, a.EventText(e, quoted))
			if x := a.Explain(e, quoted); x != "" {
				fmt.Fprintf(bw, "             %s\n", x)
			}
		}
	}
	// The lead changes after the opening are folded, as in the viewer
	// and the report (ShownAtFirst); the JSON lists them all.
	var shown []DocumentEvent
	for _, e := range a.Events {
		if a.ShownAtFirst(e) {
			shown = append(shown, e)
		}
	}
	writeEventTable(bw, len(a.Events), len(shown), func(i int) (int, string) {
		return shown[i].Turn, a.EventText(shown[i], quoted)
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
