// Package viewer serves replays to a browser: a library page listing a
// folder of .rwd and .cfr files (with uploads), and a replay page that
// scrubs through rounds on a canvas with charts of every player.
//
// # Contracts
//
//   - A replay is decoded (or re-simulated) once per file version and sent
//     to the browser as one packed blob of typed arrays (Load, pack.go;
//     docs/viewer.md), so the page seeks to any turn with no request.
//   - Every asset is embedded: the pages work with no network, and a page
//     exported with WriteHTML makes no request at all.
//   - Replay ids are paths relative to the library folder, resolved through
//     an os.Root: none can name a file outside it.
//   - Uploads are bounded (Options.MaxUpload), fully decoded before they
//     are kept, and never overwrite a file.
//   - Requests whose Host is not the server's own are refused when it
//     listens on a loopback address (DNS-rebinding defence), and uploads
//     and forks must come from the page's own origin.
//   - "Play on from here" (POST /api/fork, fork.go) plays one fork at a
//     time, with the built-in bots, of a replay of the library, and keeps
//     it beside its parent under a new name.
//   - Games being played (Options.Live, live.go) are followed round by
//     round through server-sent events: each game version is decoded once
//     for all followers, at most about four times a second, and the event
//     streams are bounded in number.
package viewer

import (
	"bytes"
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/a-h/templ"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/templates"
)

//go:embed static
var staticFS embed.FS

// DefaultMaxUpload is the default upload limit: an 8-player 500-round
// .cfr is under 1 MB, so this leaves room for long games.
const DefaultMaxUpload = 64 << 20

// Options configures a Server.
type Options struct {
	// MaxUpload bounds an uploaded file in bytes (0: DefaultMaxUpload;
	// negative: uploads refused).
	MaxUpload int64
	// Addr is the address the server listens on, used to accept the
	// Host header of requests ("127.0.0.1:8080").
	Addr string
	// ErrorLog receives request errors worth a look (nil: none).
	ErrorLog func(format string, args ...any)
	// Tool names the program in the header of the replays the server
	// writes (forks); "" is "rewind viewer".
	Tool string
	// Live, when set, is a source of games being played: the library
	// lists them and /live/ID follows one round by round (live.go).
	Live Live
	// MaxLiveStreams bounds the live event streams open at once (0:
	// DefaultMaxLiveStreams).
	MaxLiveStreams int
	// MemoryBudget bounds, in bytes, the estimated peak of every packing
	// in progress (StreamPeakBytes: a replay page's data, an upload's
	// check, a live game's new version), a fork's, the bytes a file of a
	// format decoded whole holds while it is open
	// (source.StreamFormat.DecodeBytes), and the live games' versions kept
	// packed, all together (0: DefaultMemoryBudget). A reservation that
	// does not fit is answered 503 with Retry-After; nothing else is
	// kept between requests.
	MemoryBudget int64
	// ClientRate is how many expensive requests (replay and live pages
	// and data, uploads, forks) a second one remote address may make,
	// ClientBurst how many at once; past it, 429 with Retry-After (0:
	// DefaultClientRate, DefaultClientBurst; a negative rate: no limit).
	ClientRate  float64
	ClientBurst int
	// MaxFolderBytes bounds the library folder's replays: an upload that
	// would take it past this is refused with 507 (0:
	// DefaultMaxFolderBytes; negative: no bound).
	MaxFolderBytes int64
	// MaxUploadsPerHour bounds the new replays kept in any hour, uploads
	// and forks ("play on from here") together, all clients together;
	// past it, 429 (0: DefaultMaxUploadsPerHour; negative: no bound).
	// MaxFolderBytes bounds forks as it does uploads.
	MaxUploadsPerHour int
	// MaxUploadDisk bounds the disk the uploads in progress take
	// together, counted as their bytes arrive (whatever Content-Length
	// says, -1 when chunked): a byte past it has its upload refused with
	// 507 (0: DefaultMaxUploadDisk; negative: no bound).
	MaxUploadDisk int64
	// ForkBots are the bots "play on from here" may seat besides the
	// built-ins: what the server was started with (serve --bot
	// NAME|COMMAND), in order. A page picks them by their place in this
	// list, never by a command of its own. NewForkBot starts one for seat
	// uid (nil: only ForkBots that are built-in names can play).
	ForkBots   []string
	NewForkBot func(spec string, uid int) (match.GamePlayer, error)
	// OpenStream opens a file of the library as a generic frame stream,
	// for its page at /replay/ID (and /game/ID) and to check an upload;
	// the stream owns f (its Close closes f), and on an error the server
	// closes f. nil: source.NewInferredStream (any game's replay, an
	// official .cfr with its commands inferred).
	OpenStream func(f *os.File) (engine.Stream, error)
	// Pair, when set, is the two files /compare shows without a query
	// (`rewind view A B`); they need not be in the library.
	Pair *Pair
}

// Upload quotas' defaults (Options.MaxFolderBytes,
// Options.MaxUploadsPerHour): a real replay is 0.1 to 1 MB, so these
// leave room for thousands of games while keeping a public server's disk.
const (
	DefaultMaxFolderBytes    = 4 << 30
	DefaultMaxUploadsPerHour = 120
	// DefaultMaxUploadDisk lets four uploads of DefaultMaxUpload arrive
	// at once.
	DefaultMaxUploadDisk = 4 * DefaultMaxUpload
)

// Server is the viewer's HTTP handler.
type Server struct {
	lib  *Library
	opts Options
	mux  *http.ServeMux
	// hosts are the accepted Host headers; nil accepts any.
	hosts map[string]bool
	// forking is held while a fork is played: one at a time.
	forking sync.Mutex
	// live follows Options.Live's games (nil without).
	live *liveHub
	// mem is the memory budget of decodes and kept replays.
	mem *memBudget
	// rate limits each client's expensive requests (nil: no limit).
	rate *rateLimiter
	// uploadMu serialises the quota checks of uploads; uploads lists
	// when the uploads of the last hour were kept.
	uploadMu sync.Mutex
	uploads  []time.Time
	// keptGames maps the identity (Entry.Identity) of each upload kept
	// by this server to its id, so that a second copy is found before
	// the index has listed the first.
	keptGames map[string]string
	// uploadDisk accounts the bytes of the uploads in progress
	// (Options.MaxUploadDisk; nil: no bound).
	uploadDisk *memBudget
	// libStreams holds a slot per open library event stream.
	libStreams chan struct{}
	// closing is closed by Shutdown: the library event streams end.
	closing   chan struct{}
	closeOnce sync.Once
}

// NewServer serves lib.
func NewServer(lib *Library, opts Options) *Server {
	if opts.MaxUpload == 0 {
		opts.MaxUpload = DefaultMaxUpload
	}
	if lib.Single() {
		opts.MaxUpload = -1
	}
	if opts.Tool == "" {
		opts.Tool = "rewind viewer"
	}
	if opts.MemoryBudget <= 0 {
		opts.MemoryBudget = DefaultMemoryBudget
	}
	if opts.ClientRate == 0 {
		opts.ClientRate = DefaultClientRate
	}
	if opts.ClientBurst <= 0 {
		opts.ClientBurst = DefaultClientBurst
	}
	if opts.MaxFolderBytes == 0 {
		opts.MaxFolderBytes = DefaultMaxFolderBytes
	}
	if opts.MaxUploadsPerHour == 0 {
		opts.MaxUploadsPerHour = DefaultMaxUploadsPerHour
	}
	if opts.MaxUploadDisk == 0 {
		opts.MaxUploadDisk = DefaultMaxUploadDisk
	}
	s := &Server{lib: lib, opts: opts, mux: http.NewServeMux(), mem: newBudget(opts.MemoryBudget),
		rate: newRateLimiter(opts.ClientRate, opts.ClientBurst), libStreams: make(chan struct{}, maxLibraryStreams),
		closing: make(chan struct{})}
	if opts.MaxUploadDisk > 0 {
		s.uploadDisk = newBudget(opts.MaxUploadDisk)
	}
	if s.opts.OpenStream == nil {
		s.opts.OpenStream = func(f *os.File) (engine.Stream, error) { return source.NewInferredStream(f, f) }
	}
	lib.mem = s.mem
	s.hosts = loopbackHosts(opts.Addr)
	s.mux.HandleFunc("GET /{$}", s.library)
	s.mux.HandleFunc("GET /library/rows", s.libraryRows)
	s.mux.HandleFunc("GET /api/library", s.libraryJSON)
	s.mux.HandleFunc("GET /library/events", s.libraryEvents)
	s.mux.HandleFunc("GET /standings", s.limited(s.standingsPage))
	s.mux.HandleFunc("GET /bot/{key...}", s.limited(s.botPage))
	s.mux.HandleFunc("GET /replay/{id...}", s.limited(s.replayPage))
	s.mux.HandleFunc("GET /game/{id...}", s.limited(s.gameRoute))
	s.mux.HandleFunc("GET /compare", s.limited(s.comparePage))
	s.mux.HandleFunc("POST /api/upload", s.limited(s.upload))
	s.mux.HandleFunc("POST /api/fork", s.limited(s.fork))
	s.mux.HandleFunc("GET /api/fork/bots", s.forkBots)
	s.mux.HandleFunc("GET /static/{file...}", s.static)
	if opts.Live != nil {
		s.live = newLiveHub(opts.Live, opts.MaxLiveStreams, s.mem)
		s.mux.HandleFunc("GET /api/live", s.liveList)
		s.mux.HandleFunc("GET /library/live", s.liveRows)
		s.mux.HandleFunc("GET /live/{id}", s.limited(s.livePage))
		s.mux.HandleFunc("GET /live/{id}/data", s.limited(s.liveData))
		s.mux.HandleFunc("GET /live/{id}/events", s.liveEvents)
	}
	return s
}

// loopbackHosts lists the Host values a loopback listener answers to, or
// nil when addr is not loopback (the operator then chose to expose it).
func loopbackHosts(addr string) map[string]bool {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil
	}
	hs := map[string]bool{}
	for _, h := range []string{"127.0.0.1", "localhost", "[::1]"} {
		hs[h+":"+port] = true
		if port == "80" {
			hs[h] = true
		}
	}
	hs[net.JoinHostPort(host, port)] = true
	return hs
}

// HTTPServer returns an http.Server for s on opts.Addr with timeouts set:
// slow or stalled clients cannot hold connections forever.
func (s *Server) HTTPServer() *http.Server {
	hs := &http.Server{
		Addr:              s.opts.Addr,
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute, // uploads
		WriteTimeout:      2 * time.Minute, // live event streams set their own deadlines
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	hs.RegisterOnShutdown(s.Shutdown)
	return hs
}

// csp allows only the server's own scripts; ECharts needs inline styles;
// a clip the page recorded (clip.js) plays from its blob: URL.
const csp = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src blob:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// CheckHost reports whether r's Host is one the server answers to — on
// a loopback address only its loopback names, so that no other site's
// page reaches it through DNS rebinding — and otherwise answers 421. A
// handler served beside the viewer on its address (rewind server's
// protocol) checks its requests with it.
func (s *Server) CheckHost(w http.ResponseWriter, r *http.Request) bool {
	if s.hosts != nil && !s.hosts[r.Host] {
		http.Error(w, fmt.Sprintf("host %q is not this server's address", r.Host), http.StatusMisdirectedRequest)
		return false
	}
	return true
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.CheckHost(w, r) {
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	s.mux.ServeHTTP(w, r)
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.ErrorLog != nil {
		s.opts.ErrorLog(format, args...)
	}
}

func render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	var buf bytes.Buffer
	if err := c.Render(r.Context(), &buf); err != nil {
		http.Error(w, "rendering the page failed: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// ReplayURL is the path of a replay's page.
func ReplayURL(id string) string { return "/replay/" + escapeID(id) }

func escapeID(id string) string {
	parts := strings.Split(id, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

func sizeString(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func rows(entries []*Entry) []templates.LibraryRow {
	out := make([]templates.LibraryRow, 0, len(entries))
	for _, e := range entries {
		names := make([]string, len(e.Players))
		for i, p := range e.Players {
			names[i] = p.Name
		}
		r := templates.LibraryRow{ID: e.ID, URL: ReplayURL(e.ID), Format: string(e.Format), Game: e.Game, Unit: e.unit(), Players: strings.Join(names, ", "),
			Rounds: e.Rounds, Date: e.Date.UTC().Format(time.RFC3339), Day: e.Date.Local().Format("2006-01-02 15:04"),
			Size: e.Size, SizeStr: sizeString(e.Size)}
		if e.Winner != 0 {
			r.Winner, r.Score = e.PlayerName(e.Winner), e.WinnerScore
		}
		switch {
		case e.Err != "":
			r.Status, r.Broken = "cannot be opened: "+e.Err, true
		case !e.Complete || e.EndedEarly():
			r.Status = e.Status()
		}
		out = append(out, r)
	}
	return out
}

func (s *Server) libraryPage() (templates.LibraryPage, error) {
	entries, err := s.lib.List()
	if err != nil {
		return templates.LibraryPage{}, err
	}
	p := templates.LibraryPage{Title: "rewind — " + path.Base(s.lib.Dir()), Dir: s.lib.Dir(), Rows: rows(entries)}
	s.uploadForm(&p)
	if s.live != nil {
		p.Live, p.LiveRows, p.LiveRooms = true, s.liveRowsOf(s.liveGames()), s.liveRooms()
	}
	return p, nil
}

// uploadForm fills p's upload form: shown when uploads are on, bounded
// by Options.MaxUpload, its picker offering every ending a replay may
// have (replayEndings: .rwd and every registered format's), since an
// upload is taken by its content whatever its name.
func (s *Server) uploadForm(p *templates.LibraryPage) {
	p.Upload, p.MaxUpload, p.MaxStr = s.opts.MaxUpload > 0, s.opts.MaxUpload, sizeString(s.opts.MaxUpload)
	p.Accept = strings.Join(replayEndings(), ",")
}

func (s *Server) library(w http.ResponseWriter, r *http.Request) {
	if ix := s.lib.Index(); ix != nil {
		p, err := s.indexedPage(ix, r.URL.Query())
		if err != nil {
			s.errorPage(w, r, http.StatusBadRequest, "Cannot list the library", err.Error())
			return
		}
		render(w, r, http.StatusOK, templates.Library(p))
		return
	}
	p, err := s.libraryPage()
	if err != nil {
		s.errorPage(w, r, http.StatusInternalServerError, "Cannot list the library", err.Error())
		return
	}
	render(w, r, http.StatusOK, templates.Library(p))
}

func (s *Server) libraryRows(w http.ResponseWriter, r *http.Request) {
	if ix := s.lib.Index(); ix != nil {
		p, err := s.indexedPage(ix, r.URL.Query())
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		render(w, r, http.StatusOK, templates.LibraryRows(p.Rows))
		return
	}
	p, err := s.libraryPage()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	render(w, r, http.StatusOK, templates.LibraryRows(p.Rows))
}

// libraryEntry is the JSON form of an Entry.
type libraryEntry struct {
	ID          string          `json:"id"`
	URL         string          `json:"url"`
	Format      source.Format   `json:"format"`
	Game        string          `json:"game"`
	Size        int64           `json:"size"`
	Date        time.Time       `json:"date"`
	Players     []source.Player `json:"players"`
	Winner      int             `json:"winner"`
	WinnerScore int64           `json:"winner_gold"`
	// Unit names what WinnerScore and the players' scores count ("gold",
	// "resources", "hives"): rowUnit, as the library page labels them.
	Unit     string `json:"unit"`
	Rounds   int    `json:"rounds"`
	Complete bool   `json:"complete"`
	Status   string `json:"status"`
	Error    string `json:"error,omitempty"`
}

func (s *Server) libraryJSON(w http.ResponseWriter, r *http.Request) {
	if ix := s.lib.Index(); ix != nil {
		s.indexedJSON(w, r, ix)
		return
	}
	entries, err := s.lib.List()
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		return
	}
	out := make([]libraryEntry, len(entries))
	for i, e := range entries {
		out[i] = libraryEntry{ID: e.ID, URL: ReplayURL(e.ID), Format: e.Format, Game: e.Game, Size: e.Size, Date: e.Date, Players: e.Players,
			Winner: e.Winner, WinnerScore: e.WinnerScore, Unit: e.unit(), Rounds: e.Rounds, Complete: e.Complete, Error: e.Err}
		if e.Err == "" {
			out[i].Status = e.Status()
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, status int, title, msg string) {
	render(w, r, status, templates.Error(templates.ErrorPage{Title: title, Message: msg}))
}

// replayPage answers a replay's page: the replay page of library file
// id (ReplayHandler; its frames at ?data=1), whatever its game.
func (s *Server) replayPage(w http.ResponseWriter, r *http.Request) {
	s.libraryReplayPage(w, r, r.PathValue("id"))
}

var staticTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
}

func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	b, err := staticFile(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", staticTypes[path.Ext(name)])
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
}

// uploadName makes a safe file name from a client's: its base name with
// anything but letters, digits, '.', '-' and '_' replaced by '_'. It must
// be named like a replay (IsReplayName).
func uploadName(name string) (string, error) {
	name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	if !IsReplayName(name) {
		return "", fmt.Errorf("%q is not named like a replay (%s)", name, strings.Join(replayEndings(), ", "))
	}
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := strings.TrimLeft(b.String(), ".")
	if len(out) > 120 {
		ext := replayExt(out)
		out = out[:120-len(ext)] + ext
	}
	if !IsReplayName(out) || len(out) <= len(replayExt(out)) {
		return "", fmt.Errorf("%q is not a usable file name", name)
	}
	return out, nil
}

// validateStream checks an uploaded file: it must pack whole, as its
// page packs it (Options.OpenStream), within the replay page's limits
// and the server's memory budget (ErrBusy when the budget cannot take it
// now). The work stops when the client leaves.
func (s *Server) validateStream(ctx context.Context, name string) error {
	peak := StreamPeakBytes(StreamLimits{})
	if err := s.mem.reserve(peak); err != nil {
		return err
	}
	defer s.mem.release(peak)
	f, err := s.lib.root.Open(name)
	if err != nil {
		return err
	}
	st, err := s.openStream(f)
	if err != nil {
		return err
	}
	defer st.Close()
	p, err := PackStream(ctxStream{st, ctx}, StreamLimits{})
	if err != nil {
		return err
	}
	if p.Warning != "" {
		return errors.New(p.Warning)
	}
	return ctx.Err()
}

// ctxStream is a Stream that ends when ctx does.
type ctxStream struct {
	engine.Stream
	ctx context.Context
}

func (c ctxStream) Next(f *engine.Frame) error {
	if err := c.ctx.Err(); err != nil {
		return err
	}
	return c.Stream.Next(f)
}

// replayExt is name's extension as the library reads it: a registered
// stream format's ending (source.StreamEnding: ".mp.gz" as one), else
// path.Ext's.
func replayExt(name string) string {
	if ext, _ := source.StreamEnding(name); ext != "" {
		return ext
	}
	return path.Ext(name)
}

// contentName renames an upload, whose file starts with prefix, after
// its content when its name's extension says otherwise, so the library
// lists and opens it as what it is: a .rwd is kept as .rwd, a file of a
// registered stream format with one of its endings (a .cfr sent as
// game.json is kept as game.cfr, a reference log sent as x.rwd as
// x.json); note says so, or is "".
func contentName(name string, prefix []byte) (kept, note string) {
	if f, ok := source.LookupStreamFormat(prefix); ok {
		if len(f.Exts) == 0 {
			return name, ""
		}
		return renameAs(name, f.Exts, "a "+f.Name+" file")
	}
	return renameAs(name, []string{".rwd"}, "a .rwd recording")
}

// renameAs is name with its extension replaced by want[0] unless it is
// one of want (the extensions its content, what, may have), and the note
// saying so ("" when kept as it is).
func renameAs(name string, want []string, what string) (kept, note string) {
	ext := replayExt(name)
	for _, w := range want {
		if strings.EqualFold(ext, w) {
			return name, ""
		}
	}
	kept = strings.TrimSuffix(name, ext) + want[0]
	return kept, fmt.Sprintf("%s holds %s, so it is kept as %s", name, what, kept)
}

type uploadResult struct {
	ID    string `json:"id,omitempty"`
	URL   string `json:"url,omitempty"`
	Error string `json:"error,omitempty"`
	// Note says why ID's extension differs from the name uploaded
	// (contentName), or that the game was already in the library.
	Note string `json:"note,omitempty"`
	// Duplicate: the upload holds a game the library already has (the
	// same header and commands: Entry.Identity), at ID; no second copy
	// was kept.
	Duplicate bool `json:"duplicate,omitempty"`
}

func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	fail := func(status int, format string, args ...any) {
		writeJSON(w, status, uploadResult{Error: fmt.Sprintf(format, args...)})
	}
	if s.opts.MaxUpload <= 0 {
		fail(http.StatusForbidden, "uploads are off: this server shows one replay")
		return
	}
	if o := foreignOrigin(r); o != "" {
		fail(http.StatusForbidden, "upload from another site (%s) refused", o)
		return
	}
	name, err := uploadName(r.URL.Query().Get("name"))
	if err != nil {
		fail(http.StatusBadRequest, "upload refused: %v", err)
		return
	}
	if status, msg := s.uploadQuota(r.ContentLength); status != 0 {
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "600")
		}
		fail(status, "%s refused: %s", name, msg)
		return
	}
	tmpName := ".upload-" + randHex() + ".tmp"
	tmp, err := s.lib.root.OpenFile(tmpName, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		s.logf("viewer: upload: %v", err)
		fail(http.StatusInternalServerError, "cannot store the upload: %v", err)
		return
	}
	// The bytes stay taken until the file is removed (deferred calls
	// run last in, first out).
	disk := &diskCounted{w: tmp, budget: s.uploadDisk}
	defer disk.release()
	defer s.lib.root.Remove(tmpName)
	n, err := io.Copy(disk, http.MaxBytesReader(w, r.Body, s.opts.MaxUpload))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		fail(http.StatusRequestEntityTooLarge, "%s is larger than the upload limit of %s", name, sizeString(s.opts.MaxUpload))
		return
	case errors.Is(err, errUploadDisk):
		w.Header().Set("Retry-After", fmt.Sprint(int(RetryAfter/time.Second)))
		fail(http.StatusInsufficientStorage, "%s refused after %d bytes: the uploads in progress may take %s of disk together (Options.MaxUploadDisk); try again in a moment", name, n, sizeString(s.opts.MaxUploadDisk))
		return
	case err != nil:
		fail(http.StatusBadRequest, "upload of %s failed after %d bytes: %v", name, n, err)
		return
	case n == 0:
		fail(http.StatusBadRequest, "%s is empty", name)
		return
	}
	if err := s.checkUploadFile(r.Context(), tmpName, n); err != nil {
		if r.Context().Err() != nil {
			return // the client left: nothing to answer, nothing kept
		}
		s.logf("viewer: upload of %s refused: %v", name, err)
		fail(http.StatusUnprocessableEntity, "%s refused: %v", name, err)
		return
	}
	// Checked by packing it as its page would, kept under a name of its
	// format.
	err = s.validateStream(r.Context(), tmpName)
	if r.Context().Err() != nil {
		return
	}
	if errors.Is(err, ErrBusy) {
		w.Header().Set("Retry-After", fmt.Sprint(int(RetryAfter/time.Second)))
		fail(http.StatusServiceUnavailable, "%s cannot be checked now: %v", name, err)
		return
	}
	if err != nil {
		fail(http.StatusUnprocessableEntity, "%s is not a replay rewind can open: %v", name, err)
		return
	}
	kept, note := contentName(name, s.filePrefix(tmpName))
	game := &Entry{ID: tmpName, Size: n}
	s.lib.summarizeHashed(game)
	if have, err := s.copyOf(game.Identity()); err != nil {
		s.logf("viewer: upload: %v", err)
	} else if have != "" {
		writeJSON(w, http.StatusOK, uploadResult{ID: have, URL: ReplayURL(have), Duplicate: true,
			Note: fmt.Sprintf("%s holds a game the library already has, as %s: no second copy kept", name, have)})
		return
	}
	id, status, msg := s.keepNew(tmpName, kept, n)
	if status == 0 && game.Identity() != "" {
		s.uploadMu.Lock()
		if s.keptGames == nil {
			s.keptGames = map[string]string{}
		}
		s.keptGames[game.Identity()] = id
		s.uploadMu.Unlock()
	}
	if status != 0 {
		if status == http.StatusInternalServerError {
			s.logf("viewer: upload: %s", msg)
		}
		fail(status, "%s refused: %s", name, msg)
		return
	}
	writeJSON(w, http.StatusOK, uploadResult{ID: id, URL: ReplayURL(id), Note: note})
}

// copyOf returns the id of a replay of the library holding the game
// identity names (Entry.Identity): one the index lists, else one this
// server kept since; "" when there is none (or the library has no index).
func (s *Server) copyOf(identity string) (string, error) {
	if identity == "" {
		return "", nil
	}
	s.uploadMu.Lock()
	id, ok := s.keptGames[identity]
	s.uploadMu.Unlock()
	if ok {
		if _, err := fs.Stat(s.lib.root.FS(), id); err == nil {
			return id, nil
		}
	}
	ix := s.lib.Index()
	if ix == nil {
		return "", nil
	}
	id, err := ix.Copy(identity)
	if err != nil || id == "" {
		return "", err
	}
	if _, err := fs.Stat(s.lib.root.FS(), id); err != nil {
		return "", nil // removed since the index saw it
	}
	return id, nil
}

// errUploadDisk is diskCounted's: the uploads in progress hold
// Options.MaxUploadDisk.
var errUploadDisk = errors.New("the uploads in progress hold their disk budget")

// diskCounted writes an upload's bytes to w as they arrive, each taken
// from budget first (nil: no bound), until release gives them back.
type diskCounted struct {
	w      io.Writer
	budget *memBudget
	taken  int64
}

func (d *diskCounted) Write(p []byte) (int, error) {
	if d.budget != nil {
		if !d.budget.take(int64(len(p))) {
			return 0, errUploadDisk
		}
		d.taken += int64(len(p))
	}
	return d.w.Write(p)
}

// release gives back the bytes taken (the upload is kept or removed).
func (d *diskCounted) release() {
	if d.budget != nil {
		d.budget.release(d.taken)
		d.taken = 0
	}
}

// keepNew keeps tmpName, a new replay of size bytes (an upload or a
// fork), under name (keep) if the quotas take it, and counts it in the
// hour's: its id, or a status (507, 429, 500) and why.
func (s *Server) keepNew(tmpName, name string, size int64) (id string, status int, msg string) {
	s.uploadMu.Lock()
	defer s.uploadMu.Unlock()
	if status, msg := s.uploadQuotaLocked(size, time.Now()); status != 0 {
		return "", status, msg
	}
	id, err := s.keep(tmpName, name)
	if err != nil {
		return "", http.StatusInternalServerError, fmt.Sprintf("cannot store it: %v", err)
	}
	s.uploads = append(s.uploads, time.Now())
	return id, 0, ""
}

// uploadQuota checks a new replay of size bytes (-1: unknown) against
// the quotas before it is read or played: a status (507, 429) and why,
// or 0.
func (s *Server) uploadQuota(size int64) (int, string) {
	s.uploadMu.Lock()
	defer s.uploadMu.Unlock()
	return s.uploadQuotaLocked(max(size, 0), time.Now())
}

// uploadQuotaLocked checks the quotas for size more bytes: the folder's
// replays (Options.MaxFolderBytes) and the new replays (uploads and
// forks) of the last hour (Options.MaxUploadsPerHour).
func (s *Server) uploadQuotaLocked(size int64, now time.Time) (int, string) {
	hour := now.Add(-time.Hour)
	keep := s.uploads[:0]
	for _, t := range s.uploads {
		if t.After(hour) {
			keep = append(keep, t)
		}
	}
	s.uploads = keep
	if lim := s.opts.MaxUploadsPerHour; lim > 0 && len(s.uploads) >= lim {
		return http.StatusTooManyRequests, fmt.Sprintf("this server keeps at most %d new replays (uploads and forks) an hour (the next in %v)", lim, s.uploads[0].Add(time.Hour).Sub(now).Round(time.Minute))
	}
	if lim := s.opts.MaxFolderBytes; lim > 0 {
		used := s.lib.replayBytes()
		if used+size > lim {
			return http.StatusInsufficientStorage, fmt.Sprintf("the library's replays take %s of the %s it may hold", sizeString(used), sizeString(lim))
		}
	}
	return 0, ""
}

// keep links the upload under name, or name-2, name-3… if taken (before
// the extension, ".mp.gz" as one); an existing file is never replaced.
func (s *Server) keep(tmpName, name string) (string, error) {
	ext := replayExt(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 1; i <= 1000; i++ {
		id := name
		if i > 1 {
			id = fmt.Sprintf("%s-%d%s", stem, i, ext)
		}
		err := s.lib.root.Link(tmpName, id)
		if err == nil {
			if s.lib.Index() != nil {
				// Listed now, not at the next check of the folder.
				go s.lib.SyncPaths([]string{id})
			}
			return id, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", fmt.Errorf("too many files named like %s", name)
}

func randHex() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
