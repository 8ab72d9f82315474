package replay

import (
	"fmt"
	"io"

	"github.com/rewind-game/rewind/engine"
)

// GameWriter records a match played through the seam, round by round,
// in the codec its header names (a *TextWriter: the text codec, or a
// ruleset's own engine.Codec, a legacy header's too). Create it with
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
// known), drawn from seed (and setup, Game.Setup) with maxTurns, names
// and bots its players' in player order. A game of a ruleset whose files
// keep their setup in a legacy header (engine.LegacyHeader:
// ColorfightII's) is recorded in its own codec under that header, as its
// files have always been: the fields its ruleset gives
// (LegacyHeader.Of), each player's home the ruleset's
// home of that index; any other game (or a nil g) under TextHeader's
// header.
func GameHeader(r engine.Ruleset, g engine.Game, seed uint64, setup []byte, maxTurns int, names, bots []string) (Header, error) {
	lh := engine.LegacyHeaderOf(r)
	if lh == nil || g == nil {
		return TextHeader(r, seed, setup, maxTurns, names, bots), nil
	}
	l, err := lh.Of(g, seed)
	if err != nil {
		return Header{}, fmt.Errorf("replay: %w", err)
	}
	h := Header{Ruleset: r.ID(), RulesetVersion: r.Version(),
		Config: Config{Width: l.Width, Height: l.Height, MaxTurn: l.MaxTurn, MaxPlayer: l.MaxPlayer}, Seed: l.Seed, Map: l.Map}
	if len(l.Homes) < len(names) {
		return Header{}, fmt.Errorf("replay: %d players on a map of %d homes", len(names), len(l.Homes))
	}
	for i, n := range names {
		p := Player{UID: i + 1, Name: n, Home: l.Homes[i]}
		if i < len(bots) {
			p.Bot = bots[i]
		}
		h.Players = append(h.Players, p)
	}
	return h, nil
}

// NewGameWriter writes h (see GameHeader) to w and returns the writer
// for its rounds: a legacy header's (codec "" of an engine.LegacyHeader
// ruleset) records its game's own compact records (engine.Codec); any
// other is NewTextWriter's. It does not close w.
func NewGameWriter(w io.Writer, h Header) (GameWriter, error) {
	if _, lh := h.legacyRuleset(); lh != nil {
		return newTextWriter(w, h)
	}
	return NewTextWriter(w, h)
}
