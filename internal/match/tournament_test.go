package match

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/rng"
	monad "github.com/rewind-game/rewind/games/monad/rules"
	"github.com/rewind-game/rewind/internal/rating"
)

// builtin makes a ColorfightII built-in as play does, its seed BotSeed's.
func builtin(tr *Tournament) func(spec string, game, player int) (GamePlayer, error) {
	return func(spec string, game, player int) (GamePlayer, error) {
		info, _ := engine.About(engine.Default())
		b, ok := info.FindBot(spec)
		if !ok {
			return nil, fmt.Errorf("no built-in %q", spec)
		}
		return BuiltinPlayer(b), nil
	}
}

// memArchive keeps games in memory: a game committed once is read back,
// not played again (package internal/recording has the folder archive).
type memArchive struct {
	mu      sync.Mutex
	games   map[int]GameResult
	created int
}

func (a *memArchive) Finished(i int, spec GameSpec) (GameResult, bool) {
	seed, entrants := spec.Seed, spec.Entrants
	a.mu.Lock()
	defer a.mu.Unlock()
	g, ok := a.games[i]
	if !ok || g.Seed != seed || len(g.Seats) != len(entrants) {
		return GameResult{}, false
	}
	for k := range entrants {
		if g.Seats[k].Bot != entrants[k] {
			return GameResult{}, false
		}
	}
	g.Skipped = true
	return g, true
}

func (a *memArchive) Create(i int) (GameRecording, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.created++
	return &memGame{a: a, res: GameResult{Game: i, Path: fmt.Sprintf("mem:%d", i)}}, nil
}

// memGame keeps what a recording would: the setup and the final standing.
type memGame struct {
	a      *memArchive
	res    GameResult
	rounds int
	ended  bool
}

func (g *memGame) Begin(s GameSetup) error {
	g.res.Seed = s.Seed
	for _, p := range s.Players {
		g.res.Seats = append(g.res.Seats, SeatResult{Bot: p.Identity})
	}
	return nil
}

func (g *memGame) Round(*GameRound, engine.Game) error {
	g.rounds++
	return nil
}

func (g *memGame) End(eg engine.Game) error {
	if g.ended {
		return errors.New("End called twice")
	}
	g.ended = true
	for r, p := range eg.Ranking() {
		v := eg.Values(p, nil)
		s := &g.res.Seats[p]
		s.Rank, s.Score, s.Measure = r+1, v[0], v[2]
	}
	return nil
}

func (g *memGame) Commit() (string, error) {
	if !g.ended {
		return "", errors.New("Commit before End")
	}
	g.a.mu.Lock()
	defer g.a.mu.Unlock()
	if g.a.games == nil {
		g.a.games = map[int]GameResult{}
	}
	g.a.games[g.res.Game] = g.res
	return g.res.Path, nil
}

func (g *memGame) Abort() {}

// TestTournamentResumes: a second run reads every game back from the
// archive; results equal the first run's; a game the archive lost is
// played again with the same outcome (same seed, same seating).
func TestTournamentResumes(t *testing.T) {
	arch := &memArchive{}
	tr := &Tournament{Bots: []string{"greedy", "random", "economist", "turtle"},
		Games: 8, Players: 2, Parallel: 2, Seed: 11, MaxTurn: 200, Archive: arch}
	tr.NewGameBot = builtin(tr)
	games, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 8 || arch.created != 8 {
		t.Fatalf("%d games, %d recordings", len(games), arch.created)
	}
	for i, g := range games {
		if g.Skipped || g.Game != i || len(g.Seats) != 2 {
			t.Fatalf("first run, game %d: %+v", i, g)
		}
		if r := g.Seats[0].Rank + g.Seats[1].Rank; r != 3 {
			t.Fatalf("game %d ranks %+v", i, g.Seats)
		}
	}
	// Seatings vary: not every game has the same pair in the same order.
	if tr.Seating(0)[0] == tr.Seating(1)[0] && tr.Seating(1)[0] == tr.Seating(2)[0] && tr.Seating(2)[0] == tr.Seating(3)[0] {
		t.Error("seatings do not vary")
	}
	delete(arch.games, 3)
	again, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if arch.created != 9 {
		t.Fatalf("second run created %d recordings, want 1", arch.created-8)
	}
	for i, g := range again {
		if want := i != 3; g.Skipped != want {
			t.Errorf("game %d: skipped %v, want %v", i, g.Skipped, want)
		}
		for k := range g.Seats {
			if g.Seats[k] != games[i].Seats[k] {
				t.Errorf("game %d seat %d: %+v, first run %+v", i, k, g.Seats[k], games[i].Seats[k])
			}
		}
	}
}

// TestTournamentInterruptedAborts: a cancelled tournament aborts the
// games in progress and commits none of them.
func TestTournamentInterruptedAborts(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	arch := &memArchive{}
	tr := &Tournament{Bots: []string{"greedy", "turtle"}, Games: 3, Seed: 2, MaxTurn: 300, Archive: arch}
	tr.NewGameBot = func(spec string, game, player int) (GamePlayer, error) {
		b, err := builtin(tr)(spec, game, player)
		return &cancelAt{GamePlayer: b, turn: 50, cancel: cancel}, err
	}
	if _, err := tr.Run(ctx); err == nil {
		t.Fatal("interrupted tournament returned no error")
	}
	if len(arch.games) != 0 {
		t.Fatalf("interrupted games committed: %v", arch.games)
	}
}

// cancelAt cancels the context when asked for turn's commands.
type cancelAt struct {
	GamePlayer
	turn   int
	cancel func()
}

func (c *cancelAt) Commands(g engine.Game, p int) ([]string, error) {
	if g.Turn() >= c.turn {
		c.cancel()
	}
	return c.GamePlayer.Commands(g, p)
}

// TestRatingsRankStrongerBot: over a tournament, greedy is rated above
// random.
func TestRatingsRankStrongerBot(t *testing.T) {
	tr := &Tournament{Bots: []string{"greedy", "random", "economist"},
		Games: 12, Players: 3, Parallel: 2, Seed: 5, MaxTurn: 300, Archive: &memArchive{}}
	tr.NewGameBot = builtin(tr)
	games, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st := Standings(games)
	rating := map[string]Standing{}
	for _, s := range st {
		rating[s.Bot] = s
	}
	if rating["greedy"].Elo <= rating["random"].Elo || rating["random"].Wins != 0 && rating["greedy"].Wins < rating["random"].Wins {
		t.Fatalf("standings %+v", st)
	}
	if st[len(st)-1].Bot != "random" {
		t.Errorf("random is not last: %+v", st)
	}
	total := 0
	for _, s := range st {
		total += s.Games
	}
	if total != 12*3 {
		t.Errorf("%d seat-games, want 36", total)
	}
}

func TestStandingsElo(t *testing.T) {
	// A beats B twice: A above 1500, B below, symmetric.
	g := GameResult{Seats: []SeatResult{{Bot: "A", Rank: 1, Score: 10}, {Bot: "B", Rank: 2, Score: 5}}}
	st := Standings([]GameResult{g, g})
	if st[0].Bot != "A" || st[0].Elo <= 1500 || st[1].Elo >= 1500 || st[0].Elo+st[1].Elo != 3000 {
		t.Fatalf("%+v", st)
	}
	if st[0].Wins != 2 || st[0].MeanRank != 1 || st[1].MeanScore != 5 {
		t.Fatalf("%+v", st)
	}
}

// ratingGames is a mixed record: ColorfightII and Monad games, 2 to 6
// seats, a bot sometimes in two seats, ties in gold and in rank.
func ratingGames(n int) []GameResult {
	r := rng.New(42)
	bots := []string{"a", "b", "c", "d", "e", "f", "g"}
	var games []GameResult
	for i := range n {
		g := GameResult{Game: i}
		if r.Intn(3) == 0 {
			g.Ruleset = monad.RulesetID
		}
		for range 2 + r.Intn(5) {
			g.Seats = append(g.Seats, SeatResult{Bot: bots[r.Intn(len(bots))], Rank: 1 + r.Intn(4), Score: int64(r.Intn(5)), Measure: int64(r.Intn(100))})
		}
		games = append(games, g)
	}
	return games
}

// Adding games one by one to a Ratings gives, after each, the Standings of
// the games so far; a Clone goes on independently.
func TestRatingsIncremental(t *testing.T) {
	games := ratingGames(300)
	var r Ratings
	if st := r.Standings(); len(st) != 0 {
		t.Fatalf("empty ratings: %+v", st)
	}
	var half *Ratings
	for i, g := range games {
		r.Add(g)
		if got, want := r.Standings(), Standings(games[:i+1]); !slices.Equal(got, want) {
			t.Fatalf("after game %d: %+v, want %+v", i, got, want)
		}
		if i == len(games)/2 {
			half = r.Clone()
		}
	}
	// The clone taken halfway, given the rest, ends where r did; r was
	// not changed by asking for its standings.
	for _, g := range games[len(games)/2+1:] {
		half.Add(g)
	}
	if got, want := half.Standings(), Standings(games); !slices.Equal(got, want) {
		t.Fatalf("clone: %+v, want %+v", got, want)
	}
	if got, want := r.Standings(), Standings(games); !slices.Equal(got, want) {
		t.Fatalf("again: %+v, want %+v", got, want)
	}
}

// TestRatingsNoScore: a seat whose result holds another amount than its
// score (NoScore) counts in games, wins, rank and Elo but not in the mean
// score; a duel it takes part in is decided by rank, also where the game
// rates duels by score (ColorfightII).
func TestRatingsNoScore(t *testing.T) {
	var r Ratings
	r.Add(GameResult{Ruleset: "monad", Seats: []SeatResult{{Bot: "a", Rank: 1, Score: 10}, {Bot: "b", Rank: 2, Score: 4}}})
	r.Add(GameResult{Ruleset: "monad", Seats: []SeatResult{{Bot: "a", Rank: 2, Score: 500, NoScore: true}, {Bot: "c", Rank: 1, Score: 900, NoScore: true}}})
	st := map[string]Standing{}
	for _, s := range r.Standings() {
		st[s.Bot] = s
	}
	if a := st["a"]; a.Games != 2 || a.Wins != 1 || a.Scored != 1 || a.MeanScore != 10 || a.MeanRank != 1.5 {
		t.Errorf("a: %+v, want 2 games, 1 win, mean score 10 over 1 scored game, mean rank 1.5", a)
	}
	if c := st["c"]; c.Games != 1 || c.Scored != 0 || c.MeanScore != 0 {
		t.Errorf("c: %+v, want 1 game and no scored one", c)
	}
	// ColorfightII duels by gold; a NoScore seat's amount is no gold, so
	// the seat ranked first wins the duel although its amount is lower.
	var cf Ratings
	cf.Add(GameResult{Seats: []SeatResult{{Bot: "x", Rank: 1, Score: 1, NoScore: true}, {Bot: "y", Rank: 2, Score: 1000}}})
	if s := cf.Standings(); s[0].Bot != "x" || s[0].Elo <= 1500 {
		t.Errorf("the duel went by the amounts: %+v", s)
	}
}

// TestStandingsBayesian: a game's Weng–Lin update is rating.Default's
// of its distinct entrants' places (an entrant in two seats placed once,
// at its best; ties in rank tie), and the standings are ordered by
// μ − 3σ.
func TestStandingsBayesian(t *testing.T) {
	g := GameResult{Ruleset: monad.RulesetID, Seats: []SeatResult{
		{Bot: "a", Rank: 2}, {Bot: "b", Rank: 1}, {Bot: "a", Rank: 3}, {Bot: "c", Rank: 2}}}
	st := Standings([]GameResult{g})
	n := rating.Default.New()
	want, err := rating.Default.Rate([][]rating.Rating{{n}, {n}, {n}}, []int{2, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Standing{}
	for _, s := range st {
		got[s.Bot] = s
	}
	for k, b := range []string{"a", "b", "c"} {
		s, w := got[b], want[k][0]
		if s.Mu != w.Mu || s.Sigma != w.Sigma || s.Conservative != w.Ordinal() {
			t.Errorf("%s: (μ %v, σ %v, μ−3σ %v), want (%v, %v, %v)", b, s.Mu, s.Sigma, s.Conservative, w.Mu, w.Sigma, w.Ordinal())
		}
	}
	if got["a"] != (Standing{Bot: "a", Games: 2, MeanRank: 2.5, Scored: 2, Elo: got["a"].Elo, Mu: got["c"].Mu, Sigma: got["c"].Sigma, Conservative: got["c"].Conservative}) {
		t.Errorf("a (best seat 2nd) is not rated as c (2nd): %+v, %+v", got["a"], got["c"])
	}
	// x wins 30 games against newcomers, then loses to a newcomer y: x
	// still leads (its σ is small), y's one win leaves its σ large.
	var games []GameResult
	for i := range 30 {
		games = append(games, GameResult{Ruleset: monad.RulesetID, Seats: []SeatResult{{Bot: "x", Rank: 1}, {Bot: fmt.Sprint("n", i), Rank: 2}}})
	}
	games = append(games, GameResult{Ruleset: monad.RulesetID, Seats: []SeatResult{{Bot: "y", Rank: 1}, {Bot: "x", Rank: 2}}})
	st = Standings(games)
	for i := 1; i < len(st); i++ {
		if st[i-1].Conservative < st[i].Conservative {
			t.Fatalf("standings not ordered by μ−3σ at %d: %+v", i, st)
		}
	}
	if st[0].Bot != "x" {
		t.Errorf("leader %+v, want x (the best μ−3σ)", st[0])
	}
}
