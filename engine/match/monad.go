package match

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/rewind-game/rewind/engine/bot"
	"github.com/rewind-game/rewind/engine/bot/monadbot"
	"github.com/rewind-game/rewind/engine/bot/subprocess"
	"github.com/rewind-game/rewind/engine/monad"
)

// Monad matches run beside ColorfightII's Run rather than through one
// generic runner: ColorfightII's bots are shown frames and its recorder
// takes its concrete commands (its hot path), Monad's bots are shown the
// state and its faults are part of the state. What the two share — seats,
// bot seeds, parallel asking, the Recorder's life cycle, tournaments'
// seating and standings — is shared.

// MonadSeat is one player of a Monad match.
type MonadSeat struct {
	// Bot plays the seat; RunMonad calls Start and, at the end, Close.
	Bot monadbot.Bot
	// Name defaults to "<player+1>_<bot name>"; Identity (what the replay
	// records as the bot) to Bot.Name().
	Name, Identity string
}

// MonadConfig describes a Monad match.
type MonadConfig struct {
	// MaxTurns is the turn limit (0: monad.DefaultMaxTurns); Uniform
	// gives every cell 20 resources.
	MaxTurns int
	Uniform  bool
	// Seed draws the map (monad.GenerateMap(int64(Seed), Uniform)) and,
	// through BotSeed, each bot's seed.
	Seed  uint64
	Seats []MonadSeat
	// Recorder receives the match as it is played; nil records nothing.
	Recorder MonadRecorder
	// Progress, if set, is called after every turn with the turn reached.
	Progress func(turn int)
}

// MonadSetup is what a MonadRecorder learns before the first turn.
type MonadSetup struct {
	Game monad.Config // defaults filled in
	// Players in player order (uid = player+1; Home is the start cell).
	Players []SetupPlayer
	// Logs is true when a seat's bot keeps round logs (bot.Logger): a
	// MonadRecorder that is a RoundLogger is then given them, before each
	// Round, as Run gives ColorfightII's.
	Logs bool
}

// MonadRecorder receives a Monad match as it is played: Begin once, Round
// after every turn with what the engine applied (the commands and the
// players marked timed out or crashed before the turn) and the state
// after it, End once with the final state, also when the match is
// interrupted. The round and state are only valid during the call.
type MonadRecorder interface {
	Begin(MonadSetup) error
	Round(r *monad.Round, st *monad.State) error
	End(st *monad.State) error
}

// MonadResult is the outcome of a Monad match.
type MonadResult struct {
	Turn        int
	Interrupted bool
	Ranking     []monad.Rank
	Players     []MonadPlayerResult
	Hash        uint64
}

// MonadPlayerResult is one player's final standing.
type MonadPlayerResult struct {
	Player         int
	Name, Identity string
	Stats          monad.PlayerStats
	// Faults counts the turns its bot failed to answer.
	Faults int
}

// monadFault classifies a bot's error: a timeout marks the player timed
// out, an exit (or a bot that could not start) crashed, anything else is
// a reply that was not a list.
func monadFault(err error, started bool) (timedOut, crashed bool) {
	switch {
	case !started, errors.Is(err, subprocess.ErrBotExited):
		return false, true
	case errors.Is(err, subprocess.ErrTimeout):
		return true, false
	}
	return false, false
}

// RunMonad plays a Monad match to its end, or until ctx is done (the
// recording then ends cleanly at the last whole turn). Bots still playing
// are asked in parallel each turn; answers are applied in player order,
// so the result depends only on what they answered. A bot's failure is
// applied to the state as docs/bot-protocol.md ("Monad") says and
// recorded in the round. RunMonad closes every bot before it returns.
func RunMonad(ctx context.Context, cfg MonadConfig) (*MonadResult, error) {
	n := len(cfg.Seats)
	defer func() {
		for _, s := range cfg.Seats {
			if s.Bot != nil {
				s.Bot.Close()
			}
		}
	}()
	gc := monad.Config{Players: n, MaxTurns: cfg.MaxTurns, Seed: int64(cfg.Seed), Uniform: cfg.Uniform}
	if gc.MaxTurns == 0 {
		gc.MaxTurns = monad.DefaultMaxTurns
	}
	st, err := monad.New(gc)
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	res := &MonadResult{}
	setup := MonadSetup{Game: gc}
	for i, s := range cfg.Seats {
		if s.Bot == nil {
			return nil, fmt.Errorf("match: seat %d has no bot", i+1)
		}
		p := MonadPlayerResult{Player: i, Name: s.Name, Identity: s.Identity}
		if p.Identity == "" {
			p.Identity = s.Bot.Name()
		}
		if p.Name == "" {
			p.Name = fmt.Sprintf("%d_%s", i+1, s.Bot.Name())
		}
		res.Players = append(res.Players, p)
		sp := monad.StartPositions[n-1][i]
		setup.Players = append(setup.Players, SetupPlayer{UID: i + 1, Name: p.Name, Identity: p.Identity})
		setup.Players[i].Home.X, setup.Players[i].Home.Y = sp[0], sp[1]
		if _, ok := s.Bot.(bot.Logger); ok {
			setup.Logs = true
		}
	}
	w := cfg.Recorder
	if w != nil {
		if err := w.Begin(setup); err != nil {
			return nil, fmt.Errorf("match: recording: %w", err)
		}
	}
	started := make([]bool, n)
	for i, s := range cfg.Seats {
		started[i] = s.Bot.Start(i, BotSeed(cfg.Seed, i+1)) == nil
	}
	var r monad.Round
	r.Commands = make([][]monad.Command, n)
	answers := make([]answer, n)
	logs := make([][]byte, n)
	logger, _ := w.(RoundLogger)
	for !st.Over() {
		if ctx.Err() != nil {
			res.Interrupted = true
			break
		}
		askMonad(cfg.Seats, st, answers, started)
		r.TimedOut, r.Crashed = [monad.MaxPlayers]bool{}, [monad.MaxPlayers]bool{}
		for i := range r.Commands {
			r.Commands[i] = r.Commands[i][:0]
			stats := st.Stats(i)
			if stats.TimedOut || stats.Crashed {
				continue
			}
			a := &answers[i]
			if a.err != nil {
				res.Players[i].Faults++
				r.TimedOut[i], r.Crashed[i] = monadFault(a.err, started[i])
				if !r.TimedOut[i] && !r.Crashed[i] {
					r.Commands[i] = append(r.Commands[i], monad.Command{Err: monad.ErrNotList})
				}
				continue
			}
			for _, c := range a.cmds {
				r.Commands[i] = append(r.Commands[i], monad.ParseCommand([]byte(c)))
			}
		}
		st.Play(&r)
		if logger != nil && monadRoundLogs(cfg.Seats, started, logs) {
			if err := logger.RoundLogs(logs); err != nil {
				return nil, fmt.Errorf("match: recording: %w", err)
			}
		}
		if w != nil {
			if err := w.Round(&r, st); err != nil {
				return nil, fmt.Errorf("match: recording: %w", err)
			}
		}
		if cfg.Progress != nil {
			cfg.Progress(st.Turn())
		}
	}
	if w != nil {
		if err := w.End(st); err != nil {
			return nil, fmt.Errorf("match: recording: %w", err)
		}
	}
	for i := range res.Players {
		res.Players[i].Stats = st.Stats(i)
	}
	res.Turn, res.Ranking, res.Hash = st.Turn(), st.Ranking(), st.Hash()
	return res, nil
}

// monadRoundLogs fills logs with the round logs of the seats' bots that
// keep one (bot.Logger) and reports whether any is not empty.
func monadRoundLogs(seats []MonadSeat, started []bool, logs [][]byte) bool {
	some := false
	for i, s := range seats {
		logs[i] = nil
		if l, ok := s.Bot.(bot.Logger); ok && started[i] {
			logs[i] = l.RoundLog()
			some = some || len(logs[i]) > 0
		}
	}
	return some
}

// askMonad collects the answers of every seat still playing, in parallel.
func askMonad(seats []MonadSeat, st *monad.State, answers []answer, started []bool) {
	var wg sync.WaitGroup
	for i := range seats {
		answers[i] = answer{cmds: answers[i].cmds[:0]}
		if !started[i] {
			answers[i].err = errors.New("bot failed to start")
			continue
		}
		if s := st.Stats(i); s.TimedOut || s.Crashed {
			continue
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cmds, err := seats[i].Bot.Commands(st)
			answers[i] = answer{cmds: append(answers[i].cmds[:0], cmds...), err: err}
		}(i)
	}
	wg.Wait()
}
