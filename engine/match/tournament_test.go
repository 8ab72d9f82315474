package match

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rewind-game/rewind/engine/bot"
)

func builtin(spec string, game, uid int) (bot.Bot, error) { return bot.Builtin(spec) }

func TestTournament(t *testing.T) {
	dir := t.TempDir()
	tr := &Tournament{Bots: []string{"greedy", "random", "economist", "turtle"}, NewBot: builtin,
		Games: 8, Players: 2, Parallel: 2, Seed: 11, MaxTurn: 200, Dir: dir}
	games, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 8 {
		t.Fatalf("%d games", len(games))
	}
	for _, g := range games {
		if g.Skipped {
			t.Fatal("first run skipped a game")
		}
		if _, err := os.Stat(g.Path); err != nil {
			t.Fatal(err)
		}
	}
	// Seatings vary: not every game has the same pair in the same order.
	if tr.Seating(0)[0] == tr.Seating(1)[0] && tr.Seating(1)[0] == tr.Seating(2)[0] && tr.Seating(2)[0] == tr.Seating(3)[0] {
		t.Error("seatings do not vary")
	}

	// Resume: remove one replay, truncate another; only those are replayed.
	os.Remove(games[3].Path)
	b, _ := os.ReadFile(games[5].Path)
	os.WriteFile(games[5].Path, b[:len(b)/2], 0o644)
	again, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range again {
		if want := i != 3 && i != 5; g.Skipped != want {
			t.Errorf("game %d: skipped %v, want %v", i, g.Skipped, want)
		}
		for k := range g.Seats {
			if g.Seats[k] != games[i].Seats[k] {
				t.Errorf("game %d seat %d: %+v, first run %+v", i, k, g.Seats[k], games[i].Seats[k])
			}
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.partial")); len(m) != 0 {
		t.Errorf("partial files left: %v", m)
	}
}

// TestRatingsRankStrongerBot: over a tournament, greedy is rated above
// random.
func TestRatingsRankStrongerBot(t *testing.T) {
	tr := &Tournament{Bots: []string{"greedy", "random", "economist"}, NewBot: builtin,
		Games: 12, Players: 3, Parallel: 2, Seed: 5, MaxTurn: 300, Dir: t.TempDir()}
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
	g := GameResult{Seats: []SeatResult{{Bot: "A", Rank: 1, Gold: 10}, {Bot: "B", Rank: 2, Gold: 5}}}
	st := Standings([]GameResult{g, g})
	if st[0].Bot != "A" || st[0].Elo <= 1500 || st[1].Elo >= 1500 || st[0].Elo+st[1].Elo != 3000 {
		t.Fatalf("%+v", st)
	}
	if st[0].Wins != 2 || st[0].MeanRank != 1 || st[1].MeanGold != 5 {
		t.Fatalf("%+v", st)
	}
}
