package viewer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/templates"
)

// LiveGame is a game being played (or just finished) that the viewer can
// follow.
type LiveGame struct {
	ID      string // url-safe id ([0-9A-Za-z._-])
	Room    string
	Turn    int // last whole round recorded
	MaxTurn int
	Players []string
	Done    bool
	// File, when set, is the recording's file as the OS names it
	// (absolute, or relative to the working directory). Once the game is
	// Done, the live page links to its replay when the file is a replay
	// of the viewer's library folder.
	File string
}

// Live is a source of games being played; rewind server implements it.
type Live interface {
	LiveGames() []LiveGame
	// LiveReplay returns the .rwd bytes recorded so far for game id (a
	// valid prefix of a recording: header and whole rounds, no footer
	// until Done), the game's state, and a channel closed at the next
	// round or at the end. Any error (an unknown id above all) makes the
	// game unknown to the viewer (404). The viewer never modifies data.
	LiveReplay(id string) (data []byte, g LiveGame, changed <-chan struct{}, err error)
}

// LiveRooms is what a Live source implements to say, beside its games,
// what each of its rooms is doing — above all at turn 0, who a room waits
// for ("waiting for 2 more players …"): the library's live list shows it,
// so a game that has not started is not a blank "no game".
type LiveRooms interface {
	LiveRooms() []LiveRoom
}

// LiveRoom is one room's state, in words.
type LiveRoom struct {
	Room  string
	State string
}

// Bounds of live viewing.
const (
	// DefaultMaxLiveStreams bounds the event streams open at once
	// (Options.MaxLiveStreams); past it a follower gets 503.
	DefaultMaxLiveStreams = 256
	// liveRepackEvery is the least time between two packs of one game:
	// however fast rounds come, a game is decoded at most about four
	// times a second and followers skip to the newest round.
	liveRepackEvery = 250 * time.Millisecond
	// liveHeartbeat is how often an idle event stream sends a comment, so
	// proxies keep it open and a vanished client is noticed.
	liveHeartbeat = 15 * time.Second
	// liveWriteTimeout bounds one write to an event stream.
	liveWriteTimeout = 30 * time.Second
	// maxLiveCached is how many live games keep a packed version in
	// memory beyond those being followed.
	maxLiveCached = 8
)

// ValidLiveID reports whether id can name a live game: 1 to 128 of
// [0-9A-Za-z._-], and not "." or "..".
func ValidLiveID(id string) bool {
	if id == "" || len(id) > 128 || id == "." || id == ".." {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// LiveURL is the path of a live game's page.
func LiveURL(id string) string { return "/live/" + id }

// liveHub shares the work of following live games among every request:
// one pack per game version (singleflight), at most one pack start per
// liveRepackEvery per game, and one pump per followed game that watches
// its rounds and wakes the followers.
type liveHub struct {
	src Live
	// mem accounts the packs in progress and the versions kept (shared
	// with the library).
	mem       *memBudget
	every     time.Duration
	heartbeat time.Duration
	streams   chan struct{} // a slot per open event stream
	// closing is closed by Shutdown: every event stream ends.
	closing   chan struct{}
	closeOnce sync.Once

	mu    sync.Mutex
	games map[string]*liveEntry
	tick  int
	// pumps counts the running pump goroutines, packs the packs done,
	// waiting the callers waiting for the time of a game's next pack (for
	// the tests).
	pumps, packs, waiting int
}

// liveEntry is what the hub holds for one game.
type liveEntry struct {
	id  string
	ver *liveVersion // the newest packed version
	// flight is the pack in progress, if any.
	flight *liveFlight
	// next is when the next pack may start.
	next time.Time
	// notify is closed (and replaced) when ver changes or the game goes.
	notify chan struct{}
	// gone says why the game can no longer be followed (nil while it can).
	gone error
	// subs counts the open event streams; the pump runs while it is
	// positive, until stop is called.
	subs    int
	stop    context.CancelFunc
	lastUse int
}

// liveVersion is one packed state of a game: the replay page's header
// and the frames as the page fetches them (EncodePacked; their Warning
// is board.js's to show).
type liveVersion struct {
	game LiveGame
	page templates.ReplayPage
	gz   []byte
	// cost is what the version is charged to the memory budget while
	// the hub keeps it.
	cost int64
}

type liveFlight struct {
	done chan struct{}
	ver  *liveVersion
	err  error
}

func newLiveHub(src Live, maxStreams int, mem *memBudget) *liveHub {
	if maxStreams <= 0 {
		maxStreams = DefaultMaxLiveStreams
	}
	return &liveHub{src: src, mem: mem, every: liveRepackEvery, heartbeat: liveHeartbeat,
		streams: make(chan struct{}, maxStreams), closing: make(chan struct{}), games: map[string]*liveEntry{}}
}

// Shutdown ends the live and library event streams, which outlive any
// request timeout, so that an http.Server's Shutdown need not wait for
// them (HTTPServer registers it; a caller running its own http.Server
// passes it to RegisterOnShutdown). The pages then try to reconnect.
func (s *Server) Shutdown() {
	s.closeOnce.Do(func() { close(s.closing) })
	if s.live != nil {
		s.live.closeOnce.Do(func() { close(s.live.closing) })
	}
}

// errGone says a game the viewer followed is no longer known to the
// Live source.
var errGone = errors.New("the game is no longer live")

// errNoRounds says a game has no whole round to show yet (the replay
// page needs one: the analysis of a game starts at round 1).
var errNoRounds = errors.New("the game has not played its first round yet")

// sameState reports whether two observations of a game are the same
// version.
func sameState(a, b LiveGame) bool { return a.Turn == b.Turn && a.Done == b.Done }

// reaches reports whether version state v is at least what was wanted.
func reaches(v LiveGame, turn int, done bool) bool {
	return v.Done || (!done && v.Turn >= turn)
}

// entryLocked returns id's entry, creating it, and drops the least
// recently used idle entries beyond maxLiveCached.
func (h *liveHub) entryLocked(id string) *liveEntry {
	h.tick++
	e, ok := h.games[id]
	if !ok {
		e = &liveEntry{id: id, notify: make(chan struct{})}
		h.games[id] = e
	}
	e.lastUse = h.tick
	for len(h.games) > maxLiveCached {
		var victim *liveEntry
		for _, c := range h.games {
			if c.subs > 0 || c.flight != nil || c == e {
				continue
			}
			if victim == nil || c.lastUse < victim.lastUse {
				victim = c
			}
		}
		if victim == nil {
			break
		}
		delete(h.games, victim.id)
		h.setVerLocked(victim, nil)
	}
	return e
}

// goneLocked marks e as no longer followable and forgets it, so a later
// request starts afresh.
func (h *liveHub) goneLocked(e *liveEntry, err error) {
	if e.gone == nil {
		e.gone = err
		close(e.notify)
		e.notify = make(chan struct{})
	}
	if h.games[e.id] == e {
		delete(h.games, e.id)
	}
	// Its followers may still show the last version while they are told
	// the game is gone; the hub no longer keeps it.
	if e.ver != nil && e.ver.cost > 0 {
		h.mem.release(e.ver.cost)
		e.ver.cost = 0
	}
}

// setVerLocked makes v the newest version of e, moving the memory
// budget's charge from the old one to v (nil: e keeps none).
func (h *liveHub) setVerLocked(e *liveEntry, v *liveVersion) {
	if e.ver != nil && e.ver.cost > 0 {
		h.mem.release(e.ver.cost)
		e.ver.cost = 0
	}
	e.ver = v
	if v != nil {
		v.cost = int64(len(v.gz)) + 4<<10

		h.mem.charge(v.cost)
	}
}

// current returns a packed version of game id at least as new as the
// game was when current was called, packing it if needed: concurrent
// callers share one pack per version, and no pack starts sooner than
// h.every after the game's previous one (callers wait, then the newest
// state is packed). It also returns the last state observed and the
// channel closed when the game moves on from it.
func (h *liveHub) current(ctx context.Context, id string) (*liveVersion, LiveGame, <-chan struct{}, error) {
	wantTurn, wantDone, first := 0, false, true
	for {
		data, g, changed, err := h.src.LiveReplay(id)
		if err != nil {
			h.mu.Lock()
			if e, ok := h.games[id]; ok {
				h.goneLocked(e, errGone)
			}
			h.mu.Unlock()
			return nil, g, nil, fmt.Errorf("%w: live game %q: %v", ErrNotFound, id, err)
		}
		if g.Turn < 1 {
			return nil, g, changed, errNoRounds
		}
		if first {
			wantTurn, wantDone, first = g.Turn, g.Done, false
		}
		now := time.Now()
		h.mu.Lock()
		e := h.entryLocked(id)
		busy := e.flight != nil || now.Before(e.next)
		if v := e.ver; v != nil && (sameState(v.game, g) || (busy && reaches(v.game, wantTurn, wantDone))) {
			h.mu.Unlock()
			return v, g, changed, nil
		}
		if f := e.flight; f != nil {
			h.mu.Unlock()
			select {
			case <-f.done:
			case <-ctx.Done():
				return nil, g, nil, ctx.Err()
			}
			if f.err != nil {
				if errors.Is(f.err, ErrBusy) {
					h.mu.Lock()
					v := e.ver
					h.mu.Unlock()
					if v != nil {
						return v, g, changed, nil
					}
				}
				return nil, g, nil, f.err
			}
			continue
		}
		if wait := e.next.Sub(now); wait > 0 {
			h.waiting++
			h.mu.Unlock()
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-ctx.Done():
			}
			t.Stop()
			h.mu.Lock()
			h.waiting--
			h.mu.Unlock()
			if ctx.Err() != nil {
				return nil, g, nil, ctx.Err()
			}
			continue
		}
		f := &liveFlight{done: make(chan struct{})}
		e.flight, e.next = f, now.Add(h.every)
		h.packs++
		h.mu.Unlock()

		f.ver, f.err = packLive(data, g, h.mem)

		h.mu.Lock()
		e.flight = nil
		// A game's packs run one after another, each of a state observed
		// after the previous one started: the last is the newest.
		if f.err == nil && e.gone == nil && (e.ver == nil || !sameState(e.ver.game, f.ver.game)) {
			h.setVerLocked(e, f.ver)
			close(e.notify)
			e.notify = make(chan struct{})
		}
		// Wanting memory is not the game's fault: the game stays, a
		// request that an older version satisfies gets it, and the next
		// pack is tried after the usual interval.
		wantsMem := errors.Is(f.err, ErrBusy)
		if f.err != nil && !wantsMem {
			h.goneLocked(e, f.err)
		}
		close(f.done)
		old := e.ver
		h.mu.Unlock()
		if wantsMem && old != nil {
			return old, g, changed, nil
		}
		if f.err != nil {
			return nil, g, nil, f.err
		}
		return f.ver, g, changed, nil
	}
}

// packLive packs a game's recording so far (a recording without its
// footer reads to its last whole round, then ends with a truncation
// PackStream keeps as a Warning, dropped while the game is not Done) for
// the replay page, with the default StreamLimits, reserving their peak
// from the memory budget while it packs. The version keeps only the
// gzip'd frames and the page's header.
func packLive(data []byte, g LiveGame, mem *memBudget) (*liveVersion, error) {
	decodeSlots <- struct{}{}
	defer func() { <-decodeSlots }()
	var limits StreamLimits
	peak := StreamPeakBytes(limits)
	if err := mem.reserve(peak); err != nil {
		return nil, fmt.Errorf("live game %q at turn %d: %w", g.ID, g.Turn, err)
	}
	defer mem.release(peak)
	st, err := source.NewStream(bytes.NewReader(data), nil)
	if err != nil {
		return nil, fmt.Errorf("live game %q at turn %d: %w", g.ID, g.Turn, err)
	}
	defer st.Close()
	page := ReplayPageData(st.Meta(), "")
	p, err := PackStream(st, limits)
	if err != nil {
		return nil, fmt.Errorf("live game %q at turn %d: %w", g.ID, g.Turn, err)
	}
	if !g.Done {
		p.Warning = "" // the recording has no end yet: that is no damage
	}
	gz, err := EncodePacked(p)
	if err != nil {
		return nil, fmt.Errorf("live game %q: %w", g.ID, err)
	}
	g.Players = append([]string(nil), g.Players...)
	return &liveVersion{game: g, page: page, gz: gz}, nil
}

// subscribe registers an event stream on game id and starts the game's
// pump if it is the first.
func (h *liveHub) subscribe(id string) *liveEntry {
	h.mu.Lock()
	defer h.mu.Unlock()
	e := h.entryLocked(id)
	e.subs++
	if e.subs == 1 {
		ctx, cancel := context.WithCancel(context.Background())
		e.stop = cancel
		h.pumps++
		go h.pump(ctx, e)
	}
	return e
}

func (h *liveHub) unsubscribe(e *liveEntry) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e.subs--
	if e.subs == 0 {
		e.stop()
	}
}

// pump keeps e's version up to date with the game while someone follows
// it: at each new round it packs the newest state (as often as current
// allows), which wakes every follower. It ends when the last follower
// goes, when the game ends or when it is gone.
func (h *liveHub) pump(ctx context.Context, e *liveEntry) {
	defer func() {
		h.mu.Lock()
		h.pumps--
		h.mu.Unlock()
	}()
	for ctx.Err() == nil {
		v, g, changed, err := h.current(ctx, e.id)
		if errors.Is(err, errNoRounds) && !g.Done {
			select {
			case <-changed:
			case <-ctx.Done():
			}
			continue
		}
		if errors.Is(err, ErrBusy) {
			t := time.NewTimer(h.every)
			select {
			case <-t.C:
			case <-ctx.Done():
			}
			t.Stop()
			continue
		}
		if err != nil {
			if ctx.Err() == nil {
				h.mu.Lock()
				h.goneLocked(e, err)
				h.mu.Unlock()
			}
			return
		}
		if v.game.Done {
			return
		}
		if !sameState(v.game, g) {
			continue // the game moved on while it was packed
		}
		select {
		case <-changed:
		case <-ctx.Done():
		}
	}
}

// liveJSON is a live game as the page and /api/live see it.
type liveJSON struct {
	ID      string   `json:"id"`
	Room    string   `json:"room"`
	Turn    int      `json:"turn"`
	MaxTurn int      `json:"max_turn"`
	Players []string `json:"players"`
	Done    bool     `json:"done"`
	// URL is the live page; Replay the finished replay's page in the
	// library ("" when the game is not done or not in the library).
	URL    string `json:"url"`
	Replay string `json:"replay,omitempty"`
}

func (s *Server) liveJSONOf(g LiveGame) liveJSON {
	j := liveJSON{ID: g.ID, Room: g.Room, Turn: g.Turn, MaxTurn: g.MaxTurn, Players: g.Players, Done: g.Done, URL: LiveURL(g.ID)}
	if j.Players == nil {
		j.Players = []string{}
	}
	if id := s.libraryID(g.File); g.Done && id != "" {
		j.Replay = ReplayURL(id)
	}
	return j
}

// libraryID is the replay id of file in the library folder, or "" when it
// is not a replay of the library.
func (s *Server) libraryID(file string) string {
	if file == "" || s.lib.Single() {
		return ""
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(s.lib.Dir(), abs)
	if err != nil {
		return ""
	}
	if id := filepath.ToSlash(rel); ValidID(id) {
		return id
	}
	return ""
}

// liveGames lists the source's games with a valid id.
func (s *Server) liveGames() []LiveGame {
	var out []LiveGame
	for _, g := range s.live.src.LiveGames() {
		if ValidLiveID(g.ID) {
			out = append(out, g)
		}
	}
	return out
}

func (s *Server) liveRowsOf(games []LiveGame) []templates.LiveRow {
	out := make([]templates.LiveRow, 0, len(games))
	for _, g := range games {
		j := s.liveJSONOf(g)
		out = append(out, templates.LiveRow{ID: g.ID, URL: j.URL, Room: g.Room, Players: strings.Join(g.Players, ", "),
			Turn: g.Turn, MaxTurn: g.MaxTurn, Done: g.Done, Replay: j.Replay})
	}
	return out
}

func (s *Server) liveList(w http.ResponseWriter, r *http.Request) {
	games := s.liveGames()
	out := make([]liveJSON, 0, len(games))
	for _, g := range games {
		out = append(out, s.liveJSONOf(g))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) liveRows(w http.ResponseWriter, r *http.Request) {
	render(w, r, http.StatusOK, templates.LiveRows(s.liveRowsOf(s.liveGames()), s.liveRooms()))
}

// liveRooms is what the source says of its rooms (LiveRooms), at most
// maxLiveRooms of them.
func (s *Server) liveRooms() []templates.LiveRoomRow {
	lr, ok := s.live.src.(LiveRooms)
	if !ok {
		return nil
	}
	var out []templates.LiveRoomRow
	for _, r := range lr.LiveRooms() {
		if len(out) == maxLiveRooms {
			break
		}
		out = append(out, templates.LiveRoomRow{Room: r.Room, State: r.State})
	}
	return out
}

// maxLiveRooms bounds the rooms the live list shows.
const maxLiveRooms = 100

// liveVersionFor answers a live request's game version, or writes the
// error and returns nil.
func (s *Server) liveVersionFor(w http.ResponseWriter, r *http.Request, page bool) *liveVersion {
	id := r.PathValue("id")
	var v *liveVersion
	err := fmt.Errorf("%w: live game %q", ErrNotFound, id)
	if ValidLiveID(id) {
		v, _, _, err = s.live.current(r.Context(), id)
	}
	if err == nil {
		return v
	}
	status := http.StatusUnprocessableEntity
	switch {
	case errors.Is(err, ErrNotFound):
		status = http.StatusNotFound
	case errors.Is(err, ErrBusy):
		status = http.StatusServiceUnavailable
		w.Header().Set("Retry-After", fmt.Sprint(int(RetryAfter/time.Second)))
	case errors.Is(err, errNoRounds):
		if page {
			// A page that waits for the first round, then opens the game.
			render(w, r, http.StatusOK, templates.Error(templates.ErrorPage{Title: "Waiting for the first round",
				Message: fmt.Sprintf("The game %q has not played its first round yet; this page opens it when it has.", id), Refresh: 2}))
			return nil
		}
		status = http.StatusTooEarly
	case r.Context().Err() == nil:
		s.logf("viewer: %v", err)
	}
	if page {
		title := "Cannot show this game"
		if status == http.StatusNotFound {
			title, err = "No such live game", fmt.Errorf("no game %q is being played", id)
		}
		s.errorPage(w, r, status, title, err.Error())
	} else {
		http.Error(w, err.Error(), status)
	}
	return nil
}

func (s *Server) livePage(w http.ResponseWriter, r *http.Request) {
	v := s.liveVersionFor(w, r, true)
	if v == nil {
		return
	}
	g := v.game
	j := s.liveJSONOf(g)
	p := v.page
	p.Title = "live: " + g.ID
	p.DataURL = LiveURL(g.ID) + "/data"
	p.Library = !s.lib.Single()
	p.Live = &templates.LiveInfo{EventsURL: LiveURL(g.ID) + "/events", Turn: g.Turn, MaxTurn: g.MaxTurn, Done: g.Done, Replay: j.Replay}
	render(w, r, http.StatusOK, templates.Replay(p))
}

func (s *Server) liveData(w http.ResponseWriter, r *http.Request) {
	v := s.liveVersionFor(w, r, false)
	if v == nil {
		return
	}
	w.Header().Set("X-Rewind-Turn", fmt.Sprint(v.game.Turn))
	// The frames are only ever served gzip'd, for the page to inflate
	// (as the replay page's ?data=1).
	serveGzip(w, v.gz)
}

// serveGzip answers a packed blob gzip'd as it is (application/gzip), for
// the page to inflate itself: the browser then hands the page the
// compressed bytes, a tenth of the blob (docs/viewer.md).
func serveGzip(w http.ResponseWriter, gz []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/gzip")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Length", fmt.Sprint(len(gz)))
	w.Write(gz)
}

// liveEvents streams a live game's progress as server-sent events:
//
//	event: round  data: the game (liveJSON) at each new packed version,
//	              the first one at once (followers skip to the newest);
//	event: done   data: the game, once its whole recording is packed
//	              (instead of a last round; the stream ends);
//	event: gone   data: {"error"}, when the game can no longer be followed.
//
// A comment is sent every liveHeartbeat while nothing happens. The stream
// ends when the client goes, the game ends or is gone.
func (s *Server) liveEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !ValidLiveID(id) {
		http.Error(w, fmt.Sprintf("no live game %q", id), http.StatusNotFound)
		return
	}
	h := s.live
	select {
	case h.streams <- struct{}{}:
		defer func() { <-h.streams }()
	default:
		w.Header().Set("Retry-After", "10")
		http.Error(w, fmt.Sprintf("too many live streams (%d): try again later", cap(h.streams)), http.StatusServiceUnavailable)
		return
	}
	e := h.subscribe(id)
	defer h.unsubscribe(e)
	// A game with no round yet is followed too: its first round comes as
	// an event.
	if _, g, _, err := h.current(r.Context(), id); err != nil && (!errors.Is(err, errNoRounds) || g.Done) {
		status := http.StatusUnprocessableEntity
		if errors.Is(err, ErrNotFound) {
			status = http.StatusNotFound
		}
		http.Error(w, err.Error(), status)
		return
	}

	rc := http.NewResponseController(w)
	// The stream outlives the server's request timeouts: no read
	// deadline (a client that goes closes the connection), and a
	// deadline per write instead of one for the whole response.
	rc.SetReadDeadline(time.Time{})
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	send := func(event string, v any) bool {
		rc.SetWriteDeadline(time.Now().Add(liveWriteTimeout))
		var err error
		if event == "" {
			_, err = io.WriteString(w, ": heartbeat\n\n")
		} else {
			b, _ := json.Marshal(v)
			_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		}
		return err == nil && rc.Flush() == nil
	}
	hb := time.NewTicker(h.heartbeat)
	defer hb.Stop()
	var sent *liveVersion
	for {
		h.mu.Lock()
		v, gone, notify := e.ver, e.gone, e.notify
		h.mu.Unlock()
		if v != nil && v.game.Done {
			send("done", s.liveJSONOf(v.game))
			return
		}
		if v != nil && v != sent {
			if !send("round", s.liveJSONOf(v.game)) {
				return
			}
			sent = v
		}
		if gone != nil {
			send("gone", map[string]string{"error": gone.Error()})
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-h.closing:
			return
		case <-hb.C:
			if !send("", nil) {
				return
			}
		case <-notify:
		}
	}
}
