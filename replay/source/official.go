package source

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/cfr"
)

// WriteCFR writes every frame of src to w as an official .cfr replay
// (gzip'd JSON, replay_version 2) and returns the number of frames. The
// source's own info object is kept; a game without one gets the info
// object the official server would write for its configuration, with the
// recording's creation time in milliseconds as game_id.
//
// When src fails after some frames (a recording cut short, a damaged
// file), the frames read before the failure are still finished as a
// complete, valid replay on w, and the source's error is returned with
// their number: the caller decides whether to keep them (see CutShort).
func WriteCFR(src Source, w io.Writer) (int, error) {
	m := src.Meta()
	info := m.Info
	if info == nil {
		info = officialInfo(m)
	}
	enc, err := cfr.NewEncoder(w, cfr.Header{Info: info})
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

func officialInfo(m *Meta) json.RawMessage {
	id := "0"
	if m.Header != nil && !m.Header.Created.IsZero() {
		id = strconv.FormatInt(m.Header.Created.UnixMilli(), 10)
	}
	return replay.OfficialInfo(m.Config, id)
}

// VerifyAgainst re-simulates the .rwd read from r (replay.Verify) and
// compares every frame, field by field, with the frames of want (any
// replay: typically the official .cfr of the same game). It returns the
// verification with Err set to the first difference (naming the frame,
// the cell or user, the field and both values) and the number of frames
// found equal. want having fewer or more frames than the recording is a
// difference too.
func VerifyAgainst(r io.Reader, want Source) (*replay.VerifyResult, int, error) {
	var w, got colorfight2.Frame
	frames := 0
	first := true
	visit := func(g *replay.Game) error {
		if first {
			first = false
			if err := want.Next(&w); err != nil {
				return fmt.Errorf("the other replay: frame 0: %w", err)
			}
			g.Header().Map.Frame(&got)
			if d := colorfight2.Diff(&w, &got); d != nil {
				return fmt.Errorf("frame 0 differs: %s", d)
			}
			frames++
		}
		if err := want.Next(&w); err != nil {
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("the other replay ends at frame %d, the recording goes on", g.State().Turn()-1)
			}
			return fmt.Errorf("the other replay: %w", err)
		}
		g.Frame(&got)
		if d := colorfight2.Diff(&w, &got); d != nil {
			return fmt.Errorf("frame %d differs: %s: %s: want %s, got %s", got.Turn, d.Where, d.Field, d.Want, d.Got)
		}
		frames++
		return nil
	}
	res, err := replay.Verify(r, visit)
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

// CutShort reports whether err, from reading a replay, says only that the
// file ends early — a recording killed mid-game, or a download cut off —
// so that the whole rounds before it can be used, as verify, analyze and
// the viewer do. Damage inside the file is not a cut.
func CutShort(err error) bool {
	return errors.Is(err, replay.ErrTruncated) || errors.Is(err, io.ErrUnexpectedEOF)
}
