package recording

import (
	"bytes"
	"errors"
	"io"
	"os"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/replay"
)

// Recorder writes a match of any ruleset (match.RunGame) to an io.Writer as a .rwd replay in the codec
// replay.GameHeader picks for it (ColorfightII's own, a ruleset's
// engine.Codec, or text), one flushed round at a time (see
// replay.GameWriter). It implements match.GameRecorder.
type Recorder struct {
	w       io.Writer
	created time.Time
	tool    string
	tw      replay.GameWriter
	round   replay.TextRound
	// Parent, when set, goes into the header: the game this one plays on
	// from.
	Parent *replay.Parent
	// CFRInfo, when set, goes into the header (a fork of an official game
	// keeps its info object).
	CFRInfo []byte
	// Verified and Ranking, when set, are the players' ratings (player
	// order) for the header.
	Verified []bool
	Ranking  []string
}

var _ match.GameRecorder = (*Recorder)(nil)

// NewRecorder returns a Recorder writing to w; created and tool go into
// the header.
func NewRecorder(w io.Writer, created time.Time, tool string) *Recorder {
	return &Recorder{w: w, created: created, tool: tool}
}

// Header returns the .rwd header a match with this setup is recorded
// under (replay.GameHeader; a setup without its Game is recorded in the
// text codec).
func Header(s match.GameSetup, created time.Time, tool string) (replay.Header, error) {
	names := make([]string, len(s.Players))
	bots := make([]string, len(s.Players))
	for i, p := range s.Players {
		names[i], bots[i] = p.Name, p.Identity
	}
	h, err := replay.GameHeader(s.Ruleset, s.Game, s.Seed, s.Setup, s.MaxTurns, names, bots)
	if err != nil {
		return replay.Header{}, err
	}
	h.Created, h.Tool, h.Logs = created, tool, s.Logs
	return h, nil
}

// Begin writes the header, with the provenance and ratings set on r.
func (r *Recorder) Begin(s match.GameSetup) error {
	if r.tw != nil {
		return errors.New("recording: Begin called twice")
	}
	h, err := Header(s, r.created, r.tool)
	if err != nil {
		return err
	}
	h.Parent, h.CFRInfo = r.Parent, r.CFRInfo
	for i := range h.Players {
		if i < len(r.Verified) {
			h.Players[i].Verified = r.Verified[i]
		}
		if i < len(r.Ranking) {
			h.Players[i].Ranking = r.Ranking[i]
		}
	}
	tw, err := replay.NewGameWriter(r.w, h)
	if err != nil {
		return err
	}
	r.tw = tw
	return nil
}

// Round writes one round (and its bots' logs, when the header keeps
// them) and flushes it.
func (r *Recorder) Round(rd *match.GameRound, g engine.Game) error {
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
func (r *Recorder) End(g engine.Game) error {
	if r.tw == nil {
		return errors.New("recording: End before Begin")
	}
	return r.tw.Close(g)
}

var (
	_ match.Archive = (*Dir)(nil)
	_ match.Archive = (*Memory)(nil)
)

// Finished reads game i back when its replay is there, is of that ruleset, verifies to its footer with
// the game over (not a match stopped early), and was played with this
// seed, turn limit and these entrants in seat order;
// anything else reports ok false and the game is played again.
func (d *Dir) Finished(i int, ruleset string, seed uint64, maxTurn int, entrants []string) (match.GameResult, bool) {
	path := d.GamePath(i)
	f, err := os.Open(path)
	if err != nil {
		return match.GameResult{}, false
	}
	defer f.Close()
	s, err := replay.OpenSim(f)
	if err != nil {
		return match.GameResult{}, false
	}
	defer s.Close()
	h := s.Header()
	if h.Ruleset != ruleset || !sameSeed(h, s.Ruleset(), seed) || len(h.Players) != len(entrants) || h.Config.MaxTurn != maxTurn {
		return match.GameResult{}, false
	}
	if !sameBots(h.Players, entrants) || !playsToEnd(s.Next) {
		return match.GameResult{}, false
	}
	g := s.Game()
	if !g.Over() {
		return match.GameResult{}, false // a match stopped before its end
	}
	gr := match.ResultOf(i, s.Ruleset(), seed, path, entrants, g.Ranking(), func(p int) []int64 { return g.Values(p, nil) })
	gr.Skipped = true
	return gr, true
}

// sameSeed reports whether the game h records was drawn from seed: its
// Seed (ColorfightII's own codec) or GameSeed, or, in a ruleset's
// engine.Codec (whose header keeps the seed in its setup), the setup the
// ruleset's game of seed saves.
func sameSeed(h *replay.Header, rs engine.Ruleset, seed uint64) bool {
	if h.Seed != nil {
		return *h.Seed == seed
	}
	if !h.Compact() || len(h.Setup) == 0 {
		return h.GameSeed == seed
	}
	g, err := rs.New(seed, engine.Settings{Players: len(h.Players), MaxTurns: h.Config.MaxTurn})
	if err != nil {
		return false
	}
	return bytes.Equal(g.Setup(), h.Setup)
}

// Create starts recording game i.
func (d *Dir) Create(i int) (match.GameRecording, error) {
	f, tmp, final, created, err := d.create(i)
	if err != nil {
		return nil, err
	}
	return &dirGame{Recorder: NewRecorder(f, created, d.Tool), f: f, tmp: tmp, final: final, folder: d.syncer()}, nil
}

type dirGame struct {
	*Recorder
	f          *os.File
	tmp, final string
	folder     *dirSync
}

func (g *dirGame) Commit() (string, error) { return commit(g.f, g.tmp, g.final, g.folder) }
func (g *dirGame) Abort()                  { g.f.Close(); os.Remove(g.tmp) }

// Finished is always false: a Memory archive keeps nothing across
// runs.
func (m *Memory) Finished(int, string, uint64, int, []string) (match.GameResult, bool) {
	return match.GameResult{}, false
}

// Create starts recording game i
// in memory.
func (m *Memory) Create(i int) (match.GameRecording, error) {
	g := &memoryGame{m: m, i: i}
	g.Recorder = NewRecorder(&g.buf, time.Now(), m.Tool)
	return g, nil
}

type memoryGame struct {
	*Recorder
	m   *Memory
	i   int
	buf bytes.Buffer
}

func (g *memoryGame) Commit() (string, error) { g.m.keep(g.i, g.buf.Bytes()); return "", nil }
func (g *memoryGame) Abort()                  {}
