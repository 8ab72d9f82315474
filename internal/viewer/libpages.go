package viewer

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/templates"
	"github.com/rewind-game/rewind/internal/viewer/index"
)

// The library's listing through its index: every request is one indexed
// query for one page of rows (index.Query), whatever the library's size.
//
// The query string: sort (date, rounds, size, winner), asc=1, after (the
// cursor of the page before), limit (≤ index.MaxPage), game, bot, lost=1
// (with bot: the games it did not win), player, winner, from and to
// (YYYY-MM-DD, to inclusive), complete (complete, incomplete) and q (a
// search of paths, seat names and bots).

// queryOf parses a listing's query string.
func queryOf(v url.Values) (index.Query, error) {
	q := index.Query{Sort: v.Get("sort"), Asc: v.Get("asc") == "1", After: v.Get("after"),
		Game: v.Get("game"), Bot: v.Get("bot"), Lost: v.Get("lost") == "1", Player: v.Get("player"),
		Winner: v.Get("winner"), Complete: v.Get("complete"), Search: v.Get("q")}
	if s := v.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return q, fmt.Errorf("limit=%q: want a number from 1 to %d", s, index.MaxPage)
		}
		q.Limit = n
	}
	for _, d := range []struct {
		key string
		t   *time.Time
		add int
	}{{"from", &q.From, 0}, {"to", &q.To, 1}} {
		if s := v.Get(d.key); s != "" {
			t, err := time.ParseInLocation("2006-01-02", s, time.Local)
			if err != nil {
				return q, fmt.Errorf("%s=%q: want a date YYYY-MM-DD", d.key, s)
			}
			*d.t = t.AddDate(0, 0, d.add)
		}
	}
	for _, s := range []string{q.Bot, q.Player, q.Winner, q.Search, q.Game} {
		if len(s) > index.MaxSearch {
			return q, fmt.Errorf("a filter of %d bytes: at most %d", len(s), index.MaxSearch)
		}
	}
	return q, nil
}

// gameNames are the registered games' display names, for the game
// filter.
func gameNames() []string {
	var out []string
	for _, id := range engine.IDs() {
		if info, ok := engine.About(id); ok {
			out = append(out, info.Name)
		}
	}
	return out
}

// filterOf is the page's form, filled in with the request's values.
func filterOf(v url.Values) templates.LibraryFilter {
	return templates.LibraryFilter{Games: gameNames(), Sort: v.Get("sort"), Asc: v.Get("asc") == "1", Game: v.Get("game"), Bot: v.Get("bot"),
		Lost: v.Get("lost") == "1", Player: v.Get("player"), Winner: v.Get("winner"), From: v.Get("from"), To: v.Get("to"),
		Complete: v.Get("complete"), Search: v.Get("q")}
}

// indexRows turns index rows into the library's rows, each winner
// amount labelled by rowUnit.
func indexRows(reps []*index.Replay) []templates.LibraryRow {
	out := make([]templates.LibraryRow, 0, len(reps))
	for _, e := range reps {
		r := templates.LibraryRow{ID: e.Path, URL: ReplayURL(e.Path), Format: string(e.Format), Game: e.Game, Unit: rowUnit(e.Unit, e.Game), Players: e.PlayerList(),
			Rounds: e.Rounds, Date: e.Date.UTC().Format(time.RFC3339), Day: e.Date.Local().Format("2006-01-02 15:04"),
			Size: e.Size, SizeStr: sizeString(e.Size), Winner: e.Winner, Score: e.WinnerScore, Status: e.Status, Broken: e.Err != ""}
		out = append(out, r)
	}
	return out
}

// indexedPage answers one page of the library from its index, with the
// link to the next page ("" on the last).
func (s *Server) indexedPage(ix *index.Index, v url.Values) (templates.LibraryPage, error) {
	q, err := queryOf(v)
	if err != nil {
		return templates.LibraryPage{}, err
	}
	pg, err := ix.Page(q)
	if err != nil {
		return templates.LibraryPage{}, err
	}
	p := templates.LibraryPage{Title: "rewind — " + s.libTitle(), Dir: s.lib.Dir(), Rows: indexRows(pg.Rows)}
	s.uploadForm(&p)
	f := filterOf(v)
	p.Filter = &f
	if pg.Next != "" {
		nv := url.Values{}
		for k, vs := range v {
			nv[k] = vs
		}
		nv.Set("after", pg.Next)
		p.Next = "/?" + nv.Encode()
	}
	if v.Get("after") != "" {
		fv := url.Values{}
		for k, vs := range v {
			fv[k] = vs
		}
		fv.Del("after")
		p.First = "/?" + fv.Encode()
	}
	if s.live != nil {
		p.Live, p.LiveRows = true, s.liveRowsOf(s.liveGames())
	}
	return p, nil
}

func (s *Server) libTitle() string {
	d := strings.TrimRight(s.lib.Dir(), "/")
	if i := strings.LastIndexAny(d, `/\`); i >= 0 {
		return d[i+1:]
	}
	return d
}

// indexedJSON answers /api/library from the index: one page of rows and
// the cursor of the next ("next": "" on the last).
func (s *Server) indexedJSON(w http.ResponseWriter, r *http.Request, ix *index.Index) {
	q, err := queryOf(r.URL.Query())
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	pg, err := ix.Page(q)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	type row struct {
		libraryEntry
		Winner    string `json:"winner_name"`
		WinnerBot string `json:"winner_bot"`
		Hash      string `json:"sha256,omitempty"`
	}
	out := struct {
		Rows []row  `json:"rows"`
		Next string `json:"next"`
	}{Rows: []row{}, Next: pg.Next}
	for _, e := range pg.Rows {
		var players []source.Player
		winner := 0
		for _, st := range e.Seats {
			players = append(players, source.Player{UID: st.UID, Name: st.Name, Bot: st.Bot, Rank: st.Rank, Score: st.Score})
			if st.Name == e.Winner && e.Winner != "" && winner == 0 {
				winner = st.UID
			}
		}
		status := e.Status
		if status == "" {
			status = "complete"
		}
		out.Rows = append(out.Rows, row{libraryEntry: libraryEntry{ID: e.Path, URL: ReplayURL(e.Path), Format: source.Format(e.Format), Game: e.Game,
			Size: e.Size, Date: e.Date, Players: players, Winner: winner, WinnerScore: e.WinnerScore, Unit: rowUnit(e.Unit, e.Game), Rounds: e.Rounds, Complete: e.Complete,
			Status: status, Error: e.Err}, Winner: e.Winner, WinnerBot: e.WinnerBot, Hash: e.Hash})
		if e.Err != "" {
			out.Rows[len(out.Rows)-1].Status = ""
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// libraryEvents streams "library" server-sent events to an open library
// page: one (carrying the index's generation) whenever the index changes,
// so the page fetches its rows again; a comment every 30 s keeps the
// connection open. At most maxLibraryStreams are open at once.
func (s *Server) libraryEvents(w http.ResponseWriter, r *http.Request) {
	ix := s.lib.Index()
	if ix == nil {
		http.NotFound(w, r)
		return
	}
	select {
	case s.libStreams <- struct{}{}:
		defer func() { <-s.libStreams }()
	default:
		http.Error(w, "too many open library pages", http.StatusServiceUnavailable)
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	fl.Flush()
	gen := ix.Generation()
	if g := r.URL.Query().Get("gen"); g != "" {
		if n, err := strconv.ParseUint(g, 10, 64); err == nil {
			gen = n
		}
	}
	tick := time.NewTicker(libraryEventsEvery)
	defer tick.Stop()
	idle := 0
	for {
		rc.SetWriteDeadline(time.Now().Add(30 * time.Second))
		if g := ix.Generation(); g != gen {
			gen = g
			idle = 0
			if _, err := fmt.Fprintf(w, "event: library\ndata: %d\n\n", g); err != nil {
				return
			}
			fl.Flush()
		} else if idle++; idle*int(libraryEventsEvery/time.Millisecond) >= 30000 {
			idle = 0
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			fl.Flush()
		}
		select {
		case <-r.Context().Done():
			return
		case <-s.closing:
			return
		case <-tick.C:
		}
	}
}

// libraryEventsEvery is how often a library event stream looks at the
// index's generation (a counter in memory: no query).
const libraryEventsEvery = 500 * time.Millisecond

// maxLibraryStreams bounds the library pages following changes at once.
const maxLibraryStreams = 64

// standingsTables groups standings by game, best first (μ − 3σ).
func standingsTables(st []index.Standing) []templates.StandingsTable {
	var out []templates.StandingsTable
	for _, s := range st {
		if len(out) == 0 || out[len(out)-1].Game != s.Game {
			out = append(out, templates.StandingsTable{Game: s.Game, Unit: index.GameUnit(s.Game)})
		}
		t := &out[len(out)-1]
		t.Rows = append(t.Rows, templates.StandingRow{Rank: len(t.Rows) + 1, Bot: s.Bot, URL: "/bot/" + url.PathEscape(s.Bot),
			Games: s.Games, Wins: s.Wins, MeanRank: fmt.Sprintf("%.2f", s.MeanRank), MeanScore: meanScore(s.Standing),
			Conservative: fmt.Sprintf("%.2f", s.Conservative), Mu: fmt.Sprintf("%.2f", s.Mu), Sigma: fmt.Sprintf("%.2f", s.Sigma), Elo: fmt.Sprintf("%.0f", s.Elo)})
	}
	return out
}

// standingsPage is the leaderboard of the library, or of the games the
// query string's filters select (as the library page's).
func (s *Server) standingsPage(w http.ResponseWriter, r *http.Request) {
	ix := s.lib.Index()
	if ix == nil {
		s.errorPage(w, r, http.StatusNotFound, "No standings", "This server has no library index.")
		return
	}
	q, err := queryOf(r.URL.Query())
	if err != nil {
		s.errorPage(w, r, http.StatusBadRequest, "Cannot rate the library", err.Error())
		return
	}
	st, err := ix.Standings(q)
	if err != nil {
		s.errorPage(w, r, http.StatusBadRequest, "Cannot rate the library", err.Error())
		return
	}
	what := "Every complete game of the library, in game order (recorded time, then file name), rated as a tournament does: by μ − 3σ, beside Elo."
	if !filterOf(r.URL.Query()).Empty() {
		what = "The complete games of the filter, in game order (recorded time, then file name), rated as a tournament does: by μ − 3σ, beside Elo."
	} else if !ix.StandingsFresh() {
		what += " The library has changed since: the standings are being computed again (reload in a moment)."
	}
	render(w, r, http.StatusOK, templates.Standings(templates.StandingsPage{Title: "rewind — standings", Filter: what, Tables: standingsTables(st)}))
}

// botPage is one bot's page: its standing, its games (losses first: the
// games it lost, then those it won) and its rating over time.
func (s *Server) botPage(w http.ResponseWriter, r *http.Request) {
	ix := s.lib.Index()
	if ix == nil {
		s.errorPage(w, r, http.StatusNotFound, "No such bot", "This server has no library index.")
		return
	}
	bot := r.PathValue("key")
	if bot == "" || len(bot) > index.MaxSearch {
		s.errorPage(w, r, http.StatusBadRequest, "No such bot", "Give a bot's name.")
		return
	}
	all, err := ix.Standings(index.Query{})
	if err != nil {
		s.errorPage(w, r, http.StatusInternalServerError, "Cannot rate the library", err.Error())
		return
	}
	// Its rows of the standings, each with its rank in its game's table.
	var mine []templates.StandingsTable
	for _, t := range standingsTables(all) {
		t.Rows = slices.DeleteFunc(t.Rows, func(r templates.StandingRow) bool { return r.Bot != bot })
		if len(t.Rows) > 0 {
			mine = append(mine, t)
		}
	}
	lost, err := ix.Page(index.Query{Bot: bot, Lost: true, Limit: index.DefaultPage})
	if err != nil {
		s.errorPage(w, r, http.StatusInternalServerError, "Cannot list the games", err.Error())
		return
	}
	if len(mine) == 0 && len(lost.Rows) == 0 {
		if pg, err := ix.Page(index.Query{Bot: bot, Limit: 1}); err != nil || len(pg.Rows) == 0 {
			s.errorPage(w, r, http.StatusNotFound, "No such bot", "No game of the library has a bot named "+strconv.Quote(bot)+".")
			return
		}
	}
	p := templates.BotPage{Title: "rewind — " + bot, Bot: bot, Standing: mine, Rows: indexRows(lost.Rows)}
	if lost.Next != "" {
		p.Next = "/?" + url.Values{"bot": {bot}, "lost": {"1"}, "after": {lost.Next}}.Encode()
	} else {
		won, err := ix.Page(index.Query{Bot: bot, Winner: bot, Limit: index.DefaultPage})
		if err != nil {
			s.errorPage(w, r, http.StatusInternalServerError, "Cannot list the games", err.Error())
			return
		}
		p.Rows = append(p.Rows, indexRows(won.Rows)...)
		if won.Next != "" {
			p.Next = "/?" + url.Values{"winner": {bot}, "bot": {bot}, "after": {won.Next}}.Encode()
		}
	}
	pts, err := ix.Rating(bot)
	if err != nil {
		s.errorPage(w, r, http.StatusInternalServerError, "Cannot rate the library", err.Error())
		return
	}
	if len(pts) > 0 {
		p.Rating = ratingOption(bot, pts)
	}
	render(w, r, http.StatusOK, templates.Bot(p))
}

// ratingOption is the ECharts option of a bot's rating over time, as
// JSON (an attribute of the page, escaped by templ).
func ratingOption(bot string, pts []index.RatingPoint) string {
	xs := make([]int, len(pts))
	elo := make([]float64, len(pts))
	cons := make([]float64, len(pts))
	for i, p := range pts {
		xs[i], elo[i], cons[i] = p.Game, math.Round(p.Elo*10)/10, math.Round(p.Conservative*100)/100
	}
	opt := map[string]any{
		"title":   map[string]any{"text": bot + ": ratings after each game"},
		"tooltip": map[string]any{"trigger": "axis"},
		"legend":  map[string]any{"top": 24},
		"xAxis":   map[string]any{"type": "category", "name": "game", "nameLocation": "middle", "nameGap": 24, "data": xs},
		"yAxis": []any{map[string]any{"type": "value", "scale": true, "name": "μ − 3σ"},
			map[string]any{"type": "value", "scale": true, "name": "Elo"}},
		"series": []any{map[string]any{"type": "line", "name": "μ − 3σ", "data": cons, "yAxisIndex": 0},
			map[string]any{"type": "line", "name": "Elo", "data": elo, "yAxisIndex": 1}},
	}
	b, _ := json.Marshal(opt)
	return string(b)
}

// meanScore is a standing's mean score as the standings show it: "–"
// when none of its games kept its final score (match.SeatResult.NoScore).
func meanScore(s match.Standing) string {
	if s.Scored == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f", s.MeanScore)
}
