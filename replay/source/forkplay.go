package source

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/rewind-game/rewind/engine/bot"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/replay/recording"
)

// PlayOptions says how a fork is played on (Fork.Play).
type PlayOptions struct {
	// Seats play the players' places, in uid order; nil seats the
	// built-in bots in turn (bot.BuiltinNames). Play closes them.
	Seats []match.Seat
	// Seed is the match seed (the bots' seeds derive from it).
	Seed uint64
	// Created and Tool go into the new replay's header.
	Created time.Time
	Tool    string
}

// BuiltinSeats seats n players with the built-in bots, in turn.
func BuiltinSeats(n int) ([]match.Seat, error) {
	names := bot.BuiltinNames()
	seats := make([]match.Seat, 0, n)
	for i := range n {
		b, err := bot.Builtin(names[i%len(names)])
		if err != nil {
			for _, s := range seats {
				s.Bot.Close()
			}
			return nil, err
		}
		seats = append(seats, match.Seat{Bot: b, Identity: names[i%len(names)]})
	}
	return seats, nil
}

// Play plays the game on from the fork's turn with opts.Seats to its end
// (or until ctx is done, then to the last whole round) and writes it to w
// as a .rwd: the parent's first rounds as they were, then the seats'. Its
// header names the parent (file, SHA-256, turn) and keeps the parent's
// official info and the players' ratings.
func (f *Fork) Play(ctx context.Context, w io.Writer, opts PlayOptions) (*match.Result, error) {
	seats := opts.Seats
	if seats == nil {
		var err error
		if seats, err = BuiltinSeats(len(f.Origin.Players)); err != nil {
			return nil, err
		}
	}
	if len(seats) != len(f.Origin.Players) {
		for _, s := range seats {
			if s.Bot != nil {
				s.Bot.Close()
			}
		}
		return nil, fmt.Errorf("fork: the game has %d players, %d seats given", len(f.Origin.Players), len(seats))
	}
	rec := recording.New(w, opts.Created, opts.Tool)
	parent := f.Parent
	rec.Parent, rec.CFRInfo, rec.Verified, rec.Ranking = &parent, f.Info, f.Verified, f.Ranking
	return match.Run(ctx, match.Config{Seed: opts.Seed, Seats: seats, From: f.Origin, Recorder: rec})
}
