package index

import (
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/engine/monad"
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
	// Bot keeps the games a bot (its Seat.Key) played; with Lost, only
	// those it did not win (its seat's rank is not 1: games without a
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
		if q.Lost {
			conds = append(conds, "EXISTS (SELECT 1 FROM seats s WHERE s.key = ? AND s.replay = r.id AND s.rank > 1)")
		} else {
			conds = append(conds, "EXISTS (SELECT 1 FROM seats s WHERE s.key = ? AND s.replay = r.id)")
		}
		args = append(args, q.Bot)
	}
	if q.Player != "" {
		conds = append(conds, "EXISTS (SELECT 1 FROM seats s WHERE s.name = ? AND s.replay = r.id)")
		args = append(args, q.Player)
	}
	if q.Winner != "" {
		conds = append(conds, "(r.winner = ? OR r.winner_bot = ?)")
		args = append(args, q.Winner, q.Winner)
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
		// A search matching few replays is driven by the full-text index
		// (each match looked up); one matching many walks the sort's
		// index, testing each row against the matches (the unary +
		// keeps SQLite from driving by them): either way a page reads
		// about searchDrive rows at most, not every match.
		var n int
		if err := ix.db.QueryRow("SELECT count(*) FROM (SELECT rowid FROM names WHERE names MATCH ? LIMIT ?)", ftsQuery(s), searchDrive+1).Scan(&n); err != nil {
			return "", nil, fmt.Errorf("index: search: %w", err)
		}
		if n <= searchDrive {
			conds = append(conds, "r.id IN (SELECT rowid FROM names WHERE names MATCH ?)")
		} else {
			conds = append(conds, "+r.id IN (SELECT rowid FROM names WHERE names MATCH ?)")
		}
		args = append(args, ftsQuery(s))
	}
	if len(conds) == 0 {
		return "", nil, nil
	}
	return " AND " + strings.Join(conds, " AND "), args, nil
}

// searchDrive is how many matches a search may have for the full-text
// index to drive the query.
var searchDrive = 5000

// ftsQuery turns words into an FTS5 query where each word is a quoted
// prefix: no word is read as FTS5 syntax.
func ftsQuery(s string) string {
	var parts []string
	for _, w := range strings.Fields(s) {
		parts = append(parts, `"`+strings.ReplaceAll(w, `"`, `""`)+`"*`)
	}
	return strings.Join(parts, " ")
}

// Page lists one page of the replays q selects.
func (ix *Index) Page(q Query) (*Page, error) {
	col := "date"
	switch q.Sort {
	case "", "date":
	case "rounds", "size", "winner":
		col = q.Sort
	default:
		return nil, fmt.Errorf("sort=%q: want one of %s", q.Sort, strings.Join(Sorts, ", "))
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultPage
	}
	limit = min(limit, MaxPage)
	where, args, err := q.where(ix)
	if err != nil {
		return nil, err
	}
	dir, cmp := "DESC", "<"
	if q.Asc {
		dir, cmp = "ASC", ">"
	}
	if q.After != "" {
		var c cursor
		b, err := base64.RawURLEncoding.DecodeString(q.After)
		if err != nil || json.Unmarshal(b, &c) != nil {
			return nil, fmt.Errorf("after=%q: not a cursor of this listing", q.After)
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
	query := fmt.Sprintf("SELECT %s FROM replays r WHERE 1%s ORDER BY r.%s %s, r.path %s LIMIT %d", replayCols, where, col, dir, dir, limit+1)
	rows, err := ix.db.Query(query, args...)
	if err != nil {
		return nil, fmt.Errorf("index: list: %w", err)
	}
	reps, ids, err := scanReplays(rows)
	if err != nil {
		return nil, err
	}
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

const replayCols = "r.id, r.path, r.size, r.mtime, r.hash, r.game, r.format, r.rounds, r.max_turn, r.complete, r.created, r.date, r.winner, r.winner_bot, r.winner_score, r.parent, r.import, r.status, r.err"

func scanReplays(rows *sql.Rows) ([]*Replay, []int64, error) {
	defer rows.Close()
	var reps []*Replay
	var ids []int64
	for rows.Next() {
		r := &Replay{}
		var id, mtime, created, date int64
		if err := rows.Scan(&id, &r.Path, &r.Size, &mtime, &r.Hash, &r.Game, &r.Format, &r.Rounds, &r.MaxTurn, &r.Complete, &created, &date,
			&r.Winner, &r.WinnerBot, &r.WinnerScore, &r.Parent, &r.Import, &r.Status, &r.Err); err != nil {
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
		if err := rows.Scan(&id, &s.UID, &s.Name, &s.Bot, &s.Rank, &s.Score, &s.Cells, &s.Errors, &s.Faults); err != nil {
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

// MaxStandingsGames bounds the complete games the library's standings are
// computed over (once, then in the background: about 32 s at a million on
// the 2-core test machine), MaxFilteredStandingsGames those of a filter's
// (computed for each request); past them Standings fails, saying so.
const (
	MaxStandingsGames         = 2_000_000
	MaxFilteredStandingsGames = 100_000
)

// Standings rates the bots over the complete games q selects (its Sort,
// After and Limit are ignored), one table per game (ColorfightII, then
// Monad), each by the tournament's own aggregate, match.Standings, over
// the games in path order, as `rewind analyze DIR` does. The unfiltered
// standings are kept: once computed, they are answered at once, and
// computed again in the background after the index changed
// (StandingsFresh says whether they are current).
func (ix *Index) Standings(q Query) ([]Standing, error) {
	q.Sort, q.After, q.Limit = "", "", 0
	if q == (Query{}) {
		ix.mu.Lock()
		if ix.stValid {
			// Kept standings are answered at once; stale ones are
			// computed again in the background (one computation at a
			// time), so a library that keeps changing never makes a
			// page wait for them.
			st := ix.standings
			if ix.stGen != ix.gen && !ix.stBusy {
				ix.stBusy = true
				go func() {
					ix.standingsOf(q, true)
					ix.mu.Lock()
					ix.stBusy = false
					ix.mu.Unlock()
				}()
			}
			ix.mu.Unlock()
			return st, nil
		}
		ix.mu.Unlock()
		return ix.standingsOf(q, true)
	}
	return ix.standingsOf(q, false)
}

// StandingsFresh reports whether the kept unfiltered standings are those
// of the index as it is now.
func (ix *Index) StandingsFresh() bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.stValid && ix.stGen == ix.gen
}

func (ix *Index) standingsOf(q Query, keep bool) ([]Standing, error) {
	gen := ix.Generation()
	where, args, err := q.where(ix)
	if err != nil {
		return nil, err
	}
	// Seats of the selected complete games in path order.
	query := fmt.Sprintf(`SELECT r.id, r.game, s.key, s.rank, s.score, s.cells FROM replays r JOIN seats s ON s.replay = r.id
		WHERE r.complete = 1%s ORDER BY r.path, s.uid`, where)
	rows, err := ix.db.Query(query, args...)
	if err != nil {
		return nil, fmt.Errorf("index: standings: %w", err)
	}
	defer rows.Close()
	byGame := map[string][]match.GameResult{}
	var lastID int64 = -1
	var cur *match.GameResult
	var curGame string
	flush := func() {
		if cur != nil {
			byGame[curGame] = append(byGame[curGame], *cur)
		}
	}
	n := 0
	limit := MaxFilteredStandingsGames
	if keep {
		limit = MaxStandingsGames
	}
	for rows.Next() {
		var id int64
		var game string
		var s match.SeatResult
		if err := rows.Scan(&id, &game, &s.Bot, &s.Rank, &s.Gold, &s.Cells); err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
		if id != lastID {
			flush()
			n++
			if n > limit {
				return nil, fmt.Errorf("standings of more than %d complete games are not computed: narrow the filter", limit)
			}
			lastID, curGame = id, game
			cur = &match.GameResult{Game: n - 1}
			if game == "Monad" {
				cur.Ruleset = monad.RulesetID
			}
		}
		cur.Seats = append(cur.Seats, s)
	}
	flush()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	var out []Standing
	for _, game := range []string{"ColorfightII", "Monad"} {
		for _, s := range match.Standings(byGame[game]) {
			out = append(out, Standing{Standing: s, Game: game})
		}
	}
	if keep {
		ix.mu.Lock()
		if !ix.stValid || gen >= ix.stGen {
			ix.standings, ix.stGen, ix.stValid = out, gen, true
		}
		ix.mu.Unlock()
	}
	return out, nil
}

// RatingPoint is a bot's Elo after its Game-th game of the library.
type RatingPoint struct {
	Game int
	Path string
	Elo  float64
}

// MaxRatingGames bounds the library (its complete games of the bot's game)
// over which Rating draws a curve; past it Rating returns nil.
const MaxRatingGames = 20_000

// Rating returns bot's Elo (match.Standings, as Standings computes it)
// after each of at most points of its games, spread evenly, in path
// order: the rating over time. Nil when the bot played no complete game,
// or the library holds more than MaxRatingGames complete games of its
// game.
func (ix *Index) Rating(bot string, points int) ([]RatingPoint, error) {
	var game string
	err := ix.db.QueryRow(`SELECT r.game FROM seats s JOIN replays r ON r.id = s.replay WHERE s.key = ? AND r.complete = 1 LIMIT 1`, bot).Scan(&game)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	var n int
	if err := ix.db.QueryRow("SELECT count(*) FROM replays WHERE game = ? AND complete = 1", game).Scan(&n); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	if n > MaxRatingGames {
		return nil, nil
	}
	rows, err := ix.db.Query(`SELECT r.id, r.path, s.key, s.rank, s.score, s.cells FROM replays r JOIN seats s ON s.replay = r.id
		WHERE r.complete = 1 AND r.game = ? ORDER BY r.path, s.uid`, game)
	if err != nil {
		return nil, fmt.Errorf("index: rating: %w", err)
	}
	defer rows.Close()
	var games []match.GameResult
	var paths []string
	var mine []int // indices of the bot's games
	var last int64 = -1
	for rows.Next() {
		var id int64
		var p string
		var s match.SeatResult
		if err := rows.Scan(&id, &p, &s.Bot, &s.Rank, &s.Gold, &s.Cells); err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
		if id != last {
			last = id
			g := match.GameResult{Game: len(games)}
			if game == "Monad" {
				g.Ruleset = monad.RulesetID
			}
			games = append(games, g)
			paths = append(paths, p)
		}
		g := &games[len(games)-1]
		g.Seats = append(g.Seats, s)
		if s.Bot == bot && (len(mine) == 0 || mine[len(mine)-1] != len(games)-1) {
			mine = append(mine, len(games)-1)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	points = max(1, min(points, len(mine)))
	var out []RatingPoint
	for k := 1; k <= points; k++ {
		i := mine[k*len(mine)/points-1]
		for _, st := range match.Standings(games[:i+1]) {
			if st.Bot == bot {
				out = append(out, RatingPoint{Game: i + 1, Path: paths[i], Elo: st.Elo})
			}
		}
	}
	return out, nil
}
