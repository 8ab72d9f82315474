package source

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/cfr"
)

// Fork is what a new match needs to play on from turn Turn of a replay:
// the game's beginning (map, players, the commands of its rounds up to
// Turn) and the parent's provenance for the new replay's header.
type Fork struct {
	Origin *match.Origin
	Parent replay.Parent
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
// the fork's turn are kept in memory (match.Origin) until the new match has
// replayed them. A real game sends a few hundred commands a round, at most
// 600,000 in 2000 rounds; MaxForkCommands allows seven times that (about
// 200 MB as engine commands). The text of malformed commands is kept up to
// MaxForkRawBytes in all; past it a command keeps its error code, which
// alone decides its effect, and loses its text.
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
	o := &match.Origin{Game: h.Config, Map: h.Map, Rounds: make([][][]colorfight2.Command, turn)}
	for _, p := range h.Players {
		o.Players = append(o.Players, colorfight2.Player{UID: p.UID, Name: p.Name, Home: p.Home})
		f.Bots = append(f.Bots, p.Bot)
		f.Verified = append(f.Verified, p.Verified)
		f.Ranking = append(f.Ranking, p.Ranking)
	}
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
			cs, err := held.keep(t, r.Commands)
			if err != nil {
				return err
			}
			o.Rounds[t] = cs
			// The parent's bot logs go with their rounds, within
			// MaxForkLogBytes.
			if len(r.Logs) > 0 && logBytes < MaxForkLogBytes {
				if o.Logs == nil {
					o.Logs = make([][][]byte, turn)
				}
				l := make([][]byte, len(r.Logs))
				for i, b := range r.Logs {
					if len(b) > 0 {
						l[i] = append([]byte(nil), b...)
						logBytes += len(b)
					}
				}
				o.Logs[t] = l
			}
		}
	}
	f.Origin, f.Info = o, h.CFRInfo
	return nil
}

func (f *Fork) fromCFR(data []byte, turn int) error {
	// Rounds grows as the walk goes: turn is not known to be in range yet.
	o := &match.Origin{}
	var held heldCommands
	reached := 0
	g, err := cfr.Walk(bytes.NewReader(data), func(g *cfr.Game, s *cfr.Step) error {
		if len(s.Violations) > 0 {
			return &cfr.AuditError{Violations: s.Violations}
		}
		if s.Unexplained != nil {
			return &cfr.UnexplainedError{Round: *s.Unexplained}
		}
		if s.Turn-1 < turn && s.Turn-1 == len(o.Rounds) {
			cs, err := held.keep(s.Turn-1, s.Commands)
			if err != nil {
				return err
			}
			o.Rounds = append(o.Rounds, cs)
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
	if reached < turn || len(o.Rounds) != turn {
		return fmt.Errorf("fork: the replay ends at turn %d, before %d", reached, turn)
	}
	o.Game, o.Map, o.Players = g.Config, g.Map, g.Players
	f.Bots = make([]string, len(g.Players))
	f.Origin, f.Info = o, g.Header.Info
	f.Verified, f.Ranking = g.Verified, g.Ranking
	return nil
}

// heldCommands copies the rounds a fork keeps, within MaxForkCommands and
// MaxForkRawBytes.
type heldCommands struct {
	n, raw int
}

// keep returns a copy of one round's commands (indexed by uid-1).
func (h *heldCommands) keep(t int, round [][]colorfight2.Command) ([][]colorfight2.Command, error) {
	out := make([][]colorfight2.Command, len(round))
	for i, l := range round {
		if len(l) == 0 {
			continue
		}
		h.n += len(l)
		if h.n > MaxForkCommands {
			return nil, fmt.Errorf("fork: the rounds up to turn %d hold more than %d commands, which exceeds the limit of what a fork keeps; see docs/limits.md: %w",
				t+1, MaxForkCommands, replay.ErrLimit)
		}
		cp := append([]colorfight2.Command(nil), l...)
		for k := range cp {
			if c := &cp[k]; c.Raw != "" {
				if h.raw+len(c.Raw) > MaxForkRawBytes {
					c.Raw = ""
					continue
				}
				h.raw += len(c.Raw)
			}
		}
		out[i] = cp
	}
	return out, nil
}
