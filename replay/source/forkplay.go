package source

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rewind-game/rewind/engine/bot"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/replay/recording"
)

// PlayOptions says how a fork is played on (Fork.Play).
type PlayOptions struct {
	// Seats play the players' places, in uid order; nil seats each
	// player's own built-in (Fork.OwnBuiltins), and fails naming the
	// players whose bot was not a built-in. Play closes them.
	Seats []match.Seat
	// Seed is the match seed (the bots' seeds derive from it).
	Seed uint64
	// Created and Tool go into the new replay's header.
	Created time.Time
	Tool    string
}

// OwnBuiltins returns, in uid order, the built-in bot that played each
// seat of the parent, or "" for a seat the parent names no built-in for
// (an external bot, an official client, an official .cfr).
func (f *Fork) OwnBuiltins() []string {
	out := make([]string, len(f.Origin.Players))
	for i := range out {
		if i < len(f.Bots) {
			if _, err := bot.Builtin(f.Bots[i]); err == nil {
				out[i] = f.Bots[i]
			}
		}
	}
	return out
}

// ownSeats seats each player's own built-in (OwnBuiltins).
func (f *Fork) ownSeats() ([]match.Seat, error) {
	var seats []match.Seat
	var missing []string
	for i, name := range f.OwnBuiltins() {
		if name == "" {
			missing = append(missing, fmt.Sprintf("%d (%s)", i+1, f.Origin.Players[i].Name))
			continue
		}
		b, _ := bot.Builtin(name)
		seats = append(seats, match.Seat{Bot: b, Identity: name})
	}
	if missing != nil {
		for _, s := range seats {
			s.Bot.Close()
		}
		return nil, fmt.Errorf("fork: no built-in played seat %s in the parent: choose its bot", strings.Join(missing, ", "))
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
		if seats, err = f.ownSeats(); err != nil {
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
