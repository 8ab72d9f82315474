package viewer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/internal/testutil/toyplay"
	"github.com/rewind-game/rewind/internal/toygame"
)

func init() {
	if _, ok := engine.Lookup(toygame.Ruleset.ID()); !ok {
		engine.Register(engine.Registration{Ruleset: toygame.Ruleset, Name: toygame.Ruleset.ID(), MinPlayers: 1, MaxPlayers: 4, MinTurns: 1, MaxTurns: 1000, DefaultTurns: 40, Round: "rounds"})
	}
}

// roundEnds is a match.GameRecorder noting the length of the recording
// after its header (ends[0]) and after each round (ends[t]).
type roundEnds struct {
	rec  *recording.Recorder
	buf  *bytes.Buffer
	ends []int
}

func (r *roundEnds) Begin(s match.GameSetup) error {
	err := r.rec.Begin(s)
	r.ends = append(r.ends, r.buf.Len())
	return err
}

func (r *roundEnds) Round(rd *match.GameRound, g engine.Game) error {
	err := r.rec.Round(rd, g)
	r.ends = append(r.ends, r.buf.Len())
	return err
}

func (r *roundEnds) End(g engine.Game) error { return r.rec.End(g) }

// toyLive is a Live serving one generic recording (a toy game played
// by match.RunGame) as it grows: the test publishes its rounds.
type toyLive struct {
	mu      sync.Mutex
	g       LiveGame
	full    []byte
	ends    []int
	data    []byte
	changed chan struct{}
	dir     string // the library folder: the finished file goes there
}

// newToyLive plays a toy game of maxTurns turns, published up to
// turn 0.
func newToyLive(tb testing.TB, id string, maxTurns int) *toyLive {
	tb.Helper()
	var buf bytes.Buffer
	re := &roundEnds{rec: toyplay.Recorder(&buf), buf: &buf}
	toyplay.Duel(tb, toygame.Ruleset, 3, maxTurns, re)
	if len(re.ends) != maxTurns+1 {
		tb.Fatalf("%d round ends for %d turns", len(re.ends), maxTurns)
	}
	l := &toyLive{full: buf.Bytes(), ends: re.ends, changed: make(chan struct{}),
		g: LiveGame{ID: id, MaxTurn: maxTurns, Players: []string{"1_painter", "2_painter"}}}
	l.data = l.full[:l.ends[0]]
	return l
}

// publish makes the recording so far end at turn; a piece of the next
// round is there too, as when the reader meets the writer mid-round.
func (l *toyLive) publish(turn int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	end := l.ends[turn]
	if turn+1 < len(l.ends) {
		end += (l.ends[turn+1] - end) / 2
	}
	l.data = l.full[:end]
	l.g.Turn = turn
	close(l.changed)
	l.changed = make(chan struct{})
}

// finish publishes the whole recording, written to the library folder.
func (l *toyLive) finish(tb testing.TB) {
	l.mu.Lock()
	defer l.mu.Unlock()
	file := filepath.Join(l.dir, l.g.ID+".rwd")
	if err := os.WriteFile(file, l.full, 0o644); err != nil {
		tb.Fatal(err)
	}
	l.data, l.g.Turn, l.g.Done, l.g.File = l.full, len(l.ends)-1, true, file
	close(l.changed)
	l.changed = make(chan struct{})
}

func (l *toyLive) LiveGames() []LiveGame {
	l.mu.Lock()
	defer l.mu.Unlock()
	return []LiveGame{l.g}
}

func (l *toyLive) LiveReplay(id string) ([]byte, LiveGame, <-chan struct{}, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if id != l.g.ID {
		return nil, LiveGame{}, nil, fmt.Errorf("no game %q", id)
	}
	return l.data, l.g, l.changed, nil
}

// serveToyLive starts a library server (opening generic files)
// following l; it returns the base URL.
func serveToyLive(tb testing.TB, l *toyLive) string {
	tb.Helper()
	l.dir = tb.TempDir()
	lib := openLib(tb, l.dir)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	s := NewServer(lib, Options{Addr: ln.Addr().String(), Live: l, ClientRate: -1,
		OpenStream: func(f *os.File) (engine.Stream, error) { return source.NewStream(f, f) }})
	hs := s.HTTPServer()
	go hs.Serve(ln)
	tb.Cleanup(func() { hs.Close() })
	return "http://" + ln.Addr().String()
}

// liveFrames fetches a generic live game's frames.
func liveFrames(tb testing.TB, base, id string) *Packed {
	tb.Helper()
	code, body := testutil.Get(tb, base+"/live/"+id+"/data")
	if code != 200 {
		tb.Fatalf("data: %d %s", code, body)
	}
	raw := testutil.Gunzip(tb, body)
	var p Packed
	if err := json.Unmarshal(raw, &p); err != nil {
		tb.Fatal(err)
	}
	return &p
}

// TestLiveToy follows a game played through the seam as its
// recording grows: the live list shows it with its players and turn, its
// page is the replay page following the game's events, its frames grow
// with each round published (the piece of the next round is not a
// frame, nor a warning), and once done the page and the last event link
// the replay in the library, which opens on the replay page.
func TestLiveToy(t *testing.T) {
	l := newToyLive(t, "toy-1", 30)
	l.publish(3)
	base := serveToyLive(t, l)

	var list []liveJSON
	_, body := testutil.Get(t, base+"/api/live")
	if err := json.Unmarshal(body, &list); err != nil || len(list) != 1 || list[0].ID != "toy-1" || list[0].Turn != 3 ||
		strings.Join(list[0].Players, ",") != "1_painter,2_painter" || list[0].URL != "/live/toy-1" {
		t.Fatalf("live list %s (%v)", body, err)
	}
	if code, rows := testutil.Get(t, base+"/library/live"); code != 200 || !strings.Contains(string(rows), "1_painter, 2_painter") || !strings.Contains(string(rows), "/live/toy-1") {
		t.Errorf("live rows %d %s", code, rows)
	}

	code, page := testutil.Get(t, base+"/live/toy-1")
	for _, want := range []string{`id="generic"`, `data-events="/live/toy-1/events"`, `data-src="/live/toy-1/data"`, ">LIVE<", "turn 3 of 30", "/static/board.js"} {
		if code != 200 || !strings.Contains(string(page), want) {
			t.Errorf("live page (%d) lacks %s", code, want)
		}
	}
	if p := liveFrames(t, base, "toy-1"); len(p.Frames) != 4 || p.Warning != "" || p.Game != toygame.Ruleset.ID() {
		t.Fatalf("at turn 3: %d frames, warning %q, game %q", len(p.Frames), p.Warning, p.Game)
	}

	s, code := openStream(t, base+"/live/toy-1/events")
	if code != 200 {
		t.Fatalf("events: %d", code)
	}
	if ev := s.until(t, 3); ev.event != "round" || ev.game.Turn != 3 {
		t.Fatalf("first event %+v", ev)
	}
	for _, turn := range []int{4, 9, 17} {
		l.publish(turn)
		if ev := s.until(t, turn); ev.event != "round" || ev.game.Turn != turn {
			t.Fatalf("at turn %d: event %+v", turn, ev)
		}
		if p := liveFrames(t, base, "toy-1"); len(p.Frames) != turn+1 || p.Warning != "" {
			t.Fatalf("at turn %d: %d frames, warning %q", turn, len(p.Frames), p.Warning)
		}
	}

	l.finish(t)
	ev := s.until(t, 30)
	if ev.event != "done" || !ev.game.Done || ev.game.Turn != 30 || ev.game.Replay != "/replay/toy-1.rwd" {
		t.Fatalf("end event %+v", ev)
	}
	if p := liveFrames(t, base, "toy-1"); len(p.Frames) != 31 || p.Warning != "" {
		t.Fatalf("done: %d frames, warning %q", len(p.Frames), p.Warning)
	}
	_, page = testutil.Get(t, base+"/live/toy-1")
	if !strings.Contains(string(page), ">FINISHED<") || !strings.Contains(string(page), `href="/replay/toy-1.rwd"`) {
		t.Errorf("finished page lacks the badge or the replay link")
	}
	if code, rp := testutil.Get(t, base+"/replay/toy-1.rwd"); code != 200 || !strings.Contains(string(rp), `id="generic"`) {
		t.Errorf("the finished replay: %d", code)
	}
}
