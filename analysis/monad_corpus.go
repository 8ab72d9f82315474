package analysis

import (
	"bufio"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"

	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/replay/source"
)

// Monad games in a corpus (AnalyzeFiles, Standings, WriteCorpusCSV): each
// is analysed by AnalyzeMonadFile and rated as `rewind tournament --game
// monad` rates it, through match.MonadGameResult and match.Standings, so
// a folder of a tournament's games has the tournament's standings.

// analyzeCorpusFile analyzes one file of a corpus by its game, and drops
// what a corpus does not keep (see Game).
func analyzeCorpusFile(path string) Game {
	if source.IsMonadFile(path) {
		a, err := AnalyzeMonadFile(path)
		if a != nil {
			a.Series, a.Events, a.Leader = nil, nil, nil
		}
		return Game{Path: path, Monad: a, Err: err}
	}
	a, err := AnalyzeFile(path)
	if a != nil {
		for _, p := range a.Players {
			p.Series = nil
		}
		a.Events = nil
	}
	return Game{Path: path, Analysis: a, Err: err}
}

// isMonadLogFile reports whether the file at path is a Monad reference
// log by its content (source.IsMonadLog); false when it cannot be read.
func isMonadLogFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return source.IsMonadLog(bufio.NewReaderSize(f, 64<<10))
}

// BotKey is how player p counts in a per-bot aggregate: its bot identity
// when the replay records one (a tournament records the entrant), else
// its name (Name).
func (a *MonadAnalysis) BotKey(p int) string {
	if p >= 0 && p < len(a.Meta.Bots) && a.Meta.Bots[p] != "" {
		return a.Meta.Bots[p]
	}
	return a.Name(p)
}

// finalStats returns the players' facts at the last frame (Final), zero for a
// player it lacks.
func (a *MonadAnalysis) finalStats() []monad.PlayerStats {
	st := make([]monad.PlayerStats, a.Players())
	copy(st, a.Final)
	return st
}

// GameResult turns the analysis of game i (kept at path) into the result
// form tournaments use, by match.MonadGameResult as a Monad tournament
// does: seats in player order with their BotKey, their rank
// (monad.RankStats of Final: crashed players share the last), final
// resources (as Gold) and cells. The seed is 0 when the replay does not
// know it (a reference log).
func (a *MonadAnalysis) GameResult(i int, path string) match.GameResult {
	st := a.finalStats()
	entrants := make([]string, len(st))
	for p := range entrants {
		entrants[p] = a.BotKey(p)
	}
	var seed uint64
	if a.Meta.SeedKnown {
		seed = uint64(a.Meta.Config.Seed)
	}
	return match.MonadGameResult(i, seed, path, entrants, monad.RankStats(st), func(p int) monad.PlayerStats { return st[p] })
}

// writeMonadCorpusRows writes a Monad game's rows of WriteCorpusCSV, best
// rank first.
func writeMonadCorpusRows(cw *csv.Writer, path string, a *MonadAnalysis) {
	st := a.finalStats()
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, r := range monad.RankStats(st) {
		p, s := r.Player, &st[r.Player]
		bot := ""
		if p < len(a.Meta.Bots) {
			bot = a.Meta.Bots[p]
		}
		cw.Write([]string{filepath.Base(path), monad.RulesetID, string(a.Meta.Format), strconv.Itoa(a.Turns), strconv.Itoa(r.Rank), strconv.Itoa(p + 1),
			a.Name(p), bot, i64(s.Resources), strconv.Itoa(s.Cells), "", "", "", "", "", "", i64(s.Units), strconv.Itoa(s.Hives)})
	}
}
