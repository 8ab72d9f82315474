// Package colorfight2 registers ColorfightII (a 30×30 territory and
// economy game of up to 8 players over 500 rounds, played as its official
// server plays it) with the engine: its rules (games/colorfight2/rules),
// built-in bots, conformance vectors and official .cfr replays. A program
// that imports it (games/all does) plays, records and reads the game.
package colorfight2

import (
	_ "embed"
	"io"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/bots"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrstream"
	"github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/games/colorfight2/vectors"
)

// boardScript is the game's painter on the replay page.
//
//go:embed board.js
var boardScript []byte

func init() {
	engine.Register(engine.Registration{
		Ruleset: rules.Ruleset,
		Name:    "ColorfightII",
		// A match seats as many players as the default configuration's
		// max_player (8); the engine itself takes up to 64. The turn
		// limit is the reference server's 200..2000, narrower than what
		// the engine can run.
		MinPlayers: 2, MaxPlayers: rules.DefaultMaxPlayer,
		MinTurns: rules.MinMaxTurn, MaxTurns: rules.MaxMaxTurn, DefaultTurns: rules.DefaultMaxTurn,
		Round:   "rounds",
		Bots:    bots.Builtins,
		Vectors: &engine.Vectors{Input: vectors.Input, Expected: vectors.Expected, Conform: vectors.Conform},
		// The official replay is gzip'd JSON, or JSON: the catch-all of
		// such content, tried after the formats that claim gzip or JSON
		// of their own (a Monad log, a Skyport .jsn).
		Formats: []engine.Format{{Name: cfrstream.Name, Exts: []string{".cfr"}, Sniff: cfrstream.Sniff, Catchall: true,
			Open: cfrstream.Open, OpenInferred: cfrstream.OpenInferred, Quiet: true, Summarize: summarize}},
		OwnProtocol: true, ScoreDuels: true,
		BoardScript: boardScript,
	})
}

// summarize is the .cfr format's engine.Format.Summarize: cfrstream's
// one pass over its frames.
func summarize(r io.Reader) (*engine.Summary, error) {
	c, err := cfrstream.Summarize(r)
	if err != nil {
		return nil, err
	}
	s := &engine.Summary{MaxTurn: c.MaxTurn, Rounds: c.Rounds, Complete: c.Complete, Damage: c.Damage,
		Winner: c.Winner, WinnerScore: c.WinnerGold}
	for _, p := range c.Players {
		s.Players = append(s.Players, engine.SummaryPlayer{UID: p.UID, Name: p.Name, Rank: p.Rank, Score: p.Score})
	}
	return s, nil
}
