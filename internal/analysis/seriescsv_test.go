package analysis

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/internal/analysis/internal/toy"
)

// fromLayout writes metric i's column of the series CSV as a reader of
// SeriesCSV would (the viewer's CSV button): the header, then a row a
// turn a player, values[p][t].
func fromLayout(l SeriesCSV, i int, turns int, values [][]int64) string {
	var b strings.Builder
	b.WriteString(l.Head + "," + l.Columns[i] + "\n")
	for t := l.First; t <= turns; t++ {
		for p := range l.Keys {
			b.WriteString(strconv.Itoa(t) + "," + l.Keys[p] + "," + strconv.FormatInt(values[p][t], 10) + "\n")
		}
	}
	return b.String()
}

// column keeps the first keep fields and the field headed name of
// every row of a CSV whose keys have no comma in them after the first
// keep fields.
func column(t *testing.T, csv string, keep int, name string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(csv, "\n"), "\n")
	head := strings.Split(lines[0], ",")
	col := -1
	for i, h := range head {
		if h == name {
			col = i
		}
	}
	if col < keep {
		t.Fatalf("no column %q in %q", name, lines[0])
	}
	var b strings.Builder
	for _, l := range lines {
		f := strings.Split(l, ",")
		// A quoted key may hold commas: count the value from the end.
		v := f[len(f)-(len(head)-col)]
		b.WriteString(strings.Join(f[:len(f)-(len(head)-keep)], ",") + "," + v + "\n")
	}
	return b.String()
}

// TestSeriesCSVLayout: the layout SeriesCSVLayout gives a page is the
// one analyze's writers follow, for a game without a document (the toy,
// a name that needs quoting) and one with (ColorfightII's c03).
func TestSeriesCSVLayout(t *testing.T) {
	g := analyzeToy(t, toy.Ruleset{}, []string{"alice", "=bob, the 2nd"}, toyScript, Options{})
	l := SeriesCSVLayout(&g.Meta)
	if l.Head != "turn,player,name" || l.First != 0 || len(l.Keys) != 2 || l.Keys[1] != `1,"'=bob, the 2nd"` {
		t.Fatalf("toy layout %+v", l)
	}
	var b bytes.Buffer
	if err := g.WriteSeriesCSV(&b); err != nil {
		t.Fatal(err)
	}
	for i, s := range g.Series {
		if got, want := fromLayout(l, i, g.Turns, s.Values), column(t, b.String(), 3, s.Metric.Name); got != want {
			t.Errorf("toy %s: from the layout\n%s\nanalyze writes\n%s", s.Metric.Name, got, want)
		}
	}

	a := analyzeRWD(t, rwdBytes(t, c03(t)))
	l = SeriesCSVLayout(&a.G.Meta)
	if l.Head != "turn,uid" || l.First != 1 || len(l.Keys) != len(a.Players) || l.Keys[0] != strconv.Itoa(a.Players[0].UID) {
		t.Fatalf("c03 layout %+v", l)
	}
	b.Reset()
	if err := a.WriteCSV(&b, "series"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gold", "captured", "lost_to_2"} {
		i := a.metric(name)
		if got, want := fromLayout(l, i, a.Rounds, a.G.Series[i].Values), column(t, b.String(), 2, name); got != want {
			t.Errorf("c03 %s: from the layout %d bytes, analyze writes %d", name, len(got), len(want))
		}
	}
}
