// Package match runs ColorfightII matches (Run) and matches of every other
// game through the seam (RunGame), and tournaments of either: it seeds the
// map, registers the players, asks each bot for its commands every round,
// steps the engine and hands every round to a Recorder (Recorder for Run,
// GameRecorder for RunGame) as it goes (package replay/recording provides
// the ones that write a .rwd; match itself never writes files).
//
// What is recorded is what the engine applied. In a ColorfightII match a
// bot that answers late, crashes or prints garbage is recorded as one
// malformed command with code colorfight2.ErrBotFault whose text says what
// happened; through the seam the fault is given to the game (Game.Fault)
// and recorded with the round. Either way re-simulation never depends on
// timing and the fault shows up as that player's.
package match

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/rewind-game/rewind/engine/bot"
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/engine/rng"
)

// Seat is one player of a match.
type Seat struct {
	// Bot plays the seat. Run calls Start and, at the end, Close.
	Bot bot.Bot
	// Name is the player's username; defaults to "<uid>_<bot name>".
	Name string
	// Identity is what the replay records as the bot ("greedy",
	// "python3 mybot.py"); defaults to Bot.Name().
	Identity string
}

// Config describes a match.
type Config struct {
	// Game is the game configuration; MaxPlayer 0 picks the smallest of
	// 2, 4, 8 that seats everyone.
	Game colorfight2.Config
	// Seed generates the map and, through BotSeed, each bot's seed.
	Seed  uint64
	Seats []Seat
	// Recorder receives the match as it is played; nil records nothing.
	Recorder Recorder
	// Progress, if set, is called after every round with the turn reached.
	Progress func(turn int)
	// From, when set, plays on from an earlier game (a fork): its map,
	// players and first rounds are played and recorded as they were,
	// then the seats' bots take over. Game must then be From.Game (or
	// zero), and there must be one seat per player of From.
	From *Origin
}

// Origin is the beginning of an earlier game a match plays on from.
type Origin struct {
	Game    colorfight2.Config
	Map     *colorfight2.Map
	Players []colorfight2.Player
	// Rounds[t] are the commands of round t -> t+1 (indexed by uid-1), for
	// the rounds to replay before the bots play; Rounds[0] is nil.
	Rounds [][][]colorfight2.Command
	// Logs[t], when set, are the bots' logs of round t (indexed by uid-1,
	// as RoundLogger takes them): a RoundLogger recorder is given them
	// with the replayed rounds, so a fork keeps its parent's bot logs.
	Logs [][][]byte
}

// Result is the outcome of a match.
type Result struct {
	// Turn is the last turn played (max_turn unless interrupted).
	Turn int
	// Interrupted is true when the context ended the match early; the
	// replay is still complete and valid up to Turn.
	Interrupted bool
	// Ranking lists uids by final gold, best first.
	Ranking []int
	// Players as registered (uid order), with final gold and cells.
	Players []PlayerResult
	// Hash is the final state hash.
	Hash uint64
}

// PlayerResult is one player's final standing.
type PlayerResult struct {
	UID      int
	Name     string
	Identity string
	Gold     int64
	Cells    int64
	// Faults counts rounds in which the bot failed to answer properly;
	// Errors counts all of its failed commands (faults included).
	Faults int
	Errors int
}

// Setup is what a Recorder learns of a match before its first round.
type Setup struct {
	// Game is the configuration the match is played with (defaults
	// filled in).
	Game colorfight2.Config
	// Seed generated the map (colorfight2.GenerateMap), unless Map is set:
	// then the map is that one (a match played on from another game).
	Seed uint64
	Map  *colorfight2.Map
	// Players in uid order (uid = index+1).
	Players []SetupPlayer
	// Logs is true when a seat's bot keeps round logs (bot.Logger): a
	// Recorder that is a RoundLogger may then be given them.
	Logs bool
}

// SetupPlayer is one seat as registered.
type SetupPlayer struct {
	UID      int
	Name     string
	Identity string
	Home     colorfight2.Point
}

// Recorder receives a match as it is played. Run calls Begin once before
// round 0 -> 1, Round after every round (with the commands the engine
// applied, bot faults included, and the state after it; cmds is nil for
// round 0 -> 1), and End once with the final state — also when the match
// is interrupted, so a recording always ends at a whole round. Run stops
// the match at the first error a Recorder returns. The slices and state
// are only valid during the call.
type Recorder interface {
	Begin(Setup) error
	Round(cmds [][]colorfight2.Command, st *colorfight2.State) error
	End(st *colorfight2.State) error
}

// OfficialClient is the bot identity recorded for a player who played
// through a game's official client protocol (rewind server): rewind sees
// its commands but not its process, so such a seat never has a round log.
const OfficialClient = "official client"

// RoundLogger is what a Recorder implements to keep the bots' round logs
// (bot.Logger). Run calls RoundLogs right before Round for each round the
// bots were asked for in which one of them logged something, with
// logs[uid-1] what that bot logged (nil: nothing, or a bot that keeps no
// log). Logs are not part of the game. The slices are only valid during
// the call.
type RoundLogger interface {
	RoundLogs(logs [][]byte) error
}

// BotSeed derives seat uid's bot seed from the match seed:
// the first output of rng.New(seed XOR uid*0x9E3779B97F4A7C15).
func BotSeed(seed uint64, uid int) uint64 {
	return rng.New(seed ^ uint64(uid)*0x9E3779B97F4A7C15).Uint64()
}

// maxFaultText bounds the description of a bot fault in the replay.
const maxFaultText = 200

// Run plays the match to max_turn, or until ctx is done (then it finishes
// the replay cleanly at the last whole round). Bots are asked in parallel
// each round; their answers are applied in uid order, so the result
// depends only on what they answered. Run closes every bot before it
// returns; it does not close cfg.Replay.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	n := len(cfg.Seats)
	if n == 0 {
		return nil, errors.New("match: no players")
	}
	defer func() {
		for _, s := range cfg.Seats {
			if s.Bot != nil {
				s.Bot.Close()
			}
		}
	}()
	gc := cfg.Game
	if cfg.From != nil {
		if gc.Width != 0 && gc != cfg.From.Game {
			return nil, errors.New("match: a match played on from another game keeps its configuration")
		}
		gc = cfg.From.Game
		if n != len(cfg.From.Players) {
			return nil, fmt.Errorf("match: %d seats for a game of %d players", n, len(cfg.From.Players))
		}
		if len(cfg.From.Rounds) > gc.MaxTurn {
			return nil, fmt.Errorf("match: %d rounds to replay in a game of %d", len(cfg.From.Rounds), gc.MaxTurn)
		}
	}
	if gc.Width == 0 {
		gc = colorfight2.DefaultConfig()
		if cfg.Game.MaxTurn != 0 {
			gc.MaxTurn = cfg.Game.MaxTurn
		}
		gc.MaxPlayer = cfg.Game.MaxPlayer
	}
	if gc.MaxPlayer == 0 {
		for _, m := range []int{2, 4, 8} {
			if n <= m {
				gc.MaxPlayer = m
				break
			}
		}
		if gc.MaxPlayer == 0 {
			return nil, fmt.Errorf("match: %d players, at most 8", n)
		}
	}
	names := make([]string, n)
	idents := make([]string, n)
	for i, s := range cfg.Seats {
		if s.Bot == nil {
			return nil, fmt.Errorf("match: seat %d has no bot", i+1)
		}
		idents[i] = s.Identity
		if idents[i] == "" {
			idents[i] = s.Bot.Name()
		}
		names[i] = s.Name
		if cfg.From != nil {
			names[i] = cfg.From.Players[i].Name
		}
		if names[i] == "" {
			names[i] = fmt.Sprintf("%d_%s", i+1, s.Bot.Name())
		}
	}
	var st *colorfight2.State
	var spawns []colorfight2.Point
	var err error
	if cfg.From != nil {
		if st, err = colorfight2.New(gc, cfg.From.Map, cfg.From.Players); err != nil {
			return nil, fmt.Errorf("match: %w", err)
		}
		for _, p := range cfg.From.Players {
			spawns = append(spawns, p.Home)
		}
	} else {
		if st, err = colorfight2.NewFromSeed(gc, cfg.Seed, names); err != nil {
			return nil, fmt.Errorf("match: %w", err)
		}
		if _, spawns, err = colorfight2.GenerateMap(gc.Width, gc.Height, gc.MaxPlayer, cfg.Seed); err != nil {
			return nil, fmt.Errorf("match: %w", err)
		}
	}
	w := cfg.Recorder
	if w != nil {
		setup := Setup{Game: gc, Seed: cfg.Seed}
		if cfg.From != nil {
			setup.Map = cfg.From.Map
		}
		for i := range names {
			setup.Players = append(setup.Players, SetupPlayer{UID: i + 1, Name: names[i], Identity: idents[i], Home: spawns[i]})
			if _, ok := cfg.Seats[i].Bot.(bot.Logger); ok {
				setup.Logs = true
			}
		}
		if cfg.From != nil && len(cfg.From.Logs) > 0 {
			setup.Logs = true
		}
		if err := w.Begin(setup); err != nil {
			return nil, fmt.Errorf("match: recording: %w", err)
		}
	}
	res := &Result{}
	// A bot that cannot start plays every round as a fault.
	startErr := make([]error, n)
	for i, s := range cfg.Seats {
		res.Players = append(res.Players, PlayerResult{UID: i + 1, Name: names[i], Identity: idents[i]})
		if err := s.Bot.Start(i+1, BotSeed(cfg.Seed, i+1)); err != nil {
			startErr[i] = fmt.Errorf("bot failed to start: %w", err)
		}
	}

	// Round 0 -> 1 takes no commands.
	st.Step(nil)
	if err := record(w, nil, st); err != nil {
		return nil, err
	}
	if cfg.From != nil {
		logger, _ := w.(RoundLogger)
		for t := 1; t < len(cfg.From.Rounds) && !st.Over(); t++ {
			if logger != nil && t < len(cfg.From.Logs) && cfg.From.Logs[t] != nil {
				if err := logger.RoundLogs(cfg.From.Logs[t]); err != nil {
					return nil, fmt.Errorf("match: recording: %w", err)
				}
			}
			st.Step(cfg.From.Rounds[t])
			for _, e := range st.Errors() {
				res.Players[e.UID-1].Errors++
			}
			if err := record(w, cfg.From.Rounds[t], st); err != nil {
				return nil, err
			}
			if cfg.Progress != nil {
				cfg.Progress(st.Turn())
			}
		}
	}
	var frame colorfight2.Frame
	cmds := make([][]colorfight2.Command, n)
	answers := make([]answer, n)
	logs := make([][]byte, n)
	logger, _ := w.(RoundLogger)
	for !st.Over() {
		if ctx.Err() != nil {
			res.Interrupted = true
			break
		}
		st.Frame(&frame)
		ask(cfg.Seats, &frame, answers, startErr)
		for i := range cmds {
			cmds[i] = cmds[i][:0]
			a := &answers[i]
			if a.err != nil {
				msg := a.err.Error()
				if len(msg) > maxFaultText {
					msg = msg[:maxFaultText]
				}
				cmds[i] = append(cmds[i], colorfight2.Command{Kind: colorfight2.CmdInvalid, Err: colorfight2.ErrBotFault, Raw: msg})
				res.Players[i].Faults++
			}
			for _, s := range a.cmds {
				cmds[i] = append(cmds[i], colorfight2.ParseCommand(s))
			}
		}
		st.Step(cmds)
		for _, e := range st.Errors() {
			res.Players[e.UID-1].Errors++
		}
		if logger != nil && roundLogs(cfg.Seats, startErr, logs) {
			if err := logger.RoundLogs(logs); err != nil {
				return nil, fmt.Errorf("match: recording: %w", err)
			}
		}
		if err := record(w, cmds, st); err != nil {
			return nil, err
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
	st.Frame(&frame)
	for i := range res.Players {
		res.Players[i].Gold = frame.Users[i].Gold
		res.Players[i].Cells = frame.Users[i].CellNumber
	}
	res.Turn, res.Ranking, res.Hash = st.Turn(), st.Ranking(), st.Hash()
	return res, nil
}

type answer struct {
	cmds []string
	err  error
}

// ask collects every seat's answer to frame f, in parallel. Answers are
// copied out of the bots' buffers.
func ask(seats []Seat, f *colorfight2.Frame, answers []answer, startErr []error) {
	var wg sync.WaitGroup
	for i := range seats {
		if startErr[i] != nil {
			answers[i] = answer{err: startErr[i]}
			continue
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cmds, err := seats[i].Bot.Commands(f)
			answers[i] = answer{cmds: append(answers[i].cmds[:0], cmds...), err: err}
		}(i)
	}
	wg.Wait()
}

// roundLogs fills logs with the round logs of the seats' bots that keep
// one (bot.Logger) and reports whether any is not empty.
func roundLogs(seats []Seat, startErr []error, logs [][]byte) bool {
	some := false
	for i, s := range seats {
		logs[i] = nil
		if l, ok := s.Bot.(bot.Logger); ok && startErr[i] == nil {
			logs[i] = l.RoundLog()
			some = some || len(logs[i]) > 0
		}
	}
	return some
}

func record(w Recorder, cmds [][]colorfight2.Command, st *colorfight2.State) error {
	if w == nil {
		return nil
	}
	if err := w.Round(cmds, st); err != nil {
		return fmt.Errorf("match: recording: %w", err)
	}
	return nil
}
