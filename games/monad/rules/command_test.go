package rules

import (
	"encoding/json"
	"github.com/rewind-game/rewind/internal/testutil"
	"path/filepath"
	"strconv"
	"testing"
)

func TestParseCommand(t *testing.T) {
	cases := []struct {
		in   string
		want Command
	}{
		{`{"l": [3, 4], "c": "MOVE", "d": 1, "n": 5}`, Command{X: 3, Y: 4, Kind: KindMove, Dir: East, Count: 5}},
		{`{"l": [3, 4, 9], "c": "BUILD", "d": 7, "n": 1, "x": "extra"}`, Command{X: 3, Y: 4, Kind: KindBuild, Dir: None, Count: 1}},
		{`{"l": [0, 19], "c": "MINE", "d": 6, "n": 0}`, Command{X: 0, Y: 19, Kind: KindMine, Dir: SouthWest}},
		{`{"l": [0, 0], "c": "MINE", "d": 2, "n": -7}`, Command{Kind: KindMine, Dir: West}},
		{`{"l": [0, 0], "c": "MINE", "d": 2, "n": -99999999999999999999999}`, Command{Kind: KindMine, Dir: West}},
		{`{"l": [0, 0], "c": "MO\u0056E", "d": 3, "n": 2}`, Command{Kind: KindMove, Dir: NorthEast, Count: 2}},
		{`{"l": [0, 0], "c": "move", "d": 3, "n": 2}`, Command{Kind: KindUnknown, Dir: NorthEast, Count: 2}},
		{`{"l": [0, 0], "c": null, "d": 3, "n": 2}`, Command{Kind: KindUnknown, Dir: NorthEast, Count: 2}},
		{`{"l": [0, 0], "c": 3, "d": 3, "n": 2}`, Command{Kind: KindUnknown, Dir: NorthEast, Count: 2}},
		{`{"l": [0, 0], "c": "MINE", "d": 1, "n": 2147483647}`, Command{Kind: KindMine, Dir: East, Count: MaxCount}},
		{`{"l": [0, 0], "c": "MINE", "d": 1, "n": 2, "n": 4}`, Command{Kind: KindMine, Dir: East, Count: 4}},
		{`{"l": [0, 0], "c": "MINE", "d": 1, "n": 2147483648}`, Command{Err: ErrBadCount}},
		{`{"l": [0, 0], "c": "MINE", "d": 1, "n": 1e3}`, Command{Err: ErrBadCount}},
		{`{"l": [99999999999999999999, 0], "c": "MINE", "d": 1, "n": 1}`, Command{Err: ErrOffMap}},
		{`{"l": [-99999999999999999999, 0], "c": "MINE", "d": 1, "n": 1}`, Command{Err: ErrOffMap}},
		{`{"l": [20, 0], "c": "MINE", "d": 1, "n": 1}`, Command{Err: ErrOffMap}},
		{`{"l": [0, 20], "c": "MINE", "d": 1, "n": 1}`, Command{Err: ErrOffMap}},
		{`{"l": [true, 0], "c": "MINE", "d": 1, "n": 1}`, Command{Err: ErrBadPosition}},
		{`{"l": "ab", "c": "MINE", "d": 1, "n": 1}`, Command{Err: ErrBadPosition}},
		{`{"l": [0, 0], "c": "MINE", "d": -1, "n": 1}`, Command{Err: ErrBadDirection}},
		{`[]`, Command{Err: ErrNotObject}},
		{`{"l": [0, 0], "c": "MINE", "d": 1`, Command{Err: ErrNotObject}},
		{``, Command{Err: ErrNotObject}},
	}
	for _, c := range cases {
		if got := ParseCommand([]byte(c.in)); got != c.want {
			t.Errorf("ParseCommand(%s) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

// TestAppendText: a command written by AppendText parses back to itself;
// an implicit mine's direction is refused.
func TestAppendText(t *testing.T) {
	for _, c := range []Command{
		{X: 3, Y: 4, Kind: KindMove, Dir: East, Count: 5},
		{X: 19, Y: 0, Kind: KindBuild, Dir: None, Count: 1},
		{X: 0, Y: 19, Kind: KindMine, Dir: SouthWest},
		{X: 7, Y: 7, Kind: KindUnknown, Dir: NorthWest, Count: MaxCount},
	} {
		b := c.AppendText([]byte("x"))
		if got := ParseCommand(b[1:]); got != c {
			t.Errorf("%s parses to %+v, want %+v", b[1:], got, c)
		}
	}
	b := Command{X: 1, Y: 1, Kind: KindMine, Dir: DirImplicit, Count: 2}.AppendText(nil)
	if string(b) != `{"l":[1,1],"c":"MINE","d":0,"n":2}` || ParseCommand(b).Err != ErrBadDirection {
		t.Errorf("an implicit mine: %s, %+v", b, ParseCommand(b))
	}
}

func TestParseReply(t *testing.T) {
	got := ParseReply([]byte(` [{"l": [1, 1], "c": "MINE", "d": 7, "n": 1}, 3] `), nil)
	if len(got) != 2 || got[0].Err != ErrNone || got[1].Err != ErrNotObject {
		t.Errorf("ParseReply = %+v", got)
	}
	for _, in := range []string{`null`, `{"l": [1, 1]}`, `[1,`, ``} {
		if got := ParseReply([]byte(in), nil); len(got) != 1 || got[0].Err != ErrNotList {
			t.Errorf("ParseReply(%q) = %+v, want one ErrNotList", in, got)
		}
	}
}

// crashCodes is the code rewind gives each input of crash_cases.json: the
// reference aborts the match on the "raises" ones and coerces the "ok"
// ones (except origin_off_map_p0_unknown, which it ignores).
var crashCodes = map[string]ErrCode{
	"dir_0": ErrBadDirection, "dir_8": ErrBadDirection, "dir_null": ErrBadDirection, "dir_string": ErrBadDirection,
	"no_n": ErrMissingField, "no_l": ErrMissingField, "no_c": ErrMissingField, "no_d": ErrMissingField,
	"n_string": ErrBadCount, "n_null": ErrBadCount,
	"l_short": ErrBadPosition, "l_float": ErrBadPosition, "l_string": ErrBadPosition,
	"origin_off_map_p1": ErrOffMap, "origin_off_map_p1_unknown": ErrOffMap,
	"origin_off_map_p0": ErrOffMap, "origin_off_map_p0_unknown": ErrOffMap,
	"not_a_dict": ErrNotObject,
	"reply_null": ErrNotList, "reply_dict": ErrNotList,
	"n_float": ErrBadCount, "n_float_big": ErrBadCount, "n_bool": ErrBadCount,
	"d_float": ErrBadDirection, "d_bool": ErrBadDirection,
}

// TestCrashCases plays every input of crash_cases.json as the file sets it
// up (seed 4242, two players, one turn, the other player replying []): the
// one command is rejected with its code, the turn is played, and the state
// is the one the turn gives when that player sends nothing.
func TestCrashCases(t *testing.T) {
	data := testutil.ReadFile(t, "../../../testdata/monad/crash_cases.json")
	var file struct {
		Cases []struct {
			ID       string          `json:"id"`
			Seed     int64           `json:"seed"`
			Players  int             `json:"players"`
			MaxTurns int             `json:"max_turns"`
			Player   int             `json:"player"`
			Reply    json.RawMessage `json:"reply"`
			Outcome  string          `json:"outcome"`
			Turn0Cmd []struct {
				P int `json:"p"`
			} `json:"turn0_cmd"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) != 25 || len(crashCodes) != 25 {
		t.Fatalf("%d cases in the file, %d in the table; want 25", len(file.Cases), len(crashCodes))
	}
	for _, c := range file.Cases {
		t.Run(c.ID, func(t *testing.T) {
			want, ok := crashCodes[c.ID]
			if !ok {
				t.Fatalf("case %s has no expected code", c.ID)
			}
			cfg := Config{Players: c.Players, MaxTurns: c.MaxTurns, Seed: c.Seed}
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			base := s.Clone()
			base.Step(nil)
			cmds := make([][]Command, c.Players)
			cmds[c.Player] = ParseReply(c.Reply, nil)
			s.Step(cmds)
			errs := s.Errors()
			if len(errs) != 1 || errs[0] != (CommandError{Player: c.Player, Index: 0, Code: want}) {
				t.Fatalf("errors %+v, want one %v (%d) for player %d", errs, want, want, c.Player)
			}
			if s.Turn() != 1 || !s.Over() {
				t.Fatalf("turn %d, over %v: the turn was not played", s.Turn(), s.Over())
			}
			if s.Hash() != base.Hash() {
				t.Fatal("the rejected command changed the state")
			}
			if got := s.Stats(c.Player).Rejected; got != 1 {
				t.Fatalf("Rejected = %d, want 1", got)
			}
		})
	}
}

// TestParseFastAgrees runs every raw command of the six vectors through
// both parsers: the fast path must answer for each (they are the shapes
// bots send) and agree with encoding/json.
func TestParseFastAgrees(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/monad/m*.commands.json")
	if len(files) != 6 {
		t.Fatalf("found %d vectors, want 6", len(files))
	}
	n := 0
	for _, f := range files {
		data := testutil.ReadFile(t, f)
		var v struct {
			Turns []struct {
				Commands map[string][]json.RawMessage `json:"commands"`
			} `json:"turns"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		for _, turn := range v.Turns {
			for p := 0; p < MaxPlayers; p++ {
				for _, raw := range turn.Commands[strconv.Itoa(p)] {
					n++
					fc, ok := parseFast(raw)
					if !ok {
						t.Fatalf("%s: fast path gave up on %s", f, raw)
					}
					if sc := parseSlow(raw); sc != fc {
						t.Fatalf("%s: %s: fast %+v, encoding/json %+v", f, raw, fc, sc)
					}
				}
			}
		}
	}
	if n < 10000 {
		t.Fatalf("only %d commands checked", n)
	}
	for _, in := range []string{
		` { "l" : [ 1 , 2 , "x", null ] , "c" : "MINE" , "d" : 7 , "n" : 3 , "z": [] } `,
		`{"l": [1, 2], "c": "MINE", "d": 7, "n": 3, "n": -0}`,
		`{"l": [1, 2], "c": true, "d": 7, "n": -9223372036854775809}`,
		`{"l": [1, 2], "c": "MINE", "d": 70000000000000000000, "n": 1}`,
		`{"l": [], "c": "MINE", "d": 7, "n": 1}`,
		`{}`, `{"l": [1, 2], "c": "MINE", "d": 7, "n": 1} x`, `{"l": [1, 2], "c": "MINE", "d": 7, "n": 01}`,
	} {
		fc, ok := parseFast([]byte(in))
		if sc := parseSlow([]byte(in)); ok && sc != fc {
			t.Errorf("%s: fast %+v, encoding/json %+v", in, fc, sc)
		}
	}
}
