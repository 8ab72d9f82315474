package analysis

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrstream"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/recording"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// faultyBot plays a built-in, and every few rounds also sends commands
// the game rejects, or fails to answer (a fault).
type faultyBot struct{ match.GamePlayer }

func (b faultyBot) Commands(g engine.Game, p int) ([]string, error) {
	t := g.Turn()
	if t%9 == 4 {
		return nil, errors.New("not a reply")
	}
	cmds, err := b.GamePlayer.Commands(g, p)
	if t%5 == 2 {
		cmds = append(slices.Clip(cmds), "x y z", "a 99 99 10", "b 1 1 q", "u 40 2")
	}
	return cmds, err
}

// recordAccounted plays ColorfightII's built-ins called names through
// match.RunGame and records the game with recording.NewRecorder, as rewind
// play does; the first seat is a faultyBot when faulty.
func recordAccounted(tb testing.TB, seed uint64, turns int, faulty bool, names ...string) []byte {
	tb.Helper()
	first := func(p match.GamePlayer) match.GamePlayer { return p }
	if faulty {
		first = func(p match.GamePlayer) match.GamePlayer { return faultyBot{p} }
	}
	return recordGame(tb, seed, turns, first, names...)
}

// recordGame is recordAccounted with the first seat's player first(the
// built-in).
func recordGame(tb testing.TB, seed uint64, turns int, first func(match.GamePlayer) match.GamePlayer, names ...string) []byte {
	tb.Helper()
	rs, err := engine.Get("colorfight2")
	if err != nil {
		tb.Fatal(err)
	}
	info, _ := engine.About("colorfight2")
	var seats []match.GameSeat
	for i, n := range names {
		b, ok := info.FindBot(n)
		if !ok {
			tb.Fatalf("no built-in %q", n)
		}
		var p match.GamePlayer = match.BuiltinPlayer(b)
		if i == 0 {
			p = first(p)
		}
		seats = append(seats, match.GameSeat{Bot: p})
	}
	var buf bytes.Buffer
	cfg := match.GameConfig{Ruleset: rs, Seed: seed, MaxTurns: turns, Seats: seats,
		Recorder: recording.NewRecorder(&buf, time.Unix(0, 0), "rewind test")}
	if _, err := match.RunGame(context.Background(), cfg); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// accountedStream opens data (a .cfr or a .rwd of any codec) as the
// generic stream that carries the accounting figures: cfrstream's, or
// the re-simulation of a .rwd (source.NewSimStream).
func accountedStream(tb testing.TB, data []byte, isCFR bool) engine.Stream {
	tb.Helper()
	if isCFR {
		s, err := cfrstream.Open(bytes.NewReader(data))
		if err != nil {
			tb.Fatal(err)
		}
		return s
	}
	sim, err := replay.OpenSim(bytes.NewReader(data))
	if err != nil {
		tb.Fatal(err)
	}
	return source.NewSimStream(sim, nil)
}

// eachAccountedGame runs check on every ColorfightII game at hand and
// reports what it returns ("" when nothing differs) as an error: each
// official replay (the conformance vectors' .cfr, here and in ../shared,
// and the real replays), each of them imported to a .rwd, and games
// played by match.RunGame and recorded as rewind play does (seeds, 2 to
// 8 players, one with rejected commands and bot faults).
func eachAccountedGame(t *testing.T, check func(tb testing.TB, data []byte, isCFR bool) string) {
	t.Helper()
	var cfrs []string
	local, _ := filepath.Glob("../../testdata/conformance/*.cfr")
	cfrs = append(cfrs, local...)
	if root, err := testutil.ModuleRoot(); err == nil {
		shared, _ := filepath.Glob(filepath.Join(root, "..", "shared", "conformance", "*.cfr"))
		if len(shared) == 0 {
			t.Log("../../shared/conformance absent: its vectors are not checked")
		}
		cfrs = append(cfrs, shared...)
	}
	cfrs = append(cfrs, testutil.RealWorldOptional(t)...)
	if len(local) == 0 {
		t.Fatal("no testdata/conformance/*.cfr")
	}
	for _, path := range cfrs {
		dir := filepath.Dir(path)
		name := filepath.Join(filepath.Base(filepath.Dir(dir)), filepath.Base(dir), filepath.Base(path))
		data := testutil.ReadFile(t, path)
		t.Run(name, func(t *testing.T) {
			if d := check(t, data, true); d != "" {
				t.Errorf(".cfr: %s", d)
			}
			sum, err := cfr.SHA256(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if _, err := cfrimport.Import(bytes.NewReader(data), &buf, cfrimport.ImportOptions{Source: path, SHA256: sum, Created: time.Unix(0, 0), Tool: "rewind test"}); err != nil {
				t.Logf("not imported (%v): only its .cfr is checked", err)
				return
			}
			if d := check(t, buf.Bytes(), false); d != "" {
				t.Errorf("imported .rwd: %s", d)
			}
		})
	}
	games := []struct {
		seed   uint64
		turns  int
		faulty bool
		bots   []string
	}{
		{1, 150, false, []string{"greedy", "turtle"}},
		{7, 200, true, []string{"greedy", "economist", "raider", "random"}},
		{42, 120, false, []string{"greedy", "economist", "raider", "random", "turtle", "greedy", "raider", "economist"}},
	}
	for _, gm := range games {
		t.Run(fmt.Sprintf("played seed %d, %d players", gm.seed, len(gm.bots)), func(t *testing.T) {
			data := recordAccounted(t, gm.seed, gm.turns, gm.faulty, gm.bots...)
			if d := check(t, data, false); d != "" {
				t.Error(d)
			}
		})
	}
}

// TestUnknownFiguresJSON: the generic JSON of a ColorfightII .cfr marks
// the figures counted from commands (from_commands) and writes their
// summary as -1, unknown, as the old summary does; a played game's
// stream knows them, and its finals are sums (commands: at least 1).
func TestUnknownFiguresJSON(t *testing.T) {
	data := testutil.ReadFile(t, "../../testdata/conformance/c01.cfr")
	for _, tc := range []struct {
		name  string
		data  []byte
		isCFR bool
	}{
		{"c01.cfr", data, true},
		{"played", recordAccounted(t, 1, 60, false, "greedy", "turtle"), false},
	} {
		st := accountedStream(t, tc.data, tc.isCFR)
		g, err := AnalyzeStream(st, Options{})
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := g.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if want := `{"name":"capture_energy","unit":"energy","kind":"amount","from_commands":true}`; !strings.Contains(out, want) {
			t.Errorf("%s: no %s in the metrics", tc.name, want)
		}
		if !strings.Contains(out, `{"name":"captured","unit":"cells","kind":"amount"}`) {
			t.Errorf("%s: captured is not an amount without from_commands", tc.name)
		}
		unknown := strings.Contains(out, `"commands":{"final":-1}`)
		if unknown != tc.isCFR {
			t.Errorf("%s: the commands' final is unknown (-1): %v, want %v", tc.name, unknown, tc.isCFR)
		}
	}
}
