package source

import (
	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/cfr"
)

// MaxUnexplained is how many rounds the rules do not explain an inferring
// source (Infer) tolerates before it stops inferring: every later round
// has no commands. Such a replay breaks the rules all the time, and each
// unexplained round costs the inference's whole search.
const MaxUnexplained = 32

// Infer returns src with the commands of an official replay's rounds
// inferred, as rewind import infers them (docs/import.md): its Round
// returns, for every frame it explains, commands that the rules turn from
// the previous frame into this one, and the errors they cause (the
// commands' order and energies are the canonical ones, not necessarily the
// players'). Meta().CommandsInferred is then true. A round whose frame no
// legal commands produce has none (Round's ok is false); the inference
// goes on from the replay's own frame, so one odd frame costs one round.
//
// A source that has its commands (.rwd), or already infers them, is
// returned as it is. Infer takes src over: closing the result closes it.
//
// The source keeps one engine state, one frame and the inference's working
// storage besides src's, whatever the replay's length.
func Infer(src Source) Source {
	m := src.Meta()
	if m.Format != CFR || m.CommandsInferred {
		return src
	}
	m.CommandsInferred = true
	return &inferSource{Source: src, meta: m}
}

type inferSource struct {
	Source
	meta *Meta
	cfg  colorfight2.Config
	m    *colorfight2.Map
	// cur is the state at the last frame returned (valid when ready): the
	// rules' or, after a round they do not explain, the frame's. After
	// such a round, alt (when altOK) is the state the rules gave instead:
	// the next round is tried from it first, so a frame tampered on its
	// own costs that round only.
	states   [2]colorfight2.State
	cur, alt *colorfight2.State
	ready    bool
	altOK    bool
	// from and altFrom are cur's and alt's frames with the replay's
	// ratings; played is a working frame.
	from, altFrom, played colorfight2.Frame
	sorted                []colorfight2.FrameUser
	in                    colorfight2.Inferrer
	n                     int // frames returned
	bad                   int // rounds not explained
	round                 replay.Round
	ok                    bool
	errs                  []colorfight2.CommandError
}

func (s *inferSource) Meta() *Meta { return s.meta }

func (s *inferSource) Next(f *colorfight2.Frame) error {
	if err := s.Source.Next(f); err != nil {
		s.ok = false
		return err
	}
	s.n++
	s.ok, s.errs = false, nil
	s.round = replay.Round{Turn: f.Turn - 1}
	switch {
	case s.n == 1:
		s.m = colorfight2.MapFromFrame(f)
		s.cur, s.alt = &s.states[0], &s.states[1]
	case len(f.Users) == 0 || s.bad >= MaxUnexplained:
	case s.n == 2:
		s.first(f)
	case !s.ready:
		s.load(f)
	default:
		s.next(f)
	}
	return nil
}

// first plays the registration round: the players of frame 1 on the map
// of frame 0, with no commands.
func (s *inferSource) first(f *colorfight2.Frame) {
	s.cfg = cfr.Playable(s.meta.Config, len(f.Users))
	players, err := colorfight2.PlayersFromFrame(f)
	if err != nil || s.m.Width != f.Width || s.m.Height != f.Height {
		s.unexplained(f)
		return
	}
	st, err := colorfight2.New(s.cfg, s.m, players)
	if err != nil {
		s.unexplained(f)
		return
	}
	s.cur.CopyFrom(st)
	s.cur.Step(nil)
	if !s.matches(f) {
		s.unexplained(f)
		return
	}
	s.ready, s.ok = true, true
}

// next infers the round that leads to the replay's frame f.
func (s *inferSource) next(f *colorfight2.Frame) {
	nf := f.ByUID(&s.sorted)
	if s.altOK {
		s.altOK = false
		if cmds, ok, _ := s.play(s.alt, &s.altFrom, nf, f); ok {
			s.cur, s.alt = s.alt, s.cur
			s.explained(cmds)
			return
		}
	}
	cmds, ok, stepped := s.play(s.cur, &s.from, nf, f)
	if ok {
		s.explained(cmds)
		return
	}
	if stepped {
		// Keep what the rules gave; go on from the frame as well.
		s.cur, s.alt = s.alt, s.cur
		s.altFrom, s.played = s.played, s.altFrom
		s.altOK = true
	}
	s.unexplained(f)
}

// play infers the round from st (whose frame is from) to nf (f in uid
// order), plays it on st and compares; stepped says st was played.
func (s *inferSource) play(st *colorfight2.State, from, nf, f *colorfight2.Frame) (cmds [][]colorfight2.Command, ok, stepped bool) {
	cmds, err := s.in.Infer(st, from, nf)
	if err != nil {
		return nil, false, false
	}
	st.Step(cmds)
	return cmds, s.matchesState(st, f), true
}

func (s *inferSource) explained(cmds [][]colorfight2.Command) {
	s.ok, s.round.Commands, s.errs = true, cmds, s.cur.Errors()
}

// matches compares cur with the replay's frame f (matchesState).
func (s *inferSource) matches(f *colorfight2.Frame) bool { return s.matchesState(s.cur, f) }

// matchesState compares st with the replay's frame f; when they agree,
// st's frame becomes from, the start of the next round (else it is left
// in played).
func (s *inferSource) matchesState(st *colorfight2.State, f *colorfight2.Frame) bool {
	st.Frame(&s.played)
	s.played.CopyRatings(f)
	if colorfight2.Diff(f, &s.played) != nil {
		return false
	}
	s.from, s.played = s.played, s.from
	return true
}

// unexplained counts a round the rules do not explain and goes on from the
// replay's own frame.
func (s *inferSource) unexplained(f *colorfight2.Frame) {
	s.bad++
	s.load(f)
}

// load makes the replay's frame f the start of the next round.
func (s *inferSource) load(f *colorfight2.Frame) {
	if s.cfg.Width == 0 {
		s.cfg = colorfight2.Config{Width: f.Width, Height: f.Height, MaxTurn: colorfight2.DefaultMaxTurn}
	}
	s.cfg.MaxPlayer = max(s.cfg.MaxPlayer, len(f.Users))
	s.ready = s.cur.LoadFrameUnchecked(s.cfg, f.ByUID(&s.sorted)) == nil
	if s.ready {
		s.cur.Frame(&s.from)
		s.from.CopyRatings(f)
	}
}

// Round returns the inferred commands of the frame just returned (indexed
// by uid-1; none for the registration round) and the errors they cause;
// ok is false for frame 0 and for a frame the rules do not explain. They
// are valid until the next call of Next.
func (s *inferSource) Round() (*replay.Round, []colorfight2.CommandError, bool) {
	if !s.ok {
		return nil, nil, false
	}
	return &s.round, s.errs, true
}
