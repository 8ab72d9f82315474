package source

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
)

// PlayOptions says how a fork is played on (Fork.Play).
type PlayOptions struct {
	// Seats play the players' places, in uid order (their names are the
	// parent's); nil seats each player's own built-in
	// (Fork.OwnBuiltins), and fails naming the players whose bot was not
	// a built-in. Play closes them.
	Seats []match.GameSeat
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
	info, _ := engine.About(f.Ruleset.ID())
	out := make([]string, len(f.Names))
	for i := range out {
		if i < len(f.Bots) {
			if _, ok := info.FindBot(f.Bots[i]); ok {
				out[i] = f.Bots[i]
			}
		}
	}
	return out
}

// ownSeats seats each player's own built-in (OwnBuiltins).
func (f *Fork) ownSeats() ([]match.GameSeat, error) {
	info, _ := engine.About(f.Ruleset.ID())
	var seats []match.GameSeat
	var missing []string
	for i, name := range f.OwnBuiltins() {
		if name == "" {
			missing = append(missing, fmt.Sprintf("%d (%s)", i+1, f.Names[i]))
			continue
		}
		b, _ := info.FindBot(name)
		seats = append(seats, match.GameSeat{Bot: match.BuiltinPlayer(b), Identity: name})
	}
	if missing != nil {
		return nil, fmt.Errorf("fork: no built-in played seat %s in the parent: choose its bot", strings.Join(missing, ", "))
	}
	return seats, nil
}

// Play plays the game on from the fork's turn with opts.Seats to its end
// (or until ctx is done, then to the last whole round) and writes it to w
// as a .rwd (match.RunGame from the fork's Setup, its Prefix replayed):
// the parent's first rounds as they were, then the seats'. Its header
// names the parent (file, SHA-256, turn) and keeps the parent's official
// info and the players' ratings.
func (f *Fork) Play(ctx context.Context, w io.Writer, opts PlayOptions) (*match.Result, error) {
	seats := opts.Seats
	if seats == nil {
		var err error
		if seats, err = f.ownSeats(); err != nil {
			return nil, err
		}
	}
	if len(seats) != len(f.Names) {
		for _, s := range seats {
			if s.Bot != nil {
				s.Bot.Close()
			}
		}
		return nil, fmt.Errorf("fork: the game has %d players, %d seats given", len(f.Names), len(seats))
	}
	seats = append([]match.GameSeat(nil), seats...)
	for i := range seats {
		seats[i].Name = f.Names[i]
	}
	rec := recording.NewRecorder(w, opts.Created, opts.Tool)
	parent := f.Parent
	rec.Parent, rec.CFRInfo, rec.Verified, rec.Ranking = &parent, f.Info, f.Verified, f.Ranking
	return match.RunGame(ctx, match.GameConfig{Ruleset: f.Ruleset, Seed: opts.Seed, Setup: f.Setup, Prefix: f.Prefix, Seats: seats, Recorder: rec})
}
