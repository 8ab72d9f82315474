package index

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// benchIndex opens a synthetic index of n replays (rows generated, not
// files: game(i, 50), 50 bots, 4 seats each), built once and kept in the
// temporary folder between runs (it takes minutes at a million).
func benchIndex(b *testing.B, n int) *Index {
	b.Helper()
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("rewind-index-bench-%d", n))
	ix, _, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	have, err := ix.Count()
	if err != nil {
		b.Fatal(err)
	}
	if os.Getenv("REWIND_BENCH_NO_SEARCH") == "" { // the search index takes longest to fill
		fillNames(b, ix, have)
	}
	for i := have; i < n; i += fillChunk {
		if err := fill(ix, i, min(n, i+fillChunk)); err != nil {
			b.Fatal(err)
		}
	}
	if !ix.StandingsFresh() {
		// The standings of rows filled without Put: counted once, kept.
		start := time.Now()
		if err := ix.Recount(); err != nil {
			b.Fatal(err)
		}
		b.Logf("standings of %d rows counted in %v", n, time.Since(start))
	}
	var stats int
	if err := ix.db.QueryRow("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_stat1'").Scan(&stats); err != nil {
		b.Fatal(err)
	}
	if have < n || stats == 0 {
		// Statistics from a sample of each index (minutes saved at 10M).
		if _, err := ix.db.Exec("PRAGMA analysis_limit = 1000; ANALYZE"); err != nil {
			b.Fatal(err)
		}
	}
	return ix
}

// fillChunk is how many generated replays fill writes in one transaction.
const fillChunk = 200_000

// fill writes the replays game(i, 50) for i in [from, to) into ix with a
// few INSERT … SELECT statements (SQLite generates the rows: Put takes
// hours at 10M, this minutes); TestFillIsPut checks the rows are Put's.
// It bypasses Put's bookkeeping: call it on an index nobody else uses.
func fill(ix *Index, from, to int) error {
	t0ns := t0.UnixNano()
	tx, err := ix.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmts := []string{
		`WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i+1 FROM n WHERE i+1 < ?)
		INSERT INTO replays(id, path, size, mtime, game, format, rounds, max_turn, complete, date, status)
		SELECT i+1, printf('g/%07d.rwd', i), 1000 + i%977, ? + i*1000000000, 'ColorfightII', 'rwd', 100 + i%400, 500, i%10 != 0,
			? + i*1000000000, CASE WHEN i%10 = 0 THEN 'incomplete' ELSE '' END FROM n`,
		// Seat k (uid k+1) of game i has gold (7i+13k)%100 and bot
		// b((i+k)%50); its rank (complete games) is its place by gold,
		// most first, lowest uid on ties.
		`WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i+1 FROM n WHERE i+1 < ?),
		k(k) AS (VALUES(0),(1),(2),(3)),
		s AS (SELECT i, k, (i*7 + k*13) % 100 AS gold, 'b' || ((i+k) % 50) AS bot FROM n, k)
		INSERT INTO seats(replay, uid, name, bot, key, rank, score)
		SELECT i+1, k+1, (k+1) || '_' || bot, bot, bot,
			CASE WHEN i%10 = 0 THEN 0 ELSE 1 + (SELECT count(*) FROM k o WHERE (i*7 + o.k*13) % 100 > gold OR ((i*7 + o.k*13) % 100 = gold AND o.k < s.k)) END,
			gold FROM s ORDER BY i, k`,
		`UPDATE replays SET (winner, winner_bot, winner_score) = (SELECT name, key, score FROM seats WHERE replay = replays.id AND rank = 1)
		WHERE id > ? AND id <= ? AND complete = 1`,
		`UPDATE replays SET players = (SELECT group_concat(name, ', ') FROM (SELECT name FROM seats WHERE replay = replays.id ORDER BY uid))
		WHERE id > ? AND id <= ?`,
		wordsFill,
		namesFill,
		// Counted by Recount (the first Standings), not here.
		staleFill,
	}
	args := [][]any{{from, to, t0ns, t0ns}, {from, to}, {from, to}, {from, to}, {from, to}, {from, to}, nil}
	for i, q := range stmts {
		if _, err := tx.Exec(q, args[i]...); err != nil {
			return fmt.Errorf("fill %d..%d: %w", from, to, err)
		}
	}
	return tx.Commit()
}

// staleFill marks the kept standings stale (rows written without Put).
const staleFill = "UPDATE standings SET stale = 1, low_created = -9223372036854775808, low_path = ''"

// wordsFill fills the search words (searchWords) of the replays of ids
// (?, ?]: their paths' and seats' words are lowercase, split by '/' and
// the spaces only.
const wordsFill = `UPDATE replays SET words = ' ' || replace(path, '/', ' ') || ' ' || (SELECT group_concat(t, ' ') FROM (SELECT name || ' ' || bot AS t FROM seats WHERE replay = replays.id ORDER BY uid))
		WHERE id > ? AND id <= ?`

// namesFill fills the search index of the replays of ids (?, ?].
const namesFill = `INSERT INTO names(rowid, text) SELECT id, path || ' ' || (SELECT group_concat(t, ' ') FROM (SELECT name || ' ' || bot AS t FROM seats WHERE replay = replays.id ORDER BY uid))
		FROM replays WHERE id > ? AND id <= ?`

// fillNames fills the search index of an index whose rows were written
// without it (by the sqlite3 shell, whose FTS5 may be too old for the
// names table: REWIND_BENCH_SCHEMA below).
func fillNames(b *testing.B, ix *Index, n int) {
	var have int
	if err := ix.db.QueryRow("SELECT count(*) FROM (SELECT rowid FROM names LIMIT 1)").Scan(&have); err != nil {
		b.Fatal(err)
	}
	if have > 0 {
		return
	}
	for i := 0; i < n; i += fillChunk {
		if _, err := ix.db.Exec(namesFill, i, min(n, i+fillChunk)); err != nil {
			b.Fatal(err)
		}
	}
}

// benchN is the benchmark index's rows: 1M, or REWIND_BENCH_ROWS (the
// 10M figures of docs/viewer.md: REWIND_BENCH_ROWS=10000000; building
// that index once takes most of an hour, reused after).
var benchN = func() int {
	if n, err := strconv.Atoi(os.Getenv("REWIND_BENCH_ROWS")); err == nil && n > 0 {
		return n
	}
	return 1_000_000
}()

func benchPage(b *testing.B, q Query) {
	ix := benchIndex(b, benchN)
	want := q.Limit
	if q.Bot == "nobody" || q.Winner == "nobody" || q.Search == "nobody" {
		want = 0
	}
	latencies(b, func() {
		p, err := ix.Page(q)
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Rows) != want {
			b.Fatalf("%d rows", len(p.Rows))
		}
	})
}

// latencies runs f b.N times (after one warming run) and reports the
// median and the 99th percentile of its times (p50-ms, p99-ms): the
// figures docs/viewer.md gives (run with -benchtime 200x).
func latencies(b *testing.B, f func()) {
	b.Helper()
	f()
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t := time.Now()
		f()
		ds = append(ds, time.Since(t))
	}
	b.StopTimer()
	slices.Sort(ds)
	at := func(q float64) float64 {
		return float64(ds[min(len(ds)-1, int(q*float64(len(ds))))]) / 1e6
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

func BenchmarkFirstPage(b *testing.B)       { benchPage(b, Query{Limit: 100}) }
func BenchmarkFirstPageRounds(b *testing.B) { benchPage(b, Query{Sort: "rounds", Limit: 100}) }
func BenchmarkFilterBot(b *testing.B)       { benchPage(b, Query{Bot: "b17", Limit: 100}) }
func BenchmarkFilterBotLost(b *testing.B)   { benchPage(b, Query{Bot: "b17", Lost: true, Limit: 100}) }
func BenchmarkSearchName(b *testing.B)      { benchPage(b, Query{Search: "3_b17", Limit: 100}) }
func BenchmarkSearchCommon(b *testing.B)    { benchPage(b, Query{Search: "b1", Limit: 100}) }
func BenchmarkFilterNothing(b *testing.B)   { benchPage(b, Query{Bot: "nobody", Limit: 100}) }
func BenchmarkWinnerNothing(b *testing.B)   { benchPage(b, Query{Winner: "nobody", Limit: 100}) }
func BenchmarkSearchNothing(b *testing.B)   { benchPage(b, Query{Search: "nobody", Limit: 100}) }

// BenchmarkNextPage lists the page after the first 100 (keyset).
func BenchmarkNextPage(b *testing.B) {
	ix := benchIndex(b, benchN)
	p, err := ix.Page(Query{Limit: 100})
	if err != nil {
		b.Fatal(err)
	}
	benchPage(b, Query{Limit: 100, After: p.Next})
}

// BenchmarkStandings is the library's standings once computed (kept);
// BenchmarkStandingsCold computes them afresh (as after a change before
// the last game counted); BenchmarkStandingsAfterPut after one new game
// (its path after every other) was added: it is counted into the kept
// standings.
func BenchmarkStandings(b *testing.B) {
	ix := benchIndex(b, benchN)
	if _, err := ix.Standings(Query{}); err != nil {
		b.Fatal(err)
	}
	latencies(b, func() {
		if st, err := ix.Standings(Query{}); err != nil || len(st) != 50 {
			b.Fatal(len(st), err)
		}
	})
}

func BenchmarkStandingsCold(b *testing.B) {
	ix := benchIndex(b, benchN)
	b.ResetTimer()
	for b.Loop() {
		if _, err := ix.db.Exec(staleFill); err != nil {
			b.Fatal(err)
		}
		if err := ix.Recount(); err != nil || !ix.StandingsFresh() {
			b.Fatal(err)
		}
	}
}

func BenchmarkStandingsAfterPut(b *testing.B) {
	ix := benchIndex(b, benchN)
	st, err := ix.Standings(Query{})
	if err != nil {
		b.Fatal(err)
	}
	games := 0
	for _, s := range st {
		games += s.Games
	}
	// The games added are kept (their paths after every other, a new
	// folder each run): deleting them, counted, would leave the
	// standings to count again from scratch (minutes at 10M) for the
	// next benchmark.
	run := time.Now().UnixNano()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		r := game(1, 50) // complete
		r.Path = fmt.Sprintf("z/%d/%07d.rwd", run, i)
		if err := ix.Put([]*Replay{r}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		st, err := ix.Standings(Query{})
		if err != nil || !ix.StandingsFresh() {
			b.Fatal(err, ix.StandingsFresh())
		}
		n := 0
		for _, s := range st {
			n += s.Games
		}
		if n != games+4*(i+1) {
			b.Fatalf("%d seat-games, want %d", n, games+4*(i+1))
		}
	}
}

// BenchmarkBotTable reads the per-bot counts the triggers keep (games,
// wins, mean rank and score: the leaderboard without Elo).
func BenchmarkBotTable(b *testing.B) {
	ix := benchIndex(b, benchN)
	b.ResetTimer()
	for b.Loop() {
		rows, err := ix.db.Query("SELECT key, games, wins, sum_rank, sum_score FROM bots ORDER BY wins DESC")
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for rows.Next() {
			n++
		}
		rows.Close()
		if n != 50 {
			b.Fatal(n)
		}
	}
}

// TestFillIsPut checks that fill writes the rows Put writes of game(i, 50).
func TestFillIsPut(t *testing.T) {
	const n = 300
	a, b := open(t, t.TempDir()), open(t, t.TempDir())
	if err := fill(a, 0, 120); err != nil {
		t.Fatal(err)
	}
	if err := fill(a, 120, n); err != nil {
		t.Fatal(err)
	}
	var reps []*Replay
	for i := range n {
		reps = append(reps, game(i, 50))
	}
	if err := b.Put(reps); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"SELECT id, path, size, mtime, hash, game, format, rounds, max_turn, complete, created, date, winner, winner_bot, winner_score, unit, parent, import, status, err, players, words FROM replays ORDER BY id",
		"SELECT * FROM seats ORDER BY replay, uid",
		"SELECT * FROM bots ORDER BY key",
		"SELECT rowid FROM names WHERE names MATCH '\"3_b17\"*' ORDER BY rowid",
		"SELECT rowid FROM names WHERE names MATCH '\"g/0000042.rwd\"' ORDER BY rowid",
	} {
		if x, y := dump(t, a, q), dump(t, b, q); x != y {
			t.Errorf("%s:\nfill %.300s\nPut  %.300s", q, x, y)
		}
	}
}

func dump(t *testing.T, ix *Index, q string) string {
	t.Helper()
	rows, err := ix.db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var sb strings.Builder
	n := 0
	for rows.Next() {
		v := make([]any, len(cols))
		p := make([]any, len(cols))
		for i := range v {
			p[i] = &v[i]
		}
		if err := rows.Scan(p...); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(&sb, v...)
		n++
	}
	if n == 0 {
		t.Fatalf("%s: no rows", q)
	}
	return sb.String()
}

// TestBenchSchema creates an empty index in REWIND_BENCH_SCHEMA (a folder),
// for filling by hand with the sqlite3 shell.
func TestBenchSchema(t *testing.T) {
	dir := os.Getenv("REWIND_BENCH_SCHEMA")
	if dir == "" {
		t.Skip("REWIND_BENCH_SCHEMA is not set")
	}
	ix, _, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
}

// BenchmarkBotPage is the index's part of /bot/NAME but the standings
// (BenchmarkStandings): the games the bot lost, those it won, and its
// rating over time.
func BenchmarkBotPage(b *testing.B) {
	ix := benchIndex(b, benchN)
	latencies(b, func() {
		lost, err := ix.Page(Query{Bot: "b17", Lost: true, Limit: DefaultPage})
		if err != nil || len(lost.Rows) != DefaultPage {
			b.Fatal(err)
		}
		if _, err := ix.Page(Query{Bot: "b17", Winner: "b17", Limit: DefaultPage}); err != nil {
			b.Fatal(err)
		}
		if pts, err := ix.Rating("b17"); err != nil || len(pts) == 0 {
			b.Fatal(err)
		}
	})
}

// TestBenchMigrate brings a benchmark index built by an older rewind (in
// the folder REWIND_BENCH_MIGRATE, schema 4 or 5) up to this schema in
// place, filling what the rows lack (content is left empty, the words are
// wordsFill's, the standings marked stale), instead of the rebuild Open
// does: the 10M index takes most of an hour to build again. The full-text
// index is kept as it was built (diacritics folded: the generated rows
// have none).
func TestBenchMigrate(t *testing.T) {
	dir := os.Getenv("REWIND_BENCH_MIGRATE")
	if dir == "" {
		t.Skip("REWIND_BENCH_MIGRATE is not set")
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, File)+"?_pragma=journal_mode(WAL)&_pragma=cache_size(-400000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var ver, n int
	if err := db.QueryRow("PRAGMA user_version").Scan(&ver); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("SELECT coalesce(max(id), 0) FROM replays").Scan(&n); err != nil {
		t.Fatal(err)
	}
	step := func(what, q string, args ...any) {
		start := time.Now()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		t.Logf("%s: %v", what, time.Since(start))
	}
	if ver == 4 {
		step("schema 5", migrations[4])
		ver = 5
	}
	if ver != 5 {
		t.Fatalf("schema %d: want 4 or 5", ver)
	}
	m := migrations[5]
	m = m[:strings.Index(m, "DROP TABLE names")]
	step("schema 6", m)
	for i := 0; i < n; i += fillChunk {
		step(fmt.Sprintf("words %d", i), wordsFill, i, min(n, i+fillChunk))
	}
	step("stale standings", staleFill)
	step("version", "PRAGMA user_version = 6")
}
