package source

import (
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/replay/cfr"
)

// Infer returns src with the commands of an official replay's rounds
// inferred, as rewind import infers them (docs/import.md), by one
// cfr.Inference: its Round returns, for every frame it explains, commands
// that the rules turn from the previous frame into this one, and the
// errors they cause (the commands' order and energies are the canonical
// ones, not necessarily the players'). Meta().CommandsInferred is then
// true. A round whose frame no legal commands produce has none (Round's
// ok is false); the inference goes on from the replay's own frame, so one
// odd frame costs one round, and stops after cfr.MaxUnexplained such
// rounds.
//
// A source that has its commands (.rwd), or already infers them, is
// returned as it is. Infer takes src over: closing the result closes it.
//
// The source keeps the inference's states and frames besides src's,
// whatever the replay's length.
func Infer(src Source) Source {
	m := src.Meta()
	if m.Format != CFR || m.CommandsInferred {
		return src
	}
	m.CommandsInferred = true
	return &inferSource{Source: src, meta: m, inf: cfr.NewInference(m.Config)}
}

type inferSource struct {
	Source
	meta  *Meta
	inf   *cfr.Inference
	round Round
	errs  []colorfight2.CommandError
	ok    bool
}

func (s *inferSource) Meta() *Meta { return s.meta }

func (s *inferSource) Next(f *colorfight2.Frame) error {
	if err := s.Source.Next(f); err != nil {
		s.ok = false
		return err
	}
	s.round = Round{Turn: f.Turn - 1}
	s.round.Commands, s.errs, s.ok = s.inf.Round(f)
	return nil
}

// Round returns the inferred commands of the frame just returned (indexed
// by uid-1; none for the registration round) and the errors they cause;
// ok is false for frame 0 and for a frame the rules do not explain. They
// are valid until the next call of Next.
func (s *inferSource) Round() (*Round, []colorfight2.CommandError, bool) {
	if !s.ok {
		return nil, nil, false
	}
	return &s.round, s.errs, true
}
