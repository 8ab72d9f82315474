package replay

import (
	"fmt"
	"io"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/colorfight2"
)

// GameWriter records a match played through the seam, round by round,
// in the codec its header names: a *TextWriter (the text codec, or a
// ruleset's engine.Codec), or, for a header of ColorfightII's own codec,
// the Writer of its records behind the same methods. Create it with
// NewGameWriter.
type GameWriter interface {
	// WriteLogs gives the bots' logs of the round WriteRound writes next
	// (logs[p] for player p); the header must have Logs set.
	WriteLogs(logs [][]byte) error
	// WriteRound records round r, which took g from turn g.Turn()-1 to
	// g.Turn(), as TextWriter.WriteRound does.
	WriteRound(r *TextRound, g engine.Game) error
	// Close writes the footer from g, the game at its end. It does not
	// close the underlying writer.
	Close(g engine.Game) error
}

// GameHeader returns the header a match played through the seam is
// recorded under: g is its game before the first round (nil when not
// known), drawn from seed (and setup, engine.SetupSaver) with maxTurns,
// names and bots its players' in player order. A ColorfightII game
// (*colorfight2.Game) is recorded in ColorfightII's own codec, as its
// files have always been: its configuration, its seed and players' homes
// (for a game started from a setup, the setup's seed, or its map, and
// homes); any other game (or a nil g) under TextHeader's header.
func GameHeader(r engine.Ruleset, g engine.Game, seed uint64, setup []byte, maxTurns int, names, bots []string) (Header, error) {
	cg, ok := g.(*colorfight2.Game)
	if !ok || r.ID() != RulesetColorfight2 {
		return TextHeader(r, seed, setup, maxTurns, names, bots), nil
	}
	cfg := cg.State.Config()
	h := Header{Config: cfg, Seed: &seed}
	var spawns []colorfight2.Point
	if setup := cg.Setup(); setup != nil {
		su, err := colorfight2.UnmarshalSetup(setup)
		if err != nil {
			return Header{}, fmt.Errorf("replay: %w", err)
		}
		if h.Seed, h.Map = su.Seed, nil; su.Seed == nil {
			h.Map = su.Map
		}
		for _, p := range su.Players {
			spawns = append(spawns, p.Home)
		}
	} else {
		var err error
		if _, spawns, err = colorfight2.GenerateMap(cfg.Width, cfg.Height, cfg.MaxPlayer, seed); err != nil {
			return Header{}, fmt.Errorf("replay: %w", err)
		}
	}
	if len(spawns) < len(names) {
		return Header{}, fmt.Errorf("replay: %d players on a map of %d homes", len(names), len(spawns))
	}
	for i, n := range names {
		p := Player{UID: i + 1, Name: n, Home: spawns[i]}
		if i < len(bots) {
			p.Bot = bots[i]
		}
		h.Players = append(h.Players, p)
	}
	return h, nil
}

// NewGameWriter writes h (see GameHeader) to w and returns the writer
// for its rounds: ColorfightII's Writer for a header of its own codec,
// else NewTextWriter's. It does not close w.
func NewGameWriter(w io.Writer, h Header) (GameWriter, error) {
	if h.Codec == "" && (h.Ruleset == "" || h.Ruleset == RulesetColorfight2) {
		rw, err := NewWriter(w, h)
		if err != nil {
			return nil, err
		}
		return ownWriter{rw}, nil
	}
	return NewTextWriter(w, h)
}

// ownWriter is ColorfightII's Writer as a GameWriter: it records the
// commands the game applied (colorfight2.Game.Applied, faults included)
// and its state.
type ownWriter struct{ w *Writer }

func (o ownWriter) WriteLogs(logs [][]byte) error { return o.w.WriteLogs(logs) }

func (o ownWriter) WriteRound(_ *TextRound, g engine.Game) error {
	cg, ok := g.(*colorfight2.Game)
	if !ok {
		return fmt.Errorf("replay: a ColorfightII recording of a %T", g)
	}
	return o.w.WriteRound(cg.Applied(), cg.State)
}

func (o ownWriter) Close(g engine.Game) error {
	cg, ok := g.(*colorfight2.Game)
	if !ok {
		return fmt.Errorf("replay: a ColorfightII recording of a %T", g)
	}
	return o.w.Close(cg.State)
}
