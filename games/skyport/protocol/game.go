package protocol

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rewind-game/rewind/engine"
	skyportbot "github.com/rewind-game/rewind/games/skyport/bots"
	sp "github.com/rewind-game/rewind/games/skyport/rules"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/rooms"
)

// endturnError is what the rules answer to {"message":"endturn"}; in
// lock-step it is the bot's "I am done" and is neither answered nor
// recorded.
const endturnError = "Unexpected message, got 'endturn' but expected 'action'"

type phase uint8

const (
	phaseLoadout phase = iota
	phaseTurn          // the actor's think time
	phaseBetween       // processing: every line is off-turn
)

// seat is one player of a game.
type seat struct {
	c        *conn // nil for a built-in bot, or once disconnected
	bot      engine.Strategy
	name     string
	identity string
	// seed is a built-in's seed, recorded with the seat; nil for a
	// client.
	seed *uint64
	gone bool // its connection closed
	deaf bool // a line killed the reference's reader: nothing more is read
	// misses counts its turns in a row that passed without a line from
	// it; from rooms.Misses on, its turns are not waited for until it
	// sends a line again.
	misses int
	// fault, faultText: recorded with the next round.
	fault     engine.Fault
	faultText string
}

// game is the game the hub plays. The live game (g) is what is recorded;
// chk is a second copy of the same game used only to answer each line as
// it arrives (its errors, whether it was queued) without touching g.
type game struct {
	h     *hub
	g     *sp.Game
	chk   *sp.State
	seats []*seat
	rec   *recording.Recorder
	file  *rooms.Recording
	// live reports the game's rounds to Options.Live (nil without).
	live  *rooms.LiveRecord
	round match.GameRound

	phase     phase
	actor     int
	lines     []string
	queued    int
	ended     bool
	loadLines [][]string
	errs      []string
}

// play plays game n with the connected players seated (handshake order)
// and the built-in bots after them, and records it.
func (h *hub) play(n int, seated []*conn) error {
	cfg := h.cfg
	np := cfg.Players
	gm := &game{h: h, loadLines: make([][]string, np)}
	names := make([]string, 0, np)
	taken := map[string]bool{}
	for p, c := range seated {
		names = append(names, c.name)
		taken[c.name] = true
		gm.seats = append(gm.seats, &seat{c: c, name: c.name, identity: "skyport client " + c.ip})
		c.role, c.seat = roleSeated, p
	}
	seed := h.baseSeed + uint64(n)*0x9e3779b97f4a7c15
	for i, b := range cfg.Bots {
		name := b
		for k := 2; taken[name]; k++ {
			name = b + "-" + strconv.Itoa(k)
		}
		taken[name] = true
		names = append(names, name)
		botSeed := match.BotSeed(seed, len(seated)+i+1)
		s, _ := skyportbot.New(b, botSeed)
		gm.seats = append(gm.seats, &seat{bot: s, name: name, identity: "builtin " + b, seed: &botSeed})
	}
	settings := engine.Settings{Players: np, MaxTurns: cfg.MaxTurns, Names: names}
	newGame := func() (*sp.Game, error) {
		var g engine.Game
		var err error
		if len(cfg.Setup) > 0 {
			g, err = sp.Ruleset.NewFromSetup(cfg.Setup, settings)
		} else {
			g, err = sp.Ruleset.New(seed, settings)
		}
		if err != nil {
			return nil, fmt.Errorf("skyport server: game %d: %w", n+1, err)
		}
		return g.(*sp.Game), nil
	}
	var err error
	if gm.g, err = newGame(); err != nil {
		return err
	}
	chk, err := newGame()
	if err != nil {
		return err
	}
	gm.chk = chk.State
	start := time.Now()
	if gm.file, err = h.disk.Create(recordingName(start, n)); err != nil {
		return fmt.Errorf("skyport server: %w", err)
	}
	gm.rec = recording.NewRecorder(gm.file, start, cfg.Tool)
	setup := match.GameSetup{Ruleset: sp.Ruleset, Seed: seed, Setup: gm.g.Setup(), MaxTurns: gm.g.MaxTurns()}
	for p, s := range gm.seats {
		setup.Players = append(setup.Players, match.SetupPlayer{UID: p + 1, Name: s.name, Identity: s.identity, BotSeed: s.seed})
	}
	if err := gm.rec.Begin(setup); err != nil {
		gm.file.Abandon()
		return fmt.Errorf("skyport server: recording: %w", err)
	}
	gm.round = match.GameRound{Commands: make([][]string, np), Faults: make([]engine.Fault, np), FaultText: make([]string, np), Logs: make([][]byte, np)}
	if cfg.Live != nil {
		// The viewer reads the recording through a file of its own, which
		// the rename at the end does not disturb.
		if rf, err := os.Open(gm.file.Partial()); err == nil {
			id := strings.TrimSuffix(filepath.Base(gm.file.Path), ".rwd")
			gm.live = cfg.Live.Start(rooms.LiveGame{ID: id, MaxTurn: gm.g.MaxTurns(), Players: names}, rf)
		} else {
			h.logf("skyport: the game cannot be followed live: %v", err)
		}
	}
	h.g = gm
	defer func() { h.g = nil }()
	h.logf("skyport: game %d starts: %s", n+1, strings.Join(names, ", "))

	interrupted := gm.loadout() == waitCancelled
	for !interrupted && !gm.g.Over() {
		interrupted = gm.turn() == waitCancelled
	}
	if err := gm.rec.End(gm.g); err != nil {
		gm.live.Finish(gm.g.Turn(), "")
		gm.file.Abandon()
		return fmt.Errorf("skyport server: recording: %w", err)
	}
	path := gm.file.Path
	if err := gm.file.Commit(); err != nil {
		gm.live.Finish(gm.g.Turn(), "")
		return fmt.Errorf("skyport server: %w", err)
	}
	gm.live.Finish(gm.g.Turn(), path)
	st := gm.g.State
	if !interrupted {
		h.subtitle("Time over!")
		h.subtitle(st.Winner())
	}
	for _, s := range gm.seats {
		if s.c != nil {
			s.c.role = roleDone
			s.c.finish()
		}
	}
	return nil
}

// broadcastPlayers sends msg to every connected player.
func (gm *game) broadcastPlayers(msg []byte) {
	for _, s := range gm.seats {
		if s.c != nil {
			s.c.send(msg)
		}
	}
}

// gamestate sends the current gamestate to the players and the observer.
func (gm *game) gamestate() {
	gm.broadcastPlayers(gm.g.State.AppendGamestate(nil, false))
	if gm.h.obs != nil {
		gm.h.obs.send(gm.g.State.AppendGamestate(nil, true))
	}
}

var endturnMsg = []byte(`{"message":"endturn"}`)

func (gm *game) endturn() {
	gm.broadcastPlayers(endturnMsg)
	gm.h.toObserver(endturnMsg)
}

// loadout runs the loadout phase: the turn-0 gamestate, the players'
// loadout lines (answered as they arrive) until every connected player
// has one or the deadline passes, endturn, endactions; then one recorded
// loadout round per player (games/skyport's Game).
func (gm *game) loadout() waitResult {
	h := gm.h
	gm.phase = phaseLoadout
	gm.gamestate()
	for p, s := range gm.seats {
		if s.c != nil {
			lobby := s.c.lobby
			s.c.lobby = nil
			for _, l := range lobby {
				gm.line(p, l)
			}
		}
	}
	r := h.wait(time.Now().Add(h.cfg.Deadline), func() bool {
		for p, s := range gm.seats {
			if s.c != nil && !s.deaf && !gm.chk.PlayerRef(p).Loaded {
				return false
			}
		}
		return true
	})
	if r == waitCancelled {
		return r
	}
	gm.chk.FinishLoadout()
	gm.phase = phaseBetween
	gm.endturn()
	if h.waitReady() == waitCancelled {
		return waitCancelled
	}
	for p, s := range gm.seats {
		var cmds []string
		if s.bot.Commands != nil {
			cmds = s.bot.Commands(gm.g, p, nil)
		} else {
			cmds = gm.loadLines[p]
		}
		if err := gm.play(p, cmds); err != nil {
			h.logf("skyport: recording: %v", err)
		}
	}
	return waitDone
}

// turn plays one player-turn.
func (gm *game) turn() waitResult {
	h := gm.h
	g := gm.g
	if h.ctx.Err() != nil {
		return waitCancelled
	}
	g.State.Begin()
	gm.actor = g.Active()
	gm.lines, gm.queued, gm.ended = gm.lines[:0], 0, false
	gm.gamestate()
	s := gm.seats[gm.actor]
	if s.c != nil && s.misses >= rooms.Misses {
		// Silent for Misses turns: a line it sent since says it is back.
		h.drain()
	}
	switch {
	case s.bot.Commands != nil:
		gm.lines = s.bot.Commands(g, gm.actor, gm.lines)
	case s.c != nil && !s.deaf && s.misses >= rooms.Misses:
		if s.fault == 0 {
			s.fault, s.faultText = engine.FaultTimeout, fmt.Sprintf("silent for %d turns in a row: not waited for until it sends a line", s.misses)
			g.Fault(gm.actor, engine.FaultTimeout, s.faultText)
		}
	case s.c != nil && !s.deaf:
		gm.phase = phaseTurn
		think := h.think
		deadline := time.Now().Add(think)
		if think == 0 {
			deadline = time.Now().Add(h.cfg.Deadline)
		}
		r := h.wait(deadline, func() bool { return gm.ended || s.c == nil })
		gm.phase = phaseBetween
		if r == waitCancelled {
			return r
		}
		// A bot that sent nothing before the deadline timed out (one
		// that ended its turn with endturn did not).
		if s.c != nil && !gm.ended && len(gm.lines) == 0 && s.fault == 0 {
			text := "no line within the think time"
			if think == 0 {
				text = "no endturn within the lock-step deadline"
			}
			s.fault, s.faultText = engine.FaultTimeout, text
			g.Fault(gm.actor, engine.FaultTimeout, text)
		}
		if s.c != nil && !gm.ended && len(gm.lines) == 0 {
			if s.misses++; s.misses == rooms.Misses {
				h.logf("skyport: %s sent nothing for %d turns in a row; its turns are not waited for until it sends a line", s.name, s.misses)
			}
		}
	}
	gm.endturn()
	if err := gm.play(gm.actor, gm.lines); err != nil {
		h.logf("skyport: recording: %v", err)
	}
	// The actor's errors and broadcasts, in processing order.
	l := g.State.Log()
	name := g.State.PlayerRef(gm.actor).Name
	for i := range l.Lines {
		f := &l.Lines[i]
		if f.Slot < 0 {
			continue
		}
		if s.c != nil {
			gm.errs = l.Errors(i, gm.errs[:0])
			for _, e := range gm.errs {
				s.c.send(errorMsg(e))
			}
		}
		if f.Upgraded != sp.NoWeapon {
			h.subtitle(name + " upgrades his " + f.Upgraded.String())
		}
		if b := g.State.AppendBroadcast(nil, i); len(b) > 0 {
			gm.broadcastPlayers(b)
			h.toObserver(b)
		}
	}
	return h.waitReady()
}

// play applies and records one round of player p with cmds, and the
// faults noted since the last round.
func (gm *game) play(p int, cmds []string) error {
	r := &gm.round
	r.Active = p
	for i, s := range gm.seats {
		r.Commands[i] = nil
		r.Faults[i], r.FaultText[i] = s.fault, s.faultText
		s.fault, s.faultText = 0, ""
	}
	r.Commands[p] = cmds
	gm.g.Round(r.Commands)
	if err := gm.rec.Round(r, gm.g); err != nil {
		return err
	}
	gm.live.Round(gm.g.Turn())
	return nil
}

// disconnect notes that player p's connection closed: it stays in the
// game without lines (RULES §11); the fault is recorded with the next
// round.
func (gm *game) disconnect(p int) {
	s := gm.seats[p]
	if s.gone {
		return
	}
	s.gone, s.c = true, nil
	s.fault, s.faultText = engine.FaultCrash, "connection closed"
	gm.g.Fault(p, engine.FaultCrash, "connection closed")
	gm.h.logf("skyport: %s disconnected (turn %d)", s.name, gm.g.State.Turn())
}

// line handles a line from seated player p: a loadout attempt, a line of
// the actor's turn (recorded), or an off-turn line (answered, then
// dropped as the reference's inbox drops it).
func (gm *game) line(p int, line string) {
	s := gm.seats[p]
	if s.deaf || s.c == nil {
		return
	}
	s.misses = 0
	lockstep := gm.h.think == 0
	switch {
	case gm.phase == phaseLoadout:
		if len(gm.loadLines[p]) >= MaxLinesPerTurn {
			return
		}
		gm.loadLines[p] = append(gm.loadLines[p], line)
		gm.chk.LoadoutLine(p, line)
		gm.answer(s)
	case gm.phase == phaseTurn && p == gm.actor:
		if len(gm.lines) >= MaxLinesPerTurn {
			return
		}
		queued := gm.chk.OffTurnLine(p, line)
		if lockstep && gm.isEndturn(queued) {
			gm.ended = true
			return
		}
		gm.lines = append(gm.lines, line)
		gm.answer(s)
		if queued {
			gm.queued++
			if lockstep && gm.queued >= 3 {
				gm.ended = true
			}
		}
	default:
		queued := gm.chk.OffTurnLine(p, line)
		if lockstep && gm.isEndturn(queued) {
			return
		}
		gm.answer(s)
	}
	if gm.chk.PlayerRef(p).Deaf {
		s.deaf = true
		if gm.phase == phaseTurn && p == gm.actor {
			gm.ended = true
		}
	}
}

// isEndturn reports whether the line chk just read was
// {"message":"endturn"}.
func (gm *game) isEndturn(queued bool) bool {
	if queued {
		return false
	}
	gm.errs = gm.chk.Log().Errors(0, gm.errs[:0])
	return len(gm.errs) == 1 && gm.errs[0] == endturnError
}

// answer sends the errors chk's last line drew.
func (gm *game) answer(s *seat) {
	gm.errs = gm.chk.Log().Errors(0, gm.errs[:0])
	for _, e := range gm.errs {
		s.c.send(errorMsg(e))
	}
}
