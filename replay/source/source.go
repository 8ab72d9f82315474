// Package source opens any replay rewind understands — its own .rwd or an
// official .cfr — as one stream of frames, so everything downstream
// (export, comparison, analysis, the viewer) is the same code whichever
// file a game came from.
package source

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/cfr"
	"github.com/rewind-game/rewind/replay/cfr/cfrimport"
)

// Format names a replay format.
type Format string

// Formats.
const (
	RWD Format = "rwd"
	CFR Format = "cfr"
)

// Player is a player as the replay names it.
type Player struct {
	UID  int
	Name string
	Bot  string // "" when unknown
	// Rank (1 best) and Score (final gold; resources in Monad) are the
	// player's result as a Summary reads it: the footer's ranking of a
	// .rwd, the last frame's gold (most first, lowest uid on a tie) of a
	// .cfr; Rank is 0 when unknown (a recording without its footer) and
	// in a Meta.
	Rank  int
	Score int64
}

// Meta is what a replay says about its game before its frames.
type Meta struct {
	Format Format
	Config colorfight2.Config
	// Players is known up front for .rwd; for .cfr it is filled in when
	// frame 1 has been read.
	Players []Player
	// Info is the official "info" object (from the .cfr, or the one a
	// .rwd carries); nil when there is none.
	Info json.RawMessage
	// Header is the .rwd header (nil for .cfr).
	Header *replay.Header
	// CommandsInferred is true when Round gives commands inferred from
	// the frames of an official replay (Infer), not recorded ones.
	CommandsInferred bool
}

// Round is the commands applied in one round (turn Turn -> Turn+1) of a
// ColorfightII Source.
type Round struct {
	Turn int
	// Commands[uid-1] is what player uid's commands were, in order.
	Commands [][]colorfight2.Command
	// Hash is the state hash after the round when the file holds a
	// checkpoint for it (HasHash).
	Hash    uint64
	HasHash bool
	// Logs[uid-1] is what player uid's bot logged while it was asked for
	// this round's commands (its stderr: docs/bot-protocol.md), at most
	// replay.MaxRoundLogBytes; nil when it logged nothing or the file
	// keeps no logs. Not part of the game: re-simulation never reads it.
	Logs [][]byte
}

// Source is a stream of full frames: frame 0 is the map before anyone
// registered, then one frame per turn.
type Source interface {
	Meta() *Meta
	// Next fills f with the next frame, reusing its storage; io.EOF after
	// the last.
	Next(f *colorfight2.Frame) error
	// Round returns the commands that produced the frame just returned
	// and the errors they caused, when the source has a command log
	// (.rwd) or infers one (Infer; then ok is false for a frame the rules
	// do not explain); ok is false otherwise.
	Round() (r *Round, errs []colorfight2.CommandError, ok bool)
	// Close releases the source and its file.
	Close() error
}

// Sniff reports the format of a replay from its first bytes.
func Sniff(prefix []byte) (Format, error) {
	switch {
	case len(prefix) >= 4 && string(prefix[:4]) == replay.Magic:
		return RWD, nil
	case len(prefix) >= 2 && prefix[0] == 0x1f && prefix[1] == 0x8b:
		return CFR, nil
	}
	for _, c := range prefix {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '[':
			return CFR, nil
		}
		break
	}
	return "", errors.New("not a replay: neither .rwd nor .cfr (gzip or JSON)")
}

// Open opens the replay at path, whichever its format.
func Open(path string) (Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	s, err := New(f, f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// New reads a replay from r; closer (may be nil) is closed by Close.
func New(r io.Reader, closer io.Closer) (Source, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	prefix, _ := br.Peek(8)
	format, err := Sniff(prefix)
	if err != nil {
		return nil, err
	}
	if format == RWD {
		rec, err := cfrimport.OpenRecording(br)
		if err != nil {
			return nil, err
		}
		h := rec.Sim().Header()
		m := &Meta{Format: RWD, Config: colorfight2.Config(h.Config), Info: h.CFRInfo, Header: h}
		for _, p := range h.Players {
			m.Players = append(m.Players, Player{UID: p.UID, Name: p.Name, Bot: p.Bot})
		}
		return &rwdSource{rec: rec, meta: m, closer: closer}, nil
	}
	d, err := cfr.NewDecoder(br)
	if err != nil {
		return nil, err
	}
	hd := d.Header()
	m := &Meta{Format: CFR, Info: hd.Info, Config: hd.Config()}
	return &cfrSource{d: d, meta: m, closer: closer}, nil
}

// rwdSource is a ColorfightII .rwd: its official frames
// (cfrimport.Recording), and each round's commands as the game applied
// them.
type rwdSource struct {
	rec    *cfrimport.Recording
	meta   *Meta
	closer io.Closer
	// round is the round that led to the frame Next gave last, valid
	// while played.
	round  Round
	played bool
}

func (s *rwdSource) Meta() *Meta { return s.meta }

func (s *rwdSource) Next(f *colorfight2.Frame) error {
	s.played = false
	if err := s.rec.Next(f); err != nil {
		return err
	}
	tr := s.rec.Sim().Round()
	if tr == nil {
		return nil // frame 0
	}
	s.round = Round{Turn: tr.Turn, Commands: s.rec.Game().Applied(), Hash: tr.Hash, HasHash: tr.HasHash, Logs: tr.Logs}
	s.played = true
	return nil
}

func (s *rwdSource) Round() (*Round, []colorfight2.CommandError, bool) {
	if !s.played {
		return nil, nil, false
	}
	return &s.round, s.rec.Game().State.Errors(), true
}

func (s *rwdSource) Close() error {
	s.rec.Close()
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}

type cfrSource struct {
	d      *cfr.Decoder
	meta   *Meta
	closer io.Closer
	n      int
}

func (s *cfrSource) Meta() *Meta { return s.meta }

func (s *cfrSource) Next(f *colorfight2.Frame) error {
	if err := s.d.Next(f); err != nil {
		return err
	}
	s.n++
	if len(s.meta.Players) == 0 && len(f.Users) > 0 {
		for _, u := range f.Users {
			s.meta.Players = append(s.meta.Players, Player{UID: int(u.UID), Name: u.Username})
		}
	}
	return nil
}

func (s *cfrSource) Round() (*Round, []colorfight2.CommandError, bool) {
	return nil, nil, false
}

func (s *cfrSource) Close() error {
	s.d.Close() // stops the decoder's read-ahead before its input goes
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}

// CutShort reports whether err, from reading a replay, says only that the
// file ends early — a recording killed mid-game, or a download cut off —
// so that the whole rounds before it can be used, as verify, analyze and
// the viewer do. Damage inside the file is not a cut.
func CutShort(err error) bool {
	return errors.Is(err, replay.ErrTruncated) || errors.Is(err, io.ErrUnexpectedEOF)
}
