package viewer

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/diff"
	"github.com/rewind-game/rewind/internal/templates"
)

// CompareHandler serves the compare page of two replays A and B, of any
// game (docs/viewer.md, "The compare page"): their boards side by side on
// one scrubber, the commands of both, their charts overlaid and the first
// divergence that `rewind diff` finds (internal/diff). GET answers the
// page, which the metas of freshly opened streams title; the page's query
// with data=a or data=b the packed frames of one replay (as
// ReplayHandler's ?data=1, within the same limits and memory budget);
// with diff=1 diff.Compare's Result of the two streams as JSON
// (docs/diff-json.md). A replay that cannot be opened is answered as
// ReplayHandler answers it. It is safe for concurrent use.
type CompareHandler struct {
	// OpenA and OpenB open each replay's stream; each request opens its
	// own and closes it.
	OpenA, OpenB func() (engine.Stream, error)
	// TitleA and TitleB name the replays (their files); "" is the game's
	// name.
	TitleA, TitleB string
	// Limits bound each packing (zero values: the defaults).
	Limits StreamLimits
	// Library: the page links back to a library at /.
	Library bool
	mem     *memBudget
}

// compareModules are the compare page's scripts (static/), in the order
// they load: the replay page's modules it shares (pageModules), then the
// games' painters, then its entry.
var compareModules = []string{"dom.js", "paint.js", "decode.js", "playback.js", "keys.js", "board.js", "charts.js", "clip.js"}

// compareEntry is the script that starts the compare page.
const compareEntry = "compare.js"

// compareScripts are the /static/ paths of the compare page of games a
// and b: the modules, each game's painter once, the entry.
func compareScripts(a, b string) []string {
	var out []string
	for _, m := range compareModules {
		out = append(out, "/static/"+m)
	}
	for i, id := range []string{a, b} {
		if gameScript(id) != nil && (i == 0 || id != a) {
			out = append(out, "/static/"+gameScriptPrefix+id+".js")
		}
	}
	return append(out, "/static/"+compareEntry)
}

func (h *CompareHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	q := r.URL.Query()
	switch {
	case q.Get("data") == "a":
		(&ReplayHandler{Open: h.OpenA, Limits: h.Limits, mem: h.mem}).data(w)
		return
	case q.Get("data") == "b":
		(&ReplayHandler{Open: h.OpenB, Limits: h.Limits, mem: h.mem}).data(w)
		return
	case q.Get("diff") == "1":
		h.diff(w)
		return
	}
	var parts [2]templates.ComparePart
	for i, side := range []struct {
		open  func() (engine.Stream, error)
		title string
	}{{h.OpenA, h.TitleA}, {h.OpenB, h.TitleB}} {
		s, err := side.open()
		if err != nil {
			renderOpenError(w, r, fmt.Errorf("replay %s: %w", "AB"[i:i+1], err))
			return
		}
		p := ReplayPageData(s.Meta(), side.title)
		s.Close()
		parts[i] = templates.ComparePart{Title: p.Title, Game: p.Game, Summary: p.Summary, DataURL: withQuery(q, "data", "ab"[i:i+1])}
	}
	page := templates.ComparePage{A: parts[0], B: parts[1], DiffURL: withQuery(q, "diff", "1"), Library: h.Library,
		Scripts: compareScripts(parts[0].Game, parts[1].Game)}
	page.Title = parts[0].Title + " vs " + parts[1].Title
	render(w, r, http.StatusOK, templates.Compare(page))
}

// withQuery is the relative address of the page's query q with key set
// to value.
func withQuery(q url.Values, key, value string) string {
	v := url.Values{}
	for k, vs := range q {
		if k != "data" && k != "diff" {
			v[k] = vs
		}
	}
	v.Set(key, value)
	return "?" + v.Encode()
}

// diff answers diff.Compare's Result of freshly opened streams of A and
// B as JSON; 422 with the reason when one cannot be read.
func (h *CompareHandler) diff(w http.ResponseWriter) {
	a, err := h.OpenA()
	if err != nil {
		refuseOpen(w, fmt.Errorf("replay A: %w", err))
		return
	}
	defer a.Close()
	b, err := h.OpenB()
	if err != nil {
		refuseOpen(w, fmt.Errorf("replay B: %w", err))
		return
	}
	defer b.Close()
	res, err := diff.Compare(a, b, orName(h.TitleA, "A"), orName(h.TitleB, "B"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(buf.Bytes())
}

// refuseOpen answers a data request whose replay cannot be opened: 503
// for ErrBusy, 404 for ErrNotFound, else 422, each with the reason.
func refuseOpen(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, ErrBusy):
		busy(w, err.Error())
	case errors.Is(err, ErrNotFound):
		http.Error(w, err.Error(), http.StatusNotFound)
	default:
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
	}
}

func orName(s, def string) string {
	if s == "" {
		return def
	}
	return path.Base(s)
}

// Pair is the two files `rewind view A B` compares: the server's
// /compare without a query shows them.
type Pair struct{ A, B string }

// CompareURL is the address of the compare page of library replays a
// and b.
func CompareURL(a, b string) string {
	return "/compare?" + url.Values{"a": {a}, "b": {b}}.Encode()
}

// comparePage answers GET /compare: the replays of the library named by
// the query's a and b (ids), or without them the server's Pair.
func (s *Server) comparePage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	h := &CompareHandler{Library: !s.lib.Single(), mem: s.mem}
	if q.Get("a") == "" && q.Get("b") == "" && s.opts.Pair != nil {
		h.OpenA, h.OpenB = s.fileOpener(s.opts.Pair.A), s.fileOpener(s.opts.Pair.B)
		h.TitleA, h.TitleB = filepath.Base(s.opts.Pair.A), filepath.Base(s.opts.Pair.B)
	} else {
		if q.Get("a") == "" || q.Get("b") == "" {
			render(w, r, http.StatusBadRequest, templates.Error(templates.ErrorPage{Title: "Compare what with what?", Message: "the compare page needs two replays of the library: /compare?a=ID&b=ID"}))
			return
		}
		h.OpenA, h.OpenB = s.streamOpener(q.Get("a")), s.streamOpener(q.Get("b"))
		h.TitleA, h.TitleB = q.Get("a"), q.Get("b")
	}
	h.ServeHTTP(w, r)
}

// fileOpener opens file (a path the server was started with, not a
// library id) through Options.OpenStream.
func (s *Server) fileOpener(file string) func() (engine.Stream, error) {
	return func() (engine.Stream, error) {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		return s.openStream(f)
	}
}
