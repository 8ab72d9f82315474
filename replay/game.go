package replay

import (
	"errors"
	"fmt"
	"io"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/colorfight2"
)

// Game re-simulates a recording: it reads rounds from a Reader, plays them
// on the engine and checks every checkpoint hash and the footer.
//
// A Game streams: it holds the initial state, the current state and the
// Reader's one round (see Reader.Next), never the rounds already played, so
// its memory does not grow with the number of rounds (docs/limits.md).
type Game struct {
	r       *Reader
	initial *colorfight2.State
	s       *colorfight2.State
	// round is the round last played (the Reader's storage), nil before
	// the first and after a backward Seek.
	round *Round
	done  bool
}

// Open reads the header of a .rwd from r and returns the game at turn 0.
// A header whose map cells × max_turn exceed MaxCellRounds is refused at
// once with ErrLimit, before anything is played.
func Open(r io.Reader) (*Game, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	h := rd.Header()
	if h.Ruleset != RulesetColorfight2 {
		rd.Close()
		return nil, &FormatError{Round: -1, Err: fmt.Errorf("a %s recording; only colorfight2 recordings are read here: %w", h.Ruleset, ErrRuleset)}
	}
	if err := h.checkWork(); err != nil {
		rd.Close()
		return nil, &FormatError{Round: -1, Err: err}
	}
	s, err := h.NewState()
	if err != nil {
		rd.Close()
		return nil, &FormatError{Round: -1, Err: fmt.Errorf("%v: %w", err, ErrCorrupt)}
	}
	return &Game{r: rd, initial: s.Clone(), s: s}, nil
}

// Header returns the recording's header.
func (g *Game) Header() *Header { return g.r.Header() }

// Footer returns the footer once the last round has been played; nil
// before and for a recording without one.
func (g *Game) Footer() *Footer { return g.r.Footer() }

// State returns the current state; it changes with Next and Seek.
func (g *Game) State() *colorfight2.State { return g.s }

// Seam returns the state now as an engine.Game (colorfight2.Game), for
// code written for every game: its values, ranking and hash. It shares
// the state, so it follows Next and Seek; it must not be played.
func (g *Game) Seam() engine.Game { return &colorfight2.Game{State: g.s} }

// Round returns the commands of the round played at turn t when t is the
// last round played (State().Turn()-1), or nil. The Round is the Reader's
// storage: it is valid until the next Next or Seek, and a caller that keeps
// commands longer copies them.
func (g *Game) Round(t int) *Round {
	if g.round == nil || g.round.Turn != t || t != g.s.Turn()-1 {
		return nil
	}
	return g.round
}

// Frame fills f with the frame after the last round played (turn 0: the
// map before anyone registered, as official replays start), with the
// players' ratings from the header as the official server writes them.
func (g *Game) Frame(f *colorfight2.Frame) {
	if g.s.Turn() == 0 && g.r.Turn() == 0 {
		g.Header().Map.Frame(f)
		return
	}
	g.s.Frame(f)
	h := g.Header()
	for k := range f.Users {
		if i := int(f.Users[k].UID) - 1; i >= 0 && i < len(h.Players) {
			f.Users[k].Verified, f.Users[k].Ranking = h.Players[i].Verified, h.Players[i].Ranking
		}
	}
}

// Close releases the reader. It does not close the source.
func (g *Game) Close() error { return g.r.Close() }

// Next plays the next round. It returns io.EOF after the last round, once
// the footer's turn and hash have been checked. A checkpoint or footer
// hash that differs from the re-simulated state is a *FormatError
// wrapping ErrDiverged; a recording without a footer ends in one wrapping
// ErrTruncated.
func (g *Game) Next() error {
	if g.done {
		return io.EOF
	}
	rd, err := g.r.Next()
	if errors.Is(err, io.EOF) {
		g.done, g.round = true, nil
		f := g.r.Footer()
		if f.Turn != g.s.Turn() || f.Hash != g.s.Hash() {
			return &FormatError{Round: g.s.Turn(), Err: fmt.Errorf("footer hash %016x, re-simulated %016x: %w", f.Hash, g.s.Hash(), ErrDiverged)}
		}
		return io.EOF
	}
	if err != nil {
		g.round = nil
		return err
	}
	g.round = rd
	g.s.Step(rd.Commands)
	if rd.HasHash {
		if h := g.s.Hash(); h != rd.Hash {
			return &FormatError{Round: rd.Turn, Err: fmt.Errorf("checkpoint after turn %d: recorded hash %016x, re-simulated %016x: %w", g.s.Turn(), rd.Hash, h, ErrDiverged)}
		}
	}
	return nil
}

// Seek moves the game to turn (0..rounds recorded). Going forward reads and
// plays on; going back restarts from the initial state and reads the body
// again from its start, which needs the source Open was given to be an
// io.ReadSeeker positioned at the start of the file (a file, a
// bytes.Reader). Each round costs one engine step (a few microseconds).
func (g *Game) Seek(turn int) error {
	if turn < 0 {
		return fmt.Errorf("replay: seek to negative turn %d", turn)
	}
	if turn < g.s.Turn() {
		if err := g.r.Seek(0); err != nil {
			return err
		}
		g.s.CopyFrom(g.initial)
		g.round, g.done = nil, false
	}
	for g.s.Turn() < turn {
		if err := g.Next(); err != nil {
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("replay: seek to turn %d past the end (%d rounds)", turn, g.s.Turn())
			}
			return err
		}
	}
	return nil
}

// VerifyResult is the outcome of Verify.
type VerifyResult struct {
	// Rounds is how many rounds re-simulated consistently with every
	// checkpoint read.
	Rounds int
	// Complete is true when the footer was reached and matched.
	Complete bool
	// Err is the first problem: nil for a complete, consistent file; a
	// *FormatError wrapping ErrTruncated for a recording that stops early
	// (all of its whole rounds verified), ErrDiverged for a hash mismatch,
	// ErrCorrupt or ErrLimit for damage.
	Err error
}

// Verify re-simulates the whole recording from r and checks every
// checkpoint and the footer. visit, if not nil, is called after each
// round with the game (its State is the state after the round); a visit
// error stops verification and is returned as Err.
func Verify(r io.Reader, visit func(g *Game) error) (*VerifyResult, error) {
	g, err := Open(r)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	var v func() error
	if visit != nil {
		v = func() error { return visit(g) }
	}
	return verifyRounds(g.Next, g.s.Turn, v), nil
}

// verifyRounds plays every round with next until io.EOF (the footer
// matched) or the first error, calling visit after each round; the
// verification loop of both games.
func verifyRounds(next func() error, turn func() int, visit func() error) *VerifyResult {
	res := &VerifyResult{}
	for {
		err := next()
		if errors.Is(err, io.EOF) {
			res.Complete = true
			return res
		}
		if err != nil {
			res.Err = err
			return res
		}
		res.Rounds = turn()
		if visit != nil {
			if err := visit(); err != nil {
				res.Err = err
				return res
			}
		}
	}
}
