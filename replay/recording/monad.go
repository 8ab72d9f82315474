package recording

import (
	"errors"
	"io"
	"os"
	"time"

	"github.com/rewind-game/rewind/engine/match"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/replay"
)

// MonadRecorder writes a Monad match to an io.Writer as a .rwd replay
// (ruleset monad), one flushed turn at a time (see replay.MonadWriter). It
// implements match.MonadRecorder.
type MonadRecorder struct {
	w       io.Writer
	created time.Time
	tool    string
	mw      *replay.MonadWriter
}

var (
	_ match.MonadRecorder = (*MonadRecorder)(nil)
	_ match.RoundLogger   = (*MonadRecorder)(nil)
)

// NewMonad returns a MonadRecorder writing to w; created and tool go into
// the header.
func NewMonad(w io.Writer, created time.Time, tool string) *MonadRecorder {
	return &MonadRecorder{w: w, created: created, tool: tool}
}

// MonadHeader returns the .rwd header a Monad match with this setup is
// recorded under.
func MonadHeader(s match.MonadSetup, created time.Time, tool string) replay.Header {
	names := make([]string, len(s.Players))
	bots := make([]string, len(s.Players))
	for i, p := range s.Players {
		names[i], bots[i] = p.Name, p.Identity
	}
	h := replay.MonadHeader(s.Game, names, bots)
	h.Created, h.Tool, h.Logs = created, tool, s.Logs
	return h
}

// Begin writes the header.
func (r *MonadRecorder) Begin(s match.MonadSetup) error {
	if r.mw != nil {
		return errors.New("recording: Begin called twice")
	}
	mw, err := replay.NewMonadWriter(r.w, MonadHeader(s, r.created, r.tool))
	if err != nil {
		return err
	}
	r.mw = mw
	return nil
}

// Round writes one turn and flushes it.
func (r *MonadRecorder) Round(rd *monad.Round, st *monad.State) error {
	if r.mw == nil {
		return errors.New("recording: Round before Begin")
	}
	return r.mw.WriteRound(rd, st)
}

// RoundLogs keeps the bots' logs of the next turn (match.RoundLogger):
// they are written with it, before its round record.
func (r *MonadRecorder) RoundLogs(logs [][]byte) error {
	if r.mw == nil {
		return errors.New("recording: RoundLogs before Begin")
	}
	return r.mw.WriteLogs(logs)
}

// End writes the footer. It does not close the underlying writer.
func (r *MonadRecorder) End(st *monad.State) error {
	if r.mw == nil {
		return errors.New("recording: End before Begin")
	}
	return r.mw.Close(st)
}

var _ match.MonadArchive = (*Dir)(nil)

// FinishedMonad reads Monad game i back when its replay is there, verifies
// to its footer (a Monad game may end before maxTurn), and was played with
// this seed, turn limit and these entrants in seat order; anything else
// reports ok false and the game is played again.
func (d *Dir) FinishedMonad(i int, seed uint64, maxTurn int, entrants []string) (match.GameResult, bool) {
	path := d.GamePath(i)
	f, err := os.Open(path)
	if err != nil {
		return match.GameResult{}, false
	}
	defer f.Close()
	g, err := replay.OpenMonad(f)
	if err != nil {
		return match.GameResult{}, false
	}
	defer g.Close()
	h := g.Header()
	if h.Monad.Seed != int64(seed) || len(h.Players) != len(entrants) || h.Config.MaxTurn != maxTurn {
		return match.GameResult{}, false
	}
	if !sameBots(h.Players, entrants) || !playsToEnd(g.Next) {
		return match.GameResult{}, false
	}
	s := g.State()
	gr := match.MonadGameResult(i, seed, path, entrants, s.Ranking(), s.Stats)
	gr.Skipped = true
	return gr, true
}

// CreateMonad starts recording Monad game i (as Create).
func (d *Dir) CreateMonad(i int) (match.MonadGameRecording, error) {
	f, tmp, final, created, err := d.create(i)
	if err != nil {
		return nil, err
	}
	return &dirMonadGame{MonadRecorder: NewMonad(f, created, d.Tool), f: f, tmp: tmp, final: final, folder: d.syncer()}, nil
}

type dirMonadGame struct {
	*MonadRecorder
	f          *os.File
	tmp, final string
	folder     *dirSync
}

func (g *dirMonadGame) Commit() (string, error) { return commit(g.f, g.tmp, g.final, g.folder) }
func (g *dirMonadGame) Abort()                  { g.f.Close(); os.Remove(g.tmp) }
