package monadbot_test

import (
	"errors"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine/bot/monadbot"
	"github.com/rewind-game/rewind/engine/bot/subprocess"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/internal/testutil"
)

// monadPy is the test bot of the external-bot protocol's Monad messages
// (engine/bot/subprocess/testdata/monad.py) run by python3, with args.
func monadPy(t *testing.T, args string) string {
	t.Helper()
	return `"` + testutil.NeedTool(t, "python3") + `" ../subprocess/testdata/monad.py` + args
}

func TestMonadBot(t *testing.T) {
	b := startMonadBot(t, "", 1)
	s, err := monad.New(monad.Config{Players: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	mb := b
	for turn := 0; turn < 3; turn++ {
		texts, err := mb.Commands(s)
		if err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		cmds := make([][]monad.Command, 2)
		for _, c := range texts {
			cmds[1] = append(cmds[1], monad.ParseCommand([]byte(c)))
		}
		if len(cmds[1]) != 2 || cmds[1][0].Kind != monad.KindMine || cmds[1][0].X != 18 || cmds[1][1].Err != monad.ErrNotObject {
			t.Fatalf("turn %d: commands %q", turn, texts)
		}
		s.Step(cmds)
		if len(s.Errors()) != 1 {
			t.Fatalf("turn %d: errors %+v", turn, s.Errors())
		}
	}
}

func TestMonadBotCrash(t *testing.T) {
	b := startMonadBot(t, " crash", 0)
	mb := b
	s, _ := monad.New(monad.Config{Players: 2, Seed: 5})
	for {
		_, err := mb.Commands(s)
		if err != nil {
			if !errors.Is(err, subprocess.ErrBotExited) || s.Turn() != 5 {
				t.Fatalf("turn %d: %v", s.Turn(), err)
			}
			return
		}
		s.Step(nil)
	}
}

// TestMonadNeedsGame: a bot created for ColorfightII does not start as a
// Monad bot.
func TestMonadNeedsGame(t *testing.T) {
	b, err := subprocess.New(monadPy(t, ""), subprocess.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := monadbot.Subprocess(b).Start(0, 1); err == nil {
		t.Fatal("a ColorfightII bot started as a Monad bot")
	}
}

func startMonadBot(t *testing.T, args string, player int) monadbot.Bot {
	t.Helper()
	b, err := subprocess.New(monadPy(t, args), subprocess.Options{Game: subprocess.GameMonad, Deadline: time.Minute, MaxTurn: monad.DefaultMaxTurns})
	if err != nil {
		t.Fatal(err)
	}
	mb := monadbot.Subprocess(b)
	if err := mb.Start(player, 42); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mb.Close() })
	return mb
}
