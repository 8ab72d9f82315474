package monad_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/monad/formats/monadlog"
	monad "github.com/rewind-game/rewind/games/monad/rules"
	monadvectors "github.com/rewind-game/rewind/games/monad/vectors"
	"github.com/rewind-game/rewind/games/monad/vectors/vectorstest"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// unseenHives is, per conformance vector, how many hives were built and
// destroyed within one turn. One in the six: in m01's round 228 player 0
// builds a hive at (10, 6) on its units there (4 left after the build),
// player 1 moves 40 units in, and the end-of-turn fight (4 against 40)
// destroys the hive, leaving player 1 with 26 units. Game.Events reports
// the hive_built and hive_destroyed; neither board shows a hive there,
// so the reference log's stream reports neither (monad.BoardEvents). A
// vector not named has none.
var unseenHives = map[string]int{"m01": 1}

// TestMonadLogVectors: the reference engine's own log of each Monad
// conformance vector, read as a generic stream (monadlog, through
// source.NewStream), is frame by frame the stream of rewind's recording
// of the same game (the vector's commands played through the seam,
// written by replay.TextWriter in Monad's compact codec and re-simulated
// by source.NewStream), but for what a log cannot know: the same turns,
// every cell of every board, every player's resources, units, hives and
// cells (units_produced, units_lost and rejected are monadlog.Unknown:
// 0 in the log), the ranking, and the events but those of a hive built
// and destroyed in one turn (unseenHives), which no board shows. The
// vectors are the module's testdata/monad, and ../shared/monad when it
// is there.
func TestMonadLogVectors(t *testing.T) {
	shared := "" // ../shared/monad beside the module root
	if root, err := testutil.ModuleRoot(); err == nil {
		shared = filepath.Join(filepath.Dir(root), "shared", "monad")
	}
	for _, d := range [][2]string{{"testdata", filepath.Join("..", "..", "testdata", "monad")}, {"shared", shared}} {
		t.Run(d[0], func(t *testing.T) {
			names, _ := filepath.Glob(filepath.Join(d[1], "*.commands.json"))
			if len(names) == 0 && d[0] == "shared" {
				t.Skipf("no Monad vectors (*.commands.json) in ../shared/monad (%q)", d[1])
			}
			if len(names) == 0 {
				t.Fatalf("no Monad vectors (*.commands.json) in %s", d[1])
			}
			frames, unseen := 0, 0
			for _, path := range names {
				name := strings.TrimSuffix(filepath.Base(path), ".commands.json")
				t.Run(name, func(t *testing.T) {
					n, u := compareLogVector(t, d[1], name)
					if u != unseenHives[name] {
						t.Errorf("%d hives built and destroyed in one turn, want %d", u, unseenHives[name])
					}
					t.Logf("%d frames, %d hives built and destroyed in one turn", n, u)
					frames += n
					unseen += u
				})
			}
			t.Logf("%d vectors, %d frames compared, %d hives built and destroyed in one turn", len(names), frames, unseen)
		})
	}
}

// compareLogVector compares vector name of dir as TestMonadLogVectors
// says and returns the frames compared and the hives built and destroyed
// in one turn it found.
func compareLogVector(t *testing.T, dir, name string) (frames, unseen int) {
	t.Helper()
	v := vectorstest.Vector(t, filepath.Join(dir, name+".commands.json"))
	var st struct {
		Log json.RawMessage `json:"log"`
	}
	if err := json.Unmarshal(testutil.GunzipFile(t, filepath.Join(dir, name+".states.json.gz")), &st); err != nil {
		t.Fatalf("%s.states.json.gz: %v", name, err)
	}
	logStream, err := source.NewStream(bytes.NewReader(st.Log), nil)
	if err != nil {
		t.Fatalf("the reference log: %v", err)
	}
	defer logStream.Close()
	if f := logStream.Meta().Format; f != monadlog.Name {
		t.Fatalf("the reference log opens as %q, want %q", f, monadlog.Name)
	}
	rwd, err := source.NewStream(bytes.NewReader(recordVector(t, v)), nil)
	if err != nil {
		t.Fatalf("rewind's recording: %v", err)
	}
	defer rwd.Close()

	metrics := monad.Ruleset.Metrics()
	var got, want engine.Frame // got the log's, want the recording's
	for {
		errG, errW := logStream.Next(&got), rwd.Next(&want)
		if errors.Is(errG, io.EOF) && errors.Is(errW, io.EOF) {
			break
		}
		if errG != nil || errW != nil {
			t.Fatalf("after %d frames: the log's next frame: %v; the recording's: %v", frames, errG, errW)
		}
		frames++
		at := fmt.Sprintf("frame %d", frames-1)
		if got.Turn != want.Turn || got.Turn != frames-1 {
			t.Fatalf("%s: turn %d in the log, %d in the recording", at, got.Turn, want.Turn)
		}
		gb, wb := &got.Board, &want.Board
		if gb.Width != wb.Width || gb.Height != wb.Height || gb.Topology != wb.Topology || len(gb.Cells) != len(wb.Cells) {
			t.Fatalf("%s: board %d×%d (%d) in the log, %d×%d (%d) in the recording", at, gb.Width, gb.Height, gb.Topology, wb.Width, wb.Height, wb.Topology)
		}
		for k := range wb.Cells {
			if g, w := gb.Cells[k], wb.Cells[k]; g != w {
				t.Fatalf("%s: cell (%d, %d): resource %d, owner %d, units %d, badges %b in the log; %d, %d, %d, %b in the recording",
					at, k%wb.Width, k/wb.Width, g.Terrain, g.Owner, g.Value, g.Badges, w.Terrain, w.Owner, w.Value, w.Badges)
			}
		}
		if len(got.Values) != len(want.Values) {
			t.Fatalf("%s: %d players in the log, %d in the recording", at, len(got.Values), len(want.Values))
		}
		for p := range want.Values {
			for i, m := range metrics {
				g, w := got.Values[p][i], want.Values[p][i]
				if slices.Contains(monadlog.Unknown, m.Name) {
					w = 0 // not in a log
				}
				if g != w {
					t.Fatalf("%s: player %d's %s: %d in the log, %d in the recording", at, p, m.Name, g, want.Values[p][i])
				}
			}
		}
		if !slices.Equal(got.Ranking, want.Ranking) {
			t.Fatalf("%s: ranking %v in the log, %v in the recording", at, got.Ranking, want.Ranking)
		}
		expect, u := seenEvents(want.Events)
		for _, e := range u {
			t.Logf("round %d: player %d's hive at (%d, %d) built and destroyed in the round", want.Turn-1, e.Player, e.X, e.Y)
		}
		unseen += len(u)
		if !slices.Equal(got.Events, expect) {
			t.Fatalf("%s: events %+v in the log, %+v expected of the recording's %+v", at, got.Events, expect, want.Events)
		}
	}
	if frames != len(v.Turns)+1 {
		t.Fatalf("%d frames, want the vector's %d turns and the final board", frames, len(v.Turns))
	}
	return frames, unseen
}

// seenEvents returns the events of a recording's frame that a log's
// stream reports (monad.BoardEvents), in its order: all but the
// hive_built and hive_destroyed of a hive built and destroyed in the
// frame's turn, whose hive_built events it returns second, with the
// hives built in row order rather than in the order they were built.
func seenEvents(events []engine.Event) (seen, unseen []engine.Event) {
	type at struct{ x, y int }
	built := map[at]int{} // player who built a hive there
	for _, e := range events {
		if e.Kind == monad.EventHiveBuilt {
			built[at{e.X, e.Y}] = e.Player
		}
	}
	gone := map[at]bool{}
	for _, e := range events {
		if p, ok := built[at{e.X, e.Y}]; ok && e.Kind == monad.EventHiveDestroyed && e.Player == p {
			gone[at{e.X, e.Y}] = true
		}
	}
	var out []engine.Event
	for _, e := range events {
		if (e.Kind == monad.EventHiveBuilt || e.Kind == monad.EventHiveDestroyed) && gone[at{e.X, e.Y}] {
			if e.Kind == monad.EventHiveBuilt {
				unseen = append(unseen, e)
			}
			continue
		}
		out = append(out, e)
	}
	// Game.Events reports the hives built first, in execution order.
	n := 0
	for n < len(out) && out[n].Kind == monad.EventHiveBuilt {
		n++
	}
	slices.SortStableFunc(out[:n], func(a, b engine.Event) int { return (a.Y*monad.Width + a.X) - (b.Y*monad.Width + b.X) })
	return out, unseen
}

// recordVector plays vector v on a monad game started from its seed
// through the seam (Fault for its timeouts, Round with its commands as
// text) and returns the .rwd replay.TextWriter writes of it.
func recordVector(t *testing.T, v *monadvectors.Vector) []byte {
	t.Helper()
	cfg := v.Config()
	setup, err := json.Marshal(monad.Setup{Seed: cfg.Seed, Uniform: cfg.Uniform})
	if err != nil {
		t.Fatal(err)
	}
	g, err := monad.Ruleset.NewFromSetup(setup, engine.Settings{Players: cfg.Players, MaxTurns: cfg.MaxTurns})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := replay.NewTextWriter(&buf, replay.TextHeader(monad.Ruleset, uint64(cfg.Seed), setup, cfg.MaxTurns, v.Bots.Names, v.Bots.Names))
	if err != nil {
		t.Fatal(err)
	}
	var rd replay.TextRound
	for turn := 0; !g.Over(); turn++ {
		if turn >= len(v.Turns) {
			t.Fatalf("the game goes on after the vector's %d turns", len(v.Turns))
		}
		cmds, timedOut := v.Commands(turn)
		rd.Reset(cfg.Players)
		rd.Turn = turn
		for _, p := range timedOut {
			g.Fault(p, engine.FaultTimeout, "")
			rd.Faults[p] = engine.FaultTimeout
		}
		for p, list := range cmds {
			for k := range list {
				rd.Commands[p] = append(rd.Commands[p], string(monad.AppendCommandText(nil, &list[k])))
			}
		}
		g.Round(rd.Commands)
		if err := w.WriteRound(&rd, g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(g); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
