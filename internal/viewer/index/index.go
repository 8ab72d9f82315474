// Package index keeps a library's index in SQLite (modernc.org/sqlite,
// pure Go, cgo-free) beside its replays, in DIR/.rewind/index.db (WAL
// mode): one row per replay and one per (replay, seat), so that the
// library's pages, sorts, filters, name search and standings are indexed
// queries, never a scan of the folder.
//
// The index holds what the replays say (their source.Summary, as the
// viewer reads it); it is a cache: a corrupt or foreign file is set aside
// and rebuilt, with a warning. An index written by a newer rewind (a
// higher schema version) is refused with ErrNewerSchema and left as it
// is. An Index is safe for concurrent use.
package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// SchemaVersion is the version of the schema this package writes (SQLite's
// user_version). Open rebuilds an index older than rebuildBelow from the
// replays (its rows lack what only reading the files again gives) and
// migrates any other older one up to it.
const SchemaVersion = 6

// rebuildBelow: an index of an older schema than this is rebuilt, not
// migrated. Version 5 identifies a game by its content hash
// (Replay.Content), which the rows of older versions do not hold;
// version 6 keeps the standings (the table standings) and each replay's
// search words (replays.words), which older rows lack.
const rebuildBelow = 6

// errRebuild is migrate's: the index is of a schema older than
// rebuildBelow.
var errRebuild = errors.New("older schema: rebuild")

// appID marks a rewind index (SQLite's application_id): a database
// without it is foreign.
const appID = 0x52574e44 // "RWND"

// File is where a library's index lives, relative to the library folder.
const File = ".rewind/index.db"

// ErrNewerSchema is returned by Open for an index written by a newer
// rewind; the file is left untouched.
var ErrNewerSchema = errors.New("the index was written by a newer rewind")

// migrations[v] takes a schema from version v to v+1.
var migrations = []string{
	// 0 -> 1
	`CREATE TABLE replays(
		id INTEGER PRIMARY KEY,
		path TEXT NOT NULL UNIQUE,
		size INTEGER NOT NULL,
		mtime INTEGER NOT NULL,
		hash TEXT NOT NULL DEFAULT '',
		game TEXT NOT NULL DEFAULT '',
		format TEXT NOT NULL DEFAULT '',
		rounds INTEGER NOT NULL DEFAULT 0,
		max_turn INTEGER NOT NULL DEFAULT 0,
		complete INTEGER NOT NULL DEFAULT 0,
		created INTEGER NOT NULL DEFAULT 0,
		date INTEGER NOT NULL,
		winner TEXT NOT NULL DEFAULT '',
		winner_bot TEXT NOT NULL DEFAULT '',
		winner_score INTEGER NOT NULL DEFAULT 0,
		parent TEXT NOT NULL DEFAULT '',
		import TEXT NOT NULL DEFAULT '',
		status TEXT NOT NULL DEFAULT '',
		err TEXT NOT NULL DEFAULT '',
		players TEXT NOT NULL DEFAULT ''
	);
	CREATE INDEX replays_date ON replays(date, path);
	CREATE INDEX replays_rounds ON replays(rounds, path);
	CREATE INDEX replays_size ON replays(size, path);
	CREATE INDEX replays_winner ON replays(winner, path);
	CREATE INDEX replays_path_date ON replays(game, date, path);
	CREATE TABLE seats(
		replay INTEGER NOT NULL REFERENCES replays(id) ON DELETE CASCADE,
		uid INTEGER NOT NULL,
		name TEXT NOT NULL,
		bot TEXT NOT NULL,
		key TEXT NOT NULL,
		rank INTEGER NOT NULL,
		score INTEGER NOT NULL,
		cells INTEGER NOT NULL DEFAULT 0,
		errors INTEGER NOT NULL DEFAULT 0,
		faults INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY(replay, uid)
	) WITHOUT ROWID;
	CREATE INDEX seats_key ON seats(key, replay);
	CREATE INDEX seats_name ON seats(name, replay);
	CREATE VIRTUAL TABLE names USING fts5(text, content='', contentless_delete=1, tokenize="unicode61 tokenchars '_-.'");
	CREATE TABLE bots(
		key TEXT PRIMARY KEY,
		games INTEGER NOT NULL,
		wins INTEGER NOT NULL,
		sum_rank INTEGER NOT NULL,
		sum_score INTEGER NOT NULL
	) WITHOUT ROWID;
	CREATE TRIGGER seats_in AFTER INSERT ON seats BEGIN
		INSERT INTO bots(key, games, wins, sum_rank, sum_score) VALUES(new.key, 1, new.rank = 1, new.rank, new.score)
		ON CONFLICT(key) DO UPDATE SET games = games + 1, wins = wins + (new.rank = 1),
			sum_rank = sum_rank + new.rank, sum_score = sum_score + new.score;
	END;
	CREATE TRIGGER seats_out AFTER DELETE ON seats BEGIN
		UPDATE bots SET games = games - 1, wins = wins - (old.rank = 1),
			sum_rank = sum_rank - old.rank, sum_score = sum_score - old.score WHERE key = old.key;
		DELETE FROM bots WHERE key = old.key AND games <= 0;
	END;
	CREATE TRIGGER replays_out AFTER DELETE ON replays BEGIN
		DELETE FROM names WHERE rowid = old.id;
	END;`,
	// 1 -> 2: the corpus analyses `rewind analyze DIR` keeps.
	`CREATE TABLE analyses(
		path TEXT PRIMARY KEY,
		size INTEGER NOT NULL,
		mtime INTEGER NOT NULL,
		data BLOB NOT NULL
	);`,
	// 2 -> 3: what a replay's winner amount counts (Replay.Unit); ""
	// in the rows of an older index.
	`ALTER TABLE replays ADD COLUMN unit TEXT NOT NULL DEFAULT '';`,
	// 3 -> 4: the standings' game order (the header's creation time, then
	// the path: gameKey).
	`CREATE INDEX replays_created ON replays(created, path);`,
	// 4 -> 5: the game's identity (Replay.Content), so that standings
	// count a game once however many copies of its file there are. An
	// index of an older version is rebuilt (rebuildBelow).
	`ALTER TABLE replays ADD COLUMN content TEXT NOT NULL DEFAULT '';
	CREATE INDEX replays_content ON replays(content, path);`,
	// 5 -> 6: the kept standings (kept.go: one row, its state encoded by
	// encodeKept; '' counts nothing), the winner's bot filter's index,
	// each replay's search words (searchWords: what a search matching
	// many games tests each row of the sort's index against) and the
	// full-text index with diacritics kept, as searchWords keeps them.
	// An index of an older version is rebuilt (rebuildBelow).
	`CREATE TABLE standings(
		id INTEGER PRIMARY KEY CHECK (id = 1),
		seq INTEGER NOT NULL,
		stale INTEGER NOT NULL,
		low_created INTEGER NOT NULL,
		low_path TEXT NOT NULL,
		state BLOB NOT NULL
	);
	INSERT INTO standings VALUES(1, 0, 0, 0, '', x'');
	CREATE INDEX replays_winner_bot ON replays(winner_bot, path);
	ALTER TABLE replays ADD COLUMN words TEXT NOT NULL DEFAULT '';
	DROP TABLE names;
	CREATE VIRTUAL TABLE names USING fts5(text, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 0 tokenchars '_-.'");`,
}

// Index is an open library index.
type Index struct {
	db   *sql.DB
	path string

	mu  sync.Mutex
	gen uint64 // bumped by every change
	// cache is the stored standings' state last read or written (nil
	// before); recounting is set while a Recount runs in the background.
	cache      *kept
	recounting bool
	// recountMu makes one Recount at a time.
	recountMu sync.Mutex
	// ctx is cancelled by Close: it interrupts a Recount's reading.
	ctx    context.Context
	cancel context.CancelFunc
}

// Path returns the index file's path.
func (ix *Index) Path() string { return ix.path }

// Open opens (creating it when absent) the index of the library in dir,
// DIR/.rewind/index.db. A file that is not a rewind index, or is damaged,
// is moved aside (index.db.damaged) and a new one built: warn is then
// non-nil and says so. An index from a newer schema is refused
// (ErrNewerSchema) and not touched.
func Open(dir string) (ix *Index, warn error, err error) {
	p := filepath.Join(dir, filepath.FromSlash(File))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, nil, fmt.Errorf("index: %w", err)
	}
	ix, err = openFile(p)
	if err == nil || errors.Is(err, ErrNewerSchema) {
		return ix, nil, err
	}
	if errors.Is(err, errRebuild) {
		removeIndexFile(p)
		if ix, err = openFile(p); err != nil {
			return nil, nil, err
		}
		return ix, fmt.Errorf("index %s was written by an older rewind; rebuilt it from the replays (schema %d)", p, SchemaVersion), nil
	}
	warn = fmt.Errorf("index %s is damaged or not a rewind index (%v); rebuilt it from the replays", p, err)
	if rerr := os.Rename(p, p+".damaged"); rerr != nil && !os.IsNotExist(rerr) {
		return nil, nil, fmt.Errorf("index: set aside %s: %w", p, rerr)
	}
	os.Remove(p + "-wal")
	os.Remove(p + "-shm")
	ix, err = openFile(p)
	if err != nil {
		return nil, nil, err
	}
	return ix, warn, nil
}

// removeIndexFile deletes the index file p and its WAL files.
func removeIndexFile(p string) {
	os.Remove(p)
	os.Remove(p + "-wal")
	os.Remove(p + "-shm")
}

func openFile(p string) (*Index, error) {
	// _txlock=immediate: a writing transaction takes the write lock when
	// it begins, so two writers at once wait for each other (up to the
	// busy timeout) instead of one failing with SQLITE_BUSY when its read
	// lock would have to become a write lock.
	dsn := "file:" + p + "?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	db.SetMaxOpenConns(4)
	ix := &Index{db: db, path: p}
	ix.ctx, ix.cancel = context.WithCancel(context.Background())
	if err := ix.migrate(); err != nil {
		db.Close()
		return nil, err
	}
	return ix, nil
}

func (ix *Index) migrate() error {
	ctx := context.Background()
	var ver, app int
	if err := ix.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&ver); err != nil {
		return fmt.Errorf("index: read schema version: %w", err)
	}
	if err := ix.db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&app); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if ver > SchemaVersion && app == appID {
		return fmt.Errorf("%w: %s has schema version %d, this rewind reads up to %d; use a newer rewind, or delete the file to rebuild it", ErrNewerSchema, ix.path, ver, SchemaVersion)
	}
	if ver == 0 {
		var n int
		if err := ix.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
			return fmt.Errorf("index: %w", err)
		}
		if n > 0 {
			return errors.New("index: a database with other tables (foreign)")
		}
	} else if app != appID {
		return fmt.Errorf("index: application id %#x is not rewind's", app)
	} else if ver < rebuildBelow {
		return fmt.Errorf("index: schema version %d: %w", ver, errRebuild)
	}
	for v := ver; v < SchemaVersion; v++ {
		tx, err := ix.db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("index: %w", err)
		}
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			tx.Rollback()
			return fmt.Errorf("index: migrate to schema %d: %w", v+1, err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d; PRAGMA application_id = %d", v+1, appID)); err != nil {
			tx.Rollback()
			return fmt.Errorf("index: %w", err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("index: migrate to schema %d: %w", v+1, err)
		}
	}
	// A cheap look at each table (a damaged file's schema or first pages
	// fail here; the whole file is checked by Check, which is O(size)).
	for _, q := range []string{"SELECT count(*) FROM (SELECT 1 FROM replays ORDER BY date DESC LIMIT 1)", "SELECT count(*) FROM (SELECT 1 FROM seats LIMIT 1)",
		"SELECT count(*) FROM (SELECT 1 FROM bots LIMIT 1)", "SELECT count(*) FROM (SELECT rowid FROM names LIMIT 1)", "SELECT count(*) FROM (SELECT 1 FROM analyses LIMIT 1)", "SELECT count(*) FROM standings WHERE id = 1"} {
		var n int
		if err := ix.db.QueryRowContext(ctx, q).Scan(&n); err != nil {
			return fmt.Errorf("index: check: %w", err)
		}
	}
	return nil
}

// Check reads the whole index (SQLite's quick_check): nil when it is
// sound. It takes time in proportion to the file (seconds at a million
// replays); Open only looks at each table.
func (ix *Index) Check() error {
	var ok string
	if err := ix.db.QueryRow("PRAGMA quick_check(1)").Scan(&ok); err != nil {
		return fmt.Errorf("index: check %s: %w", ix.path, err)
	}
	if ok != "ok" {
		return fmt.Errorf("index: check %s: %s", ix.path, ok)
	}
	return nil
}

// OpenChecked is Open followed by a whole Check: an index that fails it
// is set aside and rebuilt, as a damaged one is by Open.
func OpenChecked(dir string) (ix *Index, warn error, err error) {
	ix, warn, err = Open(dir)
	if err != nil || warn != nil {
		return ix, warn, err
	}
	cerr := ix.Check()
	if cerr == nil {
		return ix, nil, nil
	}
	ix.Close()
	p := ix.path
	if err := os.Rename(p, p+".damaged"); err != nil {
		return nil, nil, fmt.Errorf("index: set aside %s: %w", p, err)
	}
	os.Remove(p + "-wal")
	os.Remove(p + "-shm")
	ix, err = openFile(p)
	if err != nil {
		return nil, nil, err
	}
	return ix, fmt.Errorf("index %s is damaged (%v); rebuilt it from the replays", p, cerr), nil
}

// Close closes the index, interrupting a Recount under way.
func (ix *Index) Close() error {
	ix.cancel()
	return ix.db.Close()
}

// Replay is one replay of the index.
type Replay struct {
	// Path is the replay's slash-separated path in the library.
	Path    string
	Size    int64
	ModTime time.Time
	// Hash is the hex SHA-256 of the file's bytes ("" when not read).
	Hash string
	// Content identifies the game the file holds: a .rwd's content hash
	// (its header and commands, not its side data: source.Summary.Content),
	// else Hash. Standings count the replays of one Content once (the
	// lowest path's); "" identifies nothing.
	Content string
	Game    string
	Format  string
	Rounds  int
	// MaxTurn is the game's configured last turn (0 when unknown).
	MaxTurn  int
	Complete bool
	// Created is when the game was recorded (zero when unknown); Date is
	// Created, else ModTime: what the library sorts by.
	Created, Date time.Time
	// Winner is the winner's (or, unfinished, the leader's) seat name,
	// WinnerBot its bot identity (Seat.Key), WinnerScore its gold or
	// resources; "" when unknown.
	Winner, WinnerBot string
	WinnerScore       int64
	// Unit names what WinnerScore and the seats' scores count
	// (source.Summary.Unit: "gold", "resources", "hives"); "" when the
	// summary did not say, or the row was indexed before the index kept
	// it. At most MaxUnitBytes: Put stores a longer one as "".
	Unit string
	// Parent is the replay a fork was played on from; Import the official
	// replay an imported game came from.
	Parent, Import string
	// Status is "" for a complete game, else why not; Err why the file
	// cannot be opened at all.
	Status, Err string
	Seats       []Seat
}

// MaxUnitBytes bounds a Replay's Unit (a ruleset's metric name).
const MaxUnitBytes = 64

// Seat is one player of a replay.
type Seat struct {
	UID int
	// Name is the seat's display name ("3_runtimeterrors"); Bot the bot
	// name or command the replay records ("" when none, as in a .cfr).
	Name, Bot string
	// Rank is 1 for the winner; 0 when unknown (a recording cut short).
	Rank  int
	Score int64
	// Measure is the seat's value of the metric its game's standings
	// average beside the score (match.SeatResult.Measure). Measure,
	// Errors and Faults are 0 when the summary does not know them.
	Measure, Errors, Faults int64
}

// Key is the seat's bot identity, as standings count it: its Bot when the
// replay records one, else its Name (analysis.BotKey).
func (s Seat) Key() string {
	if s.Bot != "" {
		return s.Bot
	}
	return s.Name
}

// Stamp is a file's size and modification time as the index saw it.
type Stamp struct {
	Size    int64
	ModTime int64 // UnixNano
}

// Stamps returns the size and mtime of every indexed path.
func (ix *Index) Stamps() (map[string]Stamp, error) {
	rows, err := ix.db.Query("SELECT path, size, mtime FROM replays")
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	defer rows.Close()
	out := map[string]Stamp{}
	for rows.Next() {
		var p string
		var s Stamp
		if err := rows.Scan(&p, &s.Size, &s.ModTime); err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
		out[p] = s
	}
	return out, rows.Err()
}

// StampCursor walks the indexed paths with their stamps in the order
// fs.WalkDir visits files (WalkOrder); Close it.
type StampCursor struct {
	rows  *sql.Rows
	path  string
	stamp Stamp
	err   error
}

// WalkStamps returns a cursor over every indexed path and its stamp, in
// WalkOrder: a folder's walk and the cursor can be merged, holding one
// row at a time whatever the library's size.
func (ix *Index) WalkStamps() (*StampCursor, error) {
	rows, err := ix.db.Query("SELECT path, size, mtime FROM replays ORDER BY replace(path, '/', char(1))")
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	return &StampCursor{rows: rows}, nil
}

// Next moves to the next path; false at the end or on an error (Err).
func (c *StampCursor) Next() bool {
	if c.err != nil || !c.rows.Next() {
		return false
	}
	if err := c.rows.Scan(&c.path, &c.stamp.Size, &c.stamp.ModTime); err != nil {
		c.err = fmt.Errorf("index: %w", err)
		return false
	}
	return true
}

// Path and Stamp are the current row's.
func (c *StampCursor) Path() string { return c.path }
func (c *StampCursor) Stamp() Stamp { return c.stamp }

// Err is the error that ended the walk, nil at its end.
func (c *StampCursor) Err() error {
	if c.err != nil {
		return c.err
	}
	if err := c.rows.Err(); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}

// Close ends the walk.
func (c *StampCursor) Close() error { return c.rows.Close() }

// WalkOrder compares slash-separated paths in the order fs.WalkDir visits
// them (a folder's entries by name, a folder's files right after its
// name): as strings with '/' before every other byte.
func WalkOrder(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if x == '/' {
			return -1
		}
		if y == '/' {
			return 1
		}
		if x < y {
			return -1
		}
		return 1
	}
	return len(a) - len(b)
}

// Count returns the number of indexed replays.
func (ix *Index) Count() (int, error) {
	var n int
	err := ix.db.QueryRow("SELECT count(*) FROM replays").Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("index: %w", err)
	}
	return n, nil
}

// Generation returns a number that changes whenever the index does.
func (ix *Index) Generation() uint64 {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.gen
}

// commit brings the stored standings up to date in tx, a change whose
// lowest game (in game order) is low (keepStandings), commits it and
// notes it.
func (ix *Index) commit(tx *sql.Tx, low gameKey) error {
	k, err := ix.keepStandings(tx, low)
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if k != nil {
		ix.install(k)
	}
	ix.mu.Lock()
	ix.gen++
	ix.mu.Unlock()
	return nil
}

// prepare begins a transaction and prepares queries in it; the caller
// rolls it back or commits it.
func (ix *Index) prepare(queries ...string) (*sql.Tx, []*sql.Stmt, error) {
	tx, err := ix.db.Begin()
	if err != nil {
		return nil, nil, fmt.Errorf("index: %w", err)
	}
	st := make([]*sql.Stmt, len(queries))
	for i, q := range queries {
		if st[i], err = tx.Prepare(q); err != nil {
			tx.Rollback()
			return nil, nil, fmt.Errorf("index: %w", err)
		}
	}
	return tx, st, nil
}

// update changes the replays in one transaction: write is given the
// statements of queries, prepared, and returns the lowest game (in game
// order, gameKey) it touched, as it was or as it is now; when it succeeds
// the change is committed (commit), else rolled back.
func (ix *Index) update(queries []string, write func(st []*sql.Stmt) (gameKey, error)) error {
	tx, st, err := ix.prepare(queries...)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	low, err := write(st)
	if err != nil {
		return err
	}
	return ix.commit(tx, low)
}

// deleteReplay is the statement that deletes the replay at a path,
// returning its creation time (gameKey.created); none when absent.
const deleteReplay = "DELETE FROM replays WHERE path = ? RETURNING created"

// deleted runs del (deleteReplay) for path and lowers low to the deleted
// game's key.
func deleted(del *sql.Stmt, path string, low *gameKey) error {
	var created int64
	err := del.QueryRow(path).Scan(&created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("index: delete %s: %w", path, err)
	}
	*low = low.min(gameKey{created: created, path: path})
	return nil
}

// Put adds or replaces replays, in one transaction.
func (ix *Index) Put(reps []*Replay) error {
	if len(reps) == 0 {
		return nil
	}
	return ix.update([]string{deleteReplay,
		`INSERT INTO replays(path, size, mtime, hash, content, game, format, rounds, max_turn, complete, created, date,
		winner, winner_bot, winner_score, unit, parent, import, status, err, players, words) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		"INSERT INTO seats(replay, uid, name, bot, key, rank, score, cells, errors, faults) VALUES(?,?,?,?,?,?,?,?,?,?)",
		"INSERT INTO names(rowid, text) VALUES(?, ?)",
	}, func(st []*sql.Stmt) (gameKey, error) {
		del, ins, seat, fts := st[0], st[1], st[2], st[3]
		low := lastKey
		for _, r := range reps {
			if err := deleted(del, r.Path, &low); err != nil {
				return low, err
			}
			low = low.min(gameKey{created: unixNano(r.Created), path: r.Path})
			unit := r.Unit
			if len(unit) > MaxUnitBytes {
				unit = ""
			}
			text := r.searchText()
			res, err := ins.Exec(r.Path, r.Size, r.ModTime.UnixNano(), r.Hash, r.Content, r.Game, r.Format, r.Rounds, r.MaxTurn, r.Complete,
				unixNano(r.Created), unixNano(r.Date), r.Winner, r.WinnerBot, r.WinnerScore, unit, r.Parent, r.Import, r.Status, r.Err, r.PlayerList(),
				searchWords(text))
			if err != nil {
				return low, fmt.Errorf("index: %s: %w", r.Path, err)
			}
			id, _ := res.LastInsertId()
			for _, s := range r.Seats {
				if _, err := seat.Exec(id, s.UID, s.Name, s.Bot, s.Key(), s.Rank, s.Score, s.Measure, s.Errors, s.Faults); err != nil {
					return low, fmt.Errorf("index: %s seat %d: %w", r.Path, s.UID, err)
				}
			}
			if _, err := fts.Exec(id, text); err != nil {
				return low, fmt.Errorf("index: %s: %w", r.Path, err)
			}
		}
		return low, nil
	})
}

// Delete removes replays by path (absent ones are ignored).
func (ix *Index) Delete(paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	return ix.update([]string{deleteReplay}, func(st []*sql.Stmt) (gameKey, error) {
		low := lastKey
		for _, p := range paths {
			if err := deleted(st[0], p, &low); err != nil {
				return low, err
			}
		}
		return low, nil
	})
}

// searchText is what a search looks in (Query.Search): the path, then
// each seat's name and bot.
func (r *Replay) searchText() string {
	text := []string{r.Path}
	for _, s := range r.Seats {
		text = append(text, s.Name)
		if s.Bot != "" {
			text = append(text, s.Bot)
		}
	}
	return strings.Join(text, " ")
}

// PlayerList is the replay's players as the library shows them: "alice,
// bob".
func (r *Replay) PlayerList() string {
	names := make([]string, len(r.Seats))
	for i, s := range r.Seats {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNano(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

// Analysis returns the stored analysis of the file at path (slash
// separated, relative to the library) when it was stored for this size
// and modification time (UnixNano).
func (ix *Index) Analysis(path string, size, mtime int64) ([]byte, bool, error) {
	var data []byte
	err := ix.db.QueryRow("SELECT data FROM analyses WHERE path = ? AND size = ? AND mtime = ?", path, size, mtime).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("index: analysis of %s: %w", path, err)
	}
	return data, true, nil
}

// StoredAnalysis is one analysis to store (PutAnalyses).
type StoredAnalysis struct {
	Path        string
	Size, MTime int64
	Data        []byte
}

// MaxAnalysisBytes bounds one stored analysis; bigger ones are not kept.
const MaxAnalysisBytes = 1 << 20

// PutAnalyses stores analyses (replacing those of the same paths), in one
// transaction.
func (ix *Index) PutAnalyses(as []StoredAnalysis) error {
	if len(as) == 0 {
		return nil
	}
	tx, st, err := ix.prepare("INSERT OR REPLACE INTO analyses(path, size, mtime, data) VALUES(?,?,?,?)")
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, a := range as {
		if len(a.Data) > MaxAnalysisBytes {
			continue
		}
		if _, err := st[0].Exec(a.Path, a.Size, a.MTime, a.Data); err != nil {
			return fmt.Errorf("index: analysis of %s: %w", a.Path, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}
