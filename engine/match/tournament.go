package match

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/bot"
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/engine/rng"
	"github.com/rewind-game/rewind/engine/rulesets"
)

// Archive keeps a tournament's games so that a tournament can resume: a
// game the archive already holds complete is read back, not played again.
// Package recording provides one over a folder of .rwd files.
type Archive interface {
	// Finished returns game i's result when the archive holds it complete
	// (to maxTurn), played on seed with these entrants in seat order; ok
	// is false for anything else (missing, partial, damaged, another
	// seating), and the game is then played again.
	Finished(i int, seed uint64, maxTurn int, entrants []string) (res GameResult, ok bool)
	// Create starts recording game i.
	Create(i int) (GameRecording, error)
}

// GameRecording is one game being recorded into an Archive.
type GameRecording interface {
	Recorder
	// Commit keeps the finished game; path tells the user where.
	Commit() (path string, err error)
	// Abort discards an interrupted or failed game.
	Abort()
}

// Tournament describes a series of matches among a set of bots.
type Tournament struct {
	// Bots are the entrants: specs understood by NewBot.
	Bots []string
	// NewBot makes a fresh bot for a spec (one per seat per game).
	NewBot func(spec string, game, uid int) (bot.Bot, error)
	// Games is how many matches to play; Players how many seats each
	// has (default: min(len(Bots), 8)).
	Games, Players int
	// Parallel is how many matches run at once (default 1).
	Parallel int
	// Seed is the master seed: game i plays on GameSeed(Seed, i).
	Seed    uint64
	MaxTurn int
	// Archive records every game; a game it already holds complete is
	// not played again. Required.
	Archive Archive
	// Progress, if set, is called (from any goroutine, serialized) each
	// time a game is done, with the number done so far and the results of
	// the games done so far (in the order they finished; nil for a game
	// that failed). The slice is the callee's only during the call.
	Progress func(done int, results []GameResult)

	// Game is the ruleset played: "" or "colorfight2" (NewBot and Archive
	// are used), or any other registered ruleset, played through the
	// seam (RunGame) with NewGameBot's bots into SeamArchive, each game
	// from Setup when set (a map file); such a game may end before
	// MaxTurn.
	Game        string
	NewGameBot  func(spec string, game, player int) (GamePlayer, error)
	SeamArchive SeamArchive
	Setup       []byte

	// Remote, when set, plays a game the archive does not hold somewhere
	// else (a work queue's workers) and returns its result, with Path
	// where the archive now keeps its replay; NewBot and NewGameBot are
	// then not used.
	Remote func(ctx context.Context, i int) (GameResult, error)
}

// SeamArchive is Archive for games played through the seam (a game is
// finished when its recording verifies to its footer, whatever turn the
// game ended at).
type SeamArchive interface {
	FinishedSeam(i int, ruleset string, seed uint64, maxTurn int, entrants []string) (res GameResult, ok bool)
	CreateSeam(i int) (SeamGameRecording, error)
}

// SeamGameRecording is one game played through the seam being recorded
// into a SeamArchive.
type SeamGameRecording interface {
	GameRecorder
	Commit() (path string, err error)
	Abort()
}

// GameResult is one game of a tournament.
type GameResult struct {
	Game int
	// Ruleset is the game's ruleset id ("" is ColorfightII).
	Ruleset string
	Seed    uint64
	// Path is where the archive keeps the game.
	Path    string
	Skipped bool // already played: read from its replay
	// Seats in uid order: the entrant spec, its final rank (1 = best)
	// and gold (a game played through the seam: its score) and cells (a game played through the seam: 0).
	Seats []SeatResult
}

// SeatResult is one seat of a game.
type SeatResult struct {
	Bot   string
	Rank  int
	Gold  int64
	Cells int64
}

// Standing is one entrant's tournament record.
type Standing struct {
	Bot       string
	Games     int
	Wins      int
	MeanRank  float64
	MeanGold  float64
	MeanCells float64
	// Elo is the entrant's multiplayer Elo rating (see Standings).
	Elo float64
}

// GameSeed is game i's seed: the first output of
// rng.New(master XOR (i+1)*0xD1B54A32D192ED03).
func GameSeed(master uint64, i int) uint64 {
	return rng.New(master ^ uint64(i+1)*0xD1B54A32D192ED03).Uint64()
}

// Seating returns the entrants of game i: Players of them, drawn without
// repetition while possible and in an order shuffled by the game's seed,
// so that over many games every bot plays every seat.
func (t *Tournament) Seating(i int) []string {
	r := rng.New(GameSeed(t.Seed, i) ^ 0x5EA7)
	pool := append([]string(nil), t.Bots...)
	r.Shuffle(len(pool), func(a, b int) { pool[a], pool[b] = pool[b], pool[a] })
	seats := make([]string, t.players())
	for k := range seats {
		seats[k] = pool[k%len(pool)]
	}
	return seats
}

func (t *Tournament) players() int {
	if t.Players > 0 {
		return t.Players
	}
	if info, ok := t.seam(); ok {
		return min(len(t.Bots), info.MaxPlayers)
	}
	return min(len(t.Bots), 8)
}

// Run plays the tournament and returns every game's result in game order.
// Cancelling ctx stops starting new games; games in progress finish their
// replays at the last whole round and are played again on the next run.
func (t *Tournament) Run(ctx context.Context) ([]GameResult, error) {
	if len(t.Bots) < 2 {
		return nil, errors.New("tournament: need at least 2 bots")
	}
	switch t.Game {
	case "", "colorfight2":
		if p := t.players(); p < 2 || p > 8 {
			return nil, fmt.Errorf("tournament: %d players per game, want 2..8", p)
		}
		if t.Archive == nil {
			return nil, errors.New("tournament: no archive to record the games in")
		}
	default:
		info, ok := t.seam()
		if !ok {
			return nil, fmt.Errorf("tournament: unknown game %q", t.Game)
		}
		if p := t.players(); p < info.MinPlayers || p > info.MaxPlayers {
			return nil, fmt.Errorf("tournament: %d players per %s game, want %d..%d", p, t.Game, info.MinPlayers, info.MaxPlayers)
		}
		if t.SeamArchive == nil || t.NewGameBot == nil && t.Remote == nil {
			return nil, fmt.Errorf("tournament: a %s tournament needs NewGameBot and SeamArchive", t.Game)
		}
	}
	par := max(1, t.Parallel)
	results := make([]GameResult, t.Games)
	errs := make([]error, t.Games)
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	var finished []GameResult
	for w := 0; w < par; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i], errs[i] = t.Play(ctx, i)
				mu.Lock()
				done++
				if errs[i] == nil {
					finished = append(finished, results[i])
				}
				if t.Progress != nil {
					t.Progress(done, finished)
				}
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < t.Games && ctx.Err() == nil; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("tournament interrupted: %w (finished games are kept; run again to resume)", ctx.Err())
	}
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("tournament: game %d: %w", i, err)
		}
	}
	return results, nil
}

// Play plays game i (through Remote when set), or reads it back if the
// archive already holds it.
func (t *Tournament) Play(ctx context.Context, i int) (GameResult, error) {
	if _, ok := t.seam(); ok {
		return t.seamGame(ctx, i)
	}
	seed := GameSeed(t.Seed, i)
	specs := t.Seating(i)
	cfg := colorfight2.DefaultConfig()
	if t.MaxTurn > 0 {
		cfg.MaxTurn = t.MaxTurn
	}
	cfg.MaxPlayer = 0
	if gr, ok := t.Archive.Finished(i, seed, cfg.MaxTurn, specs); ok {
		gr.Game = i
		return gr, nil
	}
	if t.Remote != nil {
		return t.Remote(ctx, i)
	}
	var seats []Seat
	for k, s := range specs {
		b, err := t.NewBot(s, i, k+1)
		if err != nil {
			for _, st := range seats {
				st.Bot.Close()
			}
			return GameResult{}, err
		}
		seats = append(seats, Seat{Bot: b, Identity: s})
	}
	rec, err := t.Archive.Create(i)
	if err != nil {
		for _, st := range seats {
			st.Bot.Close()
		}
		return GameResult{}, err
	}
	res, err := Run(ctx, Config{Game: cfg, Seed: seed, Seats: seats, Recorder: rec})
	if err == nil && res.Interrupted {
		err = ctx.Err()
	}
	if err != nil {
		rec.Abort()
		return GameResult{}, err
	}
	path, err := rec.Commit()
	if err != nil {
		return GameResult{}, err
	}
	gr := GameResult{Game: i, Seed: seed, Path: path, Seats: make([]SeatResult, len(specs))}
	for r, uid := range res.Ranking {
		p := res.Players[uid-1]
		gr.Seats[uid-1] = SeatResult{Bot: specs[uid-1], Rank: r + 1, Gold: p.Gold, Cells: p.Cells}
	}
	return gr, nil
}

// EloK is the K-factor of the multiplayer Elo rating.
const EloK = 32.0

// Standings aggregates results per entrant, best Elo first: a Ratings
// with every game added in order.
//
// The rating is multiplayer Elo: every entrant starts at 1500; each game,
// in game order, is scored as all pairwise duels between seats of
// different entrants (the higher final gold wins, equal gold is a draw; in
// any other game than ColorfightII the better rank wins, equal ranks
// draw),
// each duel moving both ratings by K/(n-1)·(score − expected), with
// expected = 1/(1+10^((Rb−Ra)/400)), K = EloK and n the number of seats.
// All updates of a game use the ratings from before the game.
func Standings(games []GameResult) []Standing {
	var r Ratings
	for _, g := range games {
		r.Add(g)
	}
	return r.Standings()
}

// Ratings accumulates standings game by game (see Standings for the
// rule): adding games one by one and then asking for the Standings gives
// what Standings of all of them gives. Its state is O(entrants), whatever
// the number of games. The zero Ratings is empty and ready to use; a
// Ratings is not safe for concurrent use.
type Ratings struct {
	idx map[string]int
	// st and the sums are per entrant, in order of first appearance.
	st                       []Standing
	sumRank, sumGold, sumCel []float64
}

func (r *Ratings) get(b string) int {
	i, ok := r.idx[b]
	if !ok {
		if r.idx == nil {
			r.idx = map[string]int{}
		}
		i = len(r.st)
		r.idx[b] = i
		r.st = append(r.st, Standing{Bot: b, Elo: 1500})
		r.sumRank = append(r.sumRank, 0)
		r.sumGold = append(r.sumGold, 0)
		r.sumCel = append(r.sumCel, 0)
	}
	return i
}

// Add counts game g after those added before it.
func (r *Ratings) Add(g GameResult) {
	for _, s := range g.Seats {
		i := r.get(s.Bot)
		e := &r.st[i]
		e.Games++
		if s.Rank == 1 {
			e.Wins++
		}
		r.sumRank[i] += float64(s.Rank)
		r.sumGold[i] += float64(s.Gold)
		r.sumCel[i] += float64(s.Cells)
	}
	n := len(g.Seats)
	before := make([]float64, n)
	for k, s := range g.Seats {
		before[k] = r.st[r.get(s.Bot)].Elo
	}
	delta := make([]float64, n)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if g.Seats[a].Bot == g.Seats[b].Bot {
				continue
			}
			score := 0.5
			sa, sb := g.Seats[a].Gold, g.Seats[b].Gold
			if g.Ruleset != "" && g.Ruleset != colorfight2.Ruleset.ID() {
				sa, sb = int64(-g.Seats[a].Rank), int64(-g.Seats[b].Rank)
			}
			if sa > sb {
				score = 1
			} else if sa < sb {
				score = 0
			}
			exp := 1 / (1 + math.Pow(10, (before[b]-before[a])/400))
			d := EloK / float64(n-1) * (score - exp)
			delta[a] += d
			delta[b] -= d
		}
	}
	for k, s := range g.Seats {
		r.st[r.get(s.Bot)].Elo += delta[k]
	}
}

// Standings returns the standings of the games added so far, best Elo
// first (a new slice: r is not changed, and may be added to after).
func (r *Ratings) Standings() []Standing {
	st := make([]Standing, len(r.st))
	copy(st, r.st)
	for i := range st {
		st[i].MeanRank = r.sumRank[i] / float64(st[i].Games)
		st[i].MeanGold = r.sumGold[i] / float64(st[i].Games)
		st[i].MeanCells = r.sumCel[i] / float64(st[i].Games)
	}
	sort.SliceStable(st, func(a, b int) bool { return st[a].Elo > st[b].Elo })
	return st
}

// Clone returns an independent copy of r.
func (r *Ratings) Clone() *Ratings {
	return &Ratings{idx: maps.Clone(r.idx), st: slices.Clone(r.st),
		sumRank: slices.Clone(r.sumRank), sumGold: slices.Clone(r.sumGold), sumCel: slices.Clone(r.sumCel)}
}

// seam returns the registry's Info of the tournament's game when it is
// played through the seam (any game but ColorfightII).
func (t *Tournament) seam() (rulesets.Info, bool) {
	switch t.Game {
	case "", colorfight2.Ruleset.ID():
		return rulesets.Info{}, false
	}
	if _, ok := rulesets.Lookup(t.Game); !ok {
		return rulesets.Info{}, false
	}
	return rulesets.About(t.Game)
}

// seamGame plays game i of a game played through the seam, or reads it
// back if the archive holds it.
func (t *Tournament) seamGame(ctx context.Context, i int) (GameResult, error) {
	rs, _ := rulesets.Get(t.Game)
	info, _ := rulesets.About(t.Game)
	seed := GameSeed(t.Seed, i)
	specs := t.Seating(i)
	maxTurns := t.MaxTurn
	if maxTurns <= 0 {
		maxTurns = info.DefaultTurns
	}
	if gr, ok := t.SeamArchive.FinishedSeam(i, t.Game, seed, maxTurns, specs); ok {
		gr.Game, gr.Ruleset = i, t.Game
		return gr, nil
	}
	if t.Remote != nil {
		return t.Remote(ctx, i)
	}
	var seats []GameSeat
	closeAll := func() {
		for _, st := range seats {
			st.Bot.Close()
		}
	}
	for k, s := range specs {
		b, err := t.NewGameBot(s, i, k)
		if err != nil {
			closeAll()
			return GameResult{}, err
		}
		seats = append(seats, GameSeat{Bot: b, Identity: s})
	}
	rec, err := t.SeamArchive.CreateSeam(i)
	if err != nil {
		closeAll()
		return GameResult{}, err
	}
	res, err := RunGame(ctx, GameConfig{Ruleset: rs, Seed: seed, Setup: t.Setup, MaxTurns: maxTurns, Seats: seats, Recorder: rec})
	if err == nil && res.Interrupted {
		err = ctx.Err()
	}
	if err != nil {
		rec.Abort()
		return GameResult{}, err
	}
	path, err := rec.Commit()
	if err != nil {
		return GameResult{}, err
	}
	return SeamGameResult(i, t.Game, seed, path, specs, res.Ranking, func(p int) []int64 { return res.Players[p].Values }, engine.ScoreIndex(rs)), nil
}

// SeamGameResult is the GameResult of a finished game played through the
// seam: seats in player order, ranked by ranking (players best first),
// with the score (values(p)[score]) as Gold.
func SeamGameResult(i int, ruleset string, seed uint64, path string, entrants []string, ranking []int, values func(p int) []int64, score int) GameResult {
	gr := GameResult{Game: i, Ruleset: ruleset, Seed: seed, Path: path, Seats: make([]SeatResult, len(entrants))}
	for r, p := range ranking {
		if p < 0 || p >= len(entrants) {
			continue
		}
		var v int64
		if vs := values(p); score < len(vs) {
			v = vs[score]
		}
		gr.Seats[p] = SeatResult{Bot: entrants[p], Rank: r + 1, Gold: v}
	}
	return gr
}
