package index

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// planQueries are the queries of the library's pages: the first page,
// the sorts, filters by bot (lost, matching nothing, few games), player,
// winner, a search of a common word and of a rare one, the next page.
var planQueries = []struct {
	name string
	q    Query
}{
	{"first page", Query{Limit: 100}},
	{"by rounds", Query{Sort: "rounds", Limit: 100}},
	{"by winner", Query{Sort: "winner", Asc: true, Limit: 100}},
	{"bot", Query{Bot: "b17", Limit: 100}},
	{"bot lost", Query{Bot: "b17", Lost: true, Limit: 100}},
	{"bot nothing", Query{Bot: "nobody", Limit: 100}},
	{"bot won", Query{Bot: "b17", Winner: "b17", Limit: 100}},
	{"player", Query{Player: "3_b17", Limit: 100}},
	{"player nothing", Query{Player: "nobody", Limit: 100}},
	{"search common", Query{Search: "b1", Limit: 100}},
	{"search rare", Query{Search: "0001234", Limit: 100}},
	{"search nothing", Query{Search: "zzz", Limit: 100}},
	{"search two words", Query{Search: "b1 g/00", Limit: 100}},
	{"winner", Query{Winner: "b17", Limit: 100}},
	{"winner seat", Query{Winner: "3_b17", Limit: 100}},
	{"winner nothing", Query{Winner: "nobody", Limit: 100}},
}

// countQueries are the counts the filters look up first (how many games
// a winner or a search matches, up to a bound): each by an index.
var countQueries = []struct {
	name, sql string
	args      []any
}{
	{"winner count", winnerCount, []any{"b17", 5001, "b17", 5001}},
}

// fullScan matches a plan step reading a whole table, not by an index.
var fullScan = regexp.MustCompile(`^SCAN (r|s|replays|seats)( |$)`)

// TestPlansUseIndexes: no query of the library's pages reads the whole
// replays or seats table (EXPLAIN QUERY PLAN on an analysed index of
// generated rows), whatever it filters; the sort's index walked to the
// page's end (SCAN r USING INDEX) is allowed.
func TestPlansUseIndexes(t *testing.T) {
	ix := open(t, t.TempDir())
	if err := fill(ix, 0, 20000); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.db.Exec("ANALYZE"); err != nil {
		t.Fatal(err)
	}
	p, err := ix.Page(Query{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	queries := append(planQueries, struct {
		name string
		q    Query
	}{"next page", Query{Limit: 100, After: p.Next}})
	for _, c := range countQueries {
		plan := explain(t, ix, c.sql, c.args)
		for _, step := range plan {
			if fullScan.MatchString(step) || strings.HasPrefix(step, "SCAN replays USING") {
				t.Errorf("%s: a scan (%s) in\n%s", c.name, step, strings.Join(plan, "\n"))
			}
		}
	}
	drive := searchDrive
	t.Cleanup(func() { searchDrive = drive })
	// With searchDrive at 10, the filters of many games take the other
	// plan (the sort's index walked, each row tested), as at 10M rows.
	for _, searchDrive = range []int{drive, 10} {
		for _, c := range queries {
			c.name += fmt.Sprintf(" (drive %d)", searchDrive)
			checkPlan(t, ix, c.name, c.q)
		}
	}
}

func checkPlan(t *testing.T, ix *Index, name string, q Query) {
	t.Helper()
	{
		c := struct {
			name string
			q    Query
		}{name, q}
		// A search's two queries: the walk of the sort's index
		// (walkPage), then the full-text index's.
		for _, walking := range []bool{true, false} {
			q := c.q
			q.walking = walking && q.Search != ""
			sql, args, _, _, err := ix.pageQuery(q)
			if err != nil {
				t.Fatal(err)
			}
			plan := explain(t, ix, sql, args)
			for _, step := range plan {
				if fullScan.MatchString(step) && !strings.Contains(step, "USING") {
					t.Errorf("%s (walking %v): a full scan (%s) in\n%s", c.name, q.walking, step, strings.Join(plan, "\n"))
				}
			}
			if testing.Verbose() {
				t.Logf("%s (walking %v):\n  %s", c.name, q.walking, strings.Join(plan, "\n  "))
			}
		}
	}
}

func explain(t *testing.T, ix *Index, sql string, args []any) []string {
	t.Helper()
	rows, err := ix.db.Query("EXPLAIN QUERY PLAN "+sql, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		out = append(out, detail)
	}
	return out
}
