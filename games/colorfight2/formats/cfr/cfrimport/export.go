package cfrimport

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/replay"
)

// FrameReader reads the official frames of a ColorfightII replay, whichever
// its file: a .rwd re-simulated (Recording) or a .cfr decoded
// (cfr.Decoder). It is the reader of `rewind verify --against`'s
// other replay and of the game server's .cfr export.
type FrameReader struct {
	// Info is the official "info" object of the replay (the .cfr's, or
	// the one a .rwd carries); nil when there is none.
	Info json.RawMessage
	rec  *Recording
	d    *cfr.Decoder
}

// OpenFrames opens the ColorfightII replay read from r, a .rwd (by its
// magic) or a .cfr; Close releases it, not r.
func OpenFrames(r io.Reader) (*FrameReader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, _ := br.Peek(len(replay.Magic)); string(magic) == replay.Magic {
		rec, err := OpenRecording(br)
		if err != nil {
			return nil, err
		}
		return &FrameReader{Info: rec.h.CFRInfo, rec: rec}, nil
	}
	d, err := cfr.NewDecoder(br)
	if err != nil {
		return nil, err
	}
	return &FrameReader{Info: d.Header().Info, d: d}, nil
}

// Next fills f with the replay's next frame, reusing its storage: frame
// 0 first; io.EOF after the last.
func (r *FrameReader) Next(f *colorfight2.Frame) error {
	if r.rec != nil {
		return r.rec.Next(f)
	}
	return r.d.Next(f)
}

// Close releases the reader (a decoder's read-ahead stops).
func (r *FrameReader) Close() error {
	if r.rec != nil {
		return r.rec.Close()
	}
	return r.d.Close()
}

// Frames is what Export and VerifyAgainst read official frames from: a
// *cfr.Decoder, or anything else that gives a game's frames in order (io.EOF
// after the last).
type Frames interface {
	Next(f *colorfight2.Frame) error
}

// Recording is a ColorfightII .rwd re-simulated through the generic
// reader (replay.Sim), giving its frames as the official server writes
// them: frame 0 the map before anyone registered, then the game after
// each round with the players' ratings from the header. It is the one
// reading of a recording's official frames, behind Export, VerifyAgainst
// and OpenFrames.
type Recording struct {
	sim     *replay.Sim
	g       *colorfight2.Game
	h       *replay.Header
	started bool
}

// OpenRecording opens the .rwd read from r (replay.OpenSim) at frame 0;
// Close releases it. Any other game's recording is refused with an error
// wrapping replay.ErrRuleset.
func OpenRecording(r io.Reader) (*Recording, error) {
	sim, err := replay.OpenSim(r)
	if err != nil {
		return nil, err
	}
	g, ok := sim.Game().(*colorfight2.Game)
	if !ok {
		sim.Close()
		return nil, fmt.Errorf("a %s recording, not a ColorfightII game: %w", sim.Ruleset().ID(), replay.ErrRuleset)
	}
	sim.SkipText() // the frames and Applied are the game's
	return &Recording{sim: sim, g: g, h: sim.Header()}, nil
}

// Sim returns the re-simulation, for its header and the round that led
// to the frame Next gave last (Sim.Round, nil at frame 0: its turn,
// checkpoint and logs; its commands are Game's, not text, as the Sim
// skips the text). Only Next moves it on.
func (r *Recording) Sim() *replay.Sim { return r.sim }

// Game returns the game as it is at the frame Next gave last: its state,
// and the commands of the round that led to it (Applied).
func (r *Recording) Game() *colorfight2.Game { return r.g }

// Next fills f with the recording's next frame, reusing f's storage:
// frame 0 first, then one per round played (Sim.Next); io.EOF after the
// last, once the footer is checked, and Sim.Next's error for a recording
// cut short, damaged or diverging.
func (r *Recording) Next(f *colorfight2.Frame) error {
	if !r.started {
		r.started = true
	} else if err := r.sim.Next(); err != nil {
		return err
	}
	r.frame(f)
	return nil
}

// Close releases the re-simulation; it does not close the source.
func (r *Recording) Close() error { return r.sim.Close() }

// frame fills f with the game now (colorfight2.State.OfficialFrame: the
// map before registration at turn 0), the header's ratings copied in.
func (r *Recording) frame(f *colorfight2.Frame) {
	r.g.State.OfficialFrame(f)
	for k := range f.Users {
		if i := int(f.Users[k].UID) - 1; i >= 0 && i < len(r.h.Players) {
			f.Users[k].Verified, f.Users[k].Ranking = r.h.Players[i].Verified, r.h.Players[i].Ranking
		}
	}
}

// Export writes the game of the replay read from r to w as an official
// .cfr (gzip'd JSON, replay_version 2) and returns the number of frames:
// a ColorfightII .rwd re-simulated (replay.OpenSim), or a .cfr read
// again. The replay's own info object is kept; a recording without one
// gets the info object the official server would write for its
// configuration, with the recording's creation time in milliseconds as
// game_id.
//
// When the replay fails after some frames (a recording cut short, a
// damaged file), the frames read before the failure are still finished as
// a complete, valid replay on w, and the error is returned with their
// number: the caller decides whether to keep them (replay.ErrTruncated
// and io.ErrUnexpectedEOF say the file only ends early).
func Export(r io.Reader, w io.Writer) (int, error) {
	src, err := OpenFrames(r)
	if err != nil {
		return 0, err
	}
	defer src.Close()
	hd := cfr.Header{Info: src.Info}
	if hd.Info == nil && src.rec != nil {
		id := "0"
		if h := src.rec.h; !h.Created.IsZero() {
			id = strconv.FormatInt(h.Created.UnixMilli(), 10)
		}
		hd.Info = replay.OfficialInfo(replay.Config(src.rec.g.State.Config()), id)
	}
	enc, err := cfr.NewEncoder(w, hd)
	if err != nil {
		return 0, err
	}
	var f colorfight2.Frame
	n := 0
	for {
		err := src.Next(&f)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if n > 0 {
				if cerr := enc.Close(); cerr != nil {
					return n, cerr
				}
			}
			return n, err
		}
		if err := enc.WriteFrame(&f); err != nil {
			return n, err
		}
		n++
	}
	return n, enc.Close()
}

// VerifyAgainst re-simulates the ColorfightII .rwd read from r
// (replay.VerifySim) and compares every frame, field by field, with the
// frames of want (a *cfr.Decoder: typically the official .cfr of the same game). It
// returns the verification with Err set to the first difference (naming
// the frame, the cell or user, the field and both values) and the number
// of frames found equal. want having fewer or more frames than the
// recording is a difference too.
func VerifyAgainst(r io.Reader, want Frames) (*replay.VerifyResult, int, error) {
	var w, got colorfight2.Frame
	frames := 0
	var rec *Recording
	visit := func(s *replay.Sim) error {
		if rec == nil {
			g, ok := s.Game().(*colorfight2.Game)
			if !ok {
				return fmt.Errorf("a %s replay: --against compares ColorfightII games only", s.Ruleset().ID())
			}
			rec = &Recording{sim: s, g: g, h: s.Header()}
			if err := want.Next(&w); err != nil {
				return fmt.Errorf("the other replay: frame 0: %w", err)
			}
			g.State.MapFrame(&got)
			if d := colorfight2.Diff(&w, &got); d != nil {
				return fmt.Errorf("frame 0 differs: %s", d)
			}
			frames++
		}
		if err := want.Next(&w); err != nil {
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("the other replay ends at frame %d, the recording goes on", rec.g.Turn()-1)
			}
			return fmt.Errorf("the other replay: %w", err)
		}
		rec.frame(&got)
		if d := colorfight2.Diff(&w, &got); d != nil {
			return fmt.Errorf("frame %d differs: %s: %s: want %s, got %s", got.Turn, d.Where, d.Field, d.Want, d.Got)
		}
		frames++
		return nil
	}
	res, err := replay.VerifySim(r, visit)
	if err != nil {
		return nil, 0, err
	}
	if res.Err == nil && res.Complete {
		var extra colorfight2.Frame
		if err := want.Next(&extra); !errors.Is(err, io.EOF) {
			res.Err = fmt.Errorf("the other replay has more frames than the recording's %d rounds", res.Rounds)
		}
	}
	return res, frames, nil
}
