package analysis

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"text/tabwriter"

	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/replay/source"
)

// AnalyzeFile opens and analyzes the replay at path, whichever its format.
func AnalyzeFile(path string) (*Analysis, error) {
	src, err := source.Open(path)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	a, err := Analyze(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// Game is one replay of a corpus: its analysis, or why it has none. The
// Analysis of a corpus game keeps its summary, players and round count but
// not their per-round series or events (Player.Series and Events are nil):
// a corpus costs O(games × players), not O(games × players × rounds).
type Game struct {
	Path     string
	Analysis *Analysis
	Err      error
}

// ReplayFiles lists the .rwd and .cfr files directly in dir, sorted.
func ReplayFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range ents {
		if e.Type().IsRegular() && (filepath.Ext(e.Name()) == ".rwd" || filepath.Ext(e.Name()) == ".cfr") {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(files)
	return files, nil
}

// AnalyzeFiles analyzes every file, parallel at a time (at least 1), and
// returns them in the order given, each without its series (see Game): at
// most parallel whole analyses are in memory at once. done, if set, is called (serialized)
// after each file.
func AnalyzeFiles(files []string, parallel int, done func()) []Game {
	games := make([]Game, len(files))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for w := 0; w < max(1, parallel); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				a, err := AnalyzeFile(files[i])
				if a != nil {
					for _, p := range a.Players {
						p.Series = nil
					}
					a.Events = nil
				}
				games[i] = Game{Path: files[i], Analysis: a, Err: err}
				if done != nil {
					mu.Lock()
					done()
					mu.Unlock()
				}
			}
		}()
	}
	for i := range files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return games
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
// a tournament: seats in uid order, each with its BotKey, rank, final gold
// and cells.
func (a *Analysis) GameResult(path string) match.GameResult {
	r := a.Summary.Ranking
	byUID := append([]Standing(nil), r...)
	sort.Slice(byUID, func(i, j int) bool { return byUID[i].UID < byUID[j].UID })
	g := match.GameResult{Path: path, Seats: make([]match.SeatResult, len(byUID))}
	for i, s := range byUID {
		g.Seats[i] = match.SeatResult{Bot: BotKey(s), Rank: s.Rank, Gold: s.Gold, Cells: s.Cells}
	}
	return g
}

// Standings aggregates the analyzed games per bot (see match.Standings),
// in the order given; games that failed are left out.
func Standings(games []Game) []match.Standing {
	var rs []match.GameResult
	for _, g := range games {
		if g.Analysis != nil {
			rs = append(rs, g.Analysis.GameResult(g.Path))
		}
	}
	return match.Standings(rs)
}

// CorpusColumns are the columns of WriteCorpusCSV.
var CorpusColumns = []string{"game", "format", "rounds", "rank", "uid", "username", "bot", "gold", "cells", "energy", "peak_cells", "captured", "lost", "stolen_in", "stolen_out"}

// WriteCorpusCSV writes one row per (game, player) of the analyzed games,
// best rank first within a game; failed games are left out.
func WriteCorpusCSV(w io.Writer, games []Game) error {
	cw := csv.NewWriter(w)
	cw.Write(CorpusColumns)
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, g := range games {
		a := g.Analysis
		if a == nil {
			continue
		}
		for _, s := range a.Summary.Ranking {
			cw.Write([]string{filepath.Base(g.Path), string(a.Format), strconv.Itoa(a.Rounds), strconv.Itoa(s.Rank), strconv.Itoa(s.UID),
				s.Username, s.Bot, i64(s.Gold), i64(s.Cells), i64(s.Energy), i64(s.PeakCells), i64(s.Captured), i64(s.Lost), i64(s.StolenIn), i64(s.StolenOut)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteStandings writes standings as an aligned text table, best first.
// Bot names are quoted, so a hostile name cannot move the terminal's
// cursor or forge rows.
func WriteStandings(w io.Writer, st []match.Standing) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "rank\tbot\tgames\twins\tmean rank\tmean gold\tmean cells\telo")
	for i, s := range st {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%.2f\t%.0f\t%.1f\t%.0f\n", i+1, strconv.Quote(s.Bot), s.Games, s.Wins, s.MeanRank, s.MeanGold, s.MeanCells, s.Elo)
	}
	return tw.Flush()
}
