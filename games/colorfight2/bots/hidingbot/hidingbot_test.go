package hidingbot_test

import (
	"bytes"
	"testing"

	"github.com/rewind-game/rewind/games/colorfight2/bots/hidingbot"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// TestGame: a game is a function of its seed (the same bytes twice), the
// hiders hide (builds and upgrades on cells about to fall, a Home lost),
// and the rules accept every command they send.
func TestGame(t *testing.T) {
	cfg := colorfight2.Config{Width: 12, Height: 12, MaxTurn: 150, MaxPlayer: 4}
	seats := []hidingbot.Seat{{Hider: true, Bot: "greedy"}, {Hider: true, Bot: "raider"}, {Hider: true, Bot: "raider"}, {Bot: "greedy"}}
	var total hidingbot.Stats
	for seed := uint64(40); seed < 50; seed++ {
		var a, b bytes.Buffer
		sa, err := hidingbot.Game(&a, cfg, seed, seats)
		if err != nil {
			t.Fatal(err)
		}
		sb, err := hidingbot.Game(&b, cfg, seed, seats)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) || sa != sb {
			t.Fatalf("seed %d: two games differ", seed)
		}
		total.Add(sa)
	}
	if total.Failed != 0 {
		t.Errorf("%d hider commands refused", total.Failed)
	}
	if total.Builds == 0 || total.Upgrades == 0 || total.HomeFalls == 0 || total.Removed == 0 {
		t.Errorf("the hiders hide too little: %+v", total)
	}
}
