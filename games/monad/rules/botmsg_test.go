package rules_test

import (
	"encoding/json"
	"testing"

	monad "github.com/rewind-game/rewind/games/monad/rules"
)

// TestMonadTurnMessage: the message a Monad bot outside the process is
// sent (docs/bot-protocol.md, "Monad"), field by field.
func TestMonadTurnMessage(t *testing.T) {
	s, err := monad.New(monad.Config{Players: 3, Seed: 8, MaxTurns: 77})
	if err != nil {
		t.Fatal(err)
	}
	s.SetTimedOut(2)
	line := monad.AppendBotTurn(nil, s, 1, 1000)
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
