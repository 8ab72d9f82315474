package match

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/rng"
	"github.com/rewind-game/rewind/internal/rating"
)

// Tournament describes a series of matches among a set of bots.
type Tournament struct {
	// Bots are the entrants: specs understood by NewGameBot.
	Bots []string
	// Games is how many matches to play; Players how many seats each
	// has (default: min(len(Bots), 8)).
	Games, Players int
	// Parallel is how many matches run at once (default 1).
	Parallel int
	// Seed is the master seed: game i plays on GameSeed(Seed, i).
	Seed    uint64
	MaxTurn int
	// Progress, if set, is called (from any goroutine, serialized) each
	// time a game is done, with the number done so far and the results of
	// the games done so far (in the order they finished; nil for a game
	// that failed). The slice is the callee's only during the call.
	Progress func(done int, results []GameResult)

	// Game is the registered ruleset played ("": engine.Default()),
	// by RunGame with NewGameBot's bots (a fresh one per
	// seat per game) into Archive, which is required, each game from
	// Setup when set (a map file); a game may end before MaxTurn.
	Game       string
	NewGameBot func(spec string, game, player int) (GamePlayer, error)
	Archive    Archive
	Setup      []byte

	// Remote, when set, plays a game the archive does not hold somewhere
	// else (a work queue's workers) and returns its result, with Path
	// where the archive now keeps its replay; NewGameBot is then not
	// used.
	Remote func(ctx context.Context, i int) (GameResult, error)
}

// Archive keeps a tournament's games so that a tournament can
// resume: a game the archive already holds complete is read back, not
// played again. Package recording provides one over a folder of .rwd
// files.
type Archive interface {
	// Finished returns game i's result when the archive holds it
	// complete (its recording verifies to its footer, whatever turn the
	// game ended at) and it is the game g describes; ok is false for
	// anything else (missing, partial, damaged, another seating), and the
	// game is then played again.
	Finished(i int, g GameSpec) (res GameResult, ok bool)
	// Create starts recording game i.
	Create(i int) (GameRecording, error)
}

// GameRecording is one game being recorded into a Archive.
type GameRecording interface {
	GameRecorder
	// Commit keeps the finished game; path tells the user where.
	Commit() (path string, err error)
	// Abort discards an interrupted or failed game.
	Abort()
}

// GameSpec is everything a tournament's game is played from, what its
// replay must match to count as that game (Tournament.GameSpec).
type GameSpec struct {
	// Ruleset is the registered ruleset's id.
	Ruleset string
	// Seed is the game's seed (GameSeed of the tournament's).
	Seed uint64
	// Setup is what the game starts from besides its seed (a map file,
	// engine.Ruleset.NewFromSetup); nil: the seed alone.
	Setup []byte
	// MaxTurn is the turn limit (the ruleset's default when the
	// tournament sets none).
	MaxTurn int
	// Entrants are the seats' entrant specs, in seat order (Seating).
	Entrants []string
}

// GameSpec returns what game i is played from.
func (t *Tournament) GameSpec(i int) GameSpec {
	info, _ := t.registration()
	maxTurns := t.MaxTurn
	if maxTurns <= 0 {
		maxTurns = info.DefaultTurns
	}
	return GameSpec{Ruleset: t.game(), Seed: GameSeed(t.Seed, i), Setup: t.Setup, MaxTurn: maxTurns, Entrants: t.Seating(i)}
}

// GameResult is one game of a tournament.
type GameResult struct {
	Game int
	// Ruleset is the game's ruleset id.
	Ruleset string
	Seed    uint64
	// Path is where the archive keeps the game.
	Path    string
	Skipped bool // already played: read from its replay
	// Seats in uid order: the entrant spec, its final rank (1 = best),
	// its score and its measure.
	Seats []SeatResult
}

// SeatResult is one seat of a game.
type SeatResult struct {
	Bot  string
	Rank int
	// Score is the seat's final score (engine.ScoreIndex's metric);
	// Measure its final value of the metric the game's document averages
	// beside the score in standings (engine.Document.Mean), 0 for a game
	// without one. A stored result (a work queue's) names them Gold and
	// Cells.
	Score   int64 `json:"Gold"`
	Measure int64 `json:"Cells"`
	// NoScore is set when Score is not the seat's final score but another
	// amount (a library row that kept another metric: an older Monad
	// .rwd's resources where the score is hives): the seat counts in
	// games, wins, rank and Elo (by rank), not in the mean score.
	NoScore bool
}

// Standing is one entrant's tournament record.
type Standing struct {
	Bot      string
	Games    int
	Wins     int
	MeanRank float64
	// MeanScore is the mean final score of the Scored games (0 when
	// none), MeanMeasure the mean SeatResult.Measure of all games.
	MeanScore   float64
	Scored      int
	MeanMeasure float64
	// Elo is the entrant's multiplayer Elo rating (see Standings).
	Elo float64
	// Mu and Sigma are its Weng–Lin skill rating, the mean and spread of
	// the belief about its skill, and Conservative is μ − 3σ, the score
	// standings are ordered by (rating.Rating.Ordinal).
	Mu, Sigma, Conservative float64
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
	if info, ok := t.registration(); ok {
		return min(len(t.Bots), info.MaxPlayers)
	}
	return min(len(t.Bots), 2)
}

// Run plays the tournament and returns every game's result in game order.
// Cancelling ctx stops starting new games; games in progress finish their
// replays at the last whole round and are played again on the next run.
func (t *Tournament) Run(ctx context.Context) ([]GameResult, error) {
	if len(t.Bots) < 2 {
		return nil, errors.New("tournament: need at least 2 bots")
	}
	info, ok := t.registration()
	if !ok {
		return nil, fmt.Errorf("tournament: unknown game %q", t.Game)
	}
	if p := t.players(); p < info.MinPlayers || p > info.MaxPlayers {
		return nil, fmt.Errorf("tournament: %d players per %s game, want %d..%d", p, t.game(), info.MinPlayers, info.MaxPlayers)
	}
	if t.Archive == nil || t.NewGameBot == nil && t.Remote == nil {
		return nil, fmt.Errorf("tournament: a %s tournament needs NewGameBot and Archive", t.game())
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
	if _, ok := t.registration(); !ok {
		return GameResult{}, fmt.Errorf("tournament: unknown game %q", t.Game)
	}
	return t.playGame(ctx, i)
}

// Standings aggregates results per entrant, best first: a Ratings
// with every game added in order (game order: a tournament's game index;
// a library's games by the header's creation time, then file name).
//
// Two ratings are kept (package rating; docs/ratings.md):
//
//   - multiplayer Elo: every entrant starts at rating.EloStart; each
//     game is scored as all pairwise duels between seats of different
//     entrants (rating.EloDeltas, K = rating.EloK);
//   - Weng–Lin (Plackett–Luce, rating.Default): each game is one ranking
//     of the distinct entrants that played it; an entrant in several
//     seats is placed once, at its best seat. A game of fewer than 2
//     distinct entrants leaves it unchanged.
//
// Who beat whom: in a game whose registry entry has ScoreDuels
// (ColorfightII's) the higher final score, equal scores a draw; in any
// other, or when a seat's score is NoScore, the better rank, equal ranks
// a draw. Standings are ordered by the conservative score μ − 3σ, then
// Elo, then first appearance.
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
	st                            []Standing
	sumRank, sumScore, sumMeasure []float64
}

func (r *Ratings) get(b string) int {
	i, ok := r.idx[b]
	if !ok {
		if r.idx == nil {
			r.idx = map[string]int{}
		}
		i = len(r.st)
		r.idx[b] = i
		nr := rating.Default.New()
		r.st = append(r.st, Standing{Bot: b, Elo: rating.EloStart, Mu: nr.Mu, Sigma: nr.Sigma, Conservative: nr.Ordinal()})
		r.sumRank = append(r.sumRank, 0)
		r.sumScore = append(r.sumScore, 0)
		r.sumMeasure = append(r.sumMeasure, 0)
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
		if !s.NoScore {
			r.sumScore[i] += float64(s.Score)
			e.Scored++
		}
		r.sumMeasure[i] += float64(s.Measure)
	}
	n := len(g.Seats)
	info, _ := engine.About(g.Ruleset)
	byScore := info.ScoreDuels
	for _, s := range g.Seats {
		byScore = byScore && !s.NoScore
	}
	// place is seat k's place in the game for Weng–Lin, lower better: its
	// rank, or minus its score when scores decide (every seat's is a
	// score).
	place := func(k int) int64 {
		if byScore {
			return -g.Seats[k].Score
		}
		return int64(g.Seats[k].Rank)
	}
	before := make([]float64, n)
	for k, s := range g.Seats {
		before[k] = r.st[r.get(s.Bot)].Elo
	}
	delta := rating.EloDeltas(before, func(a, b int) (float64, bool) {
		if g.Seats[a].Bot == g.Seats[b].Bot {
			return 0, false
		}
		pa, pb := -g.Seats[a].Score, -g.Seats[b].Score
		if !info.ScoreDuels || g.Seats[a].NoScore || g.Seats[b].NoScore {
			pa, pb = int64(g.Seats[a].Rank), int64(g.Seats[b].Rank)
		}
		switch {
		case pa < pb:
			return 1, true
		case pa > pb:
			return 0, true
		}
		return 0.5, true
	})
	for k, s := range g.Seats {
		r.st[r.get(s.Bot)].Elo += delta[k]
	}
	// Weng–Lin: one team per distinct entrant, at its best place.
	var who []int      // entrant indices, in seat order of first seat
	var places []int64 // their best places
	for k, s := range g.Seats {
		i := r.get(s.Bot)
		if j := slices.Index(who, i); j >= 0 {
			places[j] = min(places[j], place(k))
			continue
		}
		who = append(who, i)
		places = append(places, place(k))
	}
	if len(who) < 2 {
		return
	}
	teams := make([][]rating.Rating, len(who))
	ranks := make([]int, len(who))
	for j, i := range who {
		teams[j] = []rating.Rating{{Mu: r.st[i].Mu, Sigma: r.st[i].Sigma}}
		// The rank of a place is 1 + the number of entrants placed
		// better (scores as large as int64 stay exact).
		ranks[j] = 1
		for _, p := range places {
			if p < places[j] {
				ranks[j]++
			}
		}
	}
	out, err := rating.Default.Rate(teams, ranks)
	if err != nil {
		return // not reached: every team has a finite rating with σ > 0
	}
	for j, i := range who {
		nr := out[j][0]
		r.st[i].Mu, r.st[i].Sigma, r.st[i].Conservative = nr.Mu, nr.Sigma, nr.Ordinal()
	}
}

// Standings returns the standings of the games added so far, best first
// (μ − 3σ, then Elo; a new slice: r is not changed, and may be added to
// after).
func (r *Ratings) Standings() []Standing {
	st := make([]Standing, len(r.st))
	for i := range st {
		st[i] = r.standing(i)
	}
	sort.SliceStable(st, func(a, b int) bool {
		if st[a].Conservative != st[b].Conservative {
			return st[a].Conservative > st[b].Conservative
		}
		return st[a].Elo > st[b].Elo
	})
	return st
}

// standing is entrant i's Standing with its means.
func (r *Ratings) standing(i int) Standing {
	s := r.st[i]
	if s.Games > 0 {
		s.MeanRank = r.sumRank[i] / float64(s.Games)
		s.MeanMeasure = r.sumMeasure[i] / float64(s.Games)
	}
	if s.Scored > 0 {
		s.MeanScore = r.sumScore[i] / float64(s.Scored)
	}
	return s
}

// Clone returns an independent copy of r.
func (r *Ratings) Clone() *Ratings {
	return &Ratings{idx: maps.Clone(r.idx), st: slices.Clone(r.st),
		sumRank: slices.Clone(r.sumRank), sumScore: slices.Clone(r.sumScore), sumMeasure: slices.Clone(r.sumMeasure)}
}

// game is the id of the tournament's game (Game, or engine.Default()).
func (t *Tournament) game() string {
	if t.Game == "" {
		return engine.Default()
	}
	return t.Game
}

// registration returns the registry's Info of the tournament's game, false when
// it is not registered.
func (t *Tournament) registration() (engine.Registration, bool) {
	return engine.About(t.game())
}

// playGame plays game i, or reads it
// back if the archive holds it.
func (t *Tournament) playGame(ctx context.Context, i int) (GameResult, error) {
	spec := t.GameSpec(i)
	game, seed, specs, maxTurns := spec.Ruleset, spec.Seed, spec.Entrants, spec.MaxTurn
	rs, _ := engine.Get(game)
	if gr, ok := t.Archive.Finished(i, spec); ok {
		gr.Game, gr.Ruleset = i, game
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
	rec, err := t.Archive.Create(i)
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
	return ResultOf(i, rs, seed, path, specs, res.Ranking, func(p int) []int64 { return res.Players[p].Values }), nil
}

// ResultOf is the GameResult of a finished game of ruleset rs:
// seats in player order, ranked by ranking (players best first), with
// the score (engine.ScoreIndex) of values(p) as Score and the final
// value of the metric its document averages (MeasureIndex), if any, as
// Measure.
func ResultOf(i int, rs engine.Ruleset, seed uint64, path string, entrants []string, ranking []int, values func(p int) []int64) GameResult {
	score, measure := engine.ScoreIndex(rs), MeasureIndex(rs)
	gr := GameResult{Game: i, Ruleset: rs.ID(), Seed: seed, Path: path, Seats: make([]SeatResult, len(entrants))}
	for r, p := range ranking {
		if p < 0 || p >= len(entrants) {
			continue
		}
		s := SeatResult{Bot: entrants[p], Rank: r + 1}
		vs := values(p)
		if score < len(vs) {
			s.Score = vs[score]
		}
		if measure >= 0 && measure < len(vs) {
			s.Measure = vs[measure]
		}
		gr.Seats[p] = s
	}
	return gr
}

// MeasureIndex is the index in rs.Metrics of the metric whose final
// value rs's document averages beside the score in standings: the
// metric its Document.Mean field reads (engine.Final of it); -1 for a
// ruleset without a document, or whose Mean reads no metric.
func MeasureIndex(rs engine.Ruleset) int {
	doc := engine.DocumentOf(rs)
	if doc == nil || doc.Mean == "" {
		return -1
	}
	for _, f := range doc.Standing {
		if f.Key != doc.Mean || f.Of != engine.Final {
			continue
		}
		for k, m := range rs.Metrics() {
			if m.Name == f.Name {
				return k
			}
		}
	}
	return -1
}
