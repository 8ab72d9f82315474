package viewer

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"

	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/source"
	"github.com/rewind-game/rewind/templates"
)

// Games as the library names them.
const (
	GameColorfightII = "ColorfightII"
	GameMonad        = "Monad"
)

// summarizeMonad fills in e from a Monad replay read from br (one
// streaming read, no re-simulation) and reports true, or reports false
// when br is not a Monad replay.
func summarizeMonad(e *Entry, br *bufio.Reader) bool {
	if !source.IsMonad(br) {
		return false
	}
	e.Game = GameMonad
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
		if len(ft.Ranking) > 0 {
			e.Winner = ft.Ranking[0]
			if i := e.Winner - 1; i >= 0 && i < len(ft.Gold) {
				e.WinnerGold = ft.Gold[i]
			}
		}
	}
	return true
}

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
// ColorfightII one (src), exactly one set.
func openAny(f io.ReadCloser) (src source.Source, msrc source.MonadSource, err error) {
	br := bufio.NewReaderSize(f, 64<<10)
	msrc, ok, err := openMonad(br, f)
	if ok {
		return nil, msrc, err
	}
	src, err = source.New(br, f)
	return src, nil, err
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

// errNotMonad is returned by Monad-only paths given another replay.
var errNotMonad = errors.New("not a Monad replay")
