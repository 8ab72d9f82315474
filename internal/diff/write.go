package diff

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/rewind-game/rewind/engine"
)

// WriteJSON writes r as one JSON object (docs/diff-json.md).
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// SeriesCSV writes SeriesRows as CSV (RFC 4180): the header
// turn,seat,metric,a,b,gap, then one line a row, gap being B − A.
type SeriesCSV struct {
	cw  *csv.Writer
	buf [6]string
}

// NewSeriesCSV writes the header to w and returns the writer of the rows.
func NewSeriesCSV(w io.Writer) *SeriesCSV {
	c := &SeriesCSV{cw: csv.NewWriter(w)}
	c.cw.Write([]string{"turn", "seat", "metric", "a", "b", "gap"})
	return c
}

// Row writes one row; an error of the writer is kept for Flush.
func (c *SeriesCSV) Row(r SeriesRow) {
	c.buf = [6]string{strconv.Itoa(r.Turn), strconv.Itoa(r.Seat), r.Metric,
		strconv.FormatInt(r.A, 10), strconv.FormatInt(r.B, 10), strconv.FormatInt(r.B-r.A, 10)}
	c.cw.Write(c.buf[:])
}

// Flush writes what is buffered and returns the first error of writing.
func (c *SeriesCSV) Flush() error {
	c.cw.Flush()
	return c.cw.Error()
}

// maxShown is the most bytes of a seat's commands a table shows.
const maxShown = 72

// WriteTable writes r for people: the two files, the setup, the first
// divergence of commands and of state, the outcomes and the metric
// series, and the verdict.
func (r *Result) WriteTable(w io.Writer) error {
	ew := &errWriter{w: w}
	for _, s := range []struct {
		tag  string
		side *Side
	}{{"A", &r.A}, {"B", &r.B}} {
		state := "complete"
		switch {
		case s.side.Stop != nil && s.side.Cut:
			state = "cut short: " + s.side.Stopped
		case s.side.Stop != nil:
			state = "damaged: " + s.side.Stopped
		case s.side.Over:
			state = "over"
		}
		ew.printf("%s: %s (%s v%d, %s, %d turns, %s)\n", s.tag, s.side.File, s.side.Ruleset, s.side.RulesetVersion, s.side.Format, s.side.Turns, state)
	}
	if len(r.SetupDifferences) > 0 {
		ew.printf("setup: different (%s): outcomes and metric series compared only\n", strings.Join(r.SetupDifferences, "; "))
	} else {
		ew.printf("setup: the same (%d seats); %d frames compared\n", len(r.Outcome), r.Frames)
		r.writeCommands(ew)
		r.writeState(ew)
	}
	r.writeOutcome(ew)
	r.writeSeries(ew)
	ew.printf("verdict: %s\n", r.Verdict)
	return ew.err
}

func (r *Result) writeCommands(ew *errWriter) {
	switch {
	case r.CommandsCompared == 0:
		ew.printf("commands: not compared (%s: no commands recorded)\n", r.noCommands())
		return
	case r.Commands == nil:
		ew.printf("commands: the same in the %d rounds compared\n", r.CommandsCompared)
		return
	}
	ew.printf("commands: first differ in round %d (from turn %d to %d)\n", r.Commands.Round, r.Commands.Turn-1, r.Commands.Turn)
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  seat\t\tA\tB")
	for _, s := range r.Commands.Seats {
		mark := ""
		if s.Differs {
			mark = "differs"
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\n", s.Seat, mark, ShowCommands(s.A, s.FaultA, s.ActiveA), ShowCommands(s.B, s.FaultB, s.ActiveB))
	}
	tw.Flush()
}

// noCommands names the files whose format records no commands.
func (r *Result) noCommands() string {
	var files []string
	for _, s := range []*Side{&r.A, &r.B} {
		if !s.Commands {
			files = append(files, s.File+" ("+s.Format+")")
		}
	}
	if len(files) == 0 {
		return "no round of both"
	}
	return strings.Join(files, " and ")
}

// ShowCommands is a seat's commands (with its fault, FaultText, and
// "[acts]" when it was the one to act) as a table cell, cut to a
// readable length.
func ShowCommands(cmds []string, fault string, active bool) string {
	s := strings.Join(cmds, "; ")
	if len(cmds) == 0 {
		s = "(none)"
	}
	if len(s) > maxShown {
		cut := maxShown
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = fmt.Sprintf("%s… (%d commands)", s[:cut], len(cmds))
	}
	if active {
		s = "[acts] " + s
	}
	if fault != "" {
		s += " [fault " + fault + "]"
	}
	return s
}

func (r *Result) writeState(ew *errWriter) {
	d := r.State
	if d == nil {
		ew.printf("state: the same at every turn compared (by %s)\n", r.StateBy)
		return
	}
	by := "the frames"
	if d.HashA != "" {
		by = fmt.Sprintf("hash %s, %s", d.HashA, d.HashB)
	}
	ew.printf("state: first differs at turn %d (%s)\n", d.Turn, by)
	if d.ValuesDiffer > 0 {
		var parts []string
		for _, v := range d.Values {
			parts = append(parts, fmt.Sprintf("seat %d %s %d, %d", v.Seat, v.Metric, v.A, v.B))
		}
		ew.printf("  values (%d differ): %s%s\n", d.ValuesDiffer, strings.Join(parts, "; "), more(d.ValuesDiffer, len(d.Values)))
	}
	if d.CellsDiffer > 0 {
		var parts []string
		for _, c := range d.Cells {
			parts = append(parts, fmt.Sprintf("(%d,%d) %s", c.X, c.Y, cellChange(c.A, c.B)))
		}
		ew.printf("  cells (%d differ): %s%s\n", d.CellsDiffer, strings.Join(parts, "; "), more(d.CellsDiffer, len(d.Cells)))
	}
	if d.LayersDiffer > 0 {
		ew.printf("  layer values: %d differ\n", d.LayersDiffer)
	}
	if d.EntitiesDiffer > 0 {
		var parts []string
		for _, e := range d.Entities {
			parts = append(parts, fmt.Sprintf("#%d %s, %s", e.Index, entity(e.A), entity(e.B)))
		}
		ew.printf("  entities (%d differ; %d, %d in all): %s%s\n", d.EntitiesDiffer, d.EntitiesA, d.EntitiesB, strings.Join(parts, "; "), more(d.EntitiesDiffer, len(d.Entities)))
	}
	if d.RankingA != nil {
		ew.printf("  ranking: %v, %v\n", d.RankingA, d.RankingB)
	}
	if d.OverA != nil {
		ew.printf("  over: %v, %v\n", *d.OverA, *d.OverB)
	}
}

// cellChange names each field of a cell that differs in A and in B:
// "owner 1, 2; value 10, 4".
func cellChange(a, b engine.Cell) string {
	var parts []string
	for _, f := range []struct {
		name string
		a, b int64
	}{{"terrain", a.Terrain, b.Terrain}, {"owner", int64(a.Owner), int64(b.Owner)}, {"value", a.Value, b.Value}, {"badges", int64(a.Badges), int64(b.Badges)}} {
		if f.a != f.b {
			parts = append(parts, fmt.Sprintf("%s %d, %d", f.name, f.a, f.b))
		}
	}
	return strings.Join(parts, ", ")
}

// more is ", …" with how many more were left out of a list, "" when none.
func more(all, listed int) string {
	if all > listed {
		return fmt.Sprintf(" (and %d more)", all-listed)
	}
	return ""
}

// entity describes an entity for the table, "none" for nil.
func entity(e *engine.Entity) string {
	if e == nil {
		return "none"
	}
	s := fmt.Sprintf("%s of %d at (%d,%d) health %d value %d", e.Kind, e.Player+1, e.X, e.Y, e.Health, e.Value)
	if e.Label != "" {
		s += " " + strconv.Quote(e.Label)
	}
	return s
}

func (r *Result) writeOutcome(ew *errWriter) {
	ew.printf("outcome:\n")
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  seat\tname A\tname B\trank A\trank B\tscore A\tscore B")
	for _, o := range r.Outcome {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%d\t%d\t%d\t%d\n", o.Seat, name(r.A, o.Seat), name(r.B, o.Seat), o.RankA, o.RankB, o.ScoreA, o.ScoreB)
	}
	tw.Flush()
}

// name is the name of seat in s, "-" when it has none.
func name(s Side, seat int) string {
	if seat >= 1 && seat <= len(s.Players) && s.Players[seat-1].Name != "" {
		return s.Players[seat-1].Name
	}
	return "-"
}

// writeSeries writes the series that differ (in their frames or their
// final values) and counts the others.
func (r *Result) writeSeries(ew *errWriter) {
	same := 0
	for _, s := range r.Series {
		if s.FirstDifference < 0 && s.FinalA == s.FinalB {
			same++
		}
	}
	if same == len(r.Series) {
		ew.printf("metrics: all %d series the same\n", same)
		return
	}
	ew.printf("metrics that differ (gap: B − A, over the frames both hold; %d of %d series the same):\n", same, len(r.Series))
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  metric\tseat\tfinal A\tfinal B\tfirst differs\tlargest gap (turn)\tlead changes")
	for _, s := range r.Series {
		if s.FirstDifference < 0 && s.FinalA == s.FinalB {
			continue
		}
		first, gap, leads := "-", "-", "0"
		if s.FirstDifference >= 0 {
			first = fmt.Sprint(s.FirstDifference)
			gap = fmt.Sprintf("%+d (%d)", s.LargestGap, s.LargestGapTurn)
		}
		if s.LeadChangeCount > 0 {
			turns := strings.Trim(fmt.Sprint(s.LeadChanges), "[]")
			leads = fmt.Sprintf("%d: %s%s", s.LeadChangeCount, turns, more(s.LeadChangeCount, len(s.LeadChanges)))
		}
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%d\t%s\t%s\t%s\n", s.Metric, s.Seat, s.FinalA, s.FinalB, first, gap, leads)
	}
	tw.Flush()
}

// errWriter keeps the first error of its writes.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, args ...any) { fmt.Fprintf(e, format, args...) }
