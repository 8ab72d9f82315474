package analysis_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rewind-game/rewind/analysis"
	"github.com/rewind-game/rewind/engine/monad"
	monadvectors "github.com/rewind-game/rewind/engine/monad/vectors"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/source"
)

const monadVectors = "../testdata/monad"

// referenceLog returns the reference engine's own log of a conformance
// vector (the "log" of its states file), as the reference writes
// replay.json.
func referenceLog(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join(monadVectors, name+".states.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Log json.RawMessage `json:"log"`
	}
	if err := json.NewDecoder(zr).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st.Log
}

// recordMonadVector plays a vector's commands with rewind's engine into a
// .rwd.
func recordMonadVector(t *testing.T, v *monadvectors.Vector) []byte {
	t.Helper()
	s, err := monad.New(v.Config())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := replay.NewMonadWriter(&buf, replay.MonadHeader(v.Config(), v.Bots.Names, v.Bots.Names))
	if err != nil {
		t.Fatal(err)
	}
	for turn := 0; !s.Over(); turn++ {
		cmds, timedOut := v.Commands(turn)
		r := monad.Round{Commands: cmds}
		for _, p := range timedOut {
			r.TimedOut[p] = true
		}
		s.Play(&r)
		if err := w.WriteRound(&r, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(s); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestMonadOfficialLogs: the analysis of the reference engine's own log
// of each conformance game (no counters, no fights) says what the
// analysis of rewind's recording of the same game says, minus what only a
// recording knows: the same turns, ranking, winner and leaders, every
// series it has equal, and the same events but the bot faults, except
// for hives built and destroyed in one turn, which a log cannot show.
func TestMonadOfficialLogs(t *testing.T) {
	nUnseen := 0
	for n := 1; n <= 6; n++ {
		name := fmt.Sprintf("m%02d", n)
		t.Run(name, func(t *testing.T) {
			v := testutil.MonadVector(t, filepath.Join(monadVectors, name+".commands.json"))
			rwd := analyzeMonadData(t, recordMonadVector(t, v))
			src, err := source.NewMonad(bytes.NewReader(referenceLog(t, name)), nil)
			if err != nil {
				t.Fatal(err)
			}
			if src.Meta().Counters {
				t.Fatal("a reference log claims counters")
			}
			off, err := analysis.AnalyzeMonad(src)
			if err != nil {
				t.Fatal(err)
			}
			if off.Turns != rwd.Turns || !equalInts(off.Ranking, rwd.Ranking) || off.Winner != rwd.Winner || off.LeadSince != rwd.LeadSince || !equalInts(off.Leader, rwd.Leader) {
				t.Fatalf("log: %d turns, ranking %v, winner %d since %d; recording: %d, %v, %d since %d",
					off.Turns, off.Ranking, off.Winner, off.LeadSince, rwd.Turns, rwd.Ranking, rwd.Winner, rwd.LeadSince)
			}
			// A hive built and destroyed in the same turn shows only in a
			// recording's fights: the log misses its two events, counts
			// it in neither hives_built nor hives_lost, and sees its cost
			// as resources not mined.
			type cellTurn struct{ turn, x, y int }
			builtAt := map[cellTurn]int{}
			for _, e := range rwd.Events {
				if e.Kind == analysis.EventHiveBuilt {
					builtAt[cellTurn{e.Turn, e.X, e.Y}] = e.Player
				}
			}
			unseen := map[cellTurn]bool{}
			unseenBy := make([][]int64, rwd.Players()) // [player][turn]
			for p := range unseenBy {
				unseenBy[p] = make([]int64, rwd.Turns+1)
			}
			for _, e := range rwd.Events {
				k := cellTurn{e.Turn, e.X, e.Y}
				if p, ok := builtAt[k]; ok && e.Kind == analysis.EventHiveDestroyed && p == e.Player {
					unseen[k] = true
					unseenBy[p][e.Turn]++
				}
			}
			var want []analysis.MonadEvent
			for _, e := range rwd.Events {
				if e.Kind != analysis.EventBotFault && !((e.Kind == analysis.EventHiveBuilt || e.Kind == analysis.EventHiveDestroyed) && unseen[cellTurn{e.Turn, e.X, e.Y}]) {
					want = append(want, e)
				}
			}
			if len(off.Series) != len(rwd.Series)-4 {
				t.Fatalf("%d series from the log, %d from the recording", len(off.Series), len(rwd.Series))
			}
			for _, s := range off.Series {
				switch s.Metric.Name {
				case "units_produced", "units_lost", "rejected", analysis.SeriesMoved:
					t.Fatalf("series %s from a log", s.Metric.Name)
				}
				rs := rwd.SeriesNamed(s.Metric.Name)
				for p := range s.Values {
					var cum int64
					for tt := range s.Values[p] {
						cum += unseenBy[p][tt]
						w := rs.Values[p][tt]
						switch s.Metric.Name {
						case analysis.SeriesHivesBuilt, analysis.SeriesHivesLost:
							w -= cum
						case analysis.SeriesMined:
							w -= monad.HiveCost * unseenBy[p][tt]
						}
						if s.Values[p][tt] != w {
							t.Fatalf("%s[%d][%d]: %d from the log, want %d (the recording's %d)", s.Metric.Name, p, tt, s.Values[p][tt], w, rs.Values[p][tt])
						}
					}
				}
			}
			if len(off.Events) != len(want) {
				t.Fatalf("%d events from the log, want %d", len(off.Events), len(want))
			}
			for i := range want {
				if off.Events[i] != want[i] {
					t.Fatalf("event %d: %+v from the log, %+v from the recording", i, off.Events[i], want[i])
				}
			}
			nUnseen += len(unseen)
			t.Logf("%d turns, %d events, %d hives built and destroyed in one turn", off.Turns, len(off.Events), len(unseen))
		})
	}
	if nUnseen == 0 {
		t.Error("no vector has a hive built and destroyed in one turn: the test does not show that case")
	}
}
