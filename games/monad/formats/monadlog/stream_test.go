package monadlog

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	monad "github.com/rewind-game/rewind/games/monad/rules"
	"github.com/rewind-game/rewind/games/skyport/formats/jsn/jsntest"
	"github.com/rewind-game/rewind/internal/testutil"
	"github.com/rewind-game/rewind/replay"
)

// readAll reads every frame of s, copying each (Next reuses storage).
func readAll(s engine.Stream) ([]engine.Frame, error) {
	var out []engine.Frame
	var f engine.Frame
	for {
		err := s.Next(&f)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		c := engine.Frame{Turn: f.Turn, Active: f.Active, CommandsKnown: f.CommandsKnown, Board: f.Board}
		c.Board.Cells = append([]engine.Cell(nil), f.Board.Cells...)
		c.Ranking = append([]int(nil), f.Ranking...)
		for _, v := range f.Values {
			c.Values = append(c.Values, append([]int64(nil), v...))
		}
		for _, cs := range f.Commands {
			c.Commands = append(c.Commands, append([]string(nil), cs...))
		}
		c.Events = f.Events
		out = append(out, c)
	}
}

// TestStreamSmall: the small log's two frames, field by field: the board
// as monad describes a map, the values in the ruleset's order (counters
// 0), the ranking, the logged command as a bot's text, and the meta.
func TestStreamSmall(t *testing.T) {
	s, err := Open(strings.NewReader(small()))
	if err != nil {
		t.Fatal(err)
	}
	m := s.Meta()
	if m.Ruleset != monad.RulesetID || m.Format != Name || m.Label != Label || m.Resimulated || m.Seeded || m.Sequential || m.MaxTurns != 1 ||
		len(m.Players) != 2 || m.Players[0] != (engine.StreamPlayer{Name: "a", Bot: "a"}) || m.Players[1].Name != "b" || len(m.Metrics) != len(monad.Ruleset.Metrics()) {
		t.Fatalf("meta %+v", m)
	}
	unknown := false
	for _, kv := range m.Settings {
		unknown = unknown || kv[0] == "unknown" && strings.HasPrefix(kv[1], strings.Join(Unknown, ", "))
	}
	if !unknown {
		t.Errorf("settings %q: no unknown metrics", m.Settings)
	}
	frames, err := readAll(s)
	if err != nil || len(frames) != 2 {
		t.Fatalf("%d frames, %v", len(frames), err)
	}
	f0, f1 := &frames[0], &frames[1]
	b := &f0.Board
	if b.Topology != engine.Hex || b.Width != 20 || b.Height != 20 || b.TerrainName != "resource" || b.ValueName != "units" || len(b.Badges) != 1 || b.Badges[0] != "hive" {
		t.Fatalf("board %+v", *b)
	}
	want0 := []engine.Cell{{Terrain: 5, Owner: 0, Value: 1, Badges: 1}, {Terrain: 3, Owner: -1}, {Owner: -1}}
	want1 := []engine.Cell{{Terrain: 5, Owner: 0, Badges: 1}, {Terrain: 3, Owner: 0, Value: 1}, {Owner: -1}}
	for i := range want0 {
		if f0.Board.Cells[i] != want0[i] || f1.Board.Cells[i] != want1[i] {
			t.Errorf("cell %d: %+v then %+v, want %+v then %+v", i, f0.Board.Cells[i], f1.Board.Cells[i], want0[i], want1[i])
		}
	}
	// resources, units, hives, cells, units_produced, units_lost
	if v := f0.Values; len(v) != 2 || !equal(v[0], 100, 1, 1, 1, 0, 0) || !equal(v[1], 100, 0, 0, 0, 0, 0) {
		t.Errorf("frame 0 values %v", v)
	}
	if v := f1.Values[0]; !equal(v, 100, 1, 1, 2, 0, 0) {
		t.Errorf("frame 1 values %v", v)
	}
	if f0.Turn != 0 || f1.Turn != 1 || f0.Active != -1 || f1.Active != -1 || f0.CommandsKnown || !f1.CommandsKnown || f0.Events != nil || f1.Events != nil {
		t.Errorf("frames %+v %+v", f0, f1)
	}
	if len(f1.Commands) != 2 || len(f1.Commands[0]) != 1 || len(f1.Commands[1]) != 0 {
		t.Fatalf("commands %q", f1.Commands)
	}
	// The MOVE from (0, 0) to the east (x*w+y: p 0, t 20).
	if c := monad.ParseCommand([]byte(f1.Commands[0][0])); c != (monad.Command{Kind: monad.KindMove, Dir: monad.East, Count: 1}) {
		t.Errorf("command %s parses to %+v", f1.Commands[0][0], c)
	}
	if !equal64(f0.Ranking, 0, 1) || !equal64(f1.Ranking, 0, 1) {
		t.Errorf("rankings %v, %v", f0.Ranking, f1.Ranking)
	}
	var f engine.Frame
	if err := s.Next(&f); err != io.EOF {
		t.Errorf("after the last frame: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Error(err)
	}
}

// otherFiles lists files rewind reads that are not Monad logs: the
// conformance .cfr replays, the real-world replays at hand and the Monad
// vectors' own files.
func otherFiles(t *testing.T) []string {
	t.Helper()
	others, _ := filepath.Glob("../../../../testdata/conformance/*.cfr")
	others = append(others, testutil.RealWorldOptional(t)...)
	more, _ := filepath.Glob("../../../../testdata/monad/m0*")
	others = append(others, more...)
	if len(others) < 3 {
		t.Fatalf("found %d other files", len(others))
	}
	return others
}

func equal(v []int64, want ...int64) bool { return slices.Equal(v, want) }

func equal64(v []int, want ...int64) bool {
	w := make([]int64, len(v))
	for i := range v {
		w[i] = int64(v[i])
	}
	return equal(w, want...)
}

// TestStreamSniff: Sniff claims every form of a log and nothing else
// rewind reads: no .cfr (JSON list, gzip'd or not), no .rwd, no Skyport
// .jsn, no vector file.
func TestStreamSniff(t *testing.T) {
	js := testutil.ReadFile(t, filepath.Join(official, "m05.replay.json"))
	mp := msgpackCompatibleJSON(js)
	for name, b := range map[string][]byte{"json": js, "json.gz": gzipped(js), "msgpack": mp, "mp.gz": gzipped(mp)} {
		if !Sniff(b[:512]) {
			t.Errorf("%s: not sniffed from 512 bytes", name)
		}
	}
	for _, p := range otherFiles(t) {
		b := testutil.ReadFile(t, p)
		if Sniff(prefix(b)) {
			t.Errorf("%s sniffed as a log", p)
		}
	}
	rec := jsntest.Recording()
	for name, b := range map[string][]byte{".jsn": rec, ".rwd": append([]byte(replay.Magic), js...), "gzip'd .jsn": gzipped(rec)} {
		if Sniff(prefix(b)) {
			t.Errorf("%s sniffed as a log", name)
		}
		if _, err := Open(bytes.NewReader(b)); !errors.Is(err, ErrNotLog) {
			t.Errorf("%s: Open: %v, want ErrNotLog", name, err)
		}
	}
}

// TestStreamDamaged: a cut or damaged log, in JSON and as .mp.gz, is
// refused by Open with an error naming the entry and field where it
// breaks.
func TestStreamDamaged(t *testing.T) {
	js := testutil.ReadFile(t, filepath.Join(official, "m05.replay.json"))
	mpgz := testutil.ReadFile(t, filepath.Join(official, "m05.mp.gz"))
	bad := bytes.Clone(js)
	at := bytes.Index(bad[len(bad)/2:], []byte(`"u": `)) + len(bad)/2
	copy(bad[at:], `"u": "`)
	flipped := bytes.Clone(mpgz)
	flipped[len(flipped)/2] ^= 0x55
	for _, c := range []struct {
		name string
		data []byte
		want []string
	}{
		{"json cut at half", js[:len(js)/2], []string{"turns[", "the log ends here"}},
		{"json cut before rankedBots", js[:bytes.LastIndex(js, []byte("rankedBots"))], []string{"the log ends here"}},
		{"json with a bad unit count", bad, []string{"turns[", ".map[", ".u: "}},
		{"mp.gz cut at half", mpgz[:len(mpgz)/2], []string{"turns[", "the log ends here"}},
		{"mp.gz damaged", flipped, []string{"turns["}},
		{"mp.gz without its trailer", mpgz[:len(mpgz)-3], []string{"damaged gzip stream"}},
	} {
		s, err := Open(bytes.NewReader(c.data))
		if err == nil {
			s.Close()
			t.Errorf("%s: opened", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v, want %q in it", c.name, err, w)
			}
		}
	}
}

// TestStreamFrameCommands: an entry with more than MaxFrameCommands
// commands ends the stream at its frame, with an error naming it, after
// the frames before.
func TestStreamFrameCommands(t *testing.T) {
	cmd := `{"u": 0, "p": 0, "t": 20, "d": 1, "n": 0}, `
	log := strings.Replace(small(), `"cmd": [{"u": 0`, `"cmd": [`+strings.Repeat(cmd, MaxFrameCommands)+`{"u": 0`, 1)
	s, err := Open(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	var f engine.Frame
	if err := s.Next(&f); err != nil {
		t.Fatalf("frame 0: %v", err)
	}
	for range 2 {
		if err := s.Next(&f); err == nil || !strings.Contains(err.Error(), "turns[0].cmd: 65537 commands") {
			t.Fatalf("frame 1: %v", err)
		}
	}
}

// FuzzStream: no input makes Open or reading its frames panic, and a log
// it opens gives bounded, well-formed frames: at most MaxTurns, each a
// 20×20 board, the ruleset's values for each player, a ranking of every
// player once, commands that parse.
func FuzzStream(f *testing.F) {
	js := testutil.ReadFile(f, filepath.Join(official, "m05.replay.json"))
	cut := cutLog(f, string(js), 3)
	f.Add([]byte(cut))
	f.Add(gzipped(msgpackCompatibleJSON([]byte(cut))))
	f.Add([]byte(small()))
	f.Add(gzipped(msgpackCompatibleJSON([]byte(small()))))
	nm := len(monad.Ruleset.Metrics())
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Open(bytes.NewReader(data))
		if err != nil {
			return
		}
		defer s.Close()
		n := len(s.Meta().Players)
		if n < 1 || n > monad.MaxPlayers {
			t.Fatalf("%d players", n)
		}
		var fr engine.Frame
		for i := 0; ; i++ {
			err := s.Next(&fr)
			if errors.Is(err, io.EOF) {
				if i == 0 {
					t.Fatal("no frames")
				}
				return
			}
			if err != nil {
				t.Fatalf("frame %d: %v", i, err)
			}
			if i >= MaxTurns || fr.Turn != i {
				t.Fatalf("frame %d: turn %d", i, fr.Turn)
			}
			if len(fr.Board.Cells) != Size*Size || len(fr.Values) != n || len(fr.Ranking) != n || len(fr.Commands) != n {
				t.Fatalf("frame %d: %d cells, %d values, %d ranked, %d command lists", i, len(fr.Board.Cells), len(fr.Values), len(fr.Ranking), len(fr.Commands))
			}
			seen := 0
			for p := 0; p < n; p++ {
				if len(fr.Values[p]) != nm {
					t.Fatalf("frame %d: player %d has %d values", i, p, len(fr.Values[p]))
				}
				if r := fr.Ranking[p]; r < 0 || r >= n || seen&(1<<r) != 0 {
					t.Fatalf("frame %d: ranking %v", i, fr.Ranking)
				} else {
					seen |= 1 << r
				}
				for _, c := range fr.Commands[p] {
					if cmd := monad.ParseCommand([]byte(c)); cmd.Err != monad.ErrNone {
						t.Fatalf("frame %d: command %s: %v", i, c, cmd.Err)
					}
				}
			}
		}
	})
}
