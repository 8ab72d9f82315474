package index

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/match"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// game makes replay i of a synthetic library: bots b0..b(nbots-1) take
// 4 seats in turn, seat k's gold is (i*7+k*13)%100.
func game(i, nbots int) *Replay {
	r := &Replay{Path: fmt.Sprintf("g/%07d.rwd", i), Size: int64(1000 + i%977), ModTime: t0.Add(time.Duration(i) * time.Second),
		Game: "ColorfightII", Format: "rwd", Rounds: 100 + i%400, MaxTurn: 500, Complete: i%10 != 0}
	r.Date = r.ModTime
	type sc struct {
		k    int
		gold int64
	}
	var seats []sc
	for k := 0; k < 4; k++ {
		seats = append(seats, sc{k, int64((i*7 + k*13) % 100)})
	}
	// rank by gold, most first, lowest uid on ties
	order := slices.Clone(seats)
	slices.SortStableFunc(order, func(a, b sc) int {
		if a.gold != b.gold {
			if a.gold > b.gold {
				return -1
			}
			return 1
		}
		return a.k - b.k
	})
	for _, s := range seats {
		bot := fmt.Sprintf("b%d", (i+s.k)%nbots)
		rank := 0
		if r.Complete {
			rank = slices.IndexFunc(order, func(o sc) bool { return o.k == s.k }) + 1
		}
		r.Seats = append(r.Seats, Seat{UID: s.k + 1, Name: fmt.Sprintf("%d_%s", s.k+1, bot), Bot: bot, Rank: rank, Score: s.gold})
	}
	if r.Complete {
		w := r.Seats[order[0].k]
		r.Winner, r.WinnerBot, r.WinnerScore = w.Name, w.Key(), w.Score
	} else {
		r.Status = "incomplete"
	}
	return r
}

func open(t testing.TB, dir string) *Index {
	t.Helper()
	ix, warn, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if warn != nil {
		t.Fatalf("warning on a fresh index: %v", warn)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// all pages through q, checking that no page exceeds the limit.
func all(t *testing.T, ix *Index, q Query) []*Replay {
	t.Helper()
	var out []*Replay
	for range 10000 {
		p, err := ix.Page(q)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Rows) > max(q.Limit, 1) && q.Limit > 0 {
			t.Fatalf("page of %d rows, limit %d", len(p.Rows), q.Limit)
		}
		out = append(out, p.Rows...)
		if p.Next == "" {
			return out
		}
		q.After = p.Next
	}
	t.Fatal("no last page")
	return nil
}

func TestPagesFiltersSearch(t *testing.T) {
	ix := open(t, t.TempDir())
	var reps []*Replay
	for i := range 250 {
		reps = append(reps, game(i, 7))
	}
	if err := ix.Put(reps); err != nil {
		t.Fatal(err)
	}
	if n, _ := ix.Count(); n != 250 {
		t.Fatalf("count %d", n)
	}
	// Every sort pages through every replay once, in order.
	for _, s := range Sorts {
		for _, asc := range []bool{false, true} {
			got := all(t, ix, Query{Sort: s, Asc: asc, Limit: 17})
			if len(got) != 250 {
				t.Fatalf("sort %s asc=%v: %d rows", s, asc, len(got))
			}
			key := func(r *Replay) string {
				switch s {
				case "rounds":
					return fmt.Sprintf("%06d %s", r.Rounds, r.Path)
				case "size":
					return fmt.Sprintf("%06d %s", r.Size, r.Path)
				case "winner":
					return r.Winner + "\x00" + r.Path
				}
				return fmt.Sprintf("%020d %s", r.Date.UnixNano(), r.Path)
			}
			for i := 1; i < len(got); i++ {
				a, b := key(got[i-1]), key(got[i])
				if (asc && a >= b) || (!asc && a <= b) {
					t.Fatalf("sort %s asc=%v: row %d %q then %q", s, asc, i, a, b)
				}
			}
		}
	}
	// The filters agree with the rows.
	check := func(name string, q Query, want func(r *Replay) bool) {
		t.Helper()
		got := all(t, ix, q)
		var exp []string
		for _, r := range reps {
			if want(r) {
				exp = append(exp, r.Path)
			}
		}
		var gp []string
		for _, r := range got {
			gp = append(gp, r.Path)
		}
		slices.Sort(gp)
		slices.Sort(exp)
		if len(exp) == 0 || !slices.Equal(gp, exp) {
			t.Fatalf("%s: got %d rows, want %d", name, len(gp), len(exp))
		}
	}
	has := func(r *Replay, f func(s Seat) bool) bool { return slices.ContainsFunc(r.Seats, f) }
	check("bot", Query{Bot: "b3", Limit: 20}, func(r *Replay) bool { return has(r, func(s Seat) bool { return s.Key() == "b3" }) })
	check("lost", Query{Bot: "b3", Lost: true, Limit: 20}, func(r *Replay) bool {
		return has(r, func(s Seat) bool { return s.Key() == "b3" && s.Rank > 1 })
	})
	check("player", Query{Player: "2_b4"}, func(r *Replay) bool { return has(r, func(s Seat) bool { return s.Name == "2_b4" }) })
	check("winner", Query{Winner: "b1"}, func(r *Replay) bool { return r.WinnerBot == "b1" })
	check("incomplete", Query{Complete: "incomplete"}, func(r *Replay) bool { return !r.Complete })
	check("dates", Query{From: t0.Add(10 * time.Second), To: t0.Add(20 * time.Second)}, func(r *Replay) bool {
		return !r.Date.Before(t0.Add(10*time.Second)) && r.Date.Before(t0.Add(20*time.Second))
	})
	check("search", Query{Search: "4_b2"}, func(r *Replay) bool { return has(r, func(s Seat) bool { return s.Name == "4_b2" }) })
	check("search prefix", Query{Search: "g/000012"}, func(r *Replay) bool { return strings.HasPrefix(r.Path, "g/000012") })
	// A search with more matches than searchDrive walks the sort's index.
	defer func(n int) { searchDrive = n }(searchDrive)
	searchDrive = 3
	check("search, many matches", Query{Search: "4_b2", Limit: 7}, func(r *Replay) bool { return has(r, func(s Seat) bool { return s.Name == "4_b2" }) })
	searchDrive = 5000
	// Hostile search text is words, not FTS syntax.
	if _, err := ix.Page(Query{Search: `" OR * NEAR( -x`}); err != nil {
		t.Fatalf("hostile search: %v", err)
	}
	if _, err := ix.Page(Query{After: "garbage"}); err == nil {
		t.Fatal("a bad cursor was accepted")
	}
	if _, err := ix.Page(Query{Sort: "name; DROP TABLE replays"}); err == nil {
		t.Fatal("a bad sort was accepted")
	}

	// Replacing and deleting keep seats, names and the bot table in step.
	r0 := game(5, 7)
	r0.Seats[0].Name, r0.Seats[0].Bot = "1_zed", "zed"
	if err := ix.Put([]*Replay{r0}); err != nil {
		t.Fatal(err)
	}
	if got := all(t, ix, Query{Search: "zed"}); len(got) != 1 || got[0].Path != r0.Path {
		t.Fatalf("search after replace: %v", got)
	}
	if err := ix.Delete([]string{r0.Path}); err != nil {
		t.Fatal(err)
	}
	if got := all(t, ix, Query{Search: "zed"}); len(got) != 0 {
		t.Fatalf("search after delete: %d rows", len(got))
	}
	if r, err := ix.Get(r0.Path); err != nil || r != nil {
		t.Fatalf("get after delete: %v %v", r, err)
	}
	reps = slices.DeleteFunc(reps, func(r *Replay) bool { return r.Path == r0.Path })

	// Standings are match.Standings of the complete games in path order
	// (computed again in the background after the replacement).
	st := eventually(t, ix)
	var games []match.GameResult
	for _, r := range reps {
		if !r.Complete {
			continue
		}
		g := match.GameResult{Game: len(games)}
		for _, s := range r.Seats {
			g.Seats = append(g.Seats, match.SeatResult{Bot: s.Key(), Rank: s.Rank, Score: s.Score})
		}
		games = append(games, g)
	}
	want := match.Standings(games)
	if len(st) != len(want) {
		t.Fatalf("%d standings, want %d", len(st), len(want))
	}
	for i := range want {
		if st[i].Standing != want[i] {
			t.Fatalf("standing %d: %+v, want %+v", i, st[i].Standing, want[i])
		}
	}
	// The bots table the triggers keep agrees.
	var g, w int
	if err := ix.db.QueryRow("SELECT games, wins FROM bots WHERE key = ?", want[0].Bot).Scan(&g, &w); err != nil {
		t.Fatal(err)
	}
	inc := 0
	for _, r := range reps {
		if !r.Complete && slices.ContainsFunc(r.Seats, func(s Seat) bool { return s.Key() == want[0].Bot }) {
			inc++
		}
	}
	if g != want[0].Games+inc || w != want[0].Wins {
		t.Fatalf("bots table %d games %d wins, standings %d (+%d incomplete) %d", g, w, want[0].Games, inc, want[0].Wins)
	}
}

func TestReopenDamagedNewer(t *testing.T) {
	dir := t.TempDir()
	ix := open(t, dir)
	if err := ix.Put([]*Replay{game(1, 3), game(2, 3)}); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	// Reopened: the rows are there.
	ix = open(t, dir)
	if st, err := ix.Stamps(); err != nil || len(st) != 2 {
		t.Fatalf("stamps after reopen: %v %v", st, err)
	}
	if err := ix.PutAnalyses([]StoredAnalysis{{Path: "a.rwd", Size: 1, MTime: 2, Data: []byte("{}")}}); err != nil {
		t.Fatalf("no analyses table after migrating: %v", err)
	}
	if d, ok, err := ix.Analysis("a.rwd", 1, 2); err != nil || !ok || string(d) != "{}" {
		t.Fatalf("stored analysis: %q %v %v", d, ok, err)
	}
	if _, ok, _ := ix.Analysis("a.rwd", 1, 3); ok {
		t.Fatal("an analysis of another mtime was given")
	}
	ix.Close()

	// A damaged file is set aside and rebuilt with a warning.
	p := filepath.Join(dir, File)
	os.Remove(p + "-wal")
	os.Remove(p + "-shm")
	b, _ := os.ReadFile(p)
	for i := 100; i < len(b); i += 7 {
		b[i] ^= 0x5a
	}
	os.WriteFile(p, b, 0o644)
	ix2, warn, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if warn == nil || !strings.Contains(warn.Error(), "rebuilt") {
		t.Fatalf("no warning for a damaged index: %v", warn)
	}
	if n, _ := ix2.Count(); n != 0 {
		t.Fatalf("the rebuilt index has %d rows", n)
	}
	if _, err := os.Stat(p + ".damaged"); err != nil {
		t.Fatalf("the damaged file was not kept aside: %v", err)
	}
	// A newer schema is refused and the file left alone.
	if _, err := ix2.db.Exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	ix2.Close()
	before, _ := os.ReadFile(p)
	_, _, err = Open(dir)
	if !errors.Is(err, ErrNewerSchema) || !strings.Contains(err.Error(), "newer rewind") {
		t.Fatalf("newer schema: %v", err)
	}
	after, _ := os.ReadFile(p)
	if string(before) != string(after) {
		t.Fatal("the newer index was changed")
	}
	// A foreign SQLite database is rebuilt too.
	dir2 := t.TempDir()
	os.MkdirAll(filepath.Join(dir2, ".rewind"), 0o755)
	os.WriteFile(filepath.Join(dir2, File), []byte("not a database at all, just text"), 0o644)
	ix3, warn, err := Open(dir2)
	if err != nil || warn == nil {
		t.Fatalf("foreign file: %v %v", warn, err)
	}
	ix3.Close()
}

// An index of each older schema (as that schema's migrations made it,
// with a row written by the rewind of its time) opens at the current
// schema: one older than rebuildBelow is rebuilt from the replays (its
// rows lack the games' content hashes) with one warning saying so, and
// the files are read again; a row written now keeps its unit and content.
func TestMigrateOlderSchemas(t *testing.T) {
	for v := 1; v < SchemaVersion; v++ {
		t.Run(fmt.Sprintf("schema%d", v), func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, File)
			os.MkdirAll(filepath.Dir(p), 0o755)
			db, err := sql.Open("sqlite", "file:"+p)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range migrations[:v] {
				if _, err := db.Exec(m); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d; PRAGMA application_id = %d", v, appID)); err != nil {
				t.Fatal(err)
			}
			// A row as schemas 1 and 2 wrote it: no unit.
			if _, err := db.Exec(`INSERT INTO replays(id, path, size, mtime, game, format, rounds, complete, date, winner, winner_bot, winner_score, players)
				VALUES(7, 'm/old.rwd', 10, 20, 'Monad', 'rwd', 300, 1, 20, '1_a', 'a', 115, '1_a, 2_b');
				INSERT INTO seats(replay, uid, name, bot, key, rank, score) VALUES(7, 1, '1_a', 'a', 'a', 1, 115), (7, 2, '2_b', 'b', 'b', 2, 40)`); err != nil {
				t.Fatal(err)
			}
			db.Close()

			ix, warn, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			if v < rebuildBelow {
				if warn == nil || !strings.Contains(warn.Error(), "older rewind") || strings.Contains(warn.Error(), "\n") {
					t.Fatalf("an index of schema %d: warning %v, want one line saying it was rebuilt", v, warn)
				}
				if n, _ := ix.Count(); n != 0 {
					t.Fatalf("the rebuilt index has %d rows", n)
				}
			} else if warn != nil {
				t.Fatalf("a migrated index: warning %v", warn)
			}
			var ver int
			if err := ix.db.QueryRow("PRAGMA user_version").Scan(&ver); err != nil || ver != SchemaVersion {
				t.Fatalf("schema version after opening: %d %v", ver, err)
			}
			if err := ix.PutAnalyses([]StoredAnalysis{{Path: "a.rwd", Size: 1, MTime: 2, Data: []byte("{}")}}); err != nil {
				t.Fatalf("no analyses table after opening: %v", err)
			}
			// A row written now keeps its unit and content; a unit too long is kept as "".
			n, l := game(1, 3), game(2, 3)
			n.Unit, l.Unit, n.Content = "resources", strings.Repeat("u", MaxUnitBytes+1), "abc"
			if err := ix.Put([]*Replay{n, l}); err != nil {
				t.Fatal(err)
			}
			if r, err := ix.Get(n.Path); err != nil || r.Unit != "resources" {
				t.Fatalf("unit written after opening: %+v %v", r, err)
			}
			if c, err := ix.Copy("abc"); err != nil || c != n.Path {
				t.Fatalf("the copy of content abc: %q %v", c, err)
			}
			if r, err := ix.Get(l.Path); err != nil || r.Unit != "" {
				t.Fatalf("a unit of %d bytes read back as %q %v", len(l.Unit), r.Unit, err)
			}
			pg, err := ix.Page(Query{Game: "ColorfightII", Sort: "winner"})
			if err != nil || len(pg.Rows) != 2 || pg.Rows[0].Unit+pg.Rows[1].Unit != "resources" {
				t.Fatalf("units of a page: %+v %v", pg, err)
			}
		})
	}
}

// The stored standings are answered at once; a game added after the last
// counted is counted by its Put; after a change before it they are
// computed again in the background and become current.
func TestStandingsKeptAndRefreshed(t *testing.T) {
	ix := open(t, t.TempDir())
	if err := ix.Put([]*Replay{game(1, 3), game(2, 3)}); err != nil {
		t.Fatal(err)
	}
	st, err := ix.Standings(Query{})
	if err != nil || !ix.StandingsFresh() {
		t.Fatalf("first standings: %v, fresh %v", err, ix.StandingsFresh())
	}
	games := 0
	for _, s := range st {
		games += s.Games
	}
	if err := ix.Put([]*Replay{game(3, 3)}); err != nil {
		t.Fatal(err)
	}
	if !ix.StandingsFresh() {
		t.Fatal("a game after the last not counted by its Put")
	}
	before := game(4, 3)
	before.Path = "a/first.rwd"
	if err := ix.Put([]*Replay{before}); err != nil {
		t.Fatal(err)
	}
	if ix.StandingsFresh() {
		t.Fatal("standings fresh after a change before the last counted")
	}
	ix.Standings(Query{}) // the stored ones; starts the computation
	for range 600 {
		if ix.StandingsFresh() {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	st, err = ix.Standings(Query{})
	if err != nil {
		t.Fatalf("standings after the change: %v", err)
	}
	after := 0
	for _, s := range st {
		after += s.Games
	}
	if !ix.StandingsFresh() || after != games+8 {
		t.Fatalf("after the change: fresh %v, %d seat-games, want %d", ix.StandingsFresh(), after, games+8)
	}
}

// wantStandings is match.Standings of the complete games of reps in game
// order (the creation time, then the path), one table per game, as
// Standings computes them: a full recomputation.
func wantStandings(reps map[string]*Replay) []Standing {
	paths := slices.Sorted(maps.Keys(reps))
	slices.SortStableFunc(paths, func(a, b string) int { return reps[a].Created.Compare(reps[b].Created) })
	var out []Standing
	for _, game := range standingsGames() {
		var games []match.GameResult
		for _, p := range paths {
			r := reps[p]
			if !r.Complete || r.Game != game {
				continue
			}
			g := match.GameResult{Ruleset: rulesetOf(game)}
			for _, s := range r.Seats {
				g.Seats = append(g.Seats, match.SeatResult{Bot: s.Key(), Rank: s.Rank, Score: s.Score, Measure: s.Measure})
			}
			games = append(games, g)
		}
		for _, s := range match.Standings(games) {
			out = append(out, Standing{Standing: s, Game: game})
		}
	}
	return out
}

// eventually waits (a safety net, not a verdict) for the kept standings
// to be fresh.
func eventually(t *testing.T, ix *Index) []Standing {
	t.Helper()
	for range 600 {
		// Fresh before and after, and the same state (its seq): the
		// standings read in between are current (Standings starts the
		// computation when they are not).
		before, err := readStored(ix.db)
		if err != nil {
			t.Fatal(err)
		}
		st, err := ix.Standings(Query{})
		if err != nil {
			t.Fatal(err)
		}
		after, err := readStored(ix.db)
		if err != nil {
			t.Fatal(err)
		}
		if !before.stale && !after.stale && before.seq == after.seq {
			return st
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the standings never became fresh")
	return nil
}

// Games added after the last one counted (in path order) are counted into
// the kept standings by the request that finds them; a change before it
// (a game added, replaced or deleted) has them computed again in the
// background, the kept ones answered meanwhile. Either way they end as
// match.Standings of the library.
func TestStandingsIncremental(t *testing.T) {
	ix := open(t, t.TempDir())
	reps := map[string]*Replay{}
	put := func(rs ...*Replay) {
		t.Helper()
		if err := ix.Put(rs); err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			reps[r.Path] = r
		}
	}
	monadGame := func(i int) *Replay {
		r := game(i, 5)
		r.Game, r.Path = "Monad", fmt.Sprintf("g/%07d.m.rwd", i)
		for k := range r.Seats {
			r.Seats[k].Measure = int64(i + k)
		}
		return r
	}
	check := func(what string, st []Standing) {
		t.Helper()
		if want := wantStandings(reps); !slices.Equal(st, want) {
			t.Fatalf("%s: %+v\nwant %+v", what, st, want)
		}
	}
	now := func(what string) {
		t.Helper()
		st, err := ix.Standings(Query{})
		if err != nil {
			t.Fatal(err)
		}
		if !ix.StandingsFresh() {
			t.Fatalf("%s: not counted by the request", what)
		}
		check(what, st)
	}
	for i := 10; i < 30; i++ {
		put(game(i, 5))
	}
	put(monadGame(29)) // its path sorts before game 29's: computed again
	check("first", eventually(t, ix))
	// Added after the last: counted at once, one or many, complete or not.
	put(game(30, 5))
	now("one after")
	put(game(31, 5), monadGame(33), game(40, 5), game(32, 5))
	now("four after")
	put(monadGame(41))
	now("a Monad game after")

	// Added before the last: the kept standings are answered, and computed
	// again in the background.
	before, _ := ix.Standings(Query{})
	put(game(5, 5))
	st, err := ix.Standings(Query{})
	if err != nil {
		t.Fatalf("after a game before the last: %v", err)
	}
	// The kept ones, or the new ones if computed already.
	if !slices.Equal(st, before) && !slices.Equal(st, wantStandings(reps)) {
		t.Fatal("standings that are neither the kept ones nor the library's")
	}
	check("a game before", eventually(t, ix))
	// A counted game replaced, then one deleted.
	r := game(12, 5)
	r.Seats[0].Score, r.Seats[1].Score = r.Seats[1].Score, r.Seats[0].Score
	put(r)
	check("replaced", eventually(t, ix))
	if err := ix.Delete([]string{game(20, 5).Path}); err != nil {
		t.Fatal(err)
	}
	delete(reps, game(20, 5).Path)
	check("deleted", eventually(t, ix))
	now("again")

	// Many new games in one Put: all counted by it.
	var many []*Replay
	for i := 100; i < 120; i++ {
		many = append(many, monadGame(i), game(i, 5))
	}
	put(many...)
	now("many")
}

// Changes made while the standings are being counted (games after the
// last, before it, deleted) are never lost: once the changes stop, the
// standings become those of the library.
func TestStandingsConcurrentChanges(t *testing.T) {
	ix := open(t, t.TempDir())
	reps := map[string]*Replay{}
	var mu sync.Mutex
	put := func(rs ...*Replay) {
		if err := ix.Put(rs); err != nil {
			t.Error(err)
		}
		mu.Lock()
		for _, r := range rs {
			reps[r.Path] = r
		}
		mu.Unlock()
	}
	for i := range 200 {
		put(game(2*i, 6))
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // one writer (SQLite's): games at the end, in between, deletions
		defer wg.Done()
		for i := range 100 {
			put(game(400+i, 6))
			if i%2 == 1 {
				continue
			}
			put(game(i+1, 6))
			if i%10 == 0 {
				p := game(i, 6).Path
				if err := ix.Delete([]string{p}); err != nil {
					t.Error(err)
				}
				mu.Lock()
				delete(reps, p)
				mu.Unlock()
			}
		}
	}()
	go func() {
		defer wg.Done()
		for range 100 {
			if _, err := ix.Standings(Query{}); err != nil {
				t.Error(err)
			}
		}
	}()
	wg.Wait()
	if st := eventually(t, ix); !slices.Equal(st, wantStandings(reps)) {
		t.Fatalf("%+v\nwant %+v", st, wantStandings(reps))
	}
}

// TestConcurrentWriters: writers at once (serve's folder check, an upload,
// a fork, analyze DIR) wait for each other: none fails with SQLITE_BUSY,
// and every replay is there after.
func TestConcurrentWriters(t *testing.T) {
	ix := open(t, t.TempDir())
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				if err := ix.Put([]*Replay{game(1000*w+i, 4)}); err != nil {
					t.Errorf("writer %d, put %d: %v", w, i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	var n int
	if err := ix.db.QueryRow("SELECT count(*) FROM replays").Scan(&n); err != nil || n != 200 {
		t.Errorf("%d replays (%v), want 200", n, err)
	}
}

// TestStandingsEveryGame: the standings have a table for every registered
// game with complete games in the library — Skyport's too, which a fixed
// list of games left out — in the registry's order, filtered or not.
func TestStandingsEveryGame(t *testing.T) {
	ix := open(t, t.TempDir())
	var reps []*Replay
	for i, name := range []string{"Skyport", "Monad", "ColorfightII"} {
		r := game(i+1, 2) // complete; seats b0 and b1
		r.Game, r.Path = name, fmt.Sprintf("g/%d.rwd", i)
		reps = append(reps, r)
	}
	if err := ix.Put(reps); err != nil {
		t.Fatal(err)
	}
	for _, q := range []Query{{}, {Bot: "b0"}} {
		st, err := ix.Standings(q)
		if err != nil {
			t.Fatal(err)
		}
		var games []string
		for _, s := range st {
			if len(games) == 0 || games[len(games)-1] != s.Game {
				games = append(games, s.Game)
			}
		}
		if want := []string{"ColorfightII", "Monad", "Skyport"}; !slices.Equal(games, want) {
			t.Errorf("query %+v: tables %q, want %q", q, games, want)
		}
	}
}

// TestWalkStampsInWalkOrder: WalkStamps lists the paths in the order
// fs.WalkDir visits them (a folder's files right after its name, before
// "a-b" and "a.x"), which WalkOrder compares.
func TestWalkStampsInWalkOrder(t *testing.T) {
	dir := t.TempDir()
	ix := open(t, dir)
	paths := []string{"a-b.rwd", "a/x.rwd", "a.rwd", "a/b/c.rwd", "ab.rwd", "a/b-c.rwd", "Z.rwd", "a/b.rwd"}
	var reps []*Replay
	for i, p := range paths {
		r := game(i, 4)
		r.Path = p
		reps = append(reps, r)
		// the folder as a walk sees it
		if err := os.MkdirAll(filepath.Join(dir, "w", filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "w", p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := ix.Put(reps); err != nil {
		t.Fatal(err)
	}
	var walked []string
	fs.WalkDir(os.DirFS(filepath.Join(dir, "w")), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			walked = append(walked, p)
		}
		return nil
	})
	c, err := ix.WalkStamps()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var got []string
	for c.Next() {
		got = append(got, c.Path())
	}
	if err := c.Err(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, walked) {
		t.Errorf("WalkStamps %q\nwalk        %q", got, walked)
	}
	if !slices.IsSortedFunc(walked, WalkOrder) {
		t.Errorf("WalkOrder does not sort %q", walked)
	}
}

// TestRatingIsStandingsAfterEachPoint: a bot's rating over time is its
// Elo and μ − 3σ in match.Standings of the library's complete games up to
// each point: after its games number stride, 2·stride, … (the stride
// doubling each time the points fill up, so that they stay spread over
// all its games) and after its latest game — kept as the games are put,
// one Put or many, and across a reopening of the index.
func TestRatingIsStandingsAfterEachPoint(t *testing.T) {
	defer func(n int) { curvePoints = n }(curvePoints)
	curvePoints = 8
	dir := t.TempDir()
	ix := open(t, dir)
	var games []match.GameResult
	var paths []string
	for i := range 300 {
		r := game(i, 6)
		if err := ix.Put([]*Replay{r}); err != nil {
			t.Fatal(err)
		}
		if i == 150 { // half the games, then the index reopened
			ix.Close()
			ix = open(t, dir)
		}
		if r.Complete {
			g := match.GameResult{Game: len(games)}
			for _, s := range r.Seats {
				g.Seats = append(g.Seats, match.SeatResult{Bot: s.Key(), Rank: s.Rank, Score: s.Score, Measure: s.Measure})
			}
			games = append(games, g)
			paths = append(paths, r.Path)
		}
	}
	const bot = "b3"
	var mine []int
	for i, g := range games {
		if slices.ContainsFunc(g.Seats, func(s match.SeatResult) bool { return s.Bot == bot }) {
			mine = append(mine, i)
		}
	}
	// 180 games of b3 (of 270 complete): 8 points at 1..8, then every 2nd,
	// 4th, …: at stride 32, games 32, 64, …, 160, then the latest.
	stride := 1
	for len(mine)/stride > curvePoints {
		stride *= 2
	}
	var want []RatingPoint
	at := func(i int) {
		for _, st := range match.Standings(games[:i+1]) {
			if st.Bot == bot {
				want = append(want, RatingPoint{Game: i + 1, Path: paths[i], Elo: st.Elo, Conservative: st.Conservative})
			}
		}
	}
	for k := stride; k <= len(mine); k += stride {
		at(mine[k-1])
	}
	if len(mine)%stride != 0 {
		at(mine[len(mine)-1])
	}
	got, err := ix.Rating(bot)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("rating over time (stride %d, %d games):\n%+v\nwant %+v", stride, len(mine), got, want)
	}
	if len(got) > curvePoints+1 {
		t.Fatalf("%d points, at most %d", len(got), curvePoints+1)
	}
	if pts, err := ix.Rating("nobody"); err != nil || pts != nil {
		t.Fatalf("a bot that played nothing: %v %v", pts, err)
	}
}

// TestStandingsGameOrder: the standings count games in game order — the
// header's creation time, then the path — not in path order, and files
// that arrive out of that order (a game recorded earlier indexed later,
// an older replay replacing a newer one, a deletion) leave the kept
// standings equal to a full recomputation in game order, whichever way
// they were brought up to date. The order matters: the same games rated
// in path order give other ratings.
func TestStandingsGameOrder(t *testing.T) {
	ix := open(t, t.TempDir())
	reps := map[string]*Replay{}
	put := func(rs ...*Replay) {
		t.Helper()
		if err := ix.Put(rs); err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			reps[r.Path] = r
		}
	}
	// Game i is recorded at minute 100-i: creation order is the reverse of
	// path order.
	recorded := func(i, minute int) *Replay {
		r := game(i, 5)
		r.Created = t0.Add(time.Duration(minute) * time.Minute)
		return r
	}
	check := func(what string, st []Standing) {
		t.Helper()
		if want := wantStandings(reps); !slices.Equal(st, want) {
			t.Fatalf("%s: %+v\nwant %+v", what, st, want)
		}
	}
	var first []*Replay
	for i := 1; i <= 40; i++ {
		first = append(first, recorded(i, 100-i))
	}
	put(first...)
	st, err := ix.Standings(Query{})
	if err != nil {
		t.Fatal(err)
	}
	check("first", st)
	// In path order the same games rate otherwise.
	byPath := map[string]*Replay{}
	for p, r := range reps {
		c := *r
		c.Created = time.Time{}
		byPath[p] = &c
	}
	if slices.Equal(st, wantStandings(byPath)) {
		t.Fatal("game order and path order give the same standings: the test tells nothing")
	}
	// Recorded after every game so far, whatever its path: counted by the
	// request.
	put(recorded(0, 500))
	if st, _ = ix.Standings(Query{}); !ix.StandingsFresh() {
		t.Fatal("a game recorded after the last was not counted by the request")
	}
	check("recorded last, path first", st)
	// Recorded before the last counted, path after every other: computed
	// again.
	put(recorded(99, 50))
	check("recorded in between, path last", eventually(t, ix))
	// An older recording replaces a counted game; one is deleted.
	put(recorded(5, 1))
	check("replaced by an older recording", eventually(t, ix))
	if err := ix.Delete([]string{game(30, 5).Path}); err != nil {
		t.Fatal(err)
	}
	delete(reps, game(30, 5).Path)
	check("deleted", eventually(t, ix))
	// The bot's rating curve follows game order too: its last point is
	// its standing's.
	pts, err := ix.Rating("b1")
	if err != nil || len(pts) == 0 {
		t.Fatalf("rating: %v %v", pts, err)
	}
	for _, s := range wantStandings(reps) {
		if s.Bot == "b1" {
			if p := pts[len(pts)-1]; p.Elo != s.Elo || p.Conservative != s.Conservative {
				t.Errorf("last rating point %+v, standing %+v", p, s)
			}
		}
	}
}

// TestStandingsKeptAcrossReopen: the kept standings live in the index:
// after a close and reopen the first request answers them without
// reading a game (the games' seats are removed behind the index's back,
// so that a computation would find none), and games put after the
// reopening, in game order or out of it, leave them equal to a full
// recomputation in game order. With 3 bots for 4 seats a bot holds two
// seats of some games (its curve counts such a game once, its table
// twice).
func TestStandingsKeptAcrossReopen(t *testing.T) {
	for _, nbots := range []int{5, 3} {
		t.Run(fmt.Sprintf("%d bots", nbots), func(t *testing.T) { standingsKeptAcrossReopen(t, nbots) })
	}
}

func standingsKeptAcrossReopen(t *testing.T, nbots int) {
	dir := t.TempDir()
	ix := open(t, dir)
	reps := map[string]*Replay{}
	put := func(ix *Index, rs ...*Replay) {
		t.Helper()
		if err := ix.Put(rs); err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			reps[r.Path] = r
		}
	}
	recorded := func(i, minute int) *Replay {
		r := game(i, nbots)
		r.Created = t0.Add(time.Duration(minute) * time.Minute)
		return r
	}
	// Out of order (recorded in the reverse of path order), one by one.
	for i := 1; i <= 30; i++ {
		put(ix, recorded(i, 100-i))
	}
	want := wantStandings(reps)
	if st := eventually(t, ix); !slices.Equal(st, want) {
		t.Fatalf("before closing: %+v\nwant %+v", st, want)
	}
	ix.Close()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("DELETE FROM seats"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ix = open(t, dir)
	st, err := ix.Standings(Query{})
	if err != nil || !ix.StandingsFresh() || !slices.Equal(st, want) {
		t.Fatalf("the first request after reopening (fresh %v, %v): %+v\nwant the stored %+v", ix.StandingsFresh(), err, st, want)
	}
	if pts, err := ix.Rating("b2"); err != nil || len(pts) == 0 {
		t.Fatalf("rating after reopening: %v %v", pts, err)
	}
	// The rows again as they were (seats and all), then more games: one
	// after the last, counted by its Put; one before it, computed again.
	var all []*Replay
	for _, p := range slices.Sorted(maps.Keys(reps)) {
		all = append(all, reps[p])
	}
	if err := ix.Delete(slices.Sorted(maps.Keys(reps))); err != nil {
		t.Fatal(err)
	}
	put(ix, all...)
	eventually(t, ix)
	ix.Close()
	ix = open(t, dir)
	put(ix, recorded(50, 500))
	if st, err := ix.Standings(Query{}); err != nil || !ix.StandingsFresh() || !slices.Equal(st, wantStandings(reps)) {
		t.Fatalf("a game after the last, after reopening (fresh %v, %v): %+v", ix.StandingsFresh(), err, st)
	}
	ix.Close()
	ix = open(t, dir)
	put(ix, recorded(60, 10))
	if st := eventually(t, ix); !slices.Equal(st, wantStandings(reps)) {
		t.Fatalf("a game before the last, after reopening: %+v\nwant %+v", st, wantStandings(reps))
	}
	ix.Close()
	ix = open(t, dir)
	if st, err := ix.Standings(Query{}); err != nil || !ix.StandingsFresh() || !slices.Equal(st, wantStandings(reps)) {
		t.Fatalf("reopened again: %v %+v", err, st)
	}
}

// TestStandingsStateDamaged: a stored state that does not decode is
// computed again from the games, never answered or panicked on.
func TestStandingsStateDamaged(t *testing.T) {
	ix := open(t, t.TempDir())
	reps := map[string]*Replay{}
	for i := 1; i <= 20; i++ {
		r := game(i, 4)
		reps[r.Path] = r
		if err := ix.Put([]*Replay{r}); err != nil {
			t.Fatal(err)
		}
	}
	for _, bad := range [][]byte{[]byte("RWKS\x01\xff"), []byte("junk"), []byte("RWKS\x09")} {
		ix.mu.Lock()
		ix.cache = nil
		ix.mu.Unlock()
		if _, err := ix.db.Exec("UPDATE standings SET seq = seq + 1, state = ?", bad); err != nil {
			t.Fatal(err)
		}
		if st := eventually(t, ix); !slices.Equal(st, wantStandings(reps)) {
			t.Fatalf("after the state %q: %+v", bad, st)
		}
	}
}

// TestFilterPlansAgree: a search and a winner filter select the same
// replays, in the same order, whether their matches drive the query
// (few) or the sort's index is walked and each row tested (many: a
// search tests the row's words, replays.words): names with capitals,
// diacritics, digits and punctuation, a word of two tokens, two words, a
// word of no token, nothing matching.
func TestFilterPlansAgree(t *testing.T) {
	ix := open(t, t.TempDir())
	var reps []*Replay
	names := []string{"Émile", "zoë_bot", "Alpha-2", "x.y", "ÉCOLE", "b"}
	for i := range 120 {
		r := game(i, 7)
		r.Seats[i%4].Name = fmt.Sprintf("%d_%s", i%4+1, names[i%len(names)])
		r.Seats[(i+1)%4].Bot = names[(i+3)%len(names)]
		if i%5 == 0 {
			r.Path = fmt.Sprintf("sub dir/Ü%03d.rwd", i)
		}
		if r.Complete {
			w := r.Seats[0]
			r.Winner, r.WinnerBot = w.Name, w.Key()
		}
		reps = append(reps, r)
	}
	if err := ix.Put(reps); err != nil {
		t.Fatal(err)
	}
	defer func(d, w int) { searchDrive, searchWalkRows = d, w }(searchDrive, searchWalkRows)
	queries := []Query{{Search: "émile"}, {Search: "ÉMI"}, {Search: "zoë"}, {Search: "alpha-2"}, {Search: "x.y"}, {Search: "école b"},
		{Search: "dir/ü0"}, {Search: "sub/ü0"}, {Search: "ü01"}, {Search: "1_é"}, {Search: "b1 g"}, {Search: "/"}, {Search: "nothing"}, {Search: "É", Sort: "rounds"},
		{Winner: "b3"}, {Winner: "1_b2"}, {Winner: "Émile"}, {Winner: "nobody"}, {Winner: "b1", Search: "x"}}
	for _, q := range queries {
		q.Limit = 7
		searchDrive, searchWalkRows = 1<<20, 0 // the matches drive, the walk given up at once
		drive := all(t, ix, q)
		searchDrive, searchWalkRows = 0, 1<<20 // the sort's index walked
		walk := all(t, ix, q)
		var a, b []string
		for _, r := range drive {
			a = append(a, r.Path)
		}
		for _, r := range walk {
			b = append(b, r.Path)
		}
		if !slices.Equal(a, b) {
			t.Errorf("%+v: driven by the matches %q\nwalked %q", q, a, b)
		}
		if q.Search == "nothing" || q.Search == "sub/ü0" || q.Winner == "nobody" {
			if len(a) != 0 {
				t.Errorf("%+v: %d rows", q, len(a))
			}
		} else if q.Search != "/" && len(a) == 0 {
			t.Errorf("%+v: matches nothing: the test tells nothing", q)
		}
	}
	if got := all(t, ix, Query{Search: "/", Limit: 50}); len(got) != len(reps) {
		t.Errorf("a search of no word: %d rows, want every replay (%d)", len(got), len(reps))
	}
}
