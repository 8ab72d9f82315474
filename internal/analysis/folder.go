package analysis

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
)

// Many games of any ruleset (`analyze DIR`): each analysed by
// AnalyzeStream and compacted (Analysis.Compact), then folded per bot by
// the aggregate tournaments use (match.Ratings), so a folder of a
// tournament's games has the tournament's standings.

// File is one replay of a corpus: its compacted analysis, or why
// it has none (Err; Analysis nil).
type File struct {
	Path     string
	Analysis *Analysis
	Err      error
}

// AnalyzeFiles analyzes every file, parallel at a time (at least
// 1), each opened by open and analysed by AnalyzeStream with opt, and
// returns them in the order given, compacted: at most parallel whole
// analyses are in memory at once. open's stream is closed after its
// analysis. done, if set, is called (serialized) after each file.
func AnalyzeFiles(files []string, parallel int, open func(path string) (engine.Stream, error), opt Options, done func()) []File {
	out := make([]File, len(files))
	eachParallel(len(files), parallel, func(i int) { out[i] = analyzeCorpusFile(files[i], open, opt) }, done)
	return out
}

// eachParallel calls do(i) for every i in 0..n-1, parallel calls at a
// time (at least 1), and returns when all have returned; done, if set, is
// called after each, one call at a time.
func eachParallel(n, parallel int, do func(i int), done func()) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for w := 0; w < max(1, parallel); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				do(i)
				if done != nil {
					mu.Lock()
					done()
					mu.Unlock()
				}
			}
		}()
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

func analyzeCorpusFile(path string, open func(string) (engine.Stream, error), opt Options) File {
	s, err := open(path)
	if err != nil {
		return File{Path: path, Err: err}
	}
	return analyzeStreamFile(path, s, opt)
}

// analyzeStreamFile analyzes s, the stream of the file at path, closes
// it and compacts the analysis.
func analyzeStreamFile(path string, s engine.Stream, opt Options) File {
	g, err := AnalyzeStream(s, opt)
	if cerr := s.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return File{Path: path, Err: fmt.Errorf("%s: %w", path, err)}
	}
	g.Compact()
	return File{Path: path, Analysis: g}
}

// Corpus is a folder's replays analysed, each in the order given: those
// of games with a document of their own (engine.Documented) as
// DocumentFile, a file that does not open among them (to say why), and
// the others as File.
type Corpus struct {
	Documents []DocumentFile
	Files     []File
}

// AnalyzeCorpus analyzes every file, parallel at a time (at least 1),
// opening each at most once with open: a file cache holds (Cache.Get,
// asked first when cache is not nil) is not opened; a game with a
// document of its own gives its document (as AnalyzeDocumentFiles does),
// any other its compacted analysis (as AnalyzeFiles does, with opt), each
// given to cache.Put when Cacheable. At
// most parallel whole analyses are in memory at once; each stream is
// closed after its analysis. done, if set, is called (serialized) after
// each file.
func AnalyzeCorpus(files []string, parallel int, open func(path string) (engine.Stream, error), opt Options, cache Cache, done func()) Corpus {
	docs := make([]DocumentFile, len(files))
	others := make([]File, len(files))
	isDoc := make([]bool, len(files))
	eachParallel(len(files), parallel, func(i int) {
		isDoc[i] = analyzeCorpusEntry(files[i], open, opt, cache, &docs[i], &others[i])
	}, done)
	var c Corpus
	for i := range files {
		if isDoc[i] {
			c.Documents = append(c.Documents, docs[i])
		} else {
			c.Files = append(c.Files, others[i])
		}
	}
	return c
}

// analyzeCorpusEntry analyzes the file at path into doc (true) or file
// (false).
func analyzeCorpusEntry(path string, open func(string) (engine.Stream, error), opt Options, cache Cache, doc *DocumentFile, file *File) bool {
	if cache != nil {
		if data, ok := cache.Get(path); ok {
			// Each stored form is read by its own decoder only
			// (EncodeFile's JSON starts with its version key).
			if bytes.HasPrefix(data, fileJSONPrefix) {
				if f, err := DecodeFile(path, data); err == nil {
					*file = f
					return false
				}
			} else if g, err := DecodeDocumentFile(path, data); err == nil {
				*doc = g
				return true
			}
		}
	}
	s, err := open(path)
	if err != nil {
		*doc = DocumentFile{Path: path, Err: err}
		return true
	}
	if s.Meta().Document == nil {
		*file = analyzeStreamFile(path, s, opt)
		if cache != nil && file.Cacheable() {
			if data, err := EncodeFile(*file); err == nil {
				cache.Put(path, data)
			}
		}
		return false
	}
	defer s.Close()
	a, err := AnalyzeDocument(s)
	if err != nil {
		*doc = DocumentFile{Path: path, Err: fmt.Errorf("%s: %w", path, err)}
		return true
	}
	a.G, a.Events = nil, nil
	*doc = DocumentFile{Path: path, Document: a}
	if cache != nil && doc.Cacheable() {
		if data, err := EncodeDocumentFile(*doc); err == nil {
			cache.Put(path, data)
		}
	}
	return true
}

// created is when f's game was recorded, zero when not known.
func (f *File) created() time.Time {
	if f.Analysis != nil {
		return f.Analysis.Meta.Created
	}
	return time.Time{}
}

// Cacheable reports whether f can be kept in a Cache and given back the
// same: an analysis that ended cleanly (a failed or cut-short game is
// analysed again, to report it again).
func (f *File) Cacheable() bool {
	return f.Err == nil && f.Analysis != nil && f.Analysis.Truncated == nil
}

// fileVersion is the version of fileJSON: a stored analysis of another
// is analysed again.
const fileVersion = 2

// fileJSON is the stored form of a cacheable File: its compacted
// analysis (Analysis.Compact), whose fields are all data.
type fileJSON struct {
	V        int       `json:"file_v"`
	Analysis *Analysis `json:"analysis"`
}

// fileJSONPrefix begins every stored form EncodeFile writes (fileJSON's
// first field), and no document's (corpusJSON).
var fileJSONPrefix = []byte(`{"file_v":`)

// EncodeFile returns a cacheable file's stored form (JSON).
func EncodeFile(f File) ([]byte, error) {
	if !f.Cacheable() {
		return nil, fmt.Errorf("%s: not cacheable", f.Path)
	}
	return json.Marshal(fileJSON{V: fileVersion, Analysis: f.Analysis})
}

// DecodeFile reads a file's analysis stored by EncodeFile, as the file at
// path; an analysis of a game not registered here, or stored by another
// version, is an error (the file is analysed again).
func DecodeFile(path string, data []byte) (File, error) {
	var c fileJSON
	if err := json.Unmarshal(data, &c); err != nil {
		return File{}, fmt.Errorf("%s: stored analysis: %w", path, err)
	}
	switch {
	case c.V != fileVersion:
		return File{}, fmt.Errorf("%s: stored analysis of version %d, not %d", path, c.V, fileVersion)
	case c.Analysis == nil:
		return File{}, fmt.Errorf("%s: stored analysis without an analysis", path)
	}
	if _, ok := engine.Lookup(c.Analysis.Meta.Ruleset); !ok {
		return File{}, fmt.Errorf("%s: stored analysis of %q, a game not registered here", path, c.Analysis.Meta.Ruleset)
	}
	if len(c.Analysis.Players) != len(c.Analysis.Meta.Players) {
		return File{}, fmt.Errorf("%s: stored analysis has %d players, its meta %d", path, len(c.Analysis.Players), len(c.Analysis.Meta.Players))
	}
	return File{Path: path, Analysis: c.Analysis}, nil
}

// BotKey is how player p counts in a per-bot aggregate: its bot when the
// stream records one (a tournament records the entrant), else its name.
func (g *Analysis) BotKey(p int) string {
	if p >= 0 && p < len(g.Players) && g.Players[p].Bot != "" {
		return g.Players[p].Bot
	}
	return g.Name(p)
}

// GameResult turns the analysis of game i (kept at path) into the result
// form tournaments use: Ruleset the game's ruleset id, Seed its seed (0
// when not Seeded), seats in player order with their BotKey, Rank, final
// score (as Gold; 0 with no metric) and Cells 0.
func (g *Analysis) GameResult(i int, path string) match.GameResult {
	gr := match.GameResult{Game: i, Ruleset: g.Meta.Ruleset, Path: path, Seats: make([]match.SeatResult, len(g.Players))}
	if g.Meta.Seeded {
		gr.Seed = g.Meta.Seed
	}
	sc := g.Score()
	for p := range g.Players {
		s := match.SeatResult{Bot: g.BotKey(p), Rank: g.Players[p].Rank}
		if sc >= 0 {
			s.Score = g.Players[p].Metrics[sc].Final
		}
		gr.Seats[p] = s
	}
	return gr
}

// Standings folds the analysed games of ruleset (StreamMeta.Ruleset)
// into per-bot standings, best first (μ − 3σ, then Elo), ties in order
// of first appearance: each game, in game order (gameOrder), is added to a match.Ratings
// as its GameResult, so the Elo is a tournament's (every pairwise duel of
// a game decided by final score, equal scores a draw; Monad's by rank).
// Games of other rulesets, and games that failed, are left out. Memory is
// O(bots), whatever the number of games.
func Standings(files []File, ruleset string) []match.Standing {
	var r match.Ratings
	for _, i := range gameOrder(len(files), func(i int) (time.Time, string) { return files[i].created(), files[i].Path }) {
		if g := files[i].Analysis; g != nil && g.Meta.Ruleset == ruleset {
			r.Add(g.GameResult(i, files[i].Path))
		}
	}
	return r.Standings()
}

// WriteBotStandings writes standings as an aligned text table, best
// first, the ratings last (ratingHeads), the mean score headed "mean <score>" (the score metric's name).
// Bot names are quoted, so a hostile name cannot move the terminal's
// cursor or forge rows.
func WriteBotStandings(w io.Writer, score string, st []match.Standing) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "rank\tbot\tgames\twins\tmean rank\tmean %s\t%s\n", printable(score), ratingHeads)
	for i, s := range st {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%.2f\t%.1f\t%s\n", i+1, strconv.Quote(s.Bot), s.Games, s.Wins, s.MeanRank, s.MeanScore, ratingCells(s))
	}
	return tw.Flush()
}

// ratingHeads are the rating columns' heads of a standings table, tab
// separated: the Weng–Lin conservative score (the order), its μ and σ,
// and the Elo (docs/ratings.md).
const ratingHeads = "mu-3sigma\tmu\tsigma\telo"

// ratingCells are s's cells under ratingHeads.
func ratingCells(s match.Standing) string {
	return fmt.Sprintf("%.2f\t%.2f\t%.2f\t%.0f", s.Conservative, s.Mu, s.Sigma, s.Elo)
}

// CorpusColumns are the columns of WriteCorpusCSV: the
// replay's file name, its ruleset and format, the rounds analysed, then
// per player its rank, number (0-based), name, bot, final score, commands
// sent and rejected (-1 when not known) and faults.
var CorpusColumns = []string{"game", "ruleset", "format", "turns", "rank", "player", "name", "bot", "score", "commands", "rejected", "faults"}

// WriteCorpusCSV writes one row per (game, player) of the analysed
// games, best rank first within a game; failed games are left out. Every
// field is quoted as RFC 4180 requires (encoding/csv).
func WriteCorpusCSV(w io.Writer, files []File) error {
	cw := csv.NewWriter(w)
	cw.Write(CorpusColumns)
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, f := range files {
		g := f.Analysis
		if g == nil {
			continue
		}
		sc := g.Score()
		for _, pi := range g.Ranking {
			p := &g.Players[pi]
			score := ""
			if sc >= 0 {
				score = i64(p.Metrics[sc].Final)
			}
			cw.Write([]string{filepath.Base(f.Path), g.Meta.Ruleset, g.Meta.Format, strconv.Itoa(g.Turns), strconv.Itoa(p.Rank), strconv.Itoa(p.Player),
				csvSafe(p.Name), csvSafe(p.Bot), score, i64(p.Commands), i64(p.Rejected), strconv.Itoa(p.Faults)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvSafe prefixes a leading = + - @ with ', so a spreadsheet does not
// read the field as a formula.
func csvSafe(s string) string {
	if len(s) > 0 && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@') {
		return "'" + s
	}
	return s
}
