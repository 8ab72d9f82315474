package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/rewind-game/rewind/internal/match"
)

// gameKey is a game's place in game order, the order standings count
// games in (docs/DECISIONS: "Standings are defined in game order"): the
// header's creation time (UnixNano; 0, first, when the file records
// none), then the path.
type gameKey struct {
	created int64
	path    string
}

// lastKey sorts after every game's key (a path is never empty): the
// identity of gameKey.min.
var lastKey = gameKey{created: math.MaxInt64, path: "\xff"}

// less reports whether a comes before b in game order.
func (a gameKey) less(b gameKey) bool {
	return a.created < b.created || a.created == b.created && a.path < b.path
}

// min is the earlier of a and b in game order.
func (a gameKey) min(b gameKey) gameKey {
	if b.less(a) {
		return b
	}
	return a
}

// stored is the standings row but its state: the state's seq, whether
// it is stale and the lowest game changed since it became so.
type stored struct {
	seq   int64
	stale bool
	low   gameKey
}

func readStored(q interface {
	QueryRow(string, ...any) *sql.Row
}) (stored, error) {
	var s stored
	err := q.QueryRow("SELECT seq, stale, low_created, low_path FROM standings WHERE id = 1").Scan(&s.seq, &s.stale, &s.low.created, &s.low.path)
	if err != nil {
		return s, fmt.Errorf("index: standings: %w", err)
	}
	return s, nil
}

// keptAt returns the stored state of seq, from the cache when it holds
// it, else decoded from the row (and cached). A state that does not
// decode is returned as an error wrapping errKeptState.
func (ix *Index) keptAt(q interface {
	QueryRow(string, ...any) *sql.Row
}, seq int64) (*kept, error) {
	ix.mu.Lock()
	k := ix.cache
	ix.mu.Unlock()
	if k != nil && k.seq == seq {
		return k, nil
	}
	// The row's state now (in a transaction, seq's; else seq's or a
	// later one).
	var b []byte
	if err := q.QueryRow("SELECT seq, state FROM standings WHERE id = 1").Scan(&seq, &b); err != nil {
		return nil, fmt.Errorf("index: standings: %w", err)
	}
	if len(b) == 0 {
		k = emptyKept()
	} else {
		var err error
		if k, err = decodeKept(b); err != nil {
			return nil, err
		}
	}
	k.seq = seq
	ix.install(k)
	return k, nil
}

// install caches k unless a later state is cached.
func (ix *Index) install(k *kept) {
	ix.mu.Lock()
	if ix.cache == nil || ix.cache.seq < k.seq {
		ix.cache = k
	}
	ix.mu.Unlock()
}

// store writes k as the row's state, fresh, with the next seq; k.seq is
// set to it (install k once tx commits).
func store(tx *sql.Tx, k *kept, prev int64) error {
	b, err := encodeKept(k)
	if err != nil {
		return fmt.Errorf("index: standings: %w", err)
	}
	k.seq = prev + 1
	if _, err := tx.Exec("UPDATE standings SET seq = ?, stale = 0, low_created = ?, low_path = ?, state = ? WHERE id = 1",
		k.seq, lastKey.created, lastKey.path, b); err != nil {
		return fmt.Errorf("index: standings: %w", err)
	}
	return nil
}

// markStale marks the stored state stale, low the lowest game changed.
func markStale(tx *sql.Tx, low gameKey) error {
	_, err := tx.Exec(`UPDATE standings SET stale = 1, (low_created, low_path) = (?, ?)
		WHERE id = 1 AND (stale = 0 OR (low_created, low_path) > (?, ?))`, low.created, low.path, low.created, low.path)
	if err != nil {
		return fmt.Errorf("index: standings: %w", err)
	}
	return nil
}

// keepStandings brings the stored standings up to date in tx, a change
// (Put, Delete) whose lowest game is low, and returns the new state to
// install once tx commits (nil for none): games after the last counted
// are added; a change at or before it, or a state that does not decode,
// marks the state stale.
func (ix *Index) keepStandings(tx *sql.Tx, low gameKey) (*kept, error) {
	s, err := readStored(tx)
	if err != nil {
		return nil, err
	}
	if s.stale {
		return nil, markStale(tx, low)
	}
	k, err := ix.keptAt(tx, s.seq)
	if errors.Is(err, errKeptState) {
		return nil, markStale(tx, gameKey{created: math.MinInt64})
	}
	if err != nil {
		return nil, err
	}
	if k.n > 0 && !k.last.less(low) {
		return nil, markStale(tx, low)
	}
	if k.n > 0 {
		var more int
		if err := tx.QueryRow("SELECT count(*) FROM (SELECT 1 FROM replays r WHERE r.complete = 1 AND (r.created, r.path) > (?, ?) LIMIT 1)",
			k.last.created, k.last.path).Scan(&more); err != nil {
			return nil, fmt.Errorf("index: standings: %w", err)
		}
		if more == 0 {
			return nil, nil // no complete game after the last
		}
	}
	nk := k.clone()
	if err := nk.count(ix.ctx, tx); err != nil {
		return nil, err
	}
	if nk.n == k.n {
		return nil, nil // none counted (copies of counted games)
	}
	return nk, store(tx, nk, s.seq)
}

// count adds to k every complete game after k.last in game order (all
// of them when k counts none), each game once (countedOnce), and sets
// k.out. O(games added), each game's seats streamed into the ratings.
func (k *kept) count(ctx context.Context, tx *sql.Tx) error {
	sub := "SELECT r.id, r.path, r.game, r.unit, r.created FROM replays r WHERE r.complete = 1 AND " + countedOnce
	var args []any
	if k.n > 0 {
		sub += " AND (r.created, r.path) > (?, ?)"
		args = append(args, k.last.created, k.last.path)
	}
	rows, err := tx.QueryContext(ctx, `SELECT r.id, r.path, r.game, r.unit, s.key, s.rank, s.score, s.cells, r.created FROM (`+sub+` ORDER BY r.created, r.path) r
		JOIN seats s ON s.replay = r.id ORDER BY r.created, r.path, s.uid`, args...)
	if err != nil {
		return fmt.Errorf("index: standings: %w", err)
	}
	defer rows.Close()
	err = scanGames(rows, func(key gameKey, game string, g match.GameResult) error {
		k.add(slices.Index(k.games, game), key, g)
		return nil
	})
	if err != nil {
		return err
	}
	k.out = k.standings()
	return nil
}

// Standings rates the bots over the complete games q selects (its Sort,
// After and Limit are ignored), one table per registered game in the
// registry's order (standingsGames), each by the tournament's own
// rating, match.Ratings (as match.Standings), over the games in game
// order (gameKey: the header's creation time, then the path).
//
// The unfiltered standings are read from the index, where Put and
// Delete keep them (one small row read; its state decoded once, then
// cached): a change that made them stale (a game added or replaced
// before the last counted, a counted one deleted) has them computed
// again in the background, the stale ones answered meanwhile
// (StandingsFresh says whether they are current). A filter's standings
// are computed for each request.
func (ix *Index) Standings(q Query) ([]Standing, error) {
	q.Sort, q.After, q.Limit = "", "", 0
	if q != (Query{}) {
		return ix.filteredStandings(q)
	}
	k, err := ix.current()
	if err != nil {
		return nil, err
	}
	return k.out, nil
}

// current returns the stored standings' state (starting a Recount in the
// background when it is stale).
func (ix *Index) current() (*kept, error) {
	s, err := readStored(ix.db)
	if err != nil {
		return nil, err
	}
	k, err := ix.keptAt(ix.db, s.seq)
	if errors.Is(err, errKeptState) {
		// Damaged: counted again, nothing answered meanwhile.
		k, s.stale = emptyKept(), true
		tx, terr := ix.db.Begin()
		if terr != nil {
			return nil, fmt.Errorf("index: %w", terr)
		}
		if terr = markStale(tx, gameKey{created: math.MinInt64}); terr != nil {
			tx.Rollback()
			return nil, terr
		}
		if terr = tx.Commit(); terr != nil {
			return nil, fmt.Errorf("index: %w", terr)
		}
	} else if err != nil {
		return nil, err
	}
	if s.stale {
		ix.RecountInBackground()
	}
	return k, nil
}

// StandingsFresh reports whether the stored unfiltered standings are
// those of the index as it is now (not stale).
func (ix *Index) StandingsFresh() bool {
	s, err := readStored(ix.db)
	return err == nil && !s.stale
}

// RecountInBackground starts a Recount in the background, unless one
// was started and has not ended.
func (ix *Index) RecountInBackground() {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.recounting {
		return
	}
	ix.recounting = true
	go func() {
		ix.Recount()
		ix.mu.Lock()
		ix.recounting = false
		ix.mu.Unlock()
	}()
}

// maxRecountTries bounds Recount's attempts while changes before the
// games it counted keep coming.
const maxRecountTries = 3

// Recount computes the stored standings from scratch when they are
// stale, and stores them: every complete game, streamed in game order
// from a snapshot of the index (no bound on their number; memory per
// bot, not per game), then, in one writing transaction, the games added
// after its last since the snapshot. A change before that last made
// meanwhile has it tried again (at most maxRecountTries times; a later
// request tries again). One Recount runs at a time, the others wait
// for it (and then find the standings fresh). Nil when the standings are fresh or were left
// stale by changes; an error when the index cannot be read.
func (ix *Index) Recount() error {
	ix.recountMu.Lock()
	defer ix.recountMu.Unlock()
	for range maxRecountTries {
		// The changes from here on lower low.
		tx, err := ix.db.Begin()
		if err != nil {
			return fmt.Errorf("index: %w", err)
		}
		res, err := tx.Exec("UPDATE standings SET low_created = ?, low_path = ? WHERE id = 1 AND stale = 1", lastKey.created, lastKey.path)
		if err != nil {
			tx.Rollback()
			return fmt.Errorf("index: standings: %w", err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("index: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // fresh
		}
		nk := emptyKept()
		// Read-only: the only transaction that does not take the write
		// lock when it begins (the database is opened with
		// _txlock=immediate).
		rtx, err := ix.db.BeginTx(ix.ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return fmt.Errorf("index: standings: %w", err)
		}
		err = nk.count(ix.ctx, rtx)
		rtx.Rollback()
		if err != nil {
			return err
		}
		done, err := ix.installRecount(nk)
		if err != nil || done {
			return err
		}
	}
	return nil
}

// installRecount stores nk, counted from a snapshot, unless a change
// since then touched a game at or before its last; true when done
// (stored, or another Recount stored one first).
func (ix *Index) installRecount(nk *kept) (bool, error) {
	tx, err := ix.db.Begin()
	if err != nil {
		return false, fmt.Errorf("index: %w", err)
	}
	defer tx.Rollback()
	s, err := readStored(tx)
	if err != nil {
		return false, err
	}
	if !s.stale {
		return true, nil
	}
	if nk.n > 0 && !nk.last.less(s.low) {
		return false, nil
	}
	if err := nk.count(ix.ctx, tx); err != nil {
		return false, err
	}
	if err := store(tx, nk, s.seq); err != nil {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("index: %w", err)
	}
	ix.install(nk)
	return true, nil
}

// RatingPoint is a bot's ratings after its games up to the Game-th
// complete game of its game in the library (game order), Path's: its
// Elo and its Weng–Lin μ − 3σ (match.Standing).
type RatingPoint struct {
	Game              int
	Path              string
	Elo, Conservative float64
}

// Rating returns bot's rating over time, as the stored standings count
// it (Standings), in the first game's table it plays in: its ratings
// after its games number stride, 2·stride, … (at most MaxCurvePoints
// of them, stride doubling as its games do) and after its latest game.
// Nil when it played no complete game. O(points): read from the state
// Put keeps, never from the games.
func (ix *Index) Rating(bot string) ([]RatingPoint, error) {
	k, err := ix.current()
	if err != nil {
		return nil, err
	}
	return k.rating(bot), nil
}
