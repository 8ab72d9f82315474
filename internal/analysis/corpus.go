package analysis

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/source"
)

// AnalyzeDocumentFile opens the replay at path, whichever its format
// (source.OpenStream), and gives its game's own document
// (AnalyzeDocument); ErrNoDocument for a game without one.
func AnalyzeDocumentFile(path string) (*Document, error) {
	s, err := source.OpenStream(path)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	a, err := AnalyzeDocument(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// DocumentFile is one replay of a corpus of a game with a document of
// its own: its document, or why it has none (Err). The Document of a
// corpus game keeps its summary, players and round count but not their
// per-round series or events (G and Events are nil): a corpus costs O(games × players),
// not O(games × players × rounds). Other games' corpora are File.
type DocumentFile struct {
	Path     string
	Document *Document
	Err      error
}

// Ruleset returns the id of the game's ruleset, "" for a game that
// failed.
func (g *DocumentFile) Ruleset() string {
	if g.Document != nil {
		return g.Document.Ruleset
	}
	return ""
}

// ReplayFiles lists the replays in dir and its sub-folders, as the
// library finds them (a file or folder whose name starts with "." is left
// out, with what is under it, and an unreadable sub-folder is skipped),
// sorted by path: every .rwd and .cfr file (whichever game it holds; one
// that is no replay fails when analysed, and is reported), and every
// other regular file whose content a registered stream format claims
// (source.StreamFormatOf: a Skyport .jsn, a Monad reference log), found
// by content, not name, so other files are left out unread but for their
// first source.SniffBytes. Only dir itself failing to be read is an error.
func ReplayFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return err
			}
			return nil // an unreadable sub-folder is skipped, not fatal
		}
		if path != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if ext := filepath.Ext(d.Name()); ext == ".rwd" || ext == ".cfr" || isStreamFormatFile(path) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	return files, nil
}

// analyzeDocumentFile analyzes one file of a corpus and drops what a
// corpus does not keep (see Game).
func analyzeDocumentFile(path string) DocumentFile {
	a, err := AnalyzeDocumentFile(path)
	if a != nil {
		a.G, a.Events = nil, nil
	}
	return DocumentFile{Path: path, Document: a, Err: err}
}

// isStreamFormatFile reports whether a registered stream format claims the
// file at path by its first bytes.
func isStreamFormatFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	prefix := make([]byte, source.SniffBytes)
	n, _ := io.ReadFull(f, prefix)
	_, ok := source.StreamFormatOf(prefix[:n])
	return ok
}

// AnalyzeDocumentFiles analyzes every file, parallel at a time (at least 1), and
// returns them in the order given, each without its series (see Game): at
// most parallel whole analyses are in memory at once, each by
// AnalyzeFile. done, if set, is called (serialized) after each file.
func AnalyzeDocumentFiles(files []string, parallel int, done func()) []DocumentFile {
	games := make([]DocumentFile, len(files))
	eachParallel(len(files), parallel, func(i int) { games[i] = analyzeDocumentFile(files[i]) }, done)
	return games
}

// Cache keeps the stored analyses of a corpus's files between runs (a
// library's index). Get returns what Put was given for the file at path
// when the file has not changed since; Put is given the stored form of
// every analysis that can be kept (DocumentFile.Cacheable,
// File.Cacheable: EncodeDocumentFile, EncodeFile). Both are called from
// several goroutines.
type Cache interface {
	Get(path string) ([]byte, bool)
	Put(path string, data []byte)
}

// Cacheable reports whether g can be kept in a Cache and given back the
// same: an analysis that ended cleanly (a failed or cut-short game is
// analysed again, to report it again).
func (g *DocumentFile) Cacheable() bool {
	switch {
	case g.Err != nil:
		return false
	case g.Document != nil:
		return g.Document.Truncated == nil
	}
	return false
}

// corpusVersion is the version of corpusJSON: a stored game of another
// is analysed again.
const corpusVersion = 3

// corpusJSON is the stored form of a cacheable Game: what a corpus keeps
// of its document.
type corpusJSON struct {
	V           int              `json:"v"`
	Ruleset     string           `json:"ruleset"`
	Format      string           `json:"format"`
	Config      []Setting        `json:"config"`
	MaxTurns    int              `json:"max_turns"`
	Rounds      int              `json:"rounds"`
	Created     time.Time        `json:"created"`
	HasCommands bool             `json:"has_commands"`
	Players     []DocumentPlayer `json:"players"`
	Ranking     []corpusStanding `json:"ranking"`
	Summary     Summary          `json:"summary"`
}

type corpusStanding struct {
	Rank     int     `json:"rank"`
	UID      int     `json:"uid"`
	Username string  `json:"username"`
	Bot      string  `json:"bot"`
	Score    int64   `json:"score"`
	Values   []int64 `json:"values"`
}

// EncodeDocumentFile returns a cacheable game's stored form (JSON).
func EncodeDocumentFile(g DocumentFile) ([]byte, error) {
	if !g.Cacheable() {
		return nil, fmt.Errorf("%s: not cacheable", g.Path)
	}
	a := g.Document
	c := corpusJSON{V: corpusVersion, Ruleset: a.Ruleset, Format: a.Format, Config: a.Config, MaxTurns: a.MaxTurns,
		Rounds: a.Rounds, Created: a.Created, HasCommands: a.HasCommands, Summary: a.Summary}
	c.Summary.Ranking = nil
	for _, p := range a.Players {
		c.Players = append(c.Players, *p)
	}
	for _, s := range a.Summary.Ranking {
		c.Ranking = append(c.Ranking, corpusStanding{s.Rank, s.UID, s.Username, s.Bot, s.Score, s.Values})
	}
	return json.Marshal(c)
}

// DecodeDocumentFile reads a game stored by EncodeGame, as the game of path.
func DecodeDocumentFile(path string, data []byte) (DocumentFile, error) {
	var c corpusJSON
	if err := json.Unmarshal(data, &c); err != nil {
		return DocumentFile{}, fmt.Errorf("%s: stored analysis: %w", path, err)
	}
	if c.V != corpusVersion {
		return DocumentFile{}, fmt.Errorf("%s: stored analysis of version %d, not %d", path, c.V, corpusVersion)
	}
	r, ok := engine.Lookup(c.Ruleset)
	var doc *engine.Document
	if ok {
		doc = engine.DocumentOf(r)
	}
	if doc == nil {
		return DocumentFile{}, fmt.Errorf("%s: stored analysis of %q, a game without a document", path, c.Ruleset)
	}
	a := &Document{Doc: doc, Ruleset: c.Ruleset, Format: c.Format, Config: c.Config, MaxTurns: c.MaxTurns,
		Rounds: c.Rounds, Created: c.Created, HasCommands: c.HasCommands, Summary: c.Summary}
	for i := range c.Players {
		p := c.Players[i]
		p.p = p.UID - doc.FirstPlayer
		a.Players = append(a.Players, &p)
		a.MaxUID = max(a.MaxUID, p.UID)
	}
	for _, s := range c.Ranking {
		if len(s.Values) != len(doc.Standing) {
			return DocumentFile{}, fmt.Errorf("%s: stored analysis has %d values a player, not %d", path, len(s.Values), len(doc.Standing))
		}
		a.Summary.Ranking = append(a.Summary.Ranking, Standing{Rank: s.Rank, UID: s.UID, Username: s.Username, Bot: s.Bot,
			Score: s.Score, Values: s.Values, fields: doc.Standing})
	}
	return DocumentFile{Path: path, Document: a}, nil
}

// BotKey is how a player counts in a per-bot aggregate: its bot identity
// when the replay records one, else its username.
func BotKey(s Standing) string {
	if s.Bot != "" {
		return s.Bot
	}
	return s.Username
}

// GameResult turns an analysis into the result form tournaments use, so
// a folder of replays is rated by the same aggregate (match.Standings) as
// a tournament: seats in uid order, each with its BotKey, rank, score
// and the document's Mean field as its measure.
func (a *Document) GameResult(path string) match.GameResult {
	r := a.Summary.Ranking
	byUID := append([]Standing(nil), r...)
	sort.Slice(byUID, func(i, j int) bool { return byUID[i].UID < byUID[j].UID })
	g := match.GameResult{Ruleset: a.Ruleset, Path: path, Seats: make([]match.SeatResult, len(byUID))}
	for i, s := range byUID {
		mean, _ := s.Get(a.Doc.Mean)
		g.Seats[i] = match.SeatResult{Bot: BotKey(s), Rank: s.Rank, Score: s.Score, Measure: mean}
	}
	return g
}

// DocumentStandings aggregates the analyzed games of ruleset per bot, in
// game order (gameOrder), by match.Standings, as a tournament does;
// games that failed, or of another ruleset, are left out.
func DocumentStandings(games []DocumentFile, ruleset string) []match.Standing {
	var rs []match.GameResult
	for _, i := range gameOrder(len(games), func(i int) (time.Time, string) { return games[i].created(), games[i].Path }) {
		g := &games[i]
		if g.Document != nil && g.Ruleset() == ruleset {
			rs = append(rs, g.Document.GameResult(g.Path))
		}
	}
	return match.Standings(rs)
}

// created is when g's game was recorded, zero when not known.
func (g *DocumentFile) created() time.Time {
	if g.Document != nil {
		return g.Document.Created
	}
	return time.Time{}
}

// gameOrder returns the indexes 0..n-1 in game order, the order standings
// count games in (docs/ratings.md): by the time each game was recorded
// (key's first result; zero, unknown, first), then by path.
func gameOrder(n int, key func(i int) (created time.Time, path string)) []int {
	type entry struct {
		created int64
		path    string
		i       int
	}
	es := make([]entry, n)
	for i := range es {
		c, p := key(i)
		es[i] = entry{i: i, path: p}
		if !c.IsZero() {
			es[i].created = c.UnixNano()
		}
	}
	slices.SortStableFunc(es, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.created, b.created), strings.Compare(a.path, b.path))
	})
	out := make([]int, n)
	for i, e := range es {
		out[i] = e.i
	}
	return out
}

// DocumentCorpusColumns are the columns of WriteCorpusCSV for games laid out as
// doc (docs/analysis-json.md, "Corpus CSV"): "game" is the replay's file
// name and "ruleset" its game, then the document's Corpus fields.
func DocumentCorpusColumns(doc *engine.Document) []string {
	return append([]string{"game", "ruleset", "format", "rounds", "rank", "uid", "username", "bot"}, doc.Corpus...)
}

// WriteDocumentCorpusCSV writes one row per (game, player) of the analyzed
// games, best rank first within a game; failed games are left out, and
// so are those of another layout than the first's.
func WriteDocumentCorpusCSV(w io.Writer, games []DocumentFile) error {
	cw := csv.NewWriter(w)
	var doc *engine.Document
	for _, g := range games {
		if g.Document != nil {
			doc = g.Document.Doc
			break
		}
	}
	if doc == nil {
		doc = firstDocument()
	}
	cw.Write(DocumentCorpusColumns(doc))
	for _, g := range games {
		a := g.Document
		if a == nil || a.Doc != doc {
			continue
		}
		for _, s := range a.Summary.Ranking {
			row := []string{filepath.Base(g.Path), a.Ruleset, a.Format, strconv.Itoa(a.Rounds), strconv.Itoa(s.Rank), strconv.Itoa(s.UID),
				s.Username, s.Bot}
			for _, k := range doc.Corpus {
				v, _ := s.Get(k)
				row = append(row, strconv.FormatInt(v, 10))
			}
			cw.Write(row)
		}
	}
	cw.Flush()
	return cw.Error()
}

// firstDocument is the document of the first registered game that has
// one (in id order), the columns of a corpus CSV of which no game could
// be analyzed; an empty document when no game has one.
func firstDocument() *engine.Document {
	for _, r := range engine.All() {
		if d := engine.DocumentOf(r); d != nil {
			return d
		}
	}
	return &engine.Document{}
}

// WriteRulesetStandings writes standings of a game of ruleset as an
// aligned text table, best first (by μ − 3σ), the ratings last
// (ratingHeads), with the mean of its score
// (engine.ScoreIndex) headed by the score metric's name and, for a game
// whose document averages a measure beside it (engine.Document.Mean,
// match.SeatResult.Measure), its mean too. Bot names are quoted, so a
// hostile name cannot move the terminal's cursor or forge rows.
func WriteRulesetStandings(w io.Writer, ruleset string, st []match.Standing) error {
	r, ok := engine.Lookup(ruleset)
	if !ok {
		return WriteBotStandings(w, "score", st)
	}
	score := r.Metrics()[engine.ScoreIndex(r)].Name
	k := match.MeasureIndex(r)
	if k < 0 {
		return WriteBotStandings(w, score, st)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "rank\tbot\tgames\twins\tmean rank\tmean %s\tmean %s\t%s\n", printable(score), printable(r.Metrics()[k].Name), ratingHeads)
	for i, s := range st {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%.2f\t%.0f\t%.1f\t%s\n", i+1, strconv.Quote(s.Bot), s.Games, s.Wins, s.MeanRank, s.MeanScore, s.MeanMeasure, ratingCells(s))
	}
	return tw.Flush()
}
