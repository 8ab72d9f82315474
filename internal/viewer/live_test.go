package viewer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
)

// fakeLive is a Live fed by real matches whose rounds the test steps: each
// game's recorder waits for a step before recording a round, and the
// fake serves the bytes recorded so far, as rewind server does.
type fakeLive struct {
	mu    sync.Mutex
	games []*fakeGame
	// fail makes LiveReplay fail for every game (a server that lost them).
	fail bool
	// dir is the library folder: a finished game's File is ID.rwd in it.
	dir string
}

type fakeGame struct {
	f       *fakeLive
	g       LiveGame
	data    []byte
	changed chan struct{}

	buf   bytes.Buffer // the recording; written by the match only
	rec   *recording.Recorder
	step  chan struct{}
	once  sync.Once
	ended chan struct{}
	err   error
}

func (f *fakeLive) LiveGames() []LiveGame {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []LiveGame
	for _, g := range f.games {
		out = append(out, g.g)
	}
	return out
}

func (f *fakeLive) LiveReplay(id string) ([]byte, LiveGame, <-chan struct{}, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, g := range f.games {
		if g.g.ID == id && !f.fail {
			return g.data, g.g, g.changed, nil
		}
	}
	return nil, LiveGame{}, nil, fmt.Errorf("no game %q", id)
}

// Begin, Round and End make fakeGame a match.GameRecorder: each round
// waits for a step of the test, then is recorded and published.
func (g *fakeGame) Begin(s match.GameSetup) error {
	if err := g.rec.Begin(s); err != nil {
		return err
	}
	g.f.mu.Lock()
	for _, p := range s.Players {
		g.g.Players = append(g.g.Players, p.Name)
	}
	g.f.mu.Unlock()
	g.publish(0, false)
	return nil
}

func (g *fakeGame) Round(r *match.GameRound, eg engine.Game) error {
	<-g.step
	if err := g.rec.Round(r, eg); err != nil {
		return err
	}
	g.publish(eg.Turn(), false)
	return nil
}

func (g *fakeGame) End(eg engine.Game) error {
	if err := g.rec.End(eg); err != nil {
		return err
	}
	g.publish(eg.Turn(), true)
	return nil
}

func (g *fakeGame) publish(turn int, done bool) {
	g.f.mu.Lock()
	defer g.f.mu.Unlock()
	g.data = bytes.Clone(g.buf.Bytes())
	g.g.Turn, g.g.Done = turn, done
	if done && g.f.dir != "" {
		g.g.File = filepath.Join(g.f.dir, g.g.ID+".rwd")
	}
	close(g.changed)
	g.changed = make(chan struct{})
}

// state returns the game as the fake serves it.
func (g *fakeGame) state() (LiveGame, []byte) {
	g.f.mu.Lock()
	defer g.f.mu.Unlock()
	return g.g, g.data
}

// waitTurn waits until the game has published turn (or ended).
func (g *fakeGame) waitTurn(turn int) {
	for {
		g.f.mu.Lock()
		cur, done, ch := g.g.Turn, g.g.Done, g.changed
		g.f.mu.Unlock()
		if cur >= turn || done {
			return
		}
		<-ch
	}
}

// Step lets the game play n more rounds and waits until they are
// published.
func (g *fakeGame) Step(n int) {
	cur, _ := g.state()
	for range n {
		g.step <- struct{}{}
	}
	g.waitTurn(cur.Turn + n)
}

// Finish lets the game play to its end and waits for it.
func (g *fakeGame) Finish(tb testing.TB) {
	g.once.Do(func() { close(g.step) })
	<-g.ended
	if g.err != nil {
		tb.Fatalf("match: %v", g.err)
	}
}

// start begins a match of three built-in bots for maxTurn rounds, paused
// at turn 0; the test steps it.
func (f *fakeLive) start(tb testing.TB, id string, maxTurn int) *fakeGame {
	tb.Helper()
	g := &fakeGame{f: f, g: LiveGame{ID: id, Room: "room " + id, MaxTurn: maxTurn},
		changed: make(chan struct{}), step: make(chan struct{}), ended: make(chan struct{})}
	g.rec = recording.NewRecorder(&g.buf, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), "rewind test")
	var seats []match.GameSeat
	for _, name := range []string{"greedy", "economist", "random"} {
		seats = append(seats, cf2Seat(tb, name, name+" <b>"))
	}
	f.mu.Lock()
	f.games = append(f.games, g)
	f.mu.Unlock()
	go func() {
		defer close(g.ended)
		_, g.err = match.RunGame(context.Background(), match.GameConfig{Ruleset: colorfight2.Ruleset, MaxTurns: maxTurn, Seed: 7, Seats: seats, Recorder: g})
	}()
	tb.Cleanup(func() {
		g.once.Do(func() { close(g.step) })
		<-g.ended
	})
	for {
		f.mu.Lock()
		begun, ch := g.data != nil, g.changed
		f.mu.Unlock()
		if begun {
			return g
		}
		<-ch
	}
}

// serveLive starts a library server following f and returns its base URL
// and the server.
func serveLive(tb testing.TB, f *fakeLive, opts Options) (string, *Server) {
	tb.Helper()
	dir := tb.TempDir()
	f.mu.Lock()
	f.dir = dir
	f.mu.Unlock()
	lib := openLib(tb, dir)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	opts.Addr = ln.Addr().String()
	opts.Live = f
	if opts.ClientRate == 0 {
		opts.ClientRate = -1 // a test's pace is the machine's: no rate
	}
	s := NewServer(lib, opts)
	hs := s.HTTPServer()
	go hs.Serve(ln)
	tb.Cleanup(func() { hs.Close() })
	return "http://" + ln.Addr().String(), s
}

// stream is one client of a game's event stream.
type stream struct {
	res    *http.Response
	r      *bufio.Reader
	cancel context.CancelFunc
}

type sse struct {
	event string
	data  string
	game  liveJSON
}

func openStream(tb testing.TB, url string) (*stream, int) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		tb.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		cancel()
		return nil, res.StatusCode
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		tb.Errorf("event stream Content-Type %q", ct)
	}
	s := &stream{res: res, r: bufio.NewReader(res.Body), cancel: cancel}
	tb.Cleanup(s.close)
	return s, res.StatusCode
}

func (s *stream) close() {
	s.cancel()
	s.res.Body.Close()
}

// next reads the next event; heartbeats are skipped unless comments.
func (s *stream) next(tb testing.TB, comments bool) (sse, error) {
	tb.Helper()
	var ev sse
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "":
			if ev.event != "" {
				if ev.event != "gone" {
					if err := json.Unmarshal([]byte(ev.data), &ev.game); err != nil {
						tb.Fatalf("event %s data %q: %v", ev.event, ev.data, err)
					}
				}
				return ev, nil
			}
		case strings.HasPrefix(line, ":"):
			if comments {
				return sse{event: "comment", data: line}, nil
			}
		case strings.HasPrefix(line, "event: "):
			ev.event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			ev.data = strings.TrimPrefix(line, "data: ")
		}
	}
}

// until reads events until one says turn or done.
func (s *stream) until(tb testing.TB, turn int) sse {
	tb.Helper()
	last := -1
	for {
		ev, err := s.next(tb, false)
		if err != nil {
			tb.Fatalf("waiting for turn %d: %v", turn, err)
		}
		if ev.game.Turn < last {
			tb.Fatalf("event for turn %d after turn %d", ev.game.Turn, last)
		}
		last = ev.game.Turn
		if ev.event == "done" || ev.game.Turn >= turn {
			return ev
		}
	}
}

// waitFor polls cond until it holds, failing after a minute.
func waitFor(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("still waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (h *liveHub) stats() (pumps, packs, streams, games int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.pumps, h.packs, len(h.streams), len(h.games)
}

// liveGoroutines counts the goroutines running the viewer's live code.
func liveGoroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "viewer.(*liveHub)") || strings.Contains(g, "viewer.(*Server).liveEvents") {
			n++
		}
	}
	return n
}

func TestLiveList(t *testing.T) {
	f := &fakeLive{}
	g := f.start(t, "g1", 30)
	g.Step(3)
	base, _ := serveLive(t, f, Options{})

	code, body := testutil.Get(t, base+"/api/live")
	var list []liveJSON
	if err := json.Unmarshal(body, &list); code != 200 || err != nil {
		t.Fatalf("/api/live: %d %s %v", code, body, err)
	}
	if len(list) != 1 || list[0].ID != "g1" || list[0].Room != "room g1" || list[0].Turn != 3 || list[0].MaxTurn != 30 ||
		len(list[0].Players) != 3 || list[0].URL != "/live/g1" || list[0].Done || list[0].Replay != "" {
		t.Fatalf("/api/live: %+v", list)
	}
	for _, u := range []string{"/", "/library/live"} {
		code, body = testutil.Get(t, base+u)
		html := string(body)
		if code != 200 || !strings.Contains(html, `href="/live/g1"`) || !strings.Contains(html, "room g1") || !strings.Contains(html, "3 / 30") ||
			!strings.Contains(html, "greedy &lt;b&gt;") {
			t.Errorf("%s: %d %s", u, code, html)
		}
	}
	g.Finish(t)
	_, body = testutil.Get(t, base+"/library/live")
	if !strings.Contains(string(body), "finished") || !strings.Contains(string(body), `href="/replay/g1.rwd"`) {
		t.Errorf("a finished game: %s", body)
	}

	// Without a Live source there is no live section and no live route.
	lib := openLib(t, t.TempDir())
	plain := serve(t, lib, Options{})
	if code, body := testutil.Get(t, plain+"/"); code != 200 || strings.Contains(string(body), `id="live"`) {
		t.Errorf("library without Live: %d, live section present", code)
	}
	for _, u := range []string{"/api/live", "/library/live", "/live/g1", "/live/g1/data", "/live/g1/events"} {
		if code, _ := testutil.Get(t, plain+u); code != http.StatusNotFound {
			t.Errorf("%s without Live: %d", u, code)
		}
	}
}

// TestLiveData: a ColorfightII game followed live is, before its first
// round, a page waiting for it (reloading) and data that is too early
// (425); then at each turn its data is what the page of the bytes
// recorded so far packs: every frame, field by field (the page's JSON),
// gzip'd as it is (application/gzip, no Content-Encoding).
func TestLiveData(t *testing.T) {
	f := &fakeLive{}
	g := f.start(t, "g1", 30)
	base, _ := serveLive(t, f, Options{})
	if code, body := testutil.Get(t, base+"/live/g1"); code != 200 || !strings.Contains(string(body), "Waiting for the first round") || !strings.Contains(string(body), `http-equiv="refresh"`) {
		t.Errorf("page at turn 0: %d %s", code, body)
	}
	if code, _ := testutil.Get(t, base+"/live/g1/data"); code != http.StatusTooEarly {
		t.Errorf("data at turn 0: %d", code)
	}
	for _, turn := range []int{1, 4, 11} {
		cur, _ := g.state()
		g.Step(turn - cur.Turn)
		st, data := g.state()
		req, _ := http.NewRequest("GET", base+"/live/g1/data", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.Header.Get("Content-Type") != "application/gzip" || res.Header.Get("Content-Encoding") != "" {
			t.Errorf("turn %d: data sent as %q, encoding %q", turn, res.Header.Get("Content-Type"), res.Header.Get("Content-Encoding"))
		}
		live := liveFrames(t, base, "g1")
		if st.Turn != turn || len(live.Frames) != turn+1 || len(live.Players) != 3 || live.Game != "colorfight2" {
			t.Fatalf("turn %d: %d frames, %d players, game %q", turn, len(live.Frames), len(live.Players), live.Game)
		}
		s, err := source.NewInferredStream(bytes.NewReader(data), nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := PackStream(s, StreamLimits{})
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(live.Frames)
		exp, _ := json.Marshal(want.Frames)
		if !bytes.Equal(got, exp) {
			t.Errorf("turn %d: the live frames differ from the page of the bytes recorded so far", turn)
		}
	}
}

func TestLiveEvents(t *testing.T) {
	f := &fakeLive{}
	g := f.start(t, "g1", 30)
	g.Step(2)
	base, s := serveLive(t, f, Options{})

	var followers []*stream
	for range 3 {
		st, code := openStream(t, base+"/live/g1/events")
		if code != 200 {
			t.Fatalf("events: %d", code)
		}
		ev, err := st.next(t, false)
		if err != nil || ev.event != "round" || ev.game.Turn != 2 || ev.game.MaxTurn != 30 || ev.game.Done || len(ev.game.Players) != 3 {
			t.Fatalf("first event %+v %v", ev, err)
		}
		followers = append(followers, st)
	}
	for _, step := range []int{1, 5} {
		g.Step(step)
		cur, _ := g.state()
		want := cur.Turn
		for _, st := range followers {
			if ev := st.until(t, want); ev.event != "round" || ev.game.Turn != want {
				t.Fatalf("after a step to %d: %+v", want, ev)
			}
		}
		// The data answered after the event is at least that round.
		if p := liveFrames(t, base, "g1"); len(p.Frames) != want+1 {
			t.Fatalf("data after turn %d's event: %d frames", want, len(p.Frames))
		}
	}
	// The game runs to its end as fast as it can: followers skip rounds
	// but end on done, and every version is packed at most once for all.
	g.Finish(t)
	for _, st := range followers {
		ev := st.until(t, 1<<30)
		if ev.event != "done" || !ev.game.Done || ev.game.Turn != 30 || ev.game.Replay != "/replay/g1.rwd" {
			t.Errorf("last event %+v", ev)
		}
		if _, err := st.next(t, false); !errors.Is(err, io.EOF) {
			t.Errorf("after done the stream goes on: %v", err)
		}
	}
	if _, packs, _, _ := s.live.stats(); packs > 32 {
		t.Errorf("%d packs for 31 versions and 3 followers", packs)
	}
	// A finished game's stream says done at once.
	st, _ := openStream(t, base+"/live/g1/events")
	if ev, err := st.next(t, false); err != nil || ev.event != "done" {
		t.Errorf("stream of a finished game: %+v %v", ev, err)
	}
}

func TestLiveHeartbeatAndGone(t *testing.T) {
	f := &fakeLive{}
	g := f.start(t, "g1", 30)
	base, s := serveLive(t, f, Options{})
	s.live.heartbeat = time.Millisecond
	// A stream opened before the first round gets it as its first event.
	st, code := openStream(t, base+"/live/g1/events")
	if code != 200 {
		t.Fatalf("events at turn 0: %d", code)
	}
	g.Step(1)
	if ev, err := st.next(t, false); err != nil || ev.event != "round" || ev.game.Turn != 1 {
		t.Fatalf("first event %+v %v", ev, err)
	}
	if ev, err := st.next(t, true); err != nil || ev.event != "comment" {
		t.Fatalf("no heartbeat: %+v %v", ev, err)
	}
	// The server forgets the game: followers are told, and the stream ends.
	f.mu.Lock()
	f.fail = true
	f.mu.Unlock()
	g.Step(1)
	for {
		ev, err := st.next(t, false)
		if err != nil {
			t.Fatalf("no gone event: %v", err)
		}
		if ev.event == "gone" {
			break
		}
	}
	if _, err := st.next(t, false); !errors.Is(err, io.EOF) {
		t.Errorf("after gone the stream goes on: %v", err)
	}
	if code, _ := testutil.Get(t, base+"/live/g1/data"); code != http.StatusNotFound {
		t.Errorf("data of a gone game: %d", code)
	}
}

func TestLiveLimitsAndLeaks(t *testing.T) {
	before := liveGoroutines()
	f := &fakeLive{}
	g := f.start(t, "g1", 30)
	h := f.start(t, "g2", 30)
	g.Step(1)
	h.Step(1)
	base, s := serveLive(t, f, Options{MaxLiveStreams: 3})

	var open []*stream
	for _, id := range []string{"g1", "g1", "g2"} {
		st, code := openStream(t, base+"/live/"+id+"/events")
		if code != 200 {
			t.Fatalf("stream %d: %d", len(open), code)
		}
		if _, err := st.next(t, false); err != nil {
			t.Fatal(err)
		}
		open = append(open, st)
	}
	if _, code := openStream(t, base+"/live/g1/events"); code != http.StatusServiceUnavailable {
		t.Errorf("a fourth stream past the limit of 3: %d", code)
	}
	if pumps, _, streams, _ := s.live.stats(); pumps != 2 || streams != 3 {
		t.Errorf("%d pumps for 2 followed games, %d streams", pumps, streams)
	}
	// A client that goes frees its slot.
	open[0].close()
	waitFor(t, "the closed stream's slot", func() bool { _, _, n, _ := s.live.stats(); return n == 2 })
	st, code := openStream(t, base+"/live/g1/events")
	if code != 200 {
		t.Fatalf("a stream after one closed: %d", code)
	}
	open[0] = st
	g.Step(2)
	if ev := st.until(t, 3); ev.game.Turn != 3 {
		t.Errorf("event %+v", ev)
	}
	// Every follower goes: pumps stop, nothing is left running.
	for _, st := range open {
		st.close()
	}
	waitFor(t, "streams and pumps to end", func() bool {
		pumps, _, streams, _ := s.live.stats()
		return pumps == 0 && streams == 0
	})
	// A game that ends ends its streams and its pump.
	st, _ = openStream(t, base+"/live/g2/events")
	h.Finish(t)
	if ev := st.until(t, 1<<30); ev.event != "done" {
		t.Errorf("last event %+v", ev)
	}
	waitFor(t, "the finished game's stream and pump to end", func() bool {
		pumps, _, streams, _ := s.live.stats()
		return pumps == 0 && streams == 0
	})
	g.Finish(t)
	waitFor(t, "no live goroutine left", func() bool { return liveGoroutines() <= before })
}

// TestLiveStreamOutlivesTimeouts checks that an event stream sets its own
// write deadlines (the server's WriteTimeout bounds ordinary responses),
// and that the server's Shutdown ends the streams instead of waiting for
// them.
func TestLiveStreamOutlivesTimeouts(t *testing.T) {
	f := &fakeLive{}
	g := f.start(t, "g1", 30)
	g.Step(1)
	lib := openLib(t, t.TempDir())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := NewServer(lib, Options{Addr: ln.Addr().String(), Live: f})
	hs := s.HTTPServer()
	hs.WriteTimeout = time.Nanosecond // past before any handler writes
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	defer hs.Close()
	st, code := openStream(t, "http://"+ln.Addr().String()+"/live/g1/events")
	if code != 200 {
		t.Fatalf("events: %d", code)
	}
	if ev, err := st.next(t, false); err != nil || ev.game.Turn != 1 {
		t.Fatalf("first event %+v %v", ev, err)
	}
	g.Step(3)
	if ev := st.until(t, 4); ev.game.Turn != 4 {
		t.Fatalf("event %+v", ev)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := hs.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown with a live stream open: %v", err)
		hs.Close()
	}
	if _, err := st.next(t, false); err == nil {
		t.Error("the stream goes on after Shutdown")
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Error(err)
	}
}

func TestLiveLibraryID(t *testing.T) {
	f := &fakeLive{}
	_, s := serveLive(t, f, Options{})
	dir := s.lib.Dir()
	for file, want := range map[string]string{
		filepath.Join(dir, "game-0001.rwd"):         "game-0001.rwd",
		filepath.Join(dir, "room", "g 2.rwd"):       "room/g 2.rwd",
		filepath.Join(dir, "game-0001.rwd.partial"): "",
		filepath.Join(dir, ".hidden.rwd"):           "",
		filepath.Join(dir, "..", "outside.rwd"):     "",
		"":                                          "",
	} {
		if got := s.libraryID(file); got != want {
			t.Errorf("libraryID(%q) = %q, want %q", file, got, want)
		}
	}
	if j := s.liveJSONOf(LiveGame{ID: "g", File: filepath.Join(dir, "g.rwd")}); j.Replay != "" {
		t.Errorf("a game not done links to %q", j.Replay)
	}
	if j := s.liveJSONOf(LiveGame{ID: "g", Done: true, File: filepath.Join(dir, "room", "g 2.rwd")}); j.Replay != "/replay/room/g%202.rwd" {
		t.Errorf("a finished game links to %q", j.Replay)
	}
	for id, want := range map[string]bool{"g1": true, "a.b_c-D9": true, "": false, ".": false, "..": false, "a/b": false, "a b": false, strings.Repeat("x", 129): false, "é": false} {
		if ValidLiveID(id) != want {
			t.Errorf("ValidLiveID(%q) = %v", id, !want)
		}
	}
}

// TestLiveRepackBound checks that a game packed less than the repack
// interval ago is not packed again for a newer round: the request waits
// for the interval (here an hour) instead, and ends when its client goes.
func TestLiveRepackBound(t *testing.T) {
	f := &fakeLive{}
	g := f.start(t, "g1", 30)
	g.Step(2)
	base, s := serveLive(t, f, Options{})
	s.live.mu.Lock()
	s.live.every = time.Hour
	s.live.mu.Unlock()
	if code, _ := testutil.Get(t, base+"/live/g1/data"); code != 200 {
		t.Fatalf("data: %d", code)
	}
	// The same version again: no wait, no pack.
	if code, _ := testutil.Get(t, base+"/live/g1/data"); code != 200 {
		t.Fatalf("data: %d", code)
	}
	g.Step(3)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/live/g1/data", nil)
	answered := make(chan error, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			res.Body.Close()
		}
		answered <- err
	}()
	waitFor(t, "the request to wait for the next pack", func() bool {
		s.live.mu.Lock()
		defer s.live.mu.Unlock()
		return s.live.waiting == 1
	})
	if _, packs, _, _ := s.live.stats(); packs != 1 {
		t.Errorf("%d packs within the interval", packs)
	}
	cancel()
	if err := <-answered; err == nil {
		t.Error("the waiting request was answered")
	}
	waitFor(t, "the waiting request to end", func() bool {
		s.live.mu.Lock()
		defer s.live.mu.Unlock()
		return s.live.waiting == 0
	})
}
