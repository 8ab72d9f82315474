package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rewind-game/rewind/internal/testutil"
)

// TestAnalyzeDirRatesInGameOrder: analyze DIR counts games in game order
// (docs/ratings.md: the header's creation time, then the file name), so
// its standings — Elo and the Bayesian rating depend on the order — do
// not depend on what the files are called: a folder whose names sort
// against the games' order rates like one whose names sort with it, on
// the first run and from the kept analyses of the second, for a game with
// a document of its own (ColorfightII) and one without (Monad).
func TestAnalyzeDirRatesInGameOrder(t *testing.T) {
	src := t.TempDir()
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var games []string
	for i, g := range []struct{ game, turns string }{
		{"colorfight2", "200"}, {"colorfight2", "200"}, {"colorfight2", "200"},
		{"monad", "40"}, {"monad", "40"}, {"monad", "40"},
	} {
		p := filepath.Join(src, strconv.Itoa(i)+".rwd")
		if out, err := runCLIOut(t, "play", "--game", g.game, "--turns", g.turns, "--seed", strconv.Itoa(11+i*7), "-o", p); err != nil {
			t.Fatalf("play: %v\n%s", err, out)
		}
		// Game i was recorded i hours after game 0.
		testutil.SetCreated(t, p, start.Add(time.Duration(i)*time.Hour))
		games = append(games, p)
	}
	// with names sorting as the games were recorded; against names
	// sorting the other way.
	with, against := t.TempDir(), t.TempDir()
	for i, p := range games {
		data := testutil.ReadFile(t, p)
		os.WriteFile(filepath.Join(with, "g"+strconv.Itoa(i)+".rwd"), data, 0o644)
		os.WriteFile(filepath.Join(against, "g"+strconv.Itoa(len(games)-i)+".rwd"), data, 0o644)
	}
	want, err := runCLIOut(t, "analyze", with)
	if err != nil {
		t.Fatalf("analyze: %v\n%s", err, want)
	}
	for run := 1; run <= 2; run++ {
		got, err := runCLIOut(t, "analyze", against)
		if err != nil {
			t.Fatalf("analyze: %v\n%s", err, got)
		}
		if got != want {
			t.Errorf("run %d: the folder named against game order rates otherwise:\n%s\nwant (named in game order):\n%s", run, got, want)
		}
	}
	if out, err := runCLIOut(t, "verify", filepath.Join(against, "g1.rwd")); err != nil {
		t.Errorf("a replay whose creation time was set does not verify: %v\n%s", err, out)
	}
}
