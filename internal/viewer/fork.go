package viewer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/source"
)

// Bounds on a fork the server plays ("play on from here").
const (
	// MaxForkInput is the largest replay the server forks.
	MaxForkInput = 64 << 20
	// forkTimeout bounds the match: the built-in bots play a 500-round
	// game in a fraction of a second.
	forkTimeout = time.Minute
	// forkSeed is the bots' match seed, as rewind fork's default.
	forkSeed = 1
	// forkPeak is what a fork reserves from the memory budget: the parent
	// file, the commands a fork keeps (48 bytes each, docs/limits.md) and
	// their text, the engine and the recorder.
	forkPeak = MaxForkInput + 48*source.MaxForkCommands + source.MaxForkTextBytes + 24<<20
)

// ForkName is the file name of a fork of replay id at turn: beside it,
// NAME-fork-T250.rwd (the server adds -2, -3… when that is taken).
func ForkName(id string, turn int) string {
	dir, file := path.Split(id)
	stem := strings.TrimSuffix(file, path.Ext(file))
	if len(stem) > 100 {
		cut := 100
		for cut > 0 && !utf8.RuneStart(stem[cut]) {
			cut--
		}
		stem = stem[:cut]
	}
	return dir + fmt.Sprintf("%s-fork-T%d.rwd", stem, turn)
}

// readReplay reads the replay id of the library, at most limit bytes.
func (l *Library) readReplay(id string, limit int64) ([]byte, error) {
	if !ValidID(id) || (l.only != "" && id != l.only) {
		return nil, ErrNotFound
	}
	f, err := l.root.Open(id)
	if err != nil {
		return nil, ErrNotFound
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, ErrNotFound
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s is %s, over the %s the server forks", id, sizeString(fi.Size()), sizeString(limit))
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(b)) > limit {
		err = fmt.Errorf("%s is over the %s the server forks", id, sizeString(limit))
	}
	return b, err
}

// foreignOrigin returns the Origin of a request that comes from another
// site than the server's own ("" when it comes from the page, or from no
// browser at all).
func foreignOrigin(r *http.Request) string {
	o := r.Header.Get("Origin")
	if o == "" {
		return ""
	}
	if u, err := url.Parse(o); err != nil || u.Host != r.Host {
		return o
	}
	return ""
}

// ForkChoice is one bot a page may seat in a fork (GET /api/fork/bots).
type ForkChoice struct {
	// ID is what the page sends back for a seat (POST /api/fork
	// ...&bot=ID): a built-in's name, or "serve:N" for Options.ForkBots[N].
	ID string `json:"id"`
	// Bot is the bot as a replay records it: the built-in's name or the
	// command; a page preselects the choice whose Bot played the seat.
	Bot string `json:"bot"`
	// Label is how the page shows it.
	Label string `json:"label"`
}

// forkChoices lists game's built-ins, then Options.ForkBots (none for
// a game the registry does not know).
func (s *Server) forkChoices(game string) []ForkChoice {
	var out []ForkChoice
	info, ok := engine.About(game)
	if !ok {
		return nil
	}
	for _, b := range info.Bots {
		out = append(out, ForkChoice{ID: b.Name, Bot: b.Name, Label: b.Name + " (built-in)"})
	}
	for i, spec := range s.opts.ForkBots {
		if _, ok := info.FindBot(spec); ok {
			continue // listed above
		}
		if s.opts.NewForkBot == nil {
			continue
		}
		out = append(out, ForkChoice{ID: fmt.Sprintf("serve:%d", i), Bot: spec, Label: spec})
	}
	return out
}

// forkBots is GET /api/fork/bots: {"choices": [ForkChoice…]}, the bots a
// page may seat when it plays on.
func (s *Server) forkBots(w http.ResponseWriter, r *http.Request) {
	if s.lib.Single() {
		writeJSON(w, http.StatusForbidden, uploadResult{Error: "playing on is off: this server shows one replay"})
		return
	}
	game := r.URL.Query().Get("game")
	if game == "" {
		game = engine.Default()
	}
	if _, ok := engine.About(game); !ok {
		writeJSON(w, http.StatusNotFound, uploadResult{Error: fmt.Sprintf("no game %q", game)})
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Choices []ForkChoice `json:"choices"`
	}{s.forkChoices(game)})
}

// forkSeats seats the players of fk: picks[i] is seat i+1's ForkChoice
// ID; with no picks each seat the parent records a built-in for plays it
// again, and any other seat is an error naming it. A recorded external
// bot is never run on the replay's word, not even one of
// Options.ForkBots: the page chooses it (bot=serve:N). The seats are
// started; the caller closes them (Fork.Play does).
func (s *Server) forkSeats(fk *source.Fork, picks []string) ([]match.GameSeat, error) {
	n := len(fk.Names)
	choices := s.forkChoices(fk.Ruleset.ID())
	if len(picks) != 0 && len(picks) != n {
		return nil, fmt.Errorf("the game has %d players, %d bots chosen", n, len(picks))
	}
	specs := make([]string, n)
	own := fk.OwnBuiltins()
	var external, missing []string
	for i := range specs {
		if len(picks) == 0 {
			switch b := fk.Bots[i]; {
			case own[i] != "":
				specs[i] = own[i]
			case b != "" && b != match.OfficialClient:
				external = append(external, fmt.Sprintf("%d (%s)", i+1, fk.Names[i]))
			default:
				missing = append(missing, fmt.Sprintf("%d (%s)", i+1, fk.Names[i]))
			}
			continue
		}
		for _, c := range choices {
			if c.ID == picks[i] {
				specs[i] = c.Bot
				break
			}
		}
		if specs[i] == "" {
			return nil, fmt.Errorf("seat %d: no bot %q on this server (choose a built-in or a bot the server was started with)", i+1, picks[i])
		}
	}
	if external != nil {
		return nil, fmt.Errorf("choose the bot of seat %s: an external bot played it, and the server runs no bot a replay names (bot=ID for each seat, from /api/fork/bots)", strings.Join(external, ", "))
	}
	if missing != nil {
		return nil, fmt.Errorf("choose the bot of seat %s: the replay does not name a built-in that played it", strings.Join(missing, ", "))
	}
	info, _ := engine.About(fk.Ruleset.ID())
	var seats []match.GameSeat
	for i, spec := range specs {
		var b match.GamePlayer
		var err error
		if bi, ok := info.FindBot(spec); ok {
			b = match.BuiltinPlayer(bi)
		} else {
			b, err = s.opts.NewForkBot(spec, i+1)
		}
		if err != nil {
			for _, st := range seats {
				st.Bot.Close()
			}
			return nil, fmt.Errorf("seat %d: %w", i+1, err)
		}
		seats = append(seats, match.GameSeat{Bot: b, Identity: spec})
	}
	return seats, nil
}

// fork is POST /api/fork?id=ID&turn=N[&bot=CHOICE…]: play replay ID of
// the library on from turn N (source.NewFork, Fork.Play) with, for each
// seat in uid order, the bot chosen (a ForkChoice ID; none: each seat's
// own bot, see forkSeats), keep the new .rwd beside it under ForkName
// (never replacing a file), and answer {"id", "url"} of the new replay,
// or {"error"}. One fork at a time.
func (s *Server) fork(w http.ResponseWriter, r *http.Request) {
	fail := func(status int, format string, args ...any) {
		writeJSON(w, status, uploadResult{Error: fmt.Sprintf(format, args...)})
	}
	if s.lib.Single() {
		fail(http.StatusForbidden, "playing on is off: this server shows one replay")
		return
	}
	if o := foreignOrigin(r); o != "" {
		fail(http.StatusForbidden, "fork from another site (%s) refused", o)
		return
	}
	q := r.URL.Query()
	id := q.Get("id")
	turn, err := strconv.Atoi(q.Get("turn"))
	if err != nil {
		fail(http.StatusBadRequest, "turn %q is not a number", q.Get("turn"))
		return
	}
	if !ValidID(id) {
		fail(http.StatusNotFound, "the library has no replay %q", id)
		return
	}
	if status, msg := s.uploadQuota(0); status != 0 {
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "600")
		}
		fail(status, "cannot play on: %s", msg)
		return
	}
	if !s.forking.TryLock() {
		fail(http.StatusTooManyRequests, "another game is being played on; try again in a moment")
		return
	}
	defer s.forking.Unlock()
	if err := s.mem.reserve(forkPeak); err != nil {
		if errors.Is(err, ErrBusy) {
			w.Header().Set("Retry-After", fmt.Sprint(int(RetryAfter/time.Second)))
			fail(http.StatusServiceUnavailable, "cannot play on now: %v", err)
		} else {
			fail(http.StatusUnprocessableEntity, "cannot play on: %v", err)
		}
		return
	}
	defer s.mem.release(forkPeak)
	data, err := s.lib.readReplay(id, MaxForkInput)
	switch {
	case errors.Is(err, ErrNotFound):
		fail(http.StatusNotFound, "the library has no replay %q", id)
		return
	case err != nil:
		fail(http.StatusUnprocessableEntity, "cannot read %s: %v", id, err)
		return
	}
	fk, err := source.NewFork(path.Base(id), data, turn)
	if err != nil {
		status := http.StatusBadRequest
		var rules *engine.RulesError
		if errors.As(err, &rules) && !rules.Unexplained {
			status = http.StatusUnprocessableEntity
		}
		fail(status, "cannot play on from turn %d of %s: %v", turn, id, err)
		return
	}
	seats, err := s.forkSeats(fk, q["bot"])
	if err != nil {
		fail(http.StatusBadRequest, "cannot play on from turn %d of %s: %v", turn, id, err)
		return
	}
	tmpName := ".fork-" + randHex() + ".tmp"
	tmp, err := s.lib.root.OpenFile(tmpName, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		for _, st := range seats {
			st.Bot.Close()
		}
		s.logf("viewer: fork: %v", err)
		fail(http.StatusInternalServerError, "cannot store the new game: %v", err)
		return
	}
	defer s.lib.root.Remove(tmpName)
	// The game is played to its end even if the page goes away.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), forkTimeout)
	defer cancel()
	bw := bufio.NewWriterSize(tmp, 64<<10)
	res, err := fk.Play(ctx, bw, source.PlayOptions{Seats: seats, Seed: forkSeed, Created: time.Now(), Tool: s.opts.Tool})
	if err == nil {
		err = bw.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		s.logf("viewer: fork of %s at turn %d: %v", id, turn, err)
		fail(http.StatusInternalServerError, "playing on from turn %d of %s failed: %v", turn, id, err)
		return
	case res.Interrupted:
		fail(http.StatusServiceUnavailable, "playing on from turn %d of %s took longer than %v", turn, id, forkTimeout)
		return
	}
	size := int64(0)
	if fi, err := s.lib.root.Stat(tmpName); err == nil {
		size = fi.Size()
	}
	newID, status, msg := s.keepNew(tmpName, ForkName(id, turn), size)
	if status != 0 {
		if status == http.StatusInternalServerError {
			s.logf("viewer: fork: %s", msg)
		}
		fail(status, "cannot keep the new game: %s", msg)
		return
	}
	writeJSON(w, http.StatusOK, uploadResult{ID: newID, URL: ReplayURL(newID)})
}
