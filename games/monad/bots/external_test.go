package bots_test

import (
	"errors"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	monad "github.com/rewind-game/rewind/games/monad/rules"
	"github.com/rewind-game/rewind/internal/subprocess"
	"github.com/rewind-game/rewind/internal/testutil"
)

// monadPy is the test bot of the external-bot protocol's Monad messages
// (internal/subprocess/testdata/monad.py) run by python3, with args.
func monadPy(t *testing.T, args string) string {
	t.Helper()
	return `"` + testutil.NeedTool(t, "python3") + `" ../../../internal/subprocess/testdata/monad.py` + args
}

// startExternal starts the test bot as player of a Monad game played
// through the seam (subprocess.Play: Monad's own turn message,
// engine.Messenger).
func startExternal(t *testing.T, args string, player int) *subprocess.Bot {
	t.Helper()
	b, err := subprocess.New(monadPy(t, args), subprocess.Options{Game: monad.RulesetID, Deadline: time.Minute, MaxTurn: monad.DefaultMaxTurns})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(player+1, 42); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// TestExternalMonadBot: a bot that reads Monad's turn message (the cells
// of its player) mines with its unit and sends one element that is not a
// command object, kept as its JSON text and rejected on its own.
func TestExternalMonadBot(t *testing.T) {
	b := startExternal(t, "", 1)
	g, err := monad.Ruleset.New(5, engine.Settings{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	for turn := 0; turn < 3; turn++ {
		texts, err := b.Play(g, 1)
		if err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		if len(texts) != 2 || texts[1] != `"junk"` {
			t.Fatalf("turn %d: commands %q", turn, texts)
		}
		if c := monad.ParseCommand([]byte(texts[0])); c.Kind != monad.KindMine || c.X != 18 {
			t.Fatalf("turn %d: first command %q", turn, texts[0])
		}
		errs := g.Round([][]string{nil, texts})
		if len(errs) != 1 || errs[0].Code != int(monad.ErrNotObject) {
			t.Fatalf("turn %d: errors %+v", turn, errs)
		}
	}
}

// TestExternalMonadBotCrash: a bot that exits at turn 5 is reported as
// exited then.
func TestExternalMonadBotCrash(t *testing.T) {
	b := startExternal(t, " crash", 0)
	g, _ := monad.Ruleset.New(5, engine.Settings{Players: 2})
	for {
		_, err := b.Play(g, 0)
		if err != nil {
			if !errors.Is(err, subprocess.ErrBotExited) || g.Turn() != 5 {
				t.Fatalf("turn %d: %v", g.Turn(), err)
			}
			return
		}
		g.Round(nil)
	}
}
