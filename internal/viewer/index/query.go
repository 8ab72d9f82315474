package index

import (
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
)

// MaxPage bounds a page's rows; DefaultPage is a page's size when the
// query gives none.
const (
	MaxPage     = 500
	DefaultPage = 100
)

// MaxSearch bounds a search's length in bytes.
const MaxSearch = 200

// Sorts are the orders a page can be listed in: by date (newest first by
// default), rounds, size or winner; each ties on the path.
var Sorts = []string{"date", "rounds", "size", "winner"}

// Query selects and orders replays. Every filter is optional; the zero
// Query lists every replay newest first.
type Query struct {
	// Sort is one of Sorts ("" = "date"); Asc lists smallest first (the
	// default is largest first for date, rounds and size, A to Z for
	// winner when Asc is set).
	Sort string
	Asc  bool
	// After is the cursor of the previous page (Page.Next): the page
	// starts after it.
	After string
	Limit int
	// Game is "ColorfightII" or "Monad".
	Game string
	// Bot keeps the games of every bot whose Seat.Key contains Bot,
	// ASCII letters compared case-insensitively ("RUNTIME" keeps
	// runtimeterrors' games); with Lost, only those such a bot did not win (its seat's rank is not 1: games without a
	// known ranking are left out).
	Bot  string
	Lost bool
	// Player keeps the games with a seat of this name.
	Player string
	// Winner keeps the games won by this seat name or bot identity.
	Winner string
	// From and To bound the date (To exclusive); zero for none.
	From, To time.Time
	// Complete is "complete", "incomplete" or "" (both).
	Complete string
	// Search is a full-text search over the path, seat names and bots:
	// every word must start a word there.
	Search string

	// walking leaves the search out of where: walkPage tests each row.
	walking bool
}

// Page is one page of a listing.
type Page struct {
	Rows []*Replay
	// Next is the cursor of the next page; "" on the last page.
	Next string
}

type cursor struct {
	V any    `json:"v"`
	P string `json:"p"`
}

// where builds the filter clause and its arguments.
func (q *Query) where(ix *Index) (string, []any, error) {
	var conds []string
	var args []any
	if q.Game != "" {
		conds = append(conds, "r.game = ?")
		args = append(args, q.Game)
	}
	if q.Bot != "" {
		// The bots whose key holds q.Bot, found in the bots table (one
		// row per bot, not per seat), then their seats by seats_key. The
		// bots table counts their games: none, and nothing is read; few
		// (at most searchDrive), and their seats drive the query; many,
		// and the sort's index is walked, each row tested (a page is
		// found after about rows/games rows).
		bots := "s.key IN (SELECT key FROM bots WHERE instr(lower(key), ?) > 0)"
		lost := ""
		if q.Lost {
			lost = " AND s.rank > 1"
		}
		var games int64
		if err := ix.db.QueryRow("SELECT coalesce(sum(games), 0) FROM bots WHERE instr(lower(key), ?) > 0", strings.ToLower(q.Bot)).Scan(&games); err != nil {
			return "", nil, fmt.Errorf("index: bot filter: %w", err)
		}
		switch {
		case games == 0:
			conds = append(conds, "0")
		case games <= int64(searchDrive):
			conds = append(conds, "r.id IN (SELECT s.replay FROM seats s WHERE "+bots+lost+")")
			args = append(args, strings.ToLower(q.Bot))
		default:
			conds = append(conds, "EXISTS (SELECT 1 FROM seats s WHERE "+bots+" AND s.replay = r.id"+lost+")")
			args = append(args, strings.ToLower(q.Bot))
		}
	}
	if q.Player != "" {
		// As a bot's: few seats of that name drive the query.
		var n int
		if err := ix.db.QueryRow("SELECT count(*) FROM (SELECT 1 FROM seats WHERE name = ? LIMIT ?)", q.Player, searchDrive+1).Scan(&n); err != nil {
			return "", nil, fmt.Errorf("index: player filter: %w", err)
		}
		switch {
		case n == 0:
			conds = append(conds, "0")
		case n <= searchDrive:
			conds = append(conds, "r.id IN (SELECT s.replay FROM seats s WHERE s.name = ?)")
			args = append(args, q.Player)
		default:
			conds = append(conds, "EXISTS (SELECT 1 FROM seats s WHERE s.name = ? AND s.replay = r.id)")
			args = append(args, q.Player)
		}
	}
	if q.Winner != "" {
		// As a bot's: the games it won counted first (by the winner's
		// and winner_bot's indexes, up to searchDrive+1): none and
		// nothing is read; few and they drive the query; many and the
		// sort's index is walked, each row tested.
		var n int
		if err := ix.db.QueryRow(winnerCount, q.Winner, searchDrive+1, q.Winner, searchDrive+1).Scan(&n); err != nil {
			return "", nil, fmt.Errorf("index: winner filter: %w", err)
		}
		switch {
		case n == 0:
			conds = append(conds, "0")
		case n <= searchDrive:
			conds = append(conds, "r.id IN (SELECT id FROM replays WHERE winner = ? UNION SELECT id FROM replays WHERE winner_bot = ?)")
			args = append(args, q.Winner, q.Winner)
		default:
			conds = append(conds, "(+r.winner = ? OR +r.winner_bot = ?)")
			args = append(args, q.Winner, q.Winner)
		}
	}
	if !q.From.IsZero() {
		conds = append(conds, "r.date >= ?")
		args = append(args, q.From.UnixNano())
	}
	if !q.To.IsZero() {
		conds = append(conds, "r.date < ?")
		args = append(args, q.To.UnixNano())
	}
	switch q.Complete {
	case "":
	case "complete":
		conds = append(conds, "r.complete = 1")
	case "incomplete":
		conds = append(conds, "r.complete = 0")
	default:
		return "", nil, fmt.Errorf("complete=%q: want complete or incomplete", q.Complete)
	}
	if s := strings.TrimSpace(q.Search); s != "" {
		if len(s) > MaxSearch {
			return "", nil, fmt.Errorf("search of %d bytes: at most %d", len(s), MaxSearch)
		}
		// Driven by the full-text index: each match looked up,
		// O(matches). Page first walks the sort's index for a page of
		// matches (walkPage), which is O(page) for a common word.
		if fq := ftsQuery(s); fq != "" && !q.walking {
			conds = append(conds, "r.id IN (SELECT rowid FROM names WHERE names MATCH ?)")
			args = append(args, fq)
		}
	}
	if len(conds) == 0 {
		return "", nil, nil
	}
	return " AND " + strings.Join(conds, " AND "), args, nil
}

// searchDrive is how many matches a search may have for the full-text
// index to drive the query.
var searchDrive = 5000

// winnerCount counts, up to a bound, the replays won by a seat name
// (the winner index) and by a bot (winner_bot's): ?, bound, ?, bound.
const winnerCount = "SELECT (SELECT count(*) FROM (SELECT 1 FROM replays WHERE winner = ? LIMIT ?)) + (SELECT count(*) FROM (SELECT 1 FROM replays WHERE winner_bot = ? LIMIT ?))"

// ftsQuery turns words into an FTS5 query where each word is a quoted
// prefix: no word is read as FTS5 syntax. A word of no token (wordsNeedle
// "": punctuation only) is left out; "" when none is left.
func ftsQuery(s string) string {
	var parts []string
	for _, w := range strings.Fields(s) {
		if wordsNeedle(w) == "" {
			continue
		}
		parts = append(parts, `"`+strings.ReplaceAll(w, `"`, `""`)+`"*`)
	}
	return strings.Join(parts, " ")
}

// pageQuery is the SQL of Page(q) and its arguments, the sort's column
// and the page's size.
func (ix *Index) pageQuery(q Query) (query string, args []any, col string, limit int, err error) {
	col = "date"
	switch q.Sort {
	case "", "date":
	case "rounds", "size", "winner":
		col = q.Sort
	default:
		return "", nil, "", 0, fmt.Errorf("sort=%q: want one of %s", q.Sort, strings.Join(Sorts, ", "))
	}
	limit = q.Limit
	if limit <= 0 {
		limit = DefaultPage
	}
	limit = min(limit, MaxPage)
	var where string
	where, args, err = q.where(ix)
	if err != nil {
		return "", nil, "", 0, err
	}
	dir, cmp := "DESC", "<"
	if q.Asc {
		dir, cmp = "ASC", ">"
	}
	if q.After != "" {
		var c cursor
		b, err := base64.RawURLEncoding.DecodeString(q.After)
		if err != nil || json.Unmarshal(b, &c) != nil {
			return "", nil, "", 0, fmt.Errorf("after=%q: not a cursor of this listing", q.After)
		}
		v := c.V
		if f, ok := v.(float64); ok {
			v = int64(f)
		}
		where += fmt.Sprintf(" AND (r.%s, r.path) %s (?, ?)", col, cmp)
		args = append(args, v, c.P)
	}
	// For the path tie-break, an order in the same direction keeps the
	// keyset comparison a row-value one.
	cols, n := replayCols, limit+1
	if q.walking {
		cols, n = "r.id, r.words", searchWalkRows
	}
	query = fmt.Sprintf("SELECT %s FROM replays r WHERE 1%s ORDER BY r.%s %s, r.path %s LIMIT %d", cols, where, col, dir, dir, n)
	return query, args, col, limit, nil
}

// Page lists one page of the replays q selects. A search first walks
// the sort's index for a page of its matches (walkPage: O(page) for a
// word in many replays); when the walk ends before a page is found, the
// full-text index drives the query (O(matches): few, then).
func (ix *Index) Page(q Query) (*Page, error) {
	q.walking = false
	if needles := searchNeedles(q.Search); len(needles) > 0 && len(q.Search) <= MaxSearch {
		if p, err := ix.walkPage(q, needles); err != nil || p != nil {
			return p, err
		}
	}
	query, args, col, limit, err := ix.pageQuery(q)
	if err != nil {
		return nil, err
	}
	rows, err := ix.db.Query(query, args...)
	if err != nil {
		return nil, fmt.Errorf("index: list: %w", err)
	}
	reps, ids, err := scanReplays(rows)
	if err != nil {
		return nil, err
	}
	return ix.page(reps, ids, col, limit)
}

// searchWalkRows bounds the rows walkPage reads: past them, a search is
// driven by the full-text index (its matches are then at most about
// replays·page/searchWalkRows).
var searchWalkRows = 10_000

// searchNeedles are the words of a search as walkPage tests them
// (wordsNeedle), those of no token left out.
func searchNeedles(s string) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		if nd := wordsNeedle(w); nd != "" {
			out = append(out, nd)
		}
	}
	return out
}

// walkPage lists q's page by walking the sort's index (q's other filters
// applied by the query) and keeping the rows whose words (replays.words)
// hold every needle, reading at most searchWalkRows rows: nil when it
// read them all without finding the page's rows and the row after them
// (nor the listing's end).
func (ix *Index) walkPage(q Query, needles []string) (*Page, error) {
	q.walking = true
	query, args, col, limit, err := ix.pageQuery(q)
	if err != nil {
		return nil, err
	}
	rows, err := ix.db.Query(query, args...)
	if err != nil {
		return nil, fmt.Errorf("index: list: %w", err)
	}
	// Two columns a row: the walk reads the index and the row's words,
	// and only the page's rows are read whole (by id, in the same order).
	var ids []int64
	read, found := 0, false
	defer rows.Close()
	for rows.Next() && !found {
		var id int64
		var words string
		if err := rows.Scan(&id, &words); err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
		read++
		if !slices.ContainsFunc(needles, func(nd string) bool { return !strings.Contains(words, nd) }) {
			ids = append(ids, id)
			found = len(ids) > limit
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	rows.Close()
	if !found && read >= searchWalkRows {
		return nil, nil
	}
	reps, err := ix.byIDs(ids, col, q.Asc)
	if err != nil {
		return nil, err
	}
	return ix.page(reps, ids, col, limit)
}

// byIDs reads the replays of ids, listed by col as a page is (Asc or
// not): ids must be in that order already, as walkPage found them.
func (ix *Index) byIDs(ids []int64, col string, asc bool) ([]*Replay, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	dir := "DESC"
	if asc {
		dir = "ASC"
	}
	ph := strings.Repeat(",?", len(ids))[1:]
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := ix.db.Query(fmt.Sprintf("SELECT %s FROM replays r WHERE r.id IN (%s) ORDER BY r.%s %s, r.path %s", replayCols, ph, col, dir, dir), args...)
	if err != nil {
		return nil, fmt.Errorf("index: list: %w", err)
	}
	reps, got, err := scanReplays(rows)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(got, ids) {
		return nil, fmt.Errorf("index: list: the rows changed while read")
	}
	return reps, nil
}

// page makes the Page of rows read in the listing's order (at most one
// more than limit: then there is a next page), with their seats.
func (ix *Index) page(reps []*Replay, ids []int64, col string, limit int) (*Page, error) {
	p := &Page{}
	if len(reps) > limit {
		reps, ids = reps[:limit], ids[:limit]
		last := reps[limit-1]
		var v any
		switch col {
		case "date":
			v = unixNano(last.Date)
		case "rounds":
			v = last.Rounds
		case "size":
			v = last.Size
		case "winner":
			v = last.Winner
		}
		b, _ := json.Marshal(cursor{V: v, P: last.Path})
		p.Next = base64.RawURLEncoding.EncodeToString(b)
	}
	if err := ix.fillSeats(reps, ids); err != nil {
		return nil, err
	}
	p.Rows = reps
	return p, nil
}

const replayCols = "r.id, r.path, r.size, r.mtime, r.hash, r.game, r.format, r.rounds, r.max_turn, r.complete, r.created, r.date, r.winner, r.winner_bot, r.winner_score, r.unit, r.parent, r.import, r.status, r.err"

func scanReplays(rows *sql.Rows) ([]*Replay, []int64, error) {
	defer rows.Close()
	var reps []*Replay
	var ids []int64
	for rows.Next() {
		r := &Replay{}
		var id, mtime, created, date int64
		if err := rows.Scan(&id, &r.Path, &r.Size, &mtime, &r.Hash, &r.Game, &r.Format, &r.Rounds, &r.MaxTurn, &r.Complete, &created, &date,
			&r.Winner, &r.WinnerBot, &r.WinnerScore, &r.Unit, &r.Parent, &r.Import, &r.Status, &r.Err); err != nil {
			return nil, nil, fmt.Errorf("index: %w", err)
		}
		r.ModTime, r.Created, r.Date = time.Unix(0, mtime), fromNano(created), fromNano(date)
		reps = append(reps, r)
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("index: %w", err)
	}
	return reps, ids, nil
}

func (ix *Index) fillSeats(reps []*Replay, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	byID := make(map[int64]*Replay, len(ids))
	ph := make([]string, len(ids))
	args := make([]any, len(ids))
	for i, id := range ids {
		byID[id] = reps[i]
		ph[i] = "?"
		args[i] = id
	}
	rows, err := ix.db.Query("SELECT replay, uid, name, bot, rank, score, cells, errors, faults FROM seats WHERE replay IN ("+strings.Join(ph, ",")+") ORDER BY replay, uid", args...)
	if err != nil {
		return fmt.Errorf("index: seats: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var s Seat
		if err := rows.Scan(&id, &s.UID, &s.Name, &s.Bot, &s.Rank, &s.Score, &s.Measure, &s.Errors, &s.Faults); err != nil {
			return fmt.Errorf("index: %w", err)
		}
		if r := byID[id]; r != nil {
			r.Seats = append(r.Seats, s)
		}
	}
	return rows.Err()
}

// Get returns the replay at path, or nil when it is not indexed.
func (ix *Index) Get(path string) (*Replay, error) {
	rows, err := ix.db.Query("SELECT "+replayCols+" FROM replays r WHERE r.path = ?", path)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	reps, ids, err := scanReplays(rows)
	if err != nil || len(reps) == 0 {
		return nil, err
	}
	return reps[0], ix.fillSeats(reps, ids)
}

// Standing is one bot's line of the standings: the tournament's
// aggregate (match.Standing: games, wins, mean rank, mean score, Elo) and
// the game its counts come from.
type Standing struct {
	match.Standing
	Game string
}

// MaxFilteredStandingsGames bounds the complete games a filter's
// standings are counted over (computed for each request); past it
// Standings fails, saying so. The unfiltered standings have no bound:
// they are kept (kept.go).
const MaxFilteredStandingsGames = 100_000

// standingsGames returns the games the standings have a table for, in
// the order of their tables: every registered game's display name, in
// the registry's order (a game registered later, a test's, included).
func standingsGames() []string {
	var out []string
	for _, id := range engine.IDs() {
		if info, ok := engine.About(id); ok {
			out = append(out, info.Name)
		}
	}
	return out
}

// newRatings returns one empty accumulator per game of games.
func newRatings(games []string) []*match.Ratings {
	out := make([]*match.Ratings, len(games))
	for i := range out {
		out[i] = &match.Ratings{}
	}
	return out
}

// standingsOf lists the standings of ratings, one table per game of
// games (ratings[i] is games[i]'s), in that order.
func standingsOf(games []string, ratings []*match.Ratings) []Standing {
	var out []Standing
	for i, game := range games {
		for _, s := range ratings[i].Standings() {
			out = append(out, Standing{Standing: s, Game: game})
		}
	}
	return out
}

// scanGames reads rows of (replay id, path, game, unit, seat key, rank,
// score, cells, created) ordered by replay and calls add for each
// replay's game, with its key in game order. A seat whose replay's unit
// is not its game's score (GameUnit) has NoScore set.
func scanGames(rows *sql.Rows, add func(key gameKey, game string, g match.GameResult) error) error {
	var lastID int64 = -1
	var cur match.GameResult
	var curKey gameKey
	var curGame string
	var units unitCache
	n := 0
	for rows.Next() {
		var id, created int64
		var path, game, unit string
		var s match.SeatResult
		if err := rows.Scan(&id, &path, &game, &unit, &s.Bot, &s.Rank, &s.Score, &s.Measure, &created); err != nil {
			return fmt.Errorf("index: %w", err)
		}
		s.NoScore = !units.scores(game, unit)
		if id != lastID {
			if lastID >= 0 {
				if err := add(curKey, curGame, cur); err != nil {
					return err
				}
			}
			lastID, curKey, curGame = id, gameKey{created: created, path: path}, game
			cur = match.GameResult{Game: n}
			n++
			cur.Ruleset = rulesetOf(game)
		}
		cur.Seats = append(cur.Seats, s)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if lastID >= 0 {
		return add(curKey, curGame, cur)
	}
	return nil
}

// countedOnce selects, of the replays r of one game (Replay.Content),
// the one standings count: the lowest path of the complete ones.
const countedOnce = "NOT EXISTS (SELECT 1 FROM replays d WHERE r.content != '' AND d.content = r.content AND d.path < r.path AND d.complete = 1)"

// Copy returns the path of a replay of the index holding the game
// content identifies (Replay.Content), the lowest such path; "" when
// none does.
func (ix *Index) Copy(content string) (string, error) {
	if content == "" {
		return "", nil
	}
	var p string
	err := ix.db.QueryRow("SELECT path FROM replays WHERE content = ? ORDER BY path LIMIT 1", content).Scan(&p)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("index: %w", err)
	}
	return p, nil
}

// filteredStandings computes the standings of the games q selects.
func (ix *Index) filteredStandings(q Query) ([]Standing, error) {
	where, args, err := q.where(ix)
	if err != nil {
		return nil, err
	}
	// Seats of the selected complete games in game order, each game once.
	query := fmt.Sprintf(`SELECT r.id, r.path, r.game, r.unit, s.key, s.rank, s.score, s.cells, r.created FROM replays r JOIN seats s ON s.replay = r.id
		WHERE r.complete = 1 AND %s%s ORDER BY r.created, r.path, s.uid`, countedOnce, where)
	rows, err := ix.db.Query(query, args...)
	if err != nil {
		return nil, fmt.Errorf("index: standings: %w", err)
	}
	defer rows.Close()
	games := standingsGames()
	ratings := newRatings(games)
	n := 0
	err = scanGames(rows, func(_ gameKey, game string, g match.GameResult) error {
		n++
		if n > MaxFilteredStandingsGames {
			return fmt.Errorf("standings of more than %d complete games are not computed: narrow the filter", MaxFilteredStandingsGames)
		}
		if i := slices.Index(games, game); i >= 0 {
			ratings[i].Add(g)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return standingsOf(games, ratings), nil
}

// rulesetOf is the ruleset id of an entry's game (its display name, as
// the index keeps it): "" for ColorfightII, as match.GameResult counts
// it, and for a game not registered.
// GameUnit is what a seat's score counts in game (a display name,
// Replay.Game): the name of its ruleset's score metric
// (engine.ScoreIndex: ColorfightII's gold, Monad's hives); "score" for a
// game not registered.
func GameUnit(game string) string {
	for _, id := range engine.IDs() {
		if info, ok := engine.About(id); ok && info.Name == game {
			if r, ok := engine.Lookup(id); ok {
				return r.Metrics()[engine.ScoreIndex(r)].Name
			}
		}
	}
	return "score"
}

// unitCache answers GameUnit for the games of a scan, looking each up
// once.
type unitCache struct {
	game, unit string
}

// scores reports whether a replay of game whose seats count unit
// (Replay.Unit; "" for a row indexed before units were kept, taken as
// the game's score) holds its seats' final scores.
func (c *unitCache) scores(game, unit string) bool {
	if unit == "" {
		return true
	}
	if c.game != game || c.unit == "" {
		c.game, c.unit = game, GameUnit(game)
	}
	return unit == c.unit
}

func rulesetOf(game string) string {
	for _, id := range engine.IDs() {
		if info, ok := engine.About(id); ok && info.Name == game && id != engine.Default() {
			return id
		}
	}
	return ""
}
