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
	// (Fork.OwnBuiltins) as it played (Fork.AsPlayed), and fails naming the players whose bot was not
	// a built-in. Play closes them.
	Seats []match.GameSeat
	// Seed is the match seed: the bots' seeds derive from it, but for a
	// seat whose match.GameSeat.Seed is set; a game drawn from its seed
	// alone (no Setup) is drawn from the parent's.
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

// AsPlayed makes seat i's (from 0) bot, when it is the built-in the
// parent records for seat i, start as it started in the parent: with the
// parent's seed for it (BotSeed, fallback for a parent that records
// none) and asked through the parent's rounds
// (match.GameSeat.AskInPrefix), so that from the fork's turn it plays as
// it played there: a fork with every seat's own built-in is its parent
// again. Any other bot is left as it is.
func (f *Fork) AsPlayed(i int, seat *match.GameSeat, fallback uint64) {
	info, _ := engine.About(f.Ruleset.ID())
	if i < 0 || i >= len(f.Bots) || seat.Bot == nil || seat.Bot.Name() != f.Bots[i] {
		return
	}
	if _, ok := info.FindBot(f.Bots[i]); !ok {
		return
	}
	seed, _ := f.BotSeed(i, fallback)
	seat.Seed, seat.AskInPrefix = &seed, true
}

// ownSeats seats each player's own built-in (OwnBuiltins), as it played
// (AsPlayed).
func (f *Fork) ownSeats(fallback uint64) ([]match.GameSeat, error) {
	info, _ := engine.About(f.Ruleset.ID())
	var seats []match.GameSeat
	var missing []string
	for i, name := range f.OwnBuiltins() {
		if name == "" {
			missing = append(missing, fmt.Sprintf("%d (%s)", i+1, f.Names[i]))
			continue
		}
		b, _ := info.FindBot(name)
		seat := match.GameSeat{Bot: match.BuiltinPlayer(b), Identity: name}
		f.AsPlayed(i, &seat, fallback)
		seats = append(seats, seat)
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
		if seats, err = f.ownSeats(opts.Seed); err != nil {
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
	seed := opts.Seed
	if len(f.Setup) == 0 && f.SeedKnown {
		// A game its seed draws is drawn from the parent's; the bots'
		// seeds still derive from opts.Seed.
		seed = f.GameSeed
	}
	for i := range seats {
		seats[i].Name = f.Names[i]
		if seats[i].Seed == nil {
			s := match.BotSeed(opts.Seed, i+1)
			seats[i].Seed = &s
		}
	}
	rec := recording.NewRecorder(w, opts.Created, opts.Tool)
	parent := f.Parent
	rec.Parent, rec.CFRInfo, rec.Verified, rec.Ranking = &parent, f.Info, f.Verified, f.Ranking
	return match.RunGame(ctx, match.GameConfig{Ruleset: f.Ruleset, Seed: seed, Setup: f.Setup, MaxTurns: f.MaxTurns, Prefix: f.Prefix, Seats: seats, Recorder: rec})
}
