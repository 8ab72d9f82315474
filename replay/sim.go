package replay

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/rewind-game/rewind/engine"
)

// Sim re-simulates a recording of any registered ruleset through the
// seam: in the text codec it reads rounds with Reader.NextText, reports
// each round's faults to the game and plays the commands; in the
// ruleset's own compact codec (Header.Compact; ColorfightII's too) the
// codec plays each record on the game (engine.Codec). It checks every checkpoint
// hash, the active player of a Sequential game, and the footer. It
// streams: it holds the game and the Reader's one round, never the
// rounds already played, so its memory does not grow with the number of
// rounds (docs/limits.md).
type Sim struct {
	r     *Reader
	rs    engine.Ruleset
	g     engine.Game
	round *TextRound
	errs  []engine.CommandError
	done  bool
	// compact is set for a file in its ruleset's compact codec, whose
	// records the codec plays on the game; noText is set when nobody
	// reads the rounds' commands (VerifySim without a visit), so the
	// records are played without being turned into text.
	compact bool
	noText  bool
}

// OpenSim reads the header of a .rwd of any ruleset from r and returns
// the game at turn 0, started as the header says (Header.NewGame). A
// ruleset that is not registered, or whose game does not play its
// compact records, is refused with ErrRuleset.
func OpenSim(r io.Reader) (*Sim, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	s, err := NewSim(rd)
	if err != nil {
		rd.Close()
		return nil, err
	}
	return s, nil
}

// NewSim returns the game of the recording rd reads (a Reader that has
// read no round) at turn 0, as OpenSim does. Closing the Sim closes rd;
// a failed NewSim leaves rd open.
func NewSim(rd *Reader) (*Sim, error) {
	h := rd.Header()
	if h.Codec != CodecText && !h.Compact() {
		return nil, &FormatError{Round: -1, Err: fmt.Errorf("a %s recording of codec %q: %w", h.Ruleset, h.Codec, ErrRuleset)}
	}
	rs, err := engine.Get(h.Ruleset)
	if err != nil {
		return nil, &FormatError{Round: -1, Err: fmt.Errorf("%v: %w", err, ErrRuleset)}
	}
	if err := h.checkWork(); err != nil {
		return nil, &FormatError{Round: -1, Err: err}
	}
	g, err := h.NewGame(rs)
	if err != nil {
		return nil, &FormatError{Round: -1, Err: fmt.Errorf("%v: %w", err, ErrCorrupt)}
	}
	return &Sim{r: rd, rs: rs, g: g, compact: h.Compact()}, nil
}

// NewGame starts the game a header describes, on ruleset rs: a generic
// header's from its Setup or GameSeed, a legacy one's as its ruleset
// reads its fields (engine.LegacyHeader.Open: decoded once by the
// Reader that read it).
func (h *Header) NewGame(rs engine.Ruleset) (engine.Game, error) {
	s := engine.Settings{Players: len(h.Players), MaxTurns: h.Config.MaxTurn}
	for _, p := range h.Players {
		s.Names = append(s.Names, p.Name)
	}
	if _, lh := h.legacyRuleset(); lh != nil {
		start := h.start
		if start == nil {
			var err error
			if start, err = lh.Open(h.legacy()); err != nil {
				return nil, err
			}
		}
		return start(s)
	}
	if setup := h.Setup; len(setup) > 0 {
		g, err := rs.NewFromSetup(h.Setup, s)
		if errors.Is(err, engine.ErrSeedOnly) {
			return nil, fmt.Errorf("a setup for ruleset %s, which starts games from a seed only", rs.ID())
		}
		return g, err
	}
	return rs.New(h.GameSeed, s)
}

// Header returns the recording's header.
func (s *Sim) Header() *Header { return s.r.Header() }

// Footer returns the footer once the last round has been played; nil
// before and for a recording without one.
func (s *Sim) Footer() *Footer { return s.r.Footer() }

// Ruleset returns the recording's ruleset.
func (s *Sim) Ruleset() engine.Ruleset { return s.rs }

// Game returns the game; it changes with Next.
func (s *Sim) Game() engine.Game { return s.g }

// Round returns the round last played (nil before the first), and Errors
// the command errors it drew; both valid until the next call of Next.
func (s *Sim) Round() *TextRound { return s.round }

// Errors returns the command errors of the round last played.
func (s *Sim) Errors() []engine.CommandError { return s.errs }

// Close releases the reader; it does not close the source.
func (s *Sim) Close() error { return s.r.Close() }

// SkipText makes Next play the records of a file in its ruleset's
// compact codec without turning them into text, for a reader that wants
// the game's states (and the game's own account of its rounds, such as
// ColorfightII's applied commands) but not the commands as text: Round's
// Commands are then empty, and engine.Frame says the commands are not known;
// its turn, faults (engine.Codec.PlayRecord), checkpoint and logs are
// still read.
// A file of the text codec is read as before. Call it before Next.
func (s *Sim) SkipText() { s.noText = true }

// Next reads and plays the next round. It returns io.EOF after the last
// one, once the footer's turn and hash have been checked; a checkpoint or
// footer hash that differs from the game's, or a round whose active
// player is not the game's, is a *FormatError wrapping ErrDiverged; a
// recording without a footer ends in one wrapping ErrTruncated.
func (s *Sim) Next() error {
	if s.done {
		return io.EOF
	}
	var rd *TextRound
	var err error
	switch {
	case s.compact && s.g.Over():
		// Only the footer may follow.
		rd, err = s.r.nextRound(func(*TextRound) error {
			return fmt.Errorf("a round after the game ended at turn %d: %w", s.g.Turn(), ErrDiverged)
		})
	case s.compact:
		rd, s.errs, err = s.r.playNext(s.g, !s.noText)
	default:
		rd, err = s.r.NextText()
	}
	if errors.Is(err, io.EOF) {
		s.done, s.round = true, nil
		f := s.r.Footer()
		if f.Turn != s.g.Turn() || f.Hash != s.g.Hash() {
			return &FormatError{Round: s.g.Turn(), Err: fmt.Errorf("footer turn %d hash %016x, re-simulated turn %d hash %016x: %w", f.Turn, f.Hash, s.g.Turn(), s.g.Hash(), ErrDiverged)}
		}
		return io.EOF
	}
	if err != nil {
		s.round = nil
		return err
	}
	if !s.compact && s.g.Over() {
		return &FormatError{Round: rd.Turn, Err: fmt.Errorf("a round after the game ended at turn %d: %w", s.g.Turn(), ErrDiverged)}
	}
	if a := s.g.Active(); a != rd.Active {
		return &FormatError{Round: rd.Turn, Err: fmt.Errorf("round recorded for active player %d, the game's is %d: %w", rd.Active, a, ErrDiverged)}
	}
	s.round = rd
	if !s.compact {
		for p, f := range rd.Faults {
			if f != 0 {
				s.g.Fault(p, f, rd.FaultText[p])
			}
		}
		s.errs = s.g.Round(rd.Commands)
	}
	if rd.HasHash {
		if h := s.g.Hash(); h != rd.Hash {
			return &FormatError{Round: rd.Turn, Err: fmt.Errorf("checkpoint after turn %d: recorded hash %016x, re-simulated %016x: %w", s.g.Turn(), rd.Hash, h, ErrDiverged)}
		}
	}
	return nil
}

// VerifyResult is the outcome of VerifySim.
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

// VerifySim re-simulates a whole recording of any ruleset from r
// (OpenSim) and checks every checkpoint and the footer. visit, if not
// nil, is called after each round with the Sim (its Game is the game
// after the round, its Round the round); a visit error stops
// verification and is returned as Err.
func VerifySim(r io.Reader, visit func(s *Sim) error) (*VerifyResult, error) {
	s, err := OpenSim(r)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var v func() error
	if visit != nil {
		v = func() error { return visit(s) }
	} else {
		s.noText = true
	}
	return verifyRounds(s.Next, s.g.Turn, v), nil
}

// verifyRounds plays every round with next until io.EOF (the footer
// matched) or the first error, calling visit after each round.
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

// engine.Frame fills f with the game as it is now and the round that led to it
// (none before the first: Active -1, CommandsKnown false), reusing f's
// storage; the logs are copied, the rest is valid until f is filled
// again.
func (s *Sim) Frame(f *engine.Frame) {
	n := s.g.Players()
	f.Reset(n)
	if r := s.round; r != nil {
		f.Active, f.CommandsKnown = r.Active, !s.compact || !s.noText
		for p := 0; p < n && p < len(r.Commands); p++ {
			f.Commands[p] = append(f.Commands[p], r.Commands[p]...)
			f.Faults[p], f.FaultText[p] = r.Faults[p], r.FaultText[p]
			if p < len(r.Logs) && len(r.Logs[p]) > 0 {
				f.Logs[p] = bytes.Clone(r.Logs[p])
			}
		}
		f.Errors = append(f.Errors, s.errs...)
		f.ReplyTimes = append(f.ReplyTimes, r.ReplyTimes...)
		f.Marks = append(f.Marks, r.Marks...)
	}
	Observe(s.g, f)
}
