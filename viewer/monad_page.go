package viewer

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/engine/monad"

	"github.com/rewind-game/rewind/engine/rulesets"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/source"
	"github.com/rewind-game/rewind/templates"
)

// Games as the library names them: their display names in the registry
// of games.
var (
	GameColorfightII = gameName(replay.RulesetColorfight2)
	GameMonad        = gameName(replay.RulesetMonad)
)

// gameName is the registered display name of the ruleset with id id.
func gameName(id string) string {
	info, ok := rulesets.About(id)
	if !ok {
		panic("viewer: game " + id + " is not registered") // a build without it is broken
	}
	return info.Name
}

// summarizeMonad fills in e from a Monad replay read from br (one
// streaming read, no re-simulation) and reports true, or reports false
// when br is not a Monad replay.
func summarizeMonad(e *Entry, br *bufio.Reader) bool {
	if !source.IsMonad(br) {
		return false
	}
	e.Game = GameMonad
	if !source.IsMonadRWD(br) {
		summarizeMonadLog(e, br)
		return true
	}
	sum, err := replay.SummarizeMonad(br)
	if err != nil {
		e.Err = err.Error()
		return true
	}
	h := sum.Header
	e.Summary = source.Summary{Format: source.MonadRWD, Config: h.Config, Created: h.Created, Rounds: sum.Rounds}
	for _, p := range h.Players {
		e.Players = append(e.Players, source.Player{UID: p.UID, Name: p.Name, Bot: p.Bot})
	}
	if !e.Created.IsZero() {
		e.Date = e.Created
	}
	switch ft := sum.Footer; {
	case sum.Err != nil:
		e.Damage = sum.Err
	case ft == nil:
		e.Damage = fmt.Errorf("%w: no footer after %d rounds", replay.ErrTruncated, sum.Rounds)
	default:
		e.Complete, e.Rounds = true, ft.Turn
		e.SetRanking(ft.Ranking, ft.Gold)
		if len(ft.Ranking) > 0 {
			e.Winner = ft.Ranking[0]
			if i := e.Winner - 1; i >= 0 && i < len(ft.Gold) {
				e.WinnerGold = ft.Gold[i]
			}
		}
	}
	return true
}

// summarizeMonadLog fills in e from a Monad reference log (decoded whole,
// within monadlog's caps): its frames, names, and the winner and its
// resources by the rules' ranking of the last frame (monad.RankStats, as
// a .rwd's footer has it).
func summarizeMonadLog(e *Entry, br *bufio.Reader) {
	src, err := source.NewMonad(br, nil)
	if err != nil {
		e.Err = err.Error()
		return
	}
	defer src.Close()
	m := src.Meta()
	e.Summary = source.Summary{Format: m.Format, Config: colorfight2.Config{Width: monad.Width, Height: monad.Height, MaxTurn: m.Config.MaxTurns, MaxPlayer: m.Config.Players}}
	for p, name := range m.Names {
		bot := ""
		if p < len(m.Bots) {
			bot = m.Bots[p]
		}
		e.Players = append(e.Players, source.Player{UID: p + 1, Name: name, Bot: bot})
	}
	var f source.MonadFrame
	frames := 0
	for {
		err := src.Next(&f)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			e.Damage = fmt.Errorf("frame %d: %w", frames, err)
			break
		}
		frames++
	}
	if frames == 0 {
		e.Err = "the log has no frames"
		return
	}
	e.Rounds, e.Complete = frames-1, e.Damage == nil
	stats := make([]monad.PlayerStats, len(f.Players))
	for p := range f.Players {
		stats[p] = f.Players[p].PlayerStats
	}
	rank := monad.RankStats(stats)
	for _, r := range rank {
		if r.Player >= 0 && r.Player < len(e.Players) {
			e.Players[r.Player].Rank, e.Players[r.Player].Score = r.Rank, stats[r.Player].Resources
		}
	}
	if len(rank) > 0 {
		e.Winner, e.WinnerGold = rank[0].Player+1, stats[rank[0].Player].Resources
	}
}

// IsMonadLogName reports whether name is named like a Monad reference
// log (replay.json, NAME.mp.gz); the library lists such a file only when
// its content is one (source.IsMonadLog).
func IsMonadLogName(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".json") || strings.HasSuffix(n, ".mp.gz")
}

// isMonadLog reports whether the file id (of this size and modification
// time) is a Monad reference log: a file listed before is, others are
// sniffed.
func (l *Library) isMonadLog(id string, size int64, mod time.Time) bool {
	l.mu.Lock()
	e, ok := l.entries[id]
	l.mu.Unlock()
	if ok && e.Size == size && e.ModTime.Equal(mod) {
		return true
	}
	f, err := l.root.Open(id)
	if err != nil {
		return false
	}
	defer f.Close()
	return source.IsMonadLog(bufio.NewReaderSize(f, 64<<10))
}

// monadLogDecodeBytes is the most a Monad reference log holds once
// decoded, which happens when it is opened (monadlog's caps: about 200
// MB for a hostile file; docs/monad.md, "Official logs").
const monadLogDecodeBytes = 200 << 20

// gameUnit is what a library row's winner amount counts in each game.
func gameUnit(game string) string {
	if game == GameMonad {
		return "resources"
	}
	return "gold"
}

// loadMonadReplay decodes a Monad source within the memory budget
// (MonadLoadPeakBytes reserved before the first frame).
func loadMonadReplay(mem *memBudget, src source.MonadSource) (*Replay, error) {
	peak := monadLoadPeak(src.Meta())
	if err := mem.reserve(peak); err != nil {
		return nil, err
	}
	defer mem.release(peak)
	return LoadMonad(src)
}

// openAny opens f as a replay of either game: a Monad source (msrc) or a
// ColorfightII one (src), exactly one set. A Monad reference log is
// decoded whole when it is opened: monadLogDecodeBytes are reserved in
// mem first (an error wrapping ErrBusy when they do not fit) and freed by
// release, which the caller calls once done with the source (a no-op for
// other replays).
func openAny(mem *memBudget, f io.ReadCloser) (src source.Source, msrc source.MonadSource, release func(), err error) {
	release = func() {}
	br := bufio.NewReaderSize(f, 64<<10)
	if source.IsMonadLog(br) {
		if err := mem.reserve(monadLogDecodeBytes); err != nil {
			return nil, nil, release, err
		}
		release = func() { mem.release(monadLogDecodeBytes) }
	}
	msrc, ok, err := openMonad(br, f)
	if ok {
		return nil, msrc, release, err
	}
	src, err = source.New(br, f)
	return src, nil, release, err
}

// monadPage renders a Monad replay's page.
func (s *Server) monadPage(w http.ResponseWriter, r *http.Request, rep *Replay, id string) {
	p := MonadPageData(rep, id)
	p.DataURL = "/data/" + escapeID(id) + "?gz=1"
	p.Library = !s.lib.Single()
	render(w, r, http.StatusOK, templates.MonadReplay(p))
}

// MonadPageData is the Monad page's view of rep, titled after id. The
// caller sets where the frames come from.
func MonadPageData(rep *Replay, id string) templates.MonadPage {
	p := templates.MonadPage{Title: path.Base(id), Warning: rep.Warning}
	if rep.Monad != nil {
		p.Summary = rep.Monad.Summary
	}
	return p
}
