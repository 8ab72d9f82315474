package match

import (
	"context"
	"testing"

	"github.com/rewind-game/rewind/engine/bot"
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/engine/rulesets"
)

// BenchmarkRunGameColorfight2 is a whole `rewind play` match without its
// recording: 500 rounds, 8 ColorfightII built-ins, through RunGame.
func BenchmarkRunGameColorfight2(b *testing.B) {
	info, _ := rulesets.About(rulesets.Default)
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

// BenchmarkRunColorfight2 is BenchmarkRunGameColorfight2 through
// ColorfightII's own runner (Run), while fork still uses it.
func BenchmarkRunColorfight2(b *testing.B) {
	names := bot.BuiltinNames()
	for i := 0; i < b.N; i++ {
		var seats []Seat
		for k := range 8 {
			bt, _ := bot.Builtin(names[k%len(names)])
			seats = append(seats, Seat{Bot: bt})
		}
		cfg := colorfight2.DefaultConfig()
		cfg.MaxPlayer = 0
		res, err := Run(context.Background(), Config{Game: cfg, Seed: 42, Seats: seats})
		if err != nil || res.Turn != 500 {
			b.Fatal(res, err)
		}
	}
}
