package viewer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/internal/testutil/toyplay"
	"github.com/rewind-game/rewind/internal/toygame"
	"github.com/rewind-game/rewind/replay"
)

// unpackCells gives every frame's whole cells from p's deltas, and how
// many cells each frame changed.
func unpackCells(t *testing.T, p *Packed) ([][]engine.Cell, []int) {
	t.Helper()
	n := p.Board.Width * p.Board.Height
	out := make([][]engine.Cell, len(p.Frames))
	changes := make([]int, len(p.Frames))
	cur := make([]engine.Cell, n)
	for fi, f := range p.Frames {
		if fi == 0 {
			if len(f.Cells) != 4*n {
				t.Fatalf("frame 0: %d numbers for %d cells", len(f.Cells), n)
			}
			for i := range cur {
				cur[i] = engine.Cell{Terrain: f.Cells[4*i], Owner: int(f.Cells[4*i+1]), Value: f.Cells[4*i+2], Badges: uint32(f.Cells[4*i+3])}
			}
		} else {
			at, c := -1, f.Cells
			for k := 0; k < len(c); {
				if k+1 >= len(c) {
					t.Fatalf("frame %d: a change cut short at %d of %d numbers", fi, k, len(c))
				}
				at += int(c[k])
				mask := c[k+1]
				k += 2
				if mask == 0 || mask&^(CellTerrain|CellOwner|CellValue|CellBadges) != 0 || at < 0 || at >= n {
					t.Fatalf("frame %d: cell %d, fields %b", fi, at, mask)
				}
				next := func() int64 {
					if k >= len(c) {
						t.Fatalf("frame %d: cell %d's fields cut short", fi, at)
					}
					k++
					return c[k-1]
				}
				old := cur[at]
				if mask&CellTerrain != 0 {
					cur[at].Terrain = next()
				}
				if mask&CellOwner != 0 {
					cur[at].Owner = int(next())
				}
				if mask&CellValue != 0 {
					cur[at].Value = next()
				}
				if mask&CellBadges != 0 {
					cur[at].Badges = uint32(next())
				}
				if cur[at] == old {
					t.Fatalf("frame %d: cell %d listed unchanged", fi, at)
				}
				changes[fi]++
			}
		}
		out[fi] = append([]engine.Cell(nil), cur...)
	}
	return out, changes
}

// walkPacked reads ref's frames beside p's: each frame's cells (through
// p's deltas) must be the stream's, and each calls each with the frame
// number, the stream's frame, p's and how many cells p lists as changed;
// the stream may not have more frames than p. It returns how many it had.
func walkPacked(t *testing.T, p *Packed, ref engine.Stream, each func(n int, f *engine.Frame, pf *PackedFrame, changed int)) int {
	t.Helper()
	cells, changes := unpackCells(t, p)
	var f engine.Frame
	n := 0
	for ; ; n++ {
		if err := ref.Next(&f); err == io.EOF {
			return n
		} else if err != nil {
			t.Fatal(err)
		}
		if n >= len(p.Frames) {
			t.Fatalf("the stream has more than the %d frames packed", len(p.Frames))
		}
		if len(cells[n]) != len(f.Board.Cells) {
			t.Fatalf("frame %d: %d cells, the stream's %d", n, len(cells[n]), len(f.Board.Cells))
		}
		for i := range cells[n] {
			if cells[n][i] != f.Board.Cells[i] {
				t.Fatalf("frame %d: cell %d is %+v, the stream's %+v", n, i, cells[n][i], f.Board.Cells[i])
			}
		}
		each(n, &f, &p.Frames[n], changes[n])
	}
}

// TestPackStream packs the toy duel on both boards and reads every frame
// back against the stream's own: cells (through the deltas), entities,
// effects, values, events in words, commands, errors, the active player
// and bot logs; then the JSON, gzip'd, round-trips.
func TestPackStream(t *testing.T) {
	for _, topo := range []engine.Topology{engine.HexAxial, engine.Square} {
		t.Run(topo.String(), func(t *testing.T) {
			p, err := PackStream(newToyStream(topo, 5, 5, 30, "alice", "bob"), StreamLimits{})
			if err != nil {
				t.Fatal(err)
			}
			if p.Game != "toyduel" || !p.Sequential || p.Board.Topology != topo.String() || len(p.Metrics) != 2 || len(p.EventKinds) != 1 || p.Notice != "" || p.Warning != "" {
				t.Fatalf("head: %+v", p)
			}
			changed, hits := 0, 0
			n := walkPacked(t, p, newToyStream(topo, 5, 5, 30, "alice", "bob"), func(n int, f *engine.Frame, pf *PackedFrame, c int) {
				if n > 0 {
					changed += c
				}
				if pf.Turn != f.Turn || pf.Active != f.Active || !reflect.DeepEqual(pf.Values, f.Values) || len(pf.Entities) != 2 {
					t.Fatalf("frame %d: turn %d active %d values %v entities %d; want %d %d %v", n, pf.Turn, pf.Active, pf.Values, len(pf.Entities), f.Turn, f.Active, f.Values)
				}
				for i, e := range f.Board.Entities {
					if got := pf.Entities[i]; got != (PackedEntity{Kind: e.Kind, Player: e.Player, X: e.X, Y: e.Y, Health: e.Health, Value: e.Value, Label: e.Label}) {
						t.Fatalf("frame %d: entity %+v, want %+v", n, got, e)
					}
				}
				if len(pf.Effects) != len(f.Board.Effects) {
					t.Fatalf("frame %d: %d effects, want %d", n, len(pf.Effects), len(f.Board.Effects))
				}
				for i, e := range f.Board.Effects {
					got := pf.Effects[i]
					if got.Kind != effectKinds[e.Kind] || got.Name != e.Name || got.X != e.X || got.Y != e.Y || got.X2 != e.X2 || got.Radius != e.Radius || len(got.Points) != 2*len(e.Points) || got.Value != e.Value {
						t.Fatalf("frame %d: effect %+v, want %+v", n, got, e)
					}
				}
				if len(pf.Events) != len(f.Events) {
					t.Fatalf("frame %d: %d events, want %d", n, len(pf.Events), len(f.Events))
				}
				for _, e := range pf.Events {
					hits++
					if e.Kind != 0 || !strings.Contains(e.Text, " hit ") || !strings.HasPrefix(e.Text, []string{"alice", "bob"}[e.Player]) {
						t.Fatalf("frame %d: event %+v", n, e)
					}
				}
				if n > 0 {
					a := f.Active
					if !reflect.DeepEqual(pf.Commands[a], f.Commands[a]) || pf.Logs[a] != string(f.Logs[a]) || len(pf.Errors) != len(f.Errors) {
						t.Fatalf("frame %d: commands %q logs %q errors %v; want %q %q %v", n, pf.Commands, pf.Logs, pf.Errors, f.Commands, f.Logs, f.Errors)
					}
				}
			})
			if n != len(p.Frames) || n < 10 {
				t.Fatalf("%d frames packed, the stream has %d", len(p.Frames), n)
			}
			if changed >= (n-1)*25/2 || changed == 0 || hits == 0 {
				t.Errorf("%d cell changes over %d frames of 25 cells, %d hits: the deltas are not deltas", changed, n-1, hits)
			}

			gz, err := EncodePacked(p)
			if err != nil {
				t.Fatal(err)
			}
			zr, err := gzip.NewReader(bytes.NewReader(gz))
			if err != nil {
				t.Fatal(err)
			}
			var back Packed
			if err := json.NewDecoder(zr).Decode(&back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(&back, p) {
				t.Error("the JSON does not round-trip")
			}
		})
	}
}

// TestWordEvent: fields and names replace the placeholders; a kind
// without a sentence still says something.
func TestWordEvent(t *testing.T) {
	k := engine.EventKind{Name: "hit", Text: "{player} hit {other} for {value} at ({x}, {y})"}
	e := engine.Event{Kind: "hit", Player: 1, Other: 0, X: 2, Y: 3, Value: 5}
	if got := WordEvent(&k, &e, []string{"a", "b"}); got != "b hit a for 5 at (2, 3)" {
		t.Error(got)
	}
	e.Kind, e.Other = "droid_lost", -1
	if got := WordEvent(nil, &e, []string{"a"}); got != "player 1: droid lost at (2, 3)" {
		t.Error(got)
	}
}

// failingStream is a toy stream that fails after some frames.
type failingStream struct {
	*toyStream
	after int
}

func (s *failingStream) Next(f *engine.Frame) error {
	if s.n >= s.after {
		return errors.New("damaged record")
	}
	return s.toyStream.Next(f)
}

// TestPackStreamLimits: every bound of StreamLimits holds, and a stream
// damaged after some frames gives those frames and a warning.
func TestPackStreamLimits(t *testing.T) {
	pack := func(l StreamLimits) (*Packed, error) {
		return PackStream(newToyStream(engine.HexAxial, 5, 5, 30, "a", "b"), l)
	}
	for name, l := range map[string]StreamLimits{
		"frames": {MaxFrames: 10},
		"cells":  {MaxCells: 24},
		"bytes":  {MaxBytes: 8 << 10},
	} {
		if _, err := pack(l); !errors.Is(err, ErrTooBig) {
			t.Errorf("%s: %v, want ErrTooBig", name, err)
		}
	}
	p, err := pack(StreamLimits{MaxText: 400})
	if err != nil {
		t.Fatal(err)
	}
	last := p.Frames[len(p.Frames)-1]
	if !strings.Contains(p.Notice, "up to turn") || last.Commands[last.Active] != nil || last.Sent[last.Active] == 0 || last.Logs != nil {
		t.Errorf("text budget: notice %q, last frame commands %q sent %v logs %q", p.Notice, last.Commands, last.Sent, last.Logs)
	}
	p, err = pack(StreamLimits{MaxCommandsShown: 1})
	if err != nil {
		t.Fatal(err)
	}
	if f := p.Frames[1]; len(f.Commands[f.Active]) != 1 || f.Sent[f.Active] != 2 || !strings.Contains(p.Notice, "the first 1") {
		t.Errorf("commands shown: %q sent %v, notice %q", f.Commands, f.Sent, p.Notice)
	}
	p, err = PackStream(&failingStream{newToyStream(engine.Square, 5, 5, 30, "a", "b"), 7}, StreamLimits{})
	if err != nil || len(p.Frames) != 7 || !strings.Contains(p.Warning, "after turn 6: damaged record") {
		t.Errorf("damaged stream: %v, warning %q", err, p.Warning)
	}
	if _, err = PackStream(&failingStream{newToyStream(engine.Square, 5, 5, 30, "a", "b"), 0}, StreamLimits{}); err == nil {
		t.Error("a stream with no frame packed")
	}
}

// floodStream is a hostile stream: every frame holds a board of size×size
// cells that all change, many entities and effects with long names (when
// things), and long commands and a log of logLen bytes, all of them
// characters JSON escapes, until the limits stop it. It allocates
// nothing per frame itself.
type floodStream struct {
	meta         engine.StreamMeta
	size, things int
	long         string
	logb         []byte
	n, max       int
	values       [][]int64
	commands     [][]string
	logs         [][]byte
	entities     []engine.Entity
	effects      []engine.Effect
}

func newFlood(size, things, logLen, frames int) *floodStream {
	s := &floodStream{size: size, things: things, long: strings.Repeat("<", 200), max: frames}
	s.meta = engine.StreamMeta{Ruleset: "flood", Players: []engine.StreamPlayer{{Name: "a"}, {Name: "b"}},
		Metrics: []engine.Metric{{Name: "x"}, {Name: "y"}}}
	s.logb = bytes.Repeat([]byte("<"), logLen)
	s.values = [][]int64{{1 << 60, -1}, {0, 0}}
	s.commands = [][]string{{s.long + s.long, s.long}, {s.long}}
	s.logs = [][]byte{s.logb, nil}
	for i := 0; i < things; i++ {
		s.entities = append(s.entities, engine.Entity{Kind: s.long, Player: 0, X: i, Label: s.long})
		s.effects = append(s.effects, engine.Effect{Kind: engine.Path, Name: s.long, Points: make([]engine.Point, 20)})
	}
	return s
}

func (*floodStream) SkipCommandText() {}

func (s *floodStream) Meta() *engine.StreamMeta { return &s.meta }
func (s *floodStream) Close() error             { return nil }
func (s *floodStream) Next(f *engine.Frame) error {
	if s.max > 0 && s.n >= s.max {
		return io.EOF
	}
	b := &f.Board
	b.Topology = engine.Square
	b.Resize(s.size, s.size)
	for i := range b.Cells {
		b.Cells[i] = engine.Cell{Terrain: int64(s.n), Owner: s.n % 2, Value: -1 << 62, Badges: 1 << 31}
	}
	b.Entities, b.Effects = s.entities, s.effects
	f.Values, f.Commands, f.Logs, f.CommandsKnown, f.Turn = s.values, s.commands, s.logs, true, s.n
	s.n++
	return nil
}

// TestPackStreamBounded: a hostile stream is refused at MaxBytes, and
// what PackStream and EncodePacked allocate in all (a bound on their
// peak) for the most a page may hold stays within StreamPeakBytes, and so
// does what EncodeStream allocates for it or for a stream it refuses; with
// the defaults the bound is the one in docs/limits.md.
func TestPackStreamBounded(t *testing.T) {
	if got := StreamPeakBytes(StreamLimits{}); got != 8<<20+4*DefaultStreamBytes+20*DefaultStreamText {
		t.Errorf("default peak %d", got)
	}
	for _, c := range []struct {
		name                         string
		l                            StreamLimits
		size, things, logLen, frames int
	}{
		{"structure", StreamLimits{MaxBytes: 16 << 20, MaxText: 256 << 10}, 64, 100, 200, 0},
		{"text", StreamLimits{MaxBytes: 16 << 20, MaxText: 2 << 20, MaxFrames: 300}, 1, 0, 64 << 10, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			// How many frames fit: the refusal names the frame past them.
			fit := 300
			if _, err := PackStream(newFlood(c.size, c.things, c.logLen, 0), c.l); !errors.Is(err, ErrTooBig) {
				t.Fatalf("%v, want ErrTooBig", err)
			} else if c.name == "structure" {
				if _, err := fmt.Sscanf(err.Error(), "viewer: frame %d:", &fit); err != nil {
					t.Fatal(err)
				}
			}
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			before := ms.TotalAlloc
			p, err := PackStream(newFlood(c.size, c.things, c.logLen, fit), c.l)
			if err != nil {
				t.Fatal(err)
			}
			gz, err := EncodePacked(p)
			if err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&ms)
			alloc := int64(ms.TotalAlloc - before)
			t.Logf("%d frames, notice %t, %d KB gzip'd; allocated %d MB in all, bound %d MB", len(p.Frames), p.Notice != "", len(gz)>>10, alloc>>20, StreamPeakBytes(c.l)>>20)
			if alloc > StreamPeakBytes(c.l) {
				t.Errorf("allocated %d B, more than the bound %d", alloc, StreamPeakBytes(c.l))
			}
			if c.name == "text" && !strings.Contains(p.Notice, "up to turn") {
				t.Errorf("the text did not fill: %q", p.Notice)
			}
			// EncodeStream, for the same frames and refusing more.
			for _, frames := range []int{fit, 0} {
				runtime.GC()
				runtime.ReadMemStats(&ms)
				before := ms.TotalAlloc
				_, err := EncodeStream(newFlood(c.size, c.things, c.logLen, frames), c.l)
				if (err == nil) != (frames > 0) {
					t.Fatalf("EncodeStream of %d frames: %v", frames, err)
				}
				runtime.ReadMemStats(&ms)
				alloc := int64(ms.TotalAlloc - before)
				t.Logf("EncodeStream of %d frames (0: all, refused): allocated %d MB in all", frames, alloc>>20)
				if alloc > StreamPeakBytes(c.l) {
					t.Errorf("EncodeStream of %d frames allocated %d B, more than the bound %d", frames, alloc, StreamPeakBytes(c.l))
				}
			}
		})
	}
}

// TestReplayHandler: the page and its data through ReplayPage alone
// (and StaticHandler), the errors of a stream that cannot be opened or
// is too big, and /game/ on a server without Options.OpenStream.
func TestReplayHandler(t *testing.T) {
	h := ReplayPage(func() (engine.Stream, error) { return newToyStream(engine.HexAxial, 5, 5, 20, "a", "b"), nil })
	mux := http.NewServeMux()
	mux.Handle("/duel", h)
	mux.Handle("/static/", StaticHandler())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	get := func(url string) (int, string, []byte) {
		res, err := http.Get(srv.URL + url)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header.Get("Content-Type"), b
	}
	code, typ, body := get("/duel")
	if code != 200 || !strings.HasPrefix(typ, "text/html") || !bytes.Contains(body, []byte(`src="/static/board.js"`)) || !bytes.Contains(body, []byte("toyduel · 2 players: a, b")) {
		t.Fatalf("page: %d %s\n%s", code, typ, body)
	}
	code, typ, body = get("/duel?data=1")
	if code != 200 || typ != "application/gzip" {
		t.Fatalf("data: %d %s", code, typ)
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var p Packed
	if err := json.NewDecoder(zr).Decode(&p); err != nil || len(p.Frames) != 21 {
		t.Fatalf("data: %v, %d frames", err, len(p.Frames))
	}
	if code, typ, _ = get("/static/board.js"); code != 200 || !strings.HasPrefix(typ, "text/javascript") {
		t.Errorf("board.js: %d %s", code, typ)
	}
	h.Limits = StreamLimits{MaxFrames: 5}
	if code, _, body = get("/duel?data=1"); code != http.StatusUnprocessableEntity || !strings.Contains(string(body), "too big") {
		t.Errorf("too big: %d %s", code, body)
	}
	h.Open = func() (engine.Stream, error) { return nil, errors.New("not a replay") }
	if code, _, body = get("/duel"); code != http.StatusUnprocessableEntity || !strings.Contains(string(body), "not a replay") {
		t.Errorf("broken: %d %s", code, body)
	}
	base := serveDir(t, t.TempDir(), Options{})
	res, err := http.Get(base + "/game/x.rwd")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("/game/ without OpenStream: %d", res.StatusCode)
	}
}

// TestPackStreamEvents: the page's events are the analysis's of
// the same stream (analysis.AnalyzeStream, read again), worded by
// Generic.EventText, turning points and folded lead changes marked, and
// its outcome; a toy duel and ColorfightII's c01 (its commands
// inferred), whose analysis has lead changes after the opening, a lead
// swing and the lead for good.
func TestPackStreamEvents(t *testing.T) {
	for _, c := range []struct {
		name string
		open func() (engine.Stream, error)
	}{
		{"toy", func() (engine.Stream, error) { return newToyStream(engine.Square, 5, 5, 30, "alice", "bob"), nil }},
		{"c01", func() (engine.Stream, error) { return openInferred(filepath.Join(testdata, "conformance", "c01.cfr")) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := c.open()
			if err != nil {
				t.Fatal(err)
			}
			p, err := PackStream(s, StreamLimits{})
			s.Close()
			if err != nil {
				t.Fatal(err)
			}
			s, err = c.open()
			if err != nil {
				t.Fatal(err)
			}
			g, err := analysis.AnalyzeStream(s, analysis.Options{})
			s.Close()
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Events) == 0 || len(p.Events) != len(g.Events) {
				t.Fatalf("%d events packed, the analysis has %d", len(p.Events), len(g.Events))
			}
			kinds := map[string]int{}
			for i, e := range g.Events {
				want := PackedListEvent{Turn: e.Turn, Kind: e.Kind, Player: e.Player, Other: e.Other, Value: e.Value, Text: g.EventText(e, g.Name),
					Turning: e.Shell && g.IsTurningPoint(e.Kind), Explain: g.Explain(e, g.Name), Later: !g.ShownAtFirst(e)}
				if p.Events[i] != want {
					t.Errorf("event %d: %+v, want %+v", i, p.Events[i], want)
				}
				kinds[e.Kind]++
			}
			if p.Outcome == "" || p.Outcome != g.Outcome(g.Name) {
				t.Errorf("outcome %q, want %q", p.Outcome, g.Outcome(g.Name))
			}
			if kinds[analysis.EventLeadChange] == 0 || kinds[analysis.EventLeadForGood] != 1 {
				t.Errorf("events by kind: %v", kinds)
			}
			if c.name != "c01" {
				return
			}
			later, explained := 0, 0
			for _, e := range p.Events {
				if e.Later {
					later++
				}
				if e.Turning && e.Explain != "" {
					explained++
				}
			}
			if later == 0 || explained == 0 || kinds[analysis.EventLeadSwing] == 0 {
				t.Errorf("c01: %d folded, %d turning points explained, events by kind %v", later, explained, kinds)
			}
		})
	}
}

// TestReplayPageProvenance: the replay page says where a game came from,
// from its .rwd header (StreamMeta.Provenance): a fork (a toy duel
// recorded with a parent) "played on from turn N of FILE", an import
// (ColorfightII's c01.cfr, rewind import's .rwd) "commands inferred from
// FILE"; a game recorded as played says neither.
func TestReplayPageProvenance(t *testing.T) {
	toy := func(parent *replay.Parent) []byte {
		var buf bytes.Buffer
		rec := toyplay.Recorder(&buf)
		rec.Parent = parent
		toyplay.Duel(t, toygame.Ruleset, 4, 12, rec)
		return buf.Bytes()
	}
	cfr := testutil.ReadFile(t, filepath.Join(testdata, "conformance", "c01.cfr"))
	var imported bytes.Buffer
	if _, err := cfrimport.Import(bytes.NewReader(cfr), &imported, cfrimport.ImportOptions{Source: "c01.cfr", SHA256: "0123456789abcdef0123", Created: time.Unix(0, 0), Tool: "rewind test"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"fork", toy(&replay.Parent{Source: "parent.rwd", SHA256: "fedcba9876543210fedc", Turn: 5}), "played on from turn 5 of parent.rwd (sha256 fedcba987654…)"},
		{"import", imported.Bytes(), "commands inferred from c01.cfr (sha256 0123456789ab…)"},
		{"played", toy(nil), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			open := func() (engine.Stream, error) { return source.NewStream(bytes.NewReader(c.data), nil) }
			s, err := open()
			if err != nil {
				t.Fatal(err)
			}
			p, err := PackStream(s, StreamLimits{})
			if err != nil {
				t.Fatal(err)
			}
			summary := ReplayPageData(s.Meta(), "x.rwd").Summary
			s.Close()
			if p.Provenance != c.want || s.Meta().Provenance != c.want {
				t.Errorf("provenance %q (meta %q), want %q", p.Provenance, s.Meta().Provenance, c.want)
			}
			if got := strings.Contains(summary, "played on from") || strings.Contains(summary, "inferred from"); got != (c.want != "") || (c.want != "" && !strings.HasSuffix(summary, " · "+c.want)) {
				t.Errorf("summary %q, want it to end with %q", summary, c.want)
			}
			srv := httptest.NewServer(ReplayPage(open))
			defer srv.Close()
			_, body := testutil.Get(t, srv.URL)
			if c.want != "" && !strings.Contains(string(body), c.want) {
				t.Errorf("the page does not say %q", c.want)
			}
			var html bytes.Buffer
			if err := WriteReplayHTML(context.Background(), &html, p, "x.rwd"); err != nil {
				t.Fatal(err)
			}
			if c.want != "" && !strings.Contains(html.String(), c.want) {
				t.Errorf("the exported page does not say %q", c.want)
			}
		})
	}
}

// layeredStream is a toy duel whose board has two layers: "height", the
// same every frame, and "trail", 1 + the first turn a tank stood on
// each cell (0: none yet). Layers: how many it gives from frame From on.
type layeredStream struct {
	*toyStream
	trail        []int64
	Layers, From int
}

func (s *layeredStream) Next(f *engine.Frame) error {
	if err := s.toyStream.Next(f); err != nil {
		return err
	}
	b := &f.Board
	if s.trail == nil {
		s.trail = make([]int64, len(b.Cells))
	}
	for _, e := range b.Entities {
		if i := e.Y*b.Width + e.X; s.trail[i] == 0 {
			s.trail[i] = int64(f.Turn) + 1
		}
	}
	names := []string{"height", "trail", "extra"}[:2]
	if f.Turn >= s.From && s.Layers > 0 {
		names = names[:0]
		for k := range s.Layers {
			names = append(names, fmt.Sprint("layer", k))
		}
	}
	b.ResizeLayers(names)
	for i := range b.Cells {
		if len(b.Layers) > 0 {
			b.Layers[0].Values[i] = int64(i%5) - 2
		}
		if len(b.Layers) > 1 {
			b.Layers[1].Values[i] = s.trail[i]
		}
	}
	return nil
}

// unpackLayers gives every frame's layers from p's frames.
func unpackLayers(t *testing.T, p *Packed) [][][]int64 {
	t.Helper()
	n := p.Board.Width * p.Board.Height
	cur := make([][]int64, len(p.Board.Layers))
	out := make([][][]int64, len(p.Frames))
	for fi, f := range p.Frames {
		if f.Layers != nil && len(f.Layers) != len(cur) {
			t.Fatalf("frame %d: %d layers, the board %d", fi, len(f.Layers), len(cur))
		}
		for k := range cur {
			var l []int64
			if f.Layers != nil {
				l = f.Layers[k]
			}
			if fi == 0 {
				if len(l) != n {
					t.Fatalf("frame 0, layer %d: %d values for %d cells", k, len(l), n)
				}
				cur[k] = append([]int64(nil), l...)
				continue
			}
			if len(l)%2 != 0 {
				t.Fatalf("frame %d, layer %d: %d numbers of changes", fi, k, len(l))
			}
			at := -1
			for j := 0; j < len(l); j += 2 {
				at += int(l[j])
				cur[k][at] = l[j+1]
			}
		}
		out[fi] = make([][]int64, len(cur))
		for k := range cur {
			out[fi][k] = append([]int64(nil), cur[k]...)
		}
	}
	return out
}

// TestPackStreamLayers: a board's layers are named once and packed whole
// in frame 0, then only where they change (a static layer never again),
// and read back equal to the stream's every frame; EncodeStream writes
// them as EncodePacked does. A board without layers packs none, and a
// board whose layers change names, number or length is refused.
func TestPackStreamLayers(t *testing.T) {
	var want [][][]int64
	s := &layeredStream{toyStream: newToyStream(engine.Square, 5, 5, 30, "ann", "bob")}
	var f engine.Frame
	for {
		if err := s.Next(&f); err != nil {
			break
		}
		fl := make([][]int64, len(f.Board.Layers))
		for k, l := range f.Board.Layers {
			fl[k] = append([]int64(nil), l.Values...)
		}
		want = append(want, fl)
	}
	p, err := PackStream(&layeredStream{toyStream: newToyStream(engine.Square, 5, 5, 30, "ann", "bob")}, StreamLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(p.Board.Layers) != "[height trail]" || len(p.Frames) != len(want) {
		t.Fatalf("layers %q, %d frames (want %d)", p.Board.Layers, len(p.Frames), len(want))
	}
	if got := unpackLayers(t, p); !reflect.DeepEqual(got, want) {
		t.Errorf("layers read back differ:\n%v\nwant\n%v", got, want)
	}
	changed := 0
	for fi, f := range p.Frames[1:] {
		if f.Layers != nil && f.Layers[0] != nil {
			t.Errorf("frame %d: the static layer packed again: %v", fi+1, f.Layers[0])
		}
		if f.Layers != nil {
			changed++
		}
	}
	if changed == 0 || changed == len(p.Frames)-1 {
		t.Errorf("the trail changed in %d of %d frames", changed, len(p.Frames)-1)
	}
	packed, err := EncodePacked(p)
	if err != nil {
		t.Fatal(err)
	}
	streamed, err := EncodeStream(&layeredStream{toyStream: newToyStream(engine.Square, 5, 5, 30, "ann", "bob")}, StreamLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(testutil.Gunzip(t, packed), testutil.Gunzip(t, streamed)) || !bytes.Contains(testutil.Gunzip(t, packed), []byte(`"layers":["height","trail"]`)) {
		t.Error("EncodeStream and EncodePacked differ, or name no layers")
	}

	plain, err := PackStream(newToyStream(engine.Square, 5, 5, 30, "ann", "bob"), StreamLimits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range plain.Frames {
		if f.Layers != nil || plain.Board.Layers != nil {
			t.Fatalf("a board without layers packs %q, %v", plain.Board.Layers, f.Layers)
		}
	}

	for _, c := range []struct {
		layers, from int
		want         string
	}{
		{3, 5, "3 layers, frame 0 had 2"},
		{2, 5, `layer 0 is "layer0", frame 0's was "height"`},
		{engine.MaxLayers + 1, 0, "at most 8"},
	} {
		p, err := PackStream(&layeredStream{toyStream: newToyStream(engine.Square, 5, 5, 30, "ann", "bob"), Layers: c.layers, From: c.from}, StreamLimits{})
		msg := fmt.Sprint(err)
		if p != nil {
			msg += " " + p.Warning
		}
		if !strings.Contains(msg, c.want) {
			t.Errorf("%d layers from frame %d: %q, want %q", c.layers, c.from, msg, c.want)
		}
	}
}

// TestPackStreamMatchesFrames: what PackStream packs of a real file —
// a re-simulated ColorfightII .rwd, the reference server's .cfr with
// its commands inferred, a Monad reference log and each real tournament
// replay when present — is, field by field, what its stream gives: every
// frame's cells (through the deltas), turn, active player, values,
// ranking and commands.
func TestPackStreamMatchesFrames(t *testing.T) {
	dir := t.TempDir()
	c03 := filepath.Join(dir, "c03.rwd")
	write(t, c03, vectorRWD(t, "c03"))
	files := append([]string{c03, referenceCFR, testdata + "/monad/official/m02.mp.gz"}, testutil.RealWorldOptional(t)...)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			open := func() engine.Stream {
				t.Helper()
				f, err := os.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				s, err := source.NewInferredStream(f, f)
				if err != nil {
					f.Close()
					t.Fatal(err)
				}
				return s
			}
			s := open()
			p, err := PackStream(s, StreamLimits{})
			s.Close()
			if err != nil {
				t.Fatal(err)
			}
			ref := open()
			defer ref.Close()
			n := walkPacked(t, p, ref, func(n int, f *engine.Frame, pf *PackedFrame, _ int) {
				if pf.Turn != f.Turn || pf.Active != f.Active || !reflect.DeepEqual(pf.Values, f.Values) {
					t.Fatalf("frame %d: turn %d active %d values %v; the stream's %d %d %v", n, pf.Turn, pf.Active, pf.Values, f.Turn, f.Active, f.Values)
				}
				if len(f.Ranking) > 0 && !slices.Equal(pf.Ranking, f.Ranking) {
					t.Fatalf("frame %d: ranking %v, the stream's %v", n, pf.Ranking, f.Ranking)
				}
				for a := range f.Commands {
					var got []string
					if a < len(pf.Commands) {
						got = pf.Commands[a]
					}
					if len(f.Commands[a]) <= MaxCommandsShown && !slices.Equal(got, f.Commands[a]) {
						t.Fatalf("frame %d: player %d's commands %q, the stream's %q", n, a, got, f.Commands[a])
					}
				}
			})
			if n != len(p.Frames) {
				t.Errorf("%d frames packed, the stream has %d", len(p.Frames), n)
			}
		})
	}
}

// TestPackStreamLargestBoard: a board the size of Skyport's largest map
// (99 × 99) packs within the default limits.
func TestPackStreamLargestBoard(t *testing.T) {
	p, err := PackStream(newToyStream(engine.HexAxial, 99, 99, 10, "alice", "bob"), StreamLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if cells, _ := unpackCells(t, p); len(cells[len(cells)-1]) != 99*99 {
		t.Errorf("%d cells in the last frame", len(cells[len(cells)-1]))
	}
}
