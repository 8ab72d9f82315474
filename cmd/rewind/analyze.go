package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/viewer/index"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

type analyzeOptions struct {
	path     string
	format   string
	kind     string
	explain  int // --explain TURN: the lead change at or before it
	parallel int
	stdout   io.Writer
	stderr   io.Writer
	progress bool
}

func newAnalyzeCmd() *cobra.Command {
	opts := &analyzeOptions{}
	cmd := &cobra.Command{
		Use:   "analyze FILE|DIR [--format table|json|csv]",
		Short: "Analyze a replay (.rwd or an official file), or every replay in a folder",
		Long: `analyze computes a replay's per-player, per-round series, its events and a
summary. FILE is a .rwd or an official file of its game (` + officialFormats() + `).
A game with an analysis document of its own (` + documentedGames() + `)
gives the document's series, events and summary (schema:
docs/analysis-json.md); every other game gives its declared metrics per
player per round, its events, lead changes, bot faults and ranking
(docs/analysis-json.md, "Any game").

For a FILE: --format table (default) prints the summary and events; json
prints one object; csv prints the series, one row per player per round
(--csv summary: one row per player).

For a DIR: every replay in it and its sub-folders (.rwd, and every
official file, found by content; none under a folder whose name starts
with ".") is analyzed in parallel. The games with a document of their own
give one CSV row per (game, player) (columns: docs/analysis-json.md,
"Corpus CSV") and, on stderr as tables, an aggregate per bot ("NAME: N
games": games, wins, mean rank, the document's means, Elo, as tournament
computes them); every other game its own aggregate per bot (games, wins,
mean rank, mean score, Elo) — with --format table, only the aggregates. A
file that cannot be analyzed is reported by name and skipped. Each game's analysis, of any game, is kept in
the folder's index (DIR/.rewind/index.db, as rewind index), so the next
run reads only new or changed replays.`,
		Example: `  rewind analyze game.rwd
  rewind analyze game.rwd --explain 250
  rewind analyze game.rwd --format json > game.json
  rewind analyze tournament --format csv > games.csv`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.path = args[0]
			opts.stdout, opts.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			if f, ok := opts.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				opts.progress = true
			}
			return runAnalyze(opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "table", "table, json or csv")
	cmd.Flags().IntVar(&opts.explain, "explain", 0, "explain the lead change at (or last before) this turn: what each of the two players did in the 10 rounds before it")
	cmd.Flags().StringVar(&opts.kind, "csv", "series", "what --format csv writes for a file: series or summary")
	cmd.Flags().IntVar(&opts.parallel, "parallel", runtime.NumCPU(), "replays analyzed at once for a DIR (at least 1)")
	documentDefault(cmd.Flags(), "parallel", "the number of CPUs")
	return cmd
}

func runAnalyze(opts *analyzeOptions) error {
	st, err := os.Stat(opts.path)
	if err != nil {
		return plainError(err)
	}
	if st.IsDir() {
		if opts.parallel < 1 {
			return usagef("--parallel %d: give at least 1", opts.parallel)
		}
		return analyzeDir(opts)
	}
	g, a, err := analyzeFile(opts.path)
	if err != nil {
		return err
	}
	if a == nil {
		return analyzeStream(opts, g)
	}
	if a.Truncated != nil && opts.stderr != nil {
		fmt.Fprintf(opts.stderr, "warning: %s %s (%v); analysed its %d whole rounds\n", opts.path, stopWords(a.Truncated), a.Truncated, a.Rounds)
	}
	switch {
	case opts.explain != 0:
		err = writeExplain(opts, func(turn int) (string, bool) {
			return a.ExplainLeadChange(turn, func(uid int) string { return strconv.Quote(a.Name(uid)) })
		})
	case opts.format == "table":
		err = a.WriteTable(opts.stdout)
	case opts.format == "json":
		err = a.WriteJSON(opts.stdout)
	case opts.format == "csv":
		err = a.WriteCSV(opts.stdout, opts.kind)
	default:
		return usagef("unknown --format %q (want table, json or csv)", opts.format)
	}
	if err != nil {
		return err
	}
	return stopStatusError(a.Truncated)
}

// writeExplain writes --explain's line, explain's for opts.explain (a
// document's or an analysis's ExplainLeadChange, players quoted).
func writeExplain(opts *analyzeOptions, explain func(turn int) (string, bool)) error {
	line, ok := explain(opts.explain)
	if !ok {
		return fmt.Errorf("--explain %d: no lead change between two players at or before turn %d", opts.explain, opts.explain)
	}
	fmt.Fprintln(opts.stdout, line)
	return nil
}

func analyzeDir(opts *analyzeOptions) (err error) {
	all, err := analysis.ReplayFiles(opts.path)
	if err != nil {
		return err
	}
	if len(all) == 0 {
		return fmt.Errorf("%s: no replays (.rwd, .cfr or another game's official format: %s)", opts.path, strings.Join(source.StreamExts(), ", "))
	}
	var bar *progressbar.ProgressBar
	var done func()
	if opts.progress {
		bar = filesBar(opts.stderr, len(all))
		done = func() { bar.Add(1) }
	}
	// Each file is opened once: replays of games with a document of
	// their own take it (and the corpus CSV, kept in the folder's index);
	// the others their analysis.
	cache := &analysisCache{dir: opts.path, stderr: opts.stderr}
	corpus := analysis.AnalyzeCorpus(all, opts.parallel, source.OpenStream, analysis.Options{}, cache, done)
	cache.close()
	if bar != nil {
		bar.Finish()
	}
	docs, files := corpus.Documents, corpus.Files
	n := len(docs) + len(files)
	var st dirTally
	for _, g := range docs {
		if g.Err != nil {
			st.skip(opts.stderr, g.Err)
		} else if g.Document != nil && g.Document.Truncated != nil {
			st.stop(opts.stderr, g.Path, g.Document.Truncated, g.Document.Rounds, "rounds")
		}
	}
	for _, g := range files {
		if g.Err != nil {
			st.skip(opts.stderr, g.Err)
		} else if g.Analysis.Truncated != nil {
			st.stop(opts.stderr, g.Path, g.Analysis.Truncated, g.Analysis.Turns, "turns")
		}
	}
	// The standings go to stdout as the table, or to stderr beside the CSV.
	out, leftOut := opts.stderr, 0
	if opts.format == "table" {
		out = opts.stdout
	} else {
		// One CSV, of one kind of row: the games with a document of their
		// own when there are any, the others left out and said so (their
		// columns differ).
		if len(docs) > 0 {
			err = analysis.WriteDocumentCorpusCSV(opts.stdout, docs)
			leftOut = analyzedFiles(files)
			files = nil
		} else {
			err = analysis.WriteCorpusCSV(opts.stdout, files)
		}
		if err != nil {
			return err
		}
	}
	for _, id := range engine.IDs() {
		info, _ := engine.About(id)
		if n := documentsOf(docs, id); n > 0 {
			fmt.Fprintf(out, "%s: %d games\n", info.Name, n)
			if err := analysis.WriteRulesetStandings(out, id, analysis.DocumentStandings(docs, id)); err != nil {
				return err
			}
		}
		if n := filesOf(files, id); n > 0 {
			rs, _ := engine.Get(id)
			fmt.Fprintf(out, "%s: %d games\n", info.Name, n)
			if err := analysis.WriteBotStandings(out, rs.Metrics()[engine.ScoreIndex(rs)].Name, analysis.Standings(files, id)); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(out, "%d replays analyzed, %d skipped\n", n-st.failed, st.failed)
	if leftOut > 0 {
		fmt.Fprintf(opts.stderr, "%d replays of other games left out of the CSV (their columns differ): analyze them in a folder of their own\n", leftOut)
	}
	return folderStatus(opts.path, n, st.failed, st.damaged, st.cut)
}

// dirTally counts analyze DIR's replays that could not be analyzed
// (failed), were analyzed up to damage or were cut short, saying each on
// stderr.
type dirTally struct{ failed, damaged, cut int }

func (t *dirTally) skip(stderr io.Writer, err error) {
	t.failed++
	fmt.Fprintf(stderr, "skipped %v\n", err)
}

// stop notes a replay at path analysed up to stop, its n whole units
// ("rounds" or "turns").
func (t *dirTally) stop(stderr io.Writer, path string, stop error, n int, units string) {
	tally(&t.cut, &t.damaged, stop)
	fmt.Fprintf(stderr, "warning: %s %s (%v); analysed its %d whole %s\n", path, stopWords(stop), stop, n, units)
}

// documentsOf counts the replays of docs analysed as game id's.
func documentsOf(docs []analysis.DocumentFile, id string) int {
	n := 0
	for i := range docs {
		if docs[i].Err == nil && docs[i].Ruleset() == id {
			n++
		}
	}
	return n
}

// filesOf counts the replays of files analysed as game id's.
func filesOf(files []analysis.File, id string) int {
	n := 0
	for _, f := range files {
		if f.Analysis != nil && f.Analysis.Meta.Ruleset == id {
			n++
		}
	}
	return n
}

// analyzedFiles counts the replays of files that were analysed.
func analyzedFiles(files []analysis.File) int {
	n := 0
	for _, f := range files {
		if f.Analysis != nil {
			n++
		}
	}
	return n
}

// analysisCache keeps a folder's corpus analyses in its library index
// (DIR/.rewind/index.db), keyed by path in the folder, size and modification time,
// so analyze DIR reads only the replays that are new or changed. Get
// reads an index that is there; the first Put makes it. When it cannot
// be used (a folder that cannot be written, an index from a newer rewind)
// that is said on stderr and the replays are all read.
type analysisCache struct {
	dir    string
	stderr io.Writer
	once   sync.Once
	opened atomic.Bool // once has run
	ix     *index.Index
	mu     sync.Mutex
	new    []index.StoredAnalysis
}

// index opens the folder's index once (made when create is true or it
// is there); nil when it cannot be used or, for a Get, is not there.
func (c *analysisCache) index(create bool) *index.Index {
	if !create && !c.opened.Load() {
		if _, err := os.Stat(filepath.Join(c.dir, filepath.FromSlash(index.File))); err != nil {
			return nil
		}
	}
	c.once.Do(func() {
		defer c.opened.Store(true)
		ix, warn, err := index.Open(c.dir)
		if err != nil {
			if c.stderr != nil {
				fmt.Fprintf(c.stderr, "note: not keeping the analyses in the index: %v\n", err)
			}
			return
		}
		if warn != nil && c.stderr != nil {
			fmt.Fprintf(c.stderr, "warning: %v\n", warn)
		}
		c.ix = ix
	})
	return c.ix
}

func stamp(path string) (int64, int64, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return 0, 0, false
	}
	return fi.Size(), fi.ModTime().UnixNano(), true
}

// key is the index's name of the file at path: its path from the folder,
// with slashes (a library entry's id), so files of one name in two
// sub-folders are kept apart.
func (c *analysisCache) key(path string) string {
	if rel, err := filepath.Rel(c.dir, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}

func (c *analysisCache) Get(path string) ([]byte, bool) {
	size, mtime, ok := stamp(path)
	if !ok {
		return nil, false
	}
	ix := c.index(false)
	if ix == nil {
		return nil, false
	}
	data, ok, err := ix.Analysis(c.key(path), size, mtime)
	return data, err == nil && ok
}

func (c *analysisCache) Put(path string, data []byte) {
	size, mtime, ok := stamp(path)
	if !ok || c.index(true) == nil {
		return
	}
	c.mu.Lock()
	c.new = append(c.new, index.StoredAnalysis{Path: c.key(path), Size: size, MTime: mtime, Data: data})
	c.mu.Unlock()
}

// close stores the new analyses and closes the index, if it was opened.
func (c *analysisCache) close() {
	if c.ix == nil {
		return
	}
	if err := c.ix.PutAnalyses(c.new); err != nil && c.stderr != nil {
		fmt.Fprintf(c.stderr, "note: the analyses were not kept: %v\n", err)
	}
	c.ix.Close()
}

// analyzeFile opens and analyzes one replay of any game
// (source.OpenStream): its analysis, and its game's own
// document (analysis.Document) when the game has one, else nil.
func analyzeFile(path string) (*analysis.Analysis, *analysis.Document, error) {
	s, err := source.OpenStream(path)
	if err != nil {
		return nil, nil, err
	}
	defer s.Close()
	if s.Meta().Document != nil {
		a, err := analysis.AnalyzeDocument(s)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		return a.G, a, nil
	}
	g, err := analysis.AnalyzeStream(s, analysis.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return g, nil, nil
}

// analyzeStream writes the analysis a of a replay of a game
// without a document of its own.
func analyzeStream(opts *analyzeOptions, a *analysis.Analysis) error {
	switch opts.format {
	case "table", "json", "csv":
	default:
		return usagef("unknown --format %q (want table, json or csv)", opts.format)
	}
	if opts.format == "csv" && opts.kind != "series" && opts.kind != "summary" {
		return usagef("--csv %q: want series or summary", opts.kind)
	}
	if a.Truncated != nil && opts.stderr != nil {
		fmt.Fprintf(opts.stderr, "warning: %s %s (%v); analysed its %d whole turns\n", opts.path, stopWords(a.Truncated), a.Truncated, a.Turns)
	}
	var err error
	switch {
	case opts.explain != 0:
		err = writeExplain(opts, func(turn int) (string, bool) {
			return a.ExplainLeadChange(turn, func(p int) string { return strconv.Quote(a.Name(p)) })
		})
	case opts.format == "table":
		err = a.WriteTable(opts.stdout)
	case opts.format == "json":
		err = a.WriteJSON(opts.stdout)
	case opts.kind == "series":
		err = a.WriteSeriesCSV(opts.stdout)
	default:
		err = a.WriteCSV(opts.stdout)
	}
	if err != nil {
		return err
	}
	return stopStatusError(a.Truncated)
}

// tally counts a replay analyzed up to stop (not nil) as cut short or
// as damaged.
func tally(cut, damaged *int, stop error) {
	if source.CutShort(stop) {
		*cut++
	} else {
		*damaged++
	}
}

// folderStatus is analyze DIR's outcome for n replays of which failed
// could not be analyzed at all, damaged were analyzed up to damage and
// cut were cut short: an error when none could be analyzed, else
// exitFailed when any was skipped or damaged, exitIncomplete when any
// was cut short, nil when every one was whole.
func folderStatus(dir string, n, failed, damaged, cut int) error {
	switch {
	case failed == n:
		return fmt.Errorf("no replay in %s could be analyzed", dir)
	case failed > 0 || damaged > 0:
		return &exitError{code: exitFailed}
	case cut > 0:
		return &exitError{code: exitIncomplete}
	}
	return nil
}
