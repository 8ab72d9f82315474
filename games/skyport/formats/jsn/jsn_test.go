package jsn_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/skyport/formats/jsn"
	"github.com/rewind-game/rewind/games/skyport/formats/jsn/jsntest"
	skyport "github.com/rewind-game/rewind/games/skyport/rules"
)

// recording returns the public recording name ($REWIND_SKYPORT/recordings,
// else the shared folder), skipping the test when it is absent.
func recording(t testing.TB, name string) []byte {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "..", "..", "shared", "skyport")
	if d := os.Getenv("REWIND_SKYPORT"); d != "" {
		dir = d
	}
	b, err := os.ReadFile(filepath.Join(dir, "recordings", name))
	if err != nil {
		t.Skipf("%s not found in %s/recordings (set REWIND_SKYPORT)", name, dir)
	}
	return b
}

// readAll reads every frame (deep copies of what a test looks at) and
// the error that ended the stream (nil for io.EOF).
func readAll(t testing.TB, data []byte) (*engine.StreamMeta, []engine.Frame, error) {
	t.Helper()
	s, err := jsn.Open(bytes.NewReader(data))
	if err != nil {
		return nil, nil, err
	}
	defer s.Close()
	var out []engine.Frame
	for {
		var f engine.Frame
		err := s.Next(&f)
		if errors.Is(err, io.EOF) {
			return s.Meta(), out, nil
		}
		if err != nil {
			if err2 := s.Next(&f); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("Next after the error %v: %v", err, err2)
			}
			return s.Meta(), out, err
		}
		out = append(out, f)
	}
}

func metric(t testing.TB, m *engine.StreamMeta, name string) int {
	for i, mt := range m.Metrics {
		if mt.Name == name {
			return i
		}
	}
	t.Fatalf("no metric %q", name)
	return -1
}

func cell(f *engine.Frame, j, k int) engine.Cell { return f.Board.Cells[k*f.Board.Width+j] }

func hasEvent(f *engine.Frame, want engine.Event) bool {
	for _, e := range f.Events {
		if e == want {
			return true
		}
	}
	return false
}

// TestRealRecordings reads both public recordings to their end and checks
// fields of a few frames against values read from the files by hand.
func TestRealRecordings(t *testing.T) {
	t.Run("test.jsn", func(t *testing.T) {
		m, fr, err := readAll(t, recording(t, "test.jsn"))
		if err != nil {
			t.Fatal(err)
		}
		if m.Format != jsn.Name || m.Label != jsn.Label || m.Resimulated || !m.Sequential || m.Ruleset != skyport.RulesetID ||
			len(m.Players) != 3 || m.Players[0].Name != "foo1" || m.Players[1].Name != "foo2" || m.Players[2].Name != "foo3" {
			t.Fatalf("meta %+v", m)
		}
		// Gamestates of turns 1..10: 10 frames, 9 player-turns.
		if len(fr) != 10 || fr[9].Turn != 9 {
			t.Fatalf("%d frames, last turn %d", len(fr), fr[len(fr)-1].Turn)
		}
		f0 := &fr[0]
		// Turn 1: foo2 "0, 8", foo3 "8, 15", foo1 "12, 1", all on spawns.
		if f0.Active != -1 || f0.Board.Topology != engine.HexAxial || f0.Board.Width != 16 || len(f0.Board.Entities) != 3 ||
			cell(f0, 12, 1).Owner != 0 || cell(f0, 0, 8).Owner != 1 || cell(f0, 8, 15).Owner != 2 ||
			cell(f0, 0, 8).Terrain != int64(skyport.TileIndex('S')) || cell(f0, 0, 8).Badges != 1 ||
			cell(f0, 3, 4).Terrain != int64(skyport.TileIndex('E')) || cell(f0, 3, 4).Value != 2 || cell(f0, 0, 0).Terrain != int64(skyport.TileIndex('V')) {
			t.Errorf("frame 0: active %d, board %+v", f0.Active, f0.Board.Entities)
		}
		// Turn 1 (line 7-8): foo2 moves left-up to "0, 7", lasers from
		// "0, 7" to "0, 2".
		f1 := &fr[1]
		if f1.Active != 1 || f1.CommandsKnown || !hasEvent(f1, engine.Event{Kind: "laser", Player: 1, Other: -1, X: 0, Y: 2, Value: 1}) ||
			cell(f1, 0, 7).Owner != 1 || len(f1.Board.Effects) != 1 ||
			fmt.Sprint(f1.Board.Effects[0]) != fmt.Sprint(engine.Effect{Kind: engine.Line, Name: "laser", Player: 1, X: 0, Y: 7, X2: 0, Y2: 2}) {
			t.Errorf("frame 1: active %d, events %v, effects %+v", f1.Active, f1.Events, f1.Board.Effects)
		}
		// Turn 5 (line 25): foo3 at "7, 15" fires a mortar "3,3": it
		// lands on 10, 15 (k clamped at the edge).
		if f := &fr[5]; f.Active != 2 || !hasEvent(f, engine.Event{Kind: "mortar", Player: 2, Other: -1, X: 10, Y: 15, Value: 1}) {
			t.Errorf("frame 5: active %d, events %v", f.Active, f.Events)
		}
		moves, shots := metric(t, m, "moves"), metric(t, m, "shots")
		last := &fr[9]
		if got := last.Values[0][moves] + last.Values[1][moves] + last.Values[2][moves]; got != 7 {
			t.Errorf("moves %d, the file has 7", got)
		}
		if got := last.Values[0][shots] + last.Values[1][shots] + last.Values[2][shots]; got != 4 {
			t.Errorf("shots %d, the file has 4", got)
		}
	})
	t.Run("lengthy-test.jsn", func(t *testing.T) {
		m, fr, err := readAll(t, recording(t, "lengthy-test.jsn"))
		if err != nil {
			t.Fatal(err)
		}
		// Turn-0 order: foo2, foo3, foo1.
		if len(m.Players) != 3 || m.Players[0].Name != "foo2" || m.Players[1].Name != "foo3" || m.Players[2].Name != "foo1" {
			t.Fatalf("players %+v", m.Players)
		}
		if len(fr) != 454 || fr[453].Turn != 453 {
			t.Fatalf("%d frames", len(fr))
		}
		health, deaths, kills, taken := metric(t, m, "health"), metric(t, m, "deaths"), metric(t, m, "kills"), metric(t, m, "damage_taken")
		// Turn 190: foo3 (14 health, "7, 15") moves to "6, 14" and its
		// mortar "0,3" kills itself: gamestate 191 shows it with 0.
		f := &fr[190]
		if f.Active != 1 || !hasEvent(f, engine.Event{Kind: "hit", Player: 1, Other: 1, X: 6, Y: 14, Value: 14}) ||
			!hasEvent(f, engine.Event{Kind: "kill", Player: 1, Other: 1, X: 6, Y: 14}) ||
			f.Values[1][health] != 0 || f.Values[1][deaths] != 1 || f.Values[1][kills] != 1 {
			t.Errorf("frame 190: active %d, events %v, values %v", f.Active, f.Events, f.Values[1])
		}
		// The body stays on "6, 14" (gamestate 192); gamestate 193 shows
		// foo3 back on its spawn "8, 15" with 100.
		if f := &fr[191]; cell(f, 6, 14).Owner != 1 || f.Board.Entities[1].Health != 0 {
			t.Errorf("frame 191: body %+v", f.Board.Entities[1])
		}
		if f := &fr[192]; !hasEvent(f, engine.Event{Kind: "respawn", Player: 1, Other: -1, X: 8, Y: 15}) || f.Values[1][health] != 100 || cell(f, 8, 15).Owner != 1 {
			t.Errorf("frame 192: events %v", f.Events)
		}
		// Gamestate 454: foo2 32, foo3 64, foo1 100; scores all 0.
		last := &fr[453]
		if last.Values[0][health] != 32 || last.Values[1][health] != 64 || last.Values[2][health] != 100 || fmt.Sprint(last.Ranking) != "[0 1 2]" {
			t.Errorf("last frame: %v, ranking %v", last.Values, last.Ranking)
		}
		var sumMoves, sumShots, sumTaken int64
		for p := range 3 {
			sumMoves += last.Values[p][metric(t, m, "moves")]
			sumShots += last.Values[p][metric(t, m, "shots")]
			sumTaken += last.Values[p][taken]
		}
		// The file: 751 moves, 153 lasers + 66 mortars; health lost:
		// (100-32) + 18·… as the events add up.
		if sumMoves != 751 || sumShots != 219 {
			t.Errorf("moves %d (751), shots %d (219)", sumMoves, sumShots)
		}
		var hits int64
		for i := range fr {
			for _, e := range fr[i].Events {
				if e.Kind == "hit" {
					hits += e.Value
				}
			}
		}
		if hits != sumTaken || hits == 0 {
			t.Errorf("hit events add to %d, damage_taken to %d", hits, sumTaken)
		}
	})
}

// TestSynthetic reads jsntest's recording: every kind of action, hits,
// a self-hit, a kill, the skipped turn and the respawn.
func TestSynthetic(t *testing.T) {
	m, fr, err := readAll(t, jsntest.Recording())
	if err != nil {
		t.Fatal(err)
	}
	if len(fr) != jsntest.Turns+1 || m.Players[0].Name != "ann" || m.Players[1].Name != "bob" {
		t.Fatalf("%d frames, players %+v", len(fr), m.Players)
	}
	ev := func(kind string, p, o, x, y int, v int64) engine.Event {
		return engine.Event{Kind: kind, Player: p, Other: o, X: x, Y: y, Value: v}
	}
	want := map[int][]engine.Event{
		2:  {ev("mined", 0, -1, 1, 2, 0)},
		3:  {ev("laser", 1, -1, 0, 2, 1), ev("hit", 1, 0, 1, 2, 16)},
		4:  {ev("mortar", 0, -1, 3, 3, 1), ev("hit", 0, 1, 3, 2, 18)},
		5:  {ev("droid", 1, -1, 1, 1, 1), ev("hit", 1, 0, 1, 2, 14)},
		6:  {ev("upgraded", 0, -1, 1, 2, 2)},
		7:  {ev("laser", 1, -1, 1, 0, 1)},
		8:  {ev("mortar", 0, -1, 2, 2, 1), ev("hit", 0, 0, 1, 1, 18), ev("hit", 0, 1, 3, 2, 18)},
		9:  {ev("laser", 1, -1, 0, 2, 1)},
		10: {ev("mortar", 0, -1, 3, 2, 1), ev("hit", 0, 1, 3, 2, 64), ev("kill", 0, 1, 3, 2, 0)},
		11: {ev("respawn", 1, -1, 4, 4, 0)},
	}
	for i := range fr {
		if got := fmt.Sprint(fr[i].Events); got != fmt.Sprint(want[i]) && !(len(want[i]) == 0 && len(fr[i].Events) == 0) {
			t.Errorf("frame %d: events %v, want %v", i, fr[i].Events, want[i])
		}
	}
	if fr[11].Active != 0 || fr[12].Active != 1 {
		t.Errorf("active %d %d: ann plays turn 11 (bob is dead), bob turn 12", fr[11].Active, fr[12].Active)
	}
	// Droid: up then right-up from 3, 2.
	var path []engine.Point
	for _, e := range fr[5].Board.Effects {
		if e.Name == "droid" {
			path = e.Points
		}
	}
	if fmt.Sprint(path) != "[{3 2} {2 1} {1 1}]" {
		t.Errorf("droid path %v", path)
	}
	if c := cell(&fr[2], 1, 2); c.Value != 1 || c.Owner != 0 {
		t.Errorf("mined tile %+v: 1 unit left", c)
	}
	last := fr[len(fr)-1].Values
	for name, w := range map[string][2]int64{"damage_dealt": {100, 30}, "damage_taken": {48, 100}, "kills": {1, 0}, "deaths": {0, 1},
		"moves": {4, 3}, "shots": {3, 4}, "mines": {1, 0}, "rubidium_mined": {1, 0}, "upgrades": {1, 0}, "laser_level": {2, 1},
		"mortar_level": {1, 0}, "droid_level": {0, 1}, "score": {120, -10}, "health": {52, 100}, "penalties": {0, 0}, "rubidium": {0, 0}} {
		i := metric(t, m, name)
		if last[0][i] != w[0] || last[1][i] != w[1] {
			t.Errorf("%s: %d, %d, want %v", name, last[0][i], last[1][i], w)
		}
	}
	if fmt.Sprint(fr[len(fr)-1].Ranking) != "[0 1]" {
		t.Errorf("ranking %v", fr[len(fr)-1].Ranking)
	}
}

// TestSniff: the recordings' starts are claimed, nothing else is.
func TestSniff(t *testing.T) {
	rec := jsntest.Recording()
	yes := [][]byte{rec[:512], []byte(`{"status":true,"message":"connect"}` + "\n"), []byte(`{"message":"gamestate","turn":0,"players":[` + strings.Repeat(" ", 600))}
	no := [][]byte{[]byte("RWD1{\"message\":\"connect\",\"status\":true}\n"), []byte(`[{"message":"connect","status":true}]`), []byte(`{"message":"connect"}` + "\n"),
		[]byte(`{"turns":[],"message":"gamestate"}` + "\n"), []byte{0x1f, 0x8b, 8}, []byte(`{"version":1}`), nil, []byte("  \n")}
	for _, p := range yes {
		if !jsn.Sniff(p) {
			t.Errorf("Sniff(%.60q) = false", p)
		}
	}
	for _, p := range no {
		if jsn.Sniff(p) {
			t.Errorf("Sniff(%.60q) = true", p)
		}
	}
}
