package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// TestUnknownGame: play and tournament refuse a game the registry does
// not know with the registry's one message, before anything is written,
// and their --game help lists the registered games.
func TestUnknownGame(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.rwd")
	tdir := filepath.Join(dir, "tour")
	want := `--game: unknown game "chess"; known: ` + strings.Join(engine.IDs(), ", ")
	for _, args := range [][]string{
		{"play", "--game", "chess", "-o", out},
		{"play", "--game", "chess", "--turns", "300", "-o", out},
		{"tournament", "--game", "chess", "--dir", tdir},
		{"tournament", "--game", "chess", "--players", "0", "--dir", tdir},
	} {
		_, err := runCLIOut(t, args...)
		if err == nil || err.Error() != want {
			t.Errorf("%v: %v, want %q", args, err, want)
		}
	}
	for _, p := range []string{out, tdir} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	for _, c := range []string{"play", "tournament"} {
		help, err := runCLIOut(t, c, "--help")
		if err != nil || !strings.Contains(help, "the game: "+strings.Join(engine.IDs(), ", ")) {
			t.Errorf("%s --help: %v\n%s", c, err, help)
		}
	}
}

// TestGameLimits: the seats and turn limits play and tournament enforce
// are the registry's, per game.
func TestGameLimits(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.rwd")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "--bot", "greedy", "-o", out}, "a ColorfightII match needs 2 to 8 --bot, got 1"},
		{[]string{"play", "--game", "monad", "--bot", "miner", "-o", out}, "a Monad match needs 2 to 4 --bot, got 1"},
		{[]string{"play", "--turns", "100", "-o", out}, "--turns 100 is outside 200..2000 for ColorfightII"},
		{[]string{"play", "--game", "monad", "--turns", "0", "-o", out}, "--turns 0 is outside 1..100000 for Monad"},
		{[]string{"tournament", "--game", "monad", "--players", "5", "--dir", dir}, "--players 5 is outside 2..4 for Monad"},
		{[]string{"tournament", "--players", "9", "--dir", dir}, "--players 9 is outside 2..8 for ColorfightII"},
	} {
		_, err := runCLIOut(t, c.args...)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}
