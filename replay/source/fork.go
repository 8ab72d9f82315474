package source

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/cfr"
)

// Fork is what a new match needs to play on from turn Turn of a replay:
// the game's beginning (its ruleset, the setup it starts from, its
// players, the rounds up to Turn as the replay records them) and the
// parent's provenance for the new replay's header.
type Fork struct {
	Ruleset engine.Ruleset
	// Setup starts the parent's game (engine.Restorer: its map and
	// players' homes) and Prefix are its rounds 0..Turn-1 as it recorded
	// them: what match.GameConfig's Setup and Prefix take.
	Setup  []byte
	Prefix []match.GameRound
	// Names are the players' names (uid order); MaxTurns is the game's
	// turn limit.
	Names    []string
	MaxTurns int
	Parent   replay.Parent
	// Info is the parent's official info object, if any.
	Info json.RawMessage
	// Verified and Ranking are the players' ratings (uid order), if the
	// parent records them.
	Verified []bool
	Ranking  []string
	// Bots are the players' bots as the parent records them (uid order):
	// a built-in's name, an external bot's command, match.OfficialClient,
	// or "" when the parent does not say (an official .cfr).
	Bots []string
}

// Limits on what a fork holds: the commands of the parent's rounds up to
// the fork's turn are kept in memory (Fork.Prefix, as text) until the new
// match has replayed them. A real game sends a few hundred commands a
// round, at most 600,000 in 2000 rounds; MaxForkCommands allows seven
// times that (about 200 MB as text). The text of malformed commands and
// faults is kept up to MaxForkRawBytes in all; past it a command keeps its
// error code, which alone decides its effect, and loses its text (it is
// replayed as the shortest text of its code, colorfight2.Command.String).
const (
	MaxForkCommands = 1 << 22
	MaxForkRawBytes = 1 << 20
	// MaxForkLogBytes bounds the parent's bot logs a fork keeps (a .rwd
	// that keeps them); past it, later rounds' logs are left out.
	MaxForkLogBytes = 16 << 20
)

// errForkDone stops a walk once the fork's turn is reached.
var errForkDone = errors.New("fork: turn reached")

// NewFork reads the replay in data (named name, for the header) up to
// turn: a .rwd's recorded commands, or a .cfr's commands inferred as
// rewind import infers them. turn must be in 1..max_turn-1 and the replay
// must reach it; an official replay whose rounds up to turn the rules do
// not explain cannot be forked (the error is a *cfr.AuditError).
func NewFork(name string, data []byte, turn int) (*Fork, error) {
	format, err := Sniff(data[:min(len(data), 8)])
	if err != nil {
		return nil, err
	}
	sum, err := cfr.SHA256(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	f := &Fork{Parent: replay.Parent{Source: filepath.Base(name), SHA256: sum, Turn: turn}}
	if turn < 1 {
		return nil, fmt.Errorf("fork: turn %d outside 1..max_turn-1", turn)
	}
	if format == RWD {
		return f, f.fromRWD(data, turn)
	}
	return f, f.fromCFR(data, turn)
}

// begin sets the fork's ruleset, setup and names from the parent's
// configuration, map and players.
func (f *Fork) begin(cfg colorfight2.Config, m *colorfight2.Map, players []colorfight2.Player) error {
	setup, err := colorfight2.MarshalSetup(colorfight2.Setup{Config: cfg, Map: m, Players: players})
	if err != nil {
		return fmt.Errorf("fork: %w", err)
	}
	f.Ruleset, f.Setup, f.MaxTurns = colorfight2.Ruleset, setup, cfg.MaxTurn
	for _, p := range players {
		f.Names = append(f.Names, p.Name)
	}
	return nil
}

func (f *Fork) fromRWD(data []byte, turn int) error {
	g, err := replay.Open(bytes.NewReader(data))
	if err != nil {
		return err
	}
	defer g.Close()
	h := g.Header()
	if turn < 1 || turn >= h.Config.MaxTurn {
		return fmt.Errorf("fork: turn %d outside 1..%d", turn, h.Config.MaxTurn-1)
	}
	var players []colorfight2.Player
	for _, p := range h.Players {
		players = append(players, colorfight2.Player{UID: p.UID, Name: p.Name, Home: p.Home})
		f.Bots = append(f.Bots, p.Bot)
		f.Verified = append(f.Verified, p.Verified)
		f.Ranking = append(f.Ranking, p.Ranking)
	}
	prefix := make([]match.GameRound, turn)
	var held heldCommands
	logBytes := 0
	for t := 0; t < turn; t++ {
		if err := g.Next(); err != nil {
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("fork: the replay ends at turn %d, before %d", t, turn)
			}
			return err
		}
		if r := g.Round(t); r != nil {
			// The game reuses the round's storage: keep a copy.
			if err := held.keep(&prefix[t], t, r.Commands); err != nil {
				return err
			}
			// The parent's bot logs go with their rounds, within
			// MaxForkLogBytes.
			if len(r.Logs) > 0 && logBytes < MaxForkLogBytes {
				l := make([][]byte, len(r.Logs))
				for i, b := range r.Logs {
					if len(b) > 0 {
						l[i] = append([]byte(nil), b...)
						logBytes += len(b)
					}
				}
				prefix[t].Logs = l
			}
		}
	}
	f.Prefix, f.Info = prefix, h.CFRInfo
	return f.begin(h.Config, h.Map, players)
}

func (f *Fork) fromCFR(data []byte, turn int) error {
	// The prefix grows as the walk goes: turn is not known to be in range
	// yet.
	var prefix []match.GameRound
	var held heldCommands
	reached := 0
	g, err := cfr.Walk(bytes.NewReader(data), func(g *cfr.Game, s *cfr.Step) error {
		if len(s.Violations) > 0 {
			return &cfr.AuditError{Violations: s.Violations}
		}
		if s.Unexplained != nil {
			return &cfr.UnexplainedError{Round: *s.Unexplained}
		}
		if s.Turn-1 < turn && s.Turn-1 == len(prefix) {
			prefix = append(prefix, match.GameRound{})
			if err := held.keep(&prefix[len(prefix)-1], s.Turn-1, s.Commands); err != nil {
				return err
			}
		}
		reached = s.Turn
		if s.Turn >= turn {
			return errForkDone
		}
		return nil
	})
	if err != nil && !errors.Is(err, errForkDone) {
		return err
	}
	if turn < 1 || turn >= g.Config.MaxTurn {
		return fmt.Errorf("fork: turn %d outside 1..%d", turn, g.Config.MaxTurn-1)
	}
	if reached < turn || len(prefix) != turn {
		return fmt.Errorf("fork: the replay ends at turn %d, before %d", reached, turn)
	}
	f.Bots = make([]string, len(g.Players))
	f.Prefix, f.Info = prefix, g.Header.Info
	f.Verified, f.Ranking = g.Verified, g.Ranking
	return f.begin(g.Config, g.Map, g.Players)
}

// heldCommands copies the rounds a fork keeps, within MaxForkCommands and
// MaxForkRawBytes.
type heldCommands struct {
	n, raw int
}

// keep makes r round t as the parent recorded it (round indexed by
// uid-1): each player's commands as text (colorfight2.Command.String),
// and a bot fault (ErrBotFault, which a recording puts first in its
// player's list) as the round's fault with its text. A fault anywhere
// else in a list, which no recording rewind writes holds, is replayed
// as its text.
func (h *heldCommands) keep(r *match.GameRound, t int, round [][]colorfight2.Command) error {
	r.Commands = make([][]string, len(round))
	for i, l := range round {
		if len(l) == 0 {
			continue
		}
		h.n += len(l)
		if h.n > MaxForkCommands {
			return fmt.Errorf("fork: the rounds up to turn %d hold more than %d commands, which exceeds the limit of what a fork keeps; see docs/limits.md: %w",
				t+1, MaxForkCommands, replay.ErrLimit)
		}
		cmds := make([]string, 0, len(l))
		for k, c := range l {
			if c.Raw != "" {
				if h.raw+len(c.Raw) > MaxForkRawBytes {
					c.Raw = ""
				} else {
					h.raw += len(c.Raw)
				}
			}
			if k == 0 && c.Kind == colorfight2.CmdInvalid && c.Err == colorfight2.ErrBotFault {
				if r.Faults == nil {
					r.Faults, r.FaultText = make([]engine.Fault, len(round)), make([]string, len(round))
				}
				r.Faults[i], r.FaultText[i] = engine.FaultGarbage, c.Raw
				continue
			}
			cmds = append(cmds, c.String())
		}
		r.Commands[i] = cmds
	}
	return nil
}
