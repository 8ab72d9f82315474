package match

import (
	"context"
	"testing"

	"github.com/rewind-game/rewind/engine"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// BenchmarkRunGameColorfight2 is a whole `rewind play` match without its
// recording: 500 rounds, 8 ColorfightII built-ins, through RunGame.
func BenchmarkRunGameColorfight2(b *testing.B) {
	info, _ := engine.About(engine.Default())
	for i := 0; i < b.N; i++ {
		var seats []GameSeat
		for k := range 8 {
			seats = append(seats, GameSeat{Bot: BuiltinPlayer(info.Bots[k%len(info.Bots)])})
		}
		res, err := RunGame(context.Background(), GameConfig{Ruleset: colorfight2.Ruleset, Seed: 42, MaxTurns: 500, Seats: seats})
		if err != nil || res.Turn != 500 {
			b.Fatal(res, err)
		}
	}
}
