package viewer

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/assets"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/templates"
)

// ReplayHandler serves the generic replay page of one replay, whatever
// its game (ReplayPage). GET without a query answers the page, which
// the meta of a freshly opened stream titles; GET with ?data=1 the
// packed frames, the stream opened and read again to its end
// (EncodeStream: gzip'd JSON, application/gzip), which the page fetches
// from its own address. The page's scripts and styles are /static/ paths
// (Server serves them; StaticHandler elsewhere). A stream that cannot be
// opened is answered 422 with the reason (503 when the error wraps
// ErrBusy); one past the limits, 422 too (ErrTooBig). It is safe for
// concurrent use.
type ReplayHandler struct {
	// Open opens the replay's stream; each request opens its own and
	// closes it.
	Open func() (engine.Stream, error)
	// Title heads the page (the file's name); "" is the game's name.
	Title string
	// Limits bound each packing (zero values: the defaults).
	Limits StreamLimits
	// Library: the page links back to a library at /.
	Library bool
	// Fork, when set, is the library id of the replay, which the page
	// offers to play on from its turn (POST /api/fork).
	Fork string
	// mem, when set (a Server's), takes StreamPeakBytes(Limits) for each
	// packing, refusing it with 503 when it does not fit.
	mem *memBudget
}

// ReplayPage returns the handler of the replay page of the replay that
// open opens (a file of any game, through a generic reader), with the
// default limits.
func ReplayPage(open func() (engine.Stream, error)) *ReplayHandler {
	return &ReplayHandler{Open: open}
}

func (h *ReplayHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if r.URL.Query().Get("data") == "1" {
		h.data(w)
		return
	}
	s, err := h.Open()
	if err != nil {
		renderOpenError(w, r, err)
		return
	}
	p := ReplayPageData(s.Meta(), h.Title)
	s.Close()
	p.DataURL = "?data=1"
	p.Library = h.Library
	if h.Fork != "" {
		p.ForkURL, p.ID = "/api/fork", h.Fork
	}
	render(w, r, http.StatusOK, templates.Replay(p))
}

// renderOpenError answers the error page of a replay that cannot be
// opened (err, from its Open): 404 for ErrNotFound, 503 with Retry-After
// for ErrBusy or a header cut short, else 422 with the reason.
func renderOpenError(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, ErrNotFound):
		render(w, r, http.StatusNotFound, templates.Error(templates.ErrorPage{Title: "No such replay", Message: err.Error()}))
	case errors.Is(err, ErrBusy):
		w.Header().Set("Retry-After", fmt.Sprint(int(RetryAfter/time.Second)))
		render(w, r, http.StatusServiceUnavailable, templates.Error(templates.ErrorPage{Title: "The server is busy", Message: err.Error() + "; this page is worth reloading in a few seconds."}))
	case source.CutShort(err):
		w.Header().Set("Retry-After", fmt.Sprint(int(RetryAfter/time.Second)))
		render(w, r, http.StatusServiceUnavailable, templates.Error(templates.ErrorPage{Title: "Not readable yet", Message: headerCut(err) + "; this page is worth reloading in a few seconds."}))
	default:
		render(w, r, http.StatusUnprocessableEntity, templates.Error(templates.ErrorPage{Title: "Cannot open this replay", Message: err.Error()}))
	}
}

func (h *ReplayHandler) data(w http.ResponseWriter) {
	if h.mem != nil {
		peak := StreamPeakBytes(h.Limits)
		if err := h.mem.reserve(peak); err != nil {
			refuseReservation(w, err)
			return
		}
		defer h.mem.release(peak)
	}
	gz, err := h.pack()
	if errors.Is(err, ErrBusy) {
		busy(w, err.Error())
		return
	}
	if source.CutShort(err) {
		busy(w, headerCut(err))
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	serveGzip(w, gz)
}

func (h *ReplayHandler) pack() ([]byte, error) {
	s, err := h.Open()
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return EncodeStream(s, h.Limits)
}

// ReplayPageData is the replay page's view of a replay of meta m,
// titled title ("" is the game's name). The caller sets where the frames
// come from.
func ReplayPageData(m *engine.StreamMeta, title string) templates.ReplayPage {
	name := rulesetName(m.Ruleset)
	if title == "" {
		title = name
	}
	p := templates.ReplayPage{Title: path.Base(title), Game: m.Ruleset, Scripts: pageScripts(m.Ruleset)}
	parts := []string{name}
	var names []string
	for _, pl := range m.Players {
		names = append(names, pl.Name)
	}
	parts = append(parts, fmt.Sprintf("%d players: %s", len(names), strings.Join(names, ", ")))
	if m.Sequential {
		parts = append(parts, "one player a turn")
	}
	if m.MaxTurns > 0 {
		parts = append(parts, fmt.Sprintf("up to %d turns", m.MaxTurns))
	}
	if m.Format != "" {
		parts = append(parts, m.Format)
	}
	if m.Label != "" {
		parts = append(parts, m.Label)
	}
	if m.Provenance != "" {
		parts = append(parts, m.Provenance)
	}
	p.Summary = strings.Join(parts, " · ")
	return p
}

// rulesetName is the registered display name of ruleset id, or id.
func rulesetName(id string) string {
	if info, ok := engine.About(id); ok {
		return info.Name
	}
	return id
}

// pageModules are the replay page's scripts (static/), in the order they
// load: each registers its part of the page's one namespace
// (window.rewind), and page.js, last, starts the page. The game's
// painter (gameScript) loads between the modules and page.js.
var pageModules = []string{"dom.js", "paint.js", "decode.js", "playback.js", "keys.js", "board.js",
	"panels.js", "logsearch.js", "events.js", "charts.js", "clip.js", "fork.js", "live.js"}

// pageEntry is the script that starts the replay page, after the modules
// and the game's painter.
const pageEntry = "page.js"

// gameScriptPrefix is where the viewer serves each game's painter
// (engine.Registration.BoardScript), under /static/ as ID.js.
const gameScriptPrefix = "games/"

// gameScript returns the painter of game id (its registered
// BoardScript), nil when it has none.
func gameScript(id string) []byte {
	g, ok := engine.About(id)
	if !ok {
		return nil
	}
	return g.BoardScript
}

// pageScripts are the /static/ paths of the scripts of game id's replay
// page, in order: the modules, the game's painter when it has one, the
// entry.
func pageScripts(id string) []string {
	var out []string
	for _, m := range pageModules {
		out = append(out, "/static/"+m)
	}
	if gameScript(id) != nil {
		out = append(out, "/static/"+gameScriptPrefix+id+".js")
	}
	return append(out, "/static/"+pageEntry)
}

// staticFile returns the bytes of name, a path under /static/: an
// embedded file of static/, a game's painter (games/ID.js) or ECharts.
func staticFile(name string) ([]byte, error) {
	if name == "echarts.min.js" {
		return assets.ECharts(), nil
	}
	if id, ok := strings.CutPrefix(name, gameScriptPrefix); ok {
		id, ok = strings.CutSuffix(id, ".js")
		if b := gameScript(id); ok && b != nil {
			return b, nil
		}
		return nil, fmt.Errorf("viewer: no painter %q: %w", name, fs.ErrNotExist)
	}
	return fs.ReadFile(staticFS, "static/"+name)
}

// WriteReplayHTML writes p's generic page as one self-contained file
// titled title: styles, scripts (pageScripts: the page's modules, the
// game's painter when it has one, the entry), ECharts and the frames are all inlined, and a
// Content-Security-Policy forbids any request, so it works opened from
// disk with no network.
func WriteReplayHTML(ctx context.Context, w io.Writer, p *Packed, title string) error {
	gz, err := EncodePacked(p)
	if err != nil {
		return err
	}
	var css, js []string
	for _, name := range []string{"viewer.css", "board.css"} {
		b, err := fs.ReadFile(staticFS, "static/"+name)
		if err != nil {
			return err
		}
		css = append(css, string(b))
	}
	for _, name := range pageScripts(p.Game) {
		b, err := staticFile(strings.TrimPrefix(name, "/static/"))
		if err != nil {
			return err
		}
		js = append(js, string(b))
	}
	as := templates.Assets{Inline: true, CSS: strings.Join(css, "\n"), ViewerJS: strings.Join(js, "\n;\n"),
		ECharts: string(assets.ECharts()), EChartsVersion: assets.EChartsVersion()}
	for name, s := range map[string]string{"styles": as.CSS, "scripts": as.ViewerJS, "echarts": as.ECharts} {
		if l := strings.ToLower(s); strings.Contains(l, "</script") || strings.Contains(l, "</style") || strings.Contains(l, "<!--") {
			return fmt.Errorf("viewer: the %s cannot be inlined: they contain a closing tag or comment opener", name)
		}
	}
	if title == "" {
		title = p.Name
	}
	page := templates.ReplayPage{Title: path.Base(title), Game: p.Game, Scripts: pageScripts(p.Game), Summary: packedSummary(p), Warning: p.Warning,
		DataB64: base64.StdEncoding.EncodeToString(gz), Assets: as}
	return templates.Replay(page).Render(ctx, w)
}

// packedSummary is the page header's line for p.
func packedSummary(p *Packed) string {
	var names []string
	for _, pl := range p.Players {
		names = append(names, pl.Name)
	}
	last := p.Frames[len(p.Frames)-1]
	s := fmt.Sprintf("%s · %s %d×%d · %d turns · %d players: %s", p.Name, p.Board.Topology, p.Board.Width, p.Board.Height, last.Turn, len(names), strings.Join(names, ", "))
	if len(last.Ranking) > 0 && last.Ranking[0] >= 0 && last.Ranking[0] < len(names) {
		s += " · " + names[last.Ranking[0]] + " first"
	}
	if p.Provenance != "" {
		s += " · " + p.Provenance
	}
	return s
}

// StaticHandler serves the viewer's embedded scripts and styles under
// /static/ (ECharts included), for a ReplayHandler mounted outside a
// Server.
func StaticHandler() http.Handler {
	s := &Server{}
	return http.StripPrefix("/static/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.SetPathValue("file", r.URL.Path)
		s.static(w, r)
	}))
}

// libraryReplayPage answers the replay page of library file id, opened
// by Options.OpenStream, with the server's memory budget.
func (s *Server) libraryReplayPage(w http.ResponseWriter, r *http.Request, id string) {
	h := &ReplayHandler{Title: id, Library: !s.lib.Single(), mem: s.mem, Open: s.streamOpener(id)}
	if !s.lib.Single() {
		h.Fork = id
	}
	h.ServeHTTP(w, r)
}

// streamOpener opens library file id through Options.OpenStream.
func (s *Server) streamOpener(id string) func() (engine.Stream, error) {
	return func() (engine.Stream, error) {
		if !ValidID(id) || (s.lib.only != "" && id != s.lib.only) {
			return nil, fmt.Errorf("%w: %q", ErrNotFound, id)
		}
		// Anything but a regular file of the folder (a link leading out,
		// a folder) is no replay of the library.
		if fi, err := s.lib.root.Stat(id); err != nil || !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%w: %q", ErrNotFound, id)
		}
		f, err := s.lib.root.Open(id)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("%w: %q", ErrNotFound, id)
			}
			return nil, err
		}
		return s.openStream(f)
	}
}

// openStream opens f, a file of the library, through
// Options.OpenStream. A file of a stream format that is decoded whole
// when opened (StreamFormat.DecodeBytes: a Monad reference log) has
// those bytes reserved in the memory budget until the stream is closed;
// when they do not fit, the error wraps ErrBusy. f is closed on an error
// and with the stream.
func (s *Server) openStream(f *os.File) (engine.Stream, error) {
	var need int64
	prefix := make([]byte, source.SniffBytes)
	n, _ := f.ReadAt(prefix, 0)
	if sf, ok := source.LookupStreamFormat(prefix[:n]); ok && s.mem != nil {
		need = sf.DecodeBytes
	}
	if need > 0 {
		if err := s.mem.reserve(need); err != nil {
			f.Close()
			return nil, err
		}
	}
	st, err := s.opts.OpenStream(f)
	if err != nil {
		f.Close()
		if need > 0 {
			s.mem.release(need)
		}
		return nil, err
	}
	if need > 0 {
		return &reservedStream{Stream: st, mem: s.mem, n: need}, nil
	}
	return st, nil
}

// reservedStream releases n bytes of mem once, when it is closed.
type reservedStream struct {
	engine.Stream
	mem  *memBudget
	n    int64
	once sync.Once
}

func (r *reservedStream) Close() error {
	err := r.Stream.Close()
	r.once.Do(func() { r.mem.release(r.n) })
	return err
}

// filePrefix is the first source.SniffBytes bytes of library file name
// (fewer when it is shorter; none when it cannot be read).
func (s *Server) filePrefix(name string) []byte {
	f, err := s.lib.root.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	prefix := make([]byte, source.SniffBytes)
	n, _ := io.ReadFull(f, prefix)
	return prefix[:n]
}

// gameRoute answers GET /game/{id...}, the replay page's address of
// old: as /replay/{id...}.
func (s *Server) gameRoute(w http.ResponseWriter, r *http.Request) {
	s.libraryReplayPage(w, r, r.PathValue("id"))
}

// headerCut says why a replay that ends before the end of its header
// (err, source.CutShort; a file cut after it reads up to its last whole
// round) cannot be shown yet: a recording that has just started has not
// written its header whole. It is answered 503 with Retry-After, not
// 422, since the next read will likely find it whole.
func headerCut(err error) string {
	return "the replay ends inside its header (a recording that has just started, or a file cut there): " + err.Error()
}
