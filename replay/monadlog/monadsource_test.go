package monadlog_test

// The stream of a log (monadlog.Open, through source's generic path)
// against the Monad-specific MonadSource of replay/source
// (source.NewMonad, monad_official.go) that it replaces: this file goes
// with that code.

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/engine/monad"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay/monadlog"
	"github.com/rewind-game/rewind/replay/source"
)

const testdata = "../../testdata/monad"

// referenceLogs are every reference log the tests hold: the real files
// under testdata/monad/official, and the log each of the six conformance
// vectors holds (the reference's JSON, as written), m03's also gzip'd.
func referenceLogs(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	files, _ := filepath.Glob(filepath.Join(testdata, "official", "*"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out["official/"+filepath.Base(p)] = b
	}
	for n := 1; n <= 6; n++ {
		name := fmt.Sprintf("m%02d", n)
		var st struct {
			Log json.RawMessage `json:"log"`
		}
		if err := json.Unmarshal(testutil.GunzipFile(t, filepath.Join(testdata, name+".states.json.gz")), &st); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name+".json"] = st.Log
		if n == 3 {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(st.Log)
			zw.Close()
			out[name+".json.gz"] = buf.Bytes()
		}
	}
	if len(files) < 5 || len(out) != len(files)+7 {
		t.Fatalf("%d logs (%d real files)", len(out), len(files))
	}
	return out
}

// TestStreamMatchesMonadSource: every reference log opened through the
// generic path (source.NewStream: the sniff of its first SniffBytes
// bytes, then monadlog.Open) gives, frame by frame and field by field,
// what the Monad-specific MonadSource gives for the same bytes: turn,
// every cell (resource as terrain, units as value, owner, hive badge, as
// monad's Game.Board describes a map), each player's resources, units,
// hives and cells (the counters 0), the ranking (monad.RankStats of the
// players' facts; the last frame's rankedBots' order), the logged
// commands (implicit mines aside) as text that parses back to the move,
// the names and the number of turns. source.IsStream is true for a log:
// the commands and the viewer take the generic path.
func TestStreamMatchesMonadSource(t *testing.T) {
	logs := referenceLogs(t)
	metrics := monad.Ruleset.Metrics()
	slot := map[string]int{}
	for i, m := range metrics {
		slot[m.Name] = i
	}
	for name, data := range logs {
		t.Run(name, func(t *testing.T) {
			if f, ok := source.StreamFormatOf(data[:min(len(data), source.SniffBytes)]); !ok || f != monadlog.Name {
				t.Fatalf("StreamFormatOf = %q, %v", f, ok)
			}
			if !source.IsStream(bytes.NewReader(data)) {
				t.Error("IsStream is false: the log would not take the generic path")
			}
			ms, err := source.NewMonad(bytes.NewReader(data), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ms.Close()
			gs, err := source.NewStream(bytes.NewReader(data), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer gs.Close()
			l, err := monadlog.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			mm, gm := ms.Meta(), gs.Meta()
			if gm.Format != monadlog.Name || gm.Ruleset != monad.RulesetID || gm.RulesetVersion != monad.RulesetVersion || gm.Resimulated || gm.Seeded || gm.Sequential ||
				gm.MaxTurns != mm.Config.MaxTurns || len(gm.Players) != mm.Config.Players || len(gm.Metrics) != len(metrics) {
				t.Fatalf("meta %+v, MonadSource's %+v", gm, mm)
			}
			for p, sp := range gm.Players {
				if sp.Name != mm.Names[p] || sp.Bot != mm.Bots[p] {
					t.Errorf("player %d: %+v, MonadSource's %q %q", p, sp, mm.Names[p], mm.Bots[p])
				}
			}
			final, finalKnown := l.RankedPlayers()
			var mf source.MonadFrame
			var gf source.Frame
			for i := 0; ; i++ {
				errM, errG := ms.Next(&mf), gs.Next(&gf)
				if errors.Is(errM, io.EOF) || errors.Is(errG, io.EOF) {
					if !errors.Is(errM, io.EOF) || !errors.Is(errG, io.EOF) {
						t.Fatalf("frame %d: MonadSource %v, stream %v", i, errM, errG)
					}
					if i != len(l.Turns) {
						t.Fatalf("%d frames, the log has %d entries", i, len(l.Turns))
					}
					return
				}
				if errM != nil || errG != nil {
					t.Fatalf("frame %d: MonadSource %v, stream %v", i, errM, errG)
				}
				last := i == len(l.Turns)-1
				if d := diffFrame(&gf, &mf, slot, last && finalKnown, final); d != "" {
					t.Fatalf("frame %d: %s", i, d)
				}
			}
		})
	}
}

// diffFrame compares the stream's frame g with the MonadSource's m; ""
// when they agree. final is rankedBots' ranking, used when useFinal.
func diffFrame(g *source.Frame, m *source.MonadFrame, slot map[string]int, useFinal bool, final []int) string {
	if g.Turn != m.Turn || g.Active != -1 || g.Events != nil || len(g.Errors) != 0 {
		return fmt.Sprintf("turn %d (MonadSource %d), active %d, %d events, %d errors", g.Turn, m.Turn, g.Active, len(g.Events), len(g.Errors))
	}
	b := &g.Board
	if b.Topology != engine.Hex || b.Width != monad.Width || b.Height != monad.Height || len(b.Cells) != monad.NumCells ||
		b.TerrainName != "resource" || b.ValueName != "units" || len(b.Badges) != 1 || b.Badges[0] != "hive" || len(b.Entities) != 0 || len(b.Effects) != 0 {
		return fmt.Sprintf("board %dx%d %v %q %q %q", b.Width, b.Height, b.Topology, b.TerrainName, b.ValueName, b.Badges)
	}
	for i, mc := range m.Cells {
		want := engine.Cell{Terrain: int64(mc.Resource), Owner: int(mc.Owner), Value: int64(mc.Units)}
		if mc.Hive >= 0 {
			want.Badges = 1
			if mc.Owner < 0 {
				want.Owner = int(mc.Hive)
			}
		}
		if b.Cells[i] != want {
			return fmt.Sprintf("cell (%d,%d): %+v, MonadSource's %+v", i%monad.Width, i/monad.Width, b.Cells[i], mc)
		}
	}
	n := len(m.Players)
	if len(g.Values) != n || len(g.Ranking) != n || len(g.Commands) != n {
		return fmt.Sprintf("%d values, %d ranked, %d command lists for %d players", len(g.Values), len(g.Ranking), len(g.Commands), n)
	}
	stats := make([]monad.PlayerStats, n)
	for p := range stats {
		st := m.Players[p].PlayerStats
		stats[p] = st
		v := g.Values[p]
		if len(v) != len(slot) {
			return fmt.Sprintf("player %d: %d values", p, len(v))
		}
		want := map[string]int64{"resources": st.Resources, "units": st.Units, "hives": int64(st.Hives), "cells": int64(st.Cells)}
		for name, i := range slot {
			if v[i] != want[name] { // the counters are unknown: 0
				return fmt.Sprintf("player %d: %s %d, MonadSource's %d", p, name, v[i], want[name])
			}
		}
	}
	wantRank := final
	if !useFinal {
		wantRank = nil
		for _, r := range monad.RankStats(stats) {
			wantRank = append(wantRank, r.Player)
		}
	}
	if fmt.Sprint(g.Ranking) != fmt.Sprint(wantRank) {
		return fmt.Sprintf("ranking %v, want %v", g.Ranking, wantRank)
	}
	if g.CommandsKnown != (m.Turn > 0) {
		return fmt.Sprintf("CommandsKnown %v", g.CommandsKnown)
	}
	k := make([]int, n)
	for _, mv := range m.Moves {
		if mv.Dir == monad.DirImplicit {
			continue
		}
		if k[mv.Player] >= len(g.Commands[mv.Player]) {
			return fmt.Sprintf("player %d: %d commands, MonadSource has more", mv.Player, k[mv.Player])
		}
		text := g.Commands[mv.Player][k[mv.Player]]
		k[mv.Player]++
		if c := monad.ParseCommand([]byte(text)); c != (monad.Command{X: mv.X, Y: mv.Y, Kind: mv.Kind, Dir: mv.Dir, Count: mv.Count}) {
			return fmt.Sprintf("player %d: command %s, MonadSource's move %+v", mv.Player, text, mv)
		}
	}
	for p := range k {
		if k[p] != len(g.Commands[p]) {
			return fmt.Sprintf("player %d: %d commands, MonadSource's %d", p, len(g.Commands[p]), k[p])
		}
	}
	return ""
}
