package subprocess

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine/monad"
)

func TestMonadBot(t *testing.T) {
	b := startMonadBot(t, python(t)+" testdata/monad.py", 1)
	s, err := monad.New(monad.Config{Players: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	mb := Monad(b)
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

func TestMonadTurnMessage(t *testing.T) {
	s, err := monad.New(monad.Config{Players: 3, Seed: 8, MaxTurns: 77})
	if err != nil {
		t.Fatal(err)
	}
	s.SetTimedOut(2)
	line := appendMonadTurn(nil, s, 1, Options{Deadline: time.Second})
	var msg struct {
		Type   string `json:"type"`
		Game   string `json:"game"`
		Turn   int    `json:"turn"`
		Player int    `json:"player"`
		Info   struct {
			Max int `json:"max_turn"`
		} `json:"info"`
		Players []struct {
			Player    int   `json:"player"`
			Resources int64 `json:"resources"`
			Units     int64 `json:"units"`
			Hives     int   `json:"hives"`
			TimedOut  bool  `json:"timed_out"`
		} `json:"players"`
		Cells [][][5]int `json:"cells"`
	}
	if err := json.Unmarshal(line, &msg); err != nil || line[len(line)-1] != '\n' {
		t.Fatalf("%v: %s", err, line)
	}
	if msg.Type != "turn" || msg.Game != "monad" || msg.Player != 1 || msg.Info.Max != 77 || len(msg.Players) != 3 || !msg.Players[2].TimedOut || msg.Players[0].Resources != 100 {
		t.Fatalf("message %+v", msg)
	}
	if len(msg.Cells) != monad.Height || len(msg.Cells[0]) != monad.Width {
		t.Fatalf("cells %dx%d", len(msg.Cells), len(msg.Cells[0]))
	}
	// Player 1 of 3 starts at (10, 14) with one unit and its hive.
	if c := msg.Cells[14][10]; c[0] != s.Resource(10, 14) || c[1] != 1 || c[2] != 1 || c[3] != 1 || c[4] != 0 {
		t.Fatalf("start cell %v", c)
	}
	if c := msg.Cells[0][0]; c[1] != -1 || c[3] != -1 {
		t.Fatalf("empty cell %v", c)
	}
}

func TestMonadBotCrash(t *testing.T) {
	b := startMonadBot(t, python(t)+" testdata/monad.py crash", 0)
	mb := Monad(b)
	s, _ := monad.New(monad.Config{Players: 2, Seed: 5})
	for {
		_, err := mb.Commands(s)
		if err != nil {
			if !errors.Is(err, ErrBotExited) || s.Turn() != 5 {
				t.Fatalf("turn %d: %v", s.Turn(), err)
			}
			return
		}
		s.Step(nil)
	}
}

func TestMonadNeedsGame(t *testing.T) {
	b, err := New(python(t)+" testdata/monad.py", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Monad(b).Start(0, 1); err == nil {
		t.Fatal("a ColorfightII bot started as a Monad bot")
	}
	if _, err := New(python(t)+" testdata/monad.py", Options{Game: "chess"}); err == nil {
		t.Fatal("unknown game accepted")
	}
}

func startMonadBot(t *testing.T, command string, player int) *Bot {
	t.Helper()
	b, err := New(command, Options{Game: GameMonad, Deadline: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	b.reapTimeout, b.drainTimeout = time.Minute, time.Minute
	if err := Monad(b).Start(player, 42); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}
