// Package cfrstream reads ColorfightII's official .cfr replays as
// generic streams of frames (engine.Stream). It sits above both replay
// and games/colorfight2/formats/cfr, which must not import replay: the game registry
// imports ColorfightII's vectors, which read .cfr, and replay imports the
// registry (as package cfrimport does).
package cfrstream

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/replay"
)

// Name is the format's name (the file ending's) in a generic stream's StreamMeta.Format.
const Name = "cfr"

// Sniff reports whether a file starting with prefix may be an official
// replay: gzip, or JSON starting with an array. It claims broad content,
// so the format is a catch-all (engine.Format.Catchall), tried after the
// formats that claim gzip or JSON of their own.
func Sniff(prefix []byte) bool {
	if len(prefix) >= 2 && prefix[0] == 0x1f && prefix[1] == 0x8b {
		return true
	}
	for _, c := range prefix {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c == '['
	}
	return false
}

// Open reads an official replay from r as a generic stream of
// ColorfightII's frames (engine.Stream): each frame cfr.Decoder gives is
// loaded into one state (colorfight2.Game.LoadFrameUnchecked) and
// described through the seam (replay.Observe), with the ruleset's
// accounting figures after its values (replay.Figures, the commands
// unknown). The players are those of frame 1, where everyone has just
// registered (colorfight2.PlayersFromFrame), so Open reads frames 0
// and 1 before it returns; frame 0 shows the game at turn 0 on frame 0's
// map with those players at their homes, as a recording's frame 0 does.
// Every later frame must list the same players (uids 1..n). StreamMeta's
// Format is Name, Resimulated false.
//
// It is registered with internal/source's stream formats: the analysis's
// reader of a .cfr.
//
// The stream holds the decoder's buffers, two frames and one state; it
// does not close r (Close stops the Decoder).
func Open(r io.Reader) (engine.Stream, error) { return open(r, false) }

// OpenInferred is Open with the commands of the replay's rounds inferred
// from its frames, as rewind import infers them (cfr.Inference, the
// viewer's reader of a .cfr): each frame whose
// round the rules explain has CommandsKnown true, its Commands the
// inferred commands as the text the game's Round takes
// (colorfight2.RoundText: the canonical commands, not necessarily the
// players') and its Errors the errors the rules give them, as the seam
// reports them (colorfight2.CommandError.Seam); frame 0, a frame the
// rules do not explain and every frame after cfr.MaxUnexplained such
// rounds have none (CommandsKnown false). StreamMeta's CommandsInferred
// is true. The frames are Open's, figures included: those stay the
// figures of a state stream, commands unknown (replay.NewFigures with
// commandsKnown false), as the ColorfightII analysis of a .cfr counts
// them (its commands, errors and captured energy unknown), whatever the
// inference finds.
//
// The inference costs its own states and frames besides Open's, and its
// search, many times Open's reading, every round.
func OpenInferred(r io.Reader) (engine.Stream, error) { return open(r, true) }

// open is Open, and with infer OpenInferred.
func open(r io.Reader, infer bool) (engine.Stream, error) {
	d, err := cfr.NewDecoder(r)
	if err != nil {
		return nil, err
	}
	s := &stream{d: d}
	if infer {
		s.inf = cfr.NewInference(d.Header().Config())
	}
	if err := s.open(); err != nil {
		d.Close()
		return nil, err
	}
	return s, nil
}

// stream is Open's Stream.
type stream struct {
	d    *cfr.Decoder
	meta engine.StreamMeta
	cfg  colorfight2.Config
	g    *colorfight2.Game
	fig  *replay.Figures
	// inf infers each frame's round (OpenInferred); nil for Open.
	inf *cfr.Inference
	// next is the frame Next returns next; held is frame 1, read ahead
	// by open, and then the buffer each frame is decoded into.
	next int
	held colorfight2.Frame
	n    int
	err  error // sticky, once a frame fails
}

// open reads frames 0 and 1 and starts the game at turn 0.
func (s *stream) open() error {
	var f0 colorfight2.Frame
	if err := s.d.Next(&f0); err != nil {
		return err
	}
	if s.inf != nil {
		s.inf.Round(&f0) // frame 0, the map: no round to infer
	}
	if err := s.d.Next(&s.held); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("cfrstream: the replay has no frame with players (it ends at frame 0)")
		}
		return err
	}
	players, err := colorfight2.PlayersFromFrame(&s.held)
	if err != nil {
		return fmt.Errorf("cfrstream: frame 1 is no registration frame: %w", err)
	}
	s.n = len(players)
	s.cfg = cfr.Playable(s.d.Header().Config(), s.n)
	st, err := colorfight2.New(s.cfg, colorfight2.MapFromFrame(&f0), players)
	if err != nil {
		return fmt.Errorf("cfrstream: frame 0: %w", err)
	}
	s.g = &colorfight2.Game{State: st}
	s.meta = replay.MetaOf(colorfight2.Ruleset, s.n)
	s.meta.Format, s.meta.MaxTurns = Name, s.cfg.MaxTurn
	for _, p := range players {
		s.meta.Players = append(s.meta.Players, engine.StreamPlayer{Name: p.Name})
	}
	s.meta.CommandsInferred, s.meta.EndKnown = s.inf != nil, true
	s.meta.Settings = s.g.Setting()
	s.fig = replay.NewFigures(colorfight2.Ruleset, s.n, s.meta.Resimulated)
	return nil
}

func (s *stream) Meta() *engine.StreamMeta { return &s.meta }

// SkipCommandText is ignored (engine.Stream): the format holds states, not command text.
func (*stream) SkipCommandText() {}

// Next fills f with the next frame: the game as the replay shows it,
// its commands unknown, or inferred (OpenInferred). It returns io.EOF after the last frame; a frame
// that cannot be read or shown is an error that ends the stream.
func (s *stream) Next(f *engine.Frame) error {
	if s.err != nil {
		return s.err
	}
	if err := s.frame(f); err != nil {
		s.err = err
		return err
	}
	s.next++
	return nil
}

func (s *stream) frame(f *engine.Frame) error {
	if s.next >= 2 {
		if err := s.d.Next(&s.held); err != nil {
			return err
		}
	}
	if s.next >= 1 {
		if len(s.held.Users) != s.n {
			return fmt.Errorf("cfrstream: frame %d has %d players, frame 1 had %d", s.next, len(s.held.Users), s.n)
		}
		if err := s.g.LoadFrameUnchecked(s.cfg, &s.held); err != nil {
			return fmt.Errorf("cfrstream: frame %d: %w", s.next, err)
		}
	}
	f.Reset(s.n)
	replay.Observe(s.g, f)
	if err := s.fig.Append(s.g, f); err != nil {
		return err
	}
	if s.inf != nil && s.next >= 1 {
		return s.inferred(f)
	}
	return nil
}

// inferred gives f the commands and errors of the round that led to the
// frame just decoded, when the inference explains it.
func (s *stream) inferred(f *engine.Frame) error {
	cmds, errs, ok := s.inf.Round(&s.held)
	if !ok {
		return nil
	}
	if len(cmds) > s.n {
		return fmt.Errorf("cfrstream: frame %d: commands inferred for %d players, the game has %d", s.next, len(cmds), s.n)
	}
	colorfight2.RoundText(cmds, f.Commands, f.Faults, f.FaultText)
	for _, e := range errs {
		f.Errors = append(f.Errors, e.EngineError())
	}
	f.CommandsKnown = true
	return nil
}

// Close stops the decoder; it does not close the reader.
func (s *stream) Close() error { return s.d.Close() }

// Summary is what an official replay says at a glance, read frame by

// Summarize reads a whole official replay from r and summarizes it: one
// pass of cfr.Decoder, holding two frames (the format's
// engine.Format.Summarize). The players are everyone who appears in a
// frame, with the last name seen, ranked by gold at the last whole frame
// (the lowest uid first on a tie); Settings are the map's size ("game")
// and the official info object ("info"). It fails only when r is no
// replay (or its first frame cannot be read); damage after it is the
// Summary's Damage, the whole frames before it counted.
func Summarize(r io.Reader) (*engine.Summary, error) {
	d, err := cfr.NewDecoder(r)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	hd := d.Header()
	s := &engine.Summary{MaxTurn: hd.Config().MaxTurn,
		Settings: [][2]string{{"game", fmt.Sprintf("%dx%d", hd.Width, hd.Height)}, {"info", string(hd.Info)}}}
	var f, last colorfight2.Frame
	n := 0
	names := map[int]string{}
	for {
		err := d.Next(&f)
		if errors.Is(err, io.EOF) {
			s.Complete = true
			break
		}
		if err != nil {
			if n == 0 {
				return nil, fmt.Errorf("frame 0: %w", err)
			}
			s.Damage = fmt.Errorf("frame %d: %w", n, err)
			break
		}
		n++
		for i := range f.Users {
			names[int(f.Users[i].UID)] = f.Users[i].Username
		}
		last.Users = append(last.Users[:0], f.Users...)
	}
	if n == 0 {
		return nil, errors.New("no frames")
	}
	uids := make([]int, 0, len(names))
	for uid := range names {
		uids = append(uids, uid)
	}
	slices.Sort(uids)
	s.Rounds = n - 1
	byGold := slices.Clone(last.Users)
	slices.SortStableFunc(byGold, func(a, b colorfight2.FrameUser) int {
		return cmp.Or(cmp.Compare(b.Gold, a.Gold), cmp.Compare(a.UID, b.UID))
	})
	for _, uid := range uids {
		p := engine.SummaryPlayer{UID: uid, Name: names[uid]}
		for r := range byGold {
			if byGold[r].UID == int64(uid) {
				p.Rank, p.Score = r+1, byGold[r].Gold
			}
		}
		s.Players = append(s.Players, p)
	}
	if len(byGold) > 0 {
		s.Winner, s.WinnerScore = int(byGold[0].UID), byGold[0].Gold
	}
	return s, nil
}
