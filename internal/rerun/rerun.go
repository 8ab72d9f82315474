// Package rerun asks a bot again what it would do in a recorded game
// (`rewind rerun`): it re-simulates a .rwd round by round, as the
// recording played it, and at each round in which one seat acts it asks
// the given bot for that seat's commands from the game as it stands
// there, then compares them with the commands the recording holds for
// the seat (diff.CompareSeat). The game always follows the recording:
// the bot's answers change nothing; the first round whose answer
// differs is reported, with what the bot logged while asked. A bot that
// the recording shows playing the seat must reproduce its commands: a
// regression test for a bot.
//
// It holds the game, one round and one answer, never the game's rounds
// (docs/limits.md, "rerun").
package rerun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/diff"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/replay"
)

// Options say which seat is asked again, by which bot, and from where.
type Options struct {
	// Seat is the seat asked again, from 1 (as rewind info numbers
	// them).
	Seat int
	// Bot answers for the seat. Run starts it (with Seed) and leaves it
	// open: the caller closes it (or plays on with it: Continue).
	Bot match.GamePlayer
	// Seed is the seed Bot is started with: the recorded one
	// (replay.Player.BotSeed) for the bot that played the seat.
	Seed uint64
	// From is the first round compared (0 the first round).
	From int
	// AskBefore makes Run ask the bot at the seat's rounds before From
	// too, its answers unused, so that a bot whose choices depend on
	// what it was asked before (a built-in drawing from its seed) stands
	// at round From as it stood in the recording; a bot outside the
	// process is asked from round From only.
	AskBefore bool
}

// Result is what Run found.
type Result struct {
	File    string `json:"file"`
	Ruleset string `json:"ruleset"`
	// Seat and Name are the seat asked again and its player's name;
	// RecordedBot is the bot the recording names for it (data, never
	// run), Bot the one asked.
	Seat        int    `json:"seat"`
	Name        string `json:"name"`
	RecordedBot string `json:"recorded_bot"`
	Bot         string `json:"bot"`
	// BotSeed is the seed the bot was started with; SeedRecorded says the
	// recording names it (else it was derived: docs/rerun.md).
	BotSeed      uint64 `json:"bot_seed"`
	SeedRecorded bool   `json:"bot_seed_recorded"`
	From         int    `json:"from"`
	// Turns is the turn of the game where the comparison ended (its last
	// turn when no round differs), Compared the number of the seat's
	// rounds compared.
	Turns    int `json:"turns"`
	Compared int `json:"rounds_compared"`
	// Difference is the first round whose commands differ, nil for none.
	Difference *Difference `json:"difference"`
	// Stop is why reading stopped before the end of the file (damage, or
	// the file cut short: Cut), nil when it was read to its end.
	Stop    error  `json:"-"`
	Stopped string `json:"stopped,omitempty"`
	Cut     bool   `json:"cut_short"`
	// Follow is the replay written from the first difference on (rewind
	// rerun --follow), nil without one.
	Follow *Follow `json:"follow,omitempty"`
}

// Difference is the first round whose commands the bot answered
// otherwise than the recording: Round is its number (from 0, as fork
// counts: rewind fork --turn Round plays it anew), Turn the turn it led
// to.
type Difference struct {
	Round int `json:"round"`
	Turn  int `json:"turn"`
	// Commands are the seat's: A the recorded, B the bot's.
	Commands diff.SeatCommands `json:"commands"`
	// Log is what the bot logged while asked for the round; RecordedLog
	// what the recording keeps of the seat's log of the round.
	Log         string `json:"log"`
	RecordedLog string `json:"recorded_log"`
	// answer is the bot's answer, for Continue.
	answer answer
}

// Follow is the replay rerun --follow wrote.
type Follow struct {
	File string `json:"file"`
	// Turns is its last turn; Parent the turn from which it is its own
	// (Difference.Round).
	Turns  int `json:"turns"`
	Parent int `json:"parent_turn"`
}

// answer is the bot's answer to one round.
type answer struct {
	cmds []string
	err  error
	log  []byte
	// marks and dropped are what the bot drew (match.Marker).
	marks   [][]byte
	dropped int
}

// fault is the recorded form of the answer's fault (diff.FaultText),
// "" for none.
func (a *answer) fault() (engine.Fault, string) {
	if a.err == nil {
		return 0, ""
	}
	return match.Fault(a.err, true), match.FaultMessage(a.err)
}

// ask asks bot for player p's commands for the next round of g, and what
// it logged while asked.
func ask(bot match.GamePlayer, g engine.Game, p int) answer {
	var a answer
	if pr, ok := bot.(match.Preparer); ok {
		a.cmds, a.err = pr.Prepare(g, p)()
	} else {
		a.cmds, a.err = bot.Commands(g, p)
	}
	a.cmds = slices.Clone(a.cmds)
	if a.err != nil {
		a.cmds = nil
	}
	if l, ok := bot.(match.Logger); ok {
		a.log = bytes.Clone(l.RoundLog())
	}
	if m, ok := bot.(match.Marker); ok {
		lines, dropped := m.RoundMarks()
		a.marks, a.dropped = slices.Clone(lines), dropped
	}
	return a
}

// Run re-simulates the recording sim reads (named file in the Result)
// and asks opts.Bot for seat opts.Seat's commands at each of the seat's
// rounds from opts.From (every round the seat acts in: all of them, or
// its turns in a game whose players act in turn; none while it is idle
// or out of the game), until the first round whose answer differs from
// the recording's, or the recording's end. Commands are compared as the
// recording keeps them: as sent, or, in a ruleset's own compact codec
// (engine.Codec), as the game took them (the bot's answer played on a
// second copy of the game, and the records compared). Faults count: a
// bot that fails where the recording's answered differs. It fails on a
// seat out of range, a bot that does not start, or a recording that
// cannot be re-simulated from its start; a recording damaged or cut
// short later is compared up to there, with Stop set. When ctx is done
// it stops at the next round and returns ctx's error.
func Run(ctx context.Context, sim *replay.Sim, file string, opts Options) (*Result, error) {
	h := sim.Header()
	n := len(h.Players)
	res := &Result{File: file, Ruleset: h.Ruleset, Seat: opts.Seat, From: opts.From, BotSeed: opts.Seed}
	if opts.Seat < 1 || opts.Seat > n {
		return nil, fmt.Errorf("no seat %d: the game has seats 1..%d", opts.Seat, n)
	}
	if opts.Bot == nil {
		return nil, errors.New("rerun: no bot")
	}
	p := opts.Seat - 1
	pl := h.Players[p]
	res.Name, res.RecordedBot, res.Bot = pl.Name, pl.Bot, opts.Bot.Name()
	res.SeedRecorded = pl.BotSeed != nil && *pl.BotSeed == opts.Seed
	// In a compact codec the records say what the game took: the bot's
	// answer is played on a shadow game, kept in step with the
	// recording's while the answers agree.
	var codec engine.Codec
	var shadow engine.Game
	if h.Compact() {
		if codec = engine.CodecOf(sim.Ruleset()); codec != nil {
			var err error
			if shadow, err = h.NewGame(sim.Ruleset()); err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
		}
	}
	if err := opts.Bot.Start(p, opts.Seed); err != nil {
		return nil, fmt.Errorf("the bot did not start: %w", err)
	}
	var cmds [][]string
	for {
		g := sim.Game()
		round := g.Turn()
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("rerun interrupted at turn %d: %w", round, err)
		}
		acts := !g.Over() && !engine.Idle(g) && (g.Active() < 0 || g.Active() == p) && !engine.Out(g, p)
		compare := acts && round >= opts.From
		var a answer
		if compare || acts && opts.AskBefore {
			a = ask(opts.Bot, g, p)
		}
		err := sim.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			res.Stop, res.Stopped, res.Cut = err, err.Error(), source.CutShort(err)
			break
		}
		res.Turns = sim.Game().Turn()
		rd := sim.Round()
		botFault, botText := a.fault()
		if shadow != nil {
			cmds = append(cmds[:0], rd.Commands...)
			for i := range n {
				f, text := at(rd.Faults, i), at(rd.FaultText, i)
				if i == p && compare {
					f, text = botFault, botText
					if i < len(cmds) {
						cmds[i] = a.cmds
					}
				}
				if f != 0 {
					shadow.Fault(i, f, text)
				}
			}
			shadow.Round(cmds)
		}
		if !compare {
			continue
		}
		res.Compared++
		c := diff.CompareSeat(opts.Seat, at(rd.Commands, p), a.cmds,
			diff.FaultText(at(rd.Faults, p), at(rd.FaultText, p)), diff.FaultText(botFault, botText), false, false)
		if c.Differs && shadow != nil && shadow.Hash() == sim.Game().Hash() &&
			bytes.Equal(codec.AppendRecord(shadow, nil), codec.AppendRecord(sim.Game(), nil)) {
			continue // the same round, as the game took it
		}
		if c.Differs {
			res.Difference = &Difference{Round: round, Turn: res.Turns, Commands: c,
				Log: string(a.log), RecordedLog: string(at(rd.Logs, p)), answer: a}
			break
		}
	}
	return res, nil
}

// at is s[i], the zero value when i is out of range.
func at[T any](s []T, i int) T {
	var zero T
	if i < 0 || i >= len(s) {
		return zero
	}
	return s[i]
}

// Continue returns bot (started and asked by Run up to d) as a player
// that plays on from d's round: it is not started again, its first
// answer is the one it gave Run for that round (with its log and marks),
// and every later round is asked of bot (rewind rerun --follow). It is a
// match.Marker only when bot is one, so that a game played on with a bot
// that draws nothing records no marks (the recording's version follows
// match.GameSetup.Marks). Closing it closes bot.
func Continue(bot match.GamePlayer, d *Difference) match.GamePlayer {
	c := &continued{bot: bot, first: d.answer, pending: true}
	if _, ok := bot.(match.Marker); ok {
		return markingContinued{c}
	}
	return c
}

// continued is Continue's player; it forwards match.Preparer and
// match.Logger (markingContinued adds match.Marker).
type continued struct {
	bot     match.GamePlayer
	first   answer
	pending bool
	log     []byte
	// firstAsked: the last answer is first's (its marks are first's).
	firstAsked bool
}

// markingContinued is Continue's player of a bot that is a
// match.Marker.
type markingContinued struct{ *continued }

var (
	_ match.Preparer = (*continued)(nil)
	_ match.Logger   = (*continued)(nil)
	_ match.Marker   = markingContinued{}
)

// RoundMarks returns the marks of the answer last given (match.Marker):
// those the bot drew for Run's round first, then the bot's own.
func (c markingContinued) RoundMarks() ([][]byte, int) {
	if c.firstAsked {
		return c.first.marks, c.first.dropped
	}
	return c.bot.(match.Marker).RoundMarks()
}

func (c *continued) Name() string            { return c.bot.Name() }
func (c *continued) Start(int, uint64) error { return nil }
func (c *continued) Close() error            { return c.bot.Close() }

func (c *continued) Commands(g engine.Game, p int) ([]string, error) {
	return c.Prepare(g, p)()
}

func (c *continued) Prepare(g engine.Game, p int) func() ([]string, error) {
	if c.pending {
		c.pending, c.firstAsked = false, true
		a := c.first
		c.log = a.log
		return func() ([]string, error) { return a.cmds, a.err }
	}
	c.log, c.firstAsked = nil, false
	if pr, ok := c.bot.(match.Preparer); ok {
		return pr.Prepare(g, p)
	}
	cmds, err := c.bot.Commands(g, p)
	return func() ([]string, error) { return cmds, err }
}

func (c *continued) RoundLog() []byte {
	if c.log != nil {
		return c.log
	}
	if l, ok := c.bot.(match.Logger); ok {
		return l.RoundLog()
	}
	return nil
}
