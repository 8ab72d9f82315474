package recording

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
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
	for i := range h.Players {
		if i < len(s.Players) && s.Players[i].BotSeed != nil {
			seed := *s.Players[i].BotSeed
			h.Players[i].BotSeed = &seed
		}
	}
	h.Created, h.Tool, h.Logs, h.ReplyTimes, h.Marks = created, tool, s.Logs, s.ReplyTimes, s.Marks
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

// Round writes one round (and its bots' logs, reply times and marks, when the
// header keeps them) and flushes it.
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
	t.Active, t.Commands, t.Faults, t.FaultText, t.ReplyTimes, t.Marks = rd.Active, rd.Commands, rd.Faults, rd.FaultText, rd.ReplyTimes, rd.Marks
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

// Finished reads game i back when its replay is there and CheckGame
// takes it for the game g describes; anything else reports ok false and
// the game is played again.
func (d *Dir) Finished(i int, g match.GameSpec) (match.GameResult, bool) {
	path := d.GamePath(i)
	f, err := os.Open(path)
	if err != nil {
		return match.GameResult{}, false
	}
	defer f.Close()
	gr, err := CheckGame(f, i, g)
	if err != nil {
		return match.GameResult{}, false
	}
	gr.Path, gr.Skipped = path, true
	return gr, true
}

// ErrNotTheGame is wrapped by CheckGame's errors about a replay that is
// another game than the one asked for.
var ErrNotTheGame = errors.New("recording: not the game asked for")

// CheckGame re-simulates a replay read from r and returns the result of
// game i that it records, computed from the replay alone (ranks and
// scores of its final state), when it is the game want describes: its
// ruleset; its header (seed, setup, map, turn limit, seats) the one
// that game is recorded under; each seat's bot the entrant of that
// seat; not a fork or an import; and re-simulated to its footer with
// the game over (not a match stopped early). Otherwise the error says
// the first difference (wrapping ErrNotTheGame) or why the replay does
// not re-simulate. It does not close r.
func CheckGame(r io.Reader, i int, want match.GameSpec) (match.GameResult, error) {
	s, err := replay.OpenSim(r)
	if err != nil {
		return match.GameResult{}, err
	}
	defer s.Close()
	h := s.Header()
	if err := sameGame(h, s.Ruleset(), want); err != nil {
		return match.GameResult{}, fmt.Errorf("%w: %s", ErrNotTheGame, err)
	}
	for {
		err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return match.GameResult{}, fmt.Errorf("recording: the replay does not re-simulate: %w", err)
		}
	}
	g := s.Game()
	if !g.Over() {
		return match.GameResult{}, fmt.Errorf("%w: the match stopped before its end, at turn %d", ErrNotTheGame, g.Turn())
	}
	return match.ResultOf(i, s.Ruleset(), want.Seed, "", want.Entrants, g.Ranking(), func(p int) []int64 { return g.Values(p, nil) }), nil
}

// sameGame says how the header h of a replay of ruleset rs differs from
// the header the game want describes is recorded under (the players'
// names aside: they are the bots' own), nil when it does not.
func sameGame(h *replay.Header, rs engine.Ruleset, want match.GameSpec) error {
	if h.Ruleset != want.Ruleset {
		return fmt.Errorf("ruleset %q, want %q", h.Ruleset, want.Ruleset)
	}
	if len(h.Players) != len(want.Entrants) {
		return fmt.Errorf("%d players, want %d", len(h.Players), len(want.Entrants))
	}
	for k, p := range h.Players {
		if p.Bot != want.Entrants[k] {
			return fmt.Errorf("seat %d played by %q, want %q", k+1, p.Bot, want.Entrants[k])
		}
	}
	if h.Parent != nil || h.Import != nil {
		return errors.New("a fork or an import, not a game played")
	}
	if h.Config.MaxTurn != want.MaxTurn {
		return fmt.Errorf("a turn limit of %d, want %d", h.Config.MaxTurn, want.MaxTurn)
	}
	names := make([]string, len(h.Players))
	for k, p := range h.Players {
		names[k] = p.Name
	}
	settings := engine.Settings{Players: len(want.Entrants), MaxTurns: want.MaxTurn, Names: names}
	var g engine.Game
	var err error
	if len(want.Setup) > 0 {
		g, err = rs.NewFromSetup(want.Setup, settings)
	} else {
		g, err = rs.New(want.Seed, settings)
	}
	if err != nil {
		return fmt.Errorf("the game cannot be made: %v", err)
	}
	e, err := replay.GameHeader(rs, g, want.Seed, g.Setup(), g.MaxTurns(), names, want.Entrants)
	if err != nil {
		return fmt.Errorf("the game's header cannot be made: %v", err)
	}
	switch {
	case h.Codec != e.Codec:
		return fmt.Errorf("codec %q, want %q", h.Codec, e.Codec)
	case h.Legacy() && !sameSeed(h.Seed, e.Seed):
		return fmt.Errorf("seed %s, want %s", seedText(h.Seed), seedText(e.Seed))
	case h.Legacy() && !bytes.Equal(h.Map, e.Map):
		return errors.New("another map")
	case h.Config != e.Config:
		return fmt.Errorf("settings %+v, want %+v", h.Config, e.Config)
	case !h.Legacy() && (!h.Compact() || len(h.Setup) == 0) && h.GameSeed != e.GameSeed:
		return fmt.Errorf("seed %d, want %d", h.GameSeed, e.GameSeed)
	case !h.Legacy() && !bytes.Equal(h.Setup, e.Setup):
		return errors.New("another setup (seed or map)")
	}
	for k, p := range h.Players {
		if p.UID != e.Players[k].UID || p.Home != e.Players[k].Home {
			return fmt.Errorf("seat %d is uid %d at %v, want uid %d at %v", k+1, p.UID, p.Home, e.Players[k].UID, e.Players[k].Home)
		}
	}
	return nil
}

func sameSeed(a, b *uint64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func seedText(s *uint64) string {
	if s == nil {
		return "none (an explicit map)"
	}
	return strconv.FormatUint(*s, 10)
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
func (m *Memory) Finished(int, match.GameSpec) (match.GameResult, bool) {
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
