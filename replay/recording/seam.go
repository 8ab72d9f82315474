package recording

import (
	"errors"
	"io"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/replay"
)

// SeamRecorder writes a match of any ruleset played through the seam
// (match.RunGame) to an io.Writer as a .rwd replay of the text codec, one
// flushed round at a time (see replay.TextWriter). It implements
// match.GameRecorder.
type SeamRecorder struct {
	w       io.Writer
	created time.Time
	tool    string
	tw      *replay.TextWriter
	round   replay.TextRound
}

var _ match.GameRecorder = (*SeamRecorder)(nil)

// NewSeam returns a SeamRecorder writing to w; created and tool go into
// the header.
func NewSeam(w io.Writer, created time.Time, tool string) *SeamRecorder {
	return &SeamRecorder{w: w, created: created, tool: tool}
}

// SeamHeader returns the .rwd header a match with this setup is recorded
// under.
func SeamHeader(s match.GameSetup, created time.Time, tool string) replay.Header {
	names := make([]string, len(s.Players))
	bots := make([]string, len(s.Players))
	for i, p := range s.Players {
		names[i], bots[i] = p.Name, p.Identity
	}
	h := replay.TextHeader(s.Ruleset, s.Seed, s.Setup, s.MaxTurns, names, bots)
	h.Created, h.Tool, h.Logs = created, tool, s.Logs
	return h
}

// Begin writes the header.
func (r *SeamRecorder) Begin(s match.GameSetup) error {
	if r.tw != nil {
		return errors.New("recording: Begin called twice")
	}
	tw, err := replay.NewTextWriter(r.w, SeamHeader(s, r.created, r.tool))
	if err != nil {
		return err
	}
	r.tw = tw
	return nil
}

// Round writes one round (and its bots' logs, when the header keeps
// them) and flushes it.
func (r *SeamRecorder) Round(rd *match.GameRound, g engine.Game) error {
	if r.tw == nil {
		return errors.New("recording: Round before Begin")
	}
	if len(rd.Logs) > 0 && r.tw != nil {
		some := false
		for _, l := range rd.Logs {
			some = some || len(l) > 0
		}
		if some {
			if err := r.tw.WriteLogs(rd.Logs); err != nil {
				return err
			}
		}
	}
	t := &r.round
	t.Active, t.Commands, t.Faults, t.FaultText = rd.Active, rd.Commands, rd.Faults, rd.FaultText
	return r.tw.WriteRound(t, g)
}

// End writes the footer. It does not close the underlying writer.
func (r *SeamRecorder) End(g engine.Game) error {
	if r.tw == nil {
		return errors.New("recording: End before Begin")
	}
	return r.tw.Close(g)
}
