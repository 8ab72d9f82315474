package jsn_test

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/skyport/formats/jsn"
	"github.com/rewind-game/rewind/games/skyport/formats/jsn/jsntest"
)

// lines returns the synthetic recording's lines.
func lines() []string {
	return strings.Split(strings.TrimSuffix(string(jsntest.Recording()), "\n"), "\n")
}

func join(ls []string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }

// TestDamaged: cut, altered and oversized recordings give the frames
// before the damage, then an error naming the line; each documented limit
// (docs/limits.md) is enforced.
func TestDamaged(t *testing.T) {
	rec := jsntest.Recording()
	ls := lines()
	// Line numbers (1-based) of the synthetic recording: 1 connect, 2
	// gamestate 0, 5 gamestate 1, then per turn endturn, actions,
	// endactions, gamestate.
	gs := []int{}
	for i, l := range ls {
		if strings.Contains(l, `"gamestate"`) {
			gs = append(gs, i+1)
		}
	}
	replace := func(line int, old, new string) []byte {
		c := append([]string(nil), ls...)
		if !strings.Contains(c[line-1], old) {
			t.Fatalf("line %d has no %q", line, old)
		}
		c[line-1] = strings.Replace(c[line-1], old, new, 1)
		return join(c)
	}
	insert := func(line int, add ...string) []byte {
		c := append([]string(nil), ls[:line-1]...)
		c = append(c, add...)
		return join(append(c, ls[line-1:]...))
	}
	g5 := gs[5] // the gamestate of turn 5
	cases := []struct {
		name   string
		data   []byte
		frames int    // frames read before the error (-1: Open fails)
		want   string // in the error
	}{
		{"cut mid-line", rec[:bytes.Index(rec, []byte(`"turn":5`))+20], 4, "line " + strconv.Itoa(g5) + " (byte "},
		{"cut before turn 1", rec[:bytes.Index(rec, []byte(`"turn":1`))], -1, "cut short"},
		{"empty", nil, -1, "ends before the gamestate of turn 1"},
		{"flipped brace", replace(g5, `{"message"`, `}"message"`), 4, "not a JSON object"},
		{"huge health", replace(g5, `"health":`, `"health":1e300,"x":`), 4, "not an integer within"},
		{"big health", replace(g5, `"health":`, `"health":99999999999,"x":`), 4, "not an integer within"},
		{"huge turn", replace(g5, `"turn":5`, `"turn":100001`), 4, "turn 100001, want 0 to 100000"},
		{"deep nesting", replace(g5, `"turn":5`, `"turn":5,"x":`+strings.Repeat("[", 100000)+strings.Repeat("]", 100000)), 4, "nested 100001 deep, at most 32"},
		{"long line", replace(g5, `"turn":5`, `"turn":5,"x":"`+strings.Repeat("a", jsn.MaxLineBytes)+`"`), 4, "longer than"},
		{"bad tile", replace(g5, `["S","G"`, `["X","G"`), 4, `not one of G V S O R E C`},
		{"position off map", replace(g5, `"position":"1, 2"`, `"position":"1, 9"`), 4, `not "j, k" on the 5×5 map`},
		{"two on a tile", replace(g5, `"position":"1, 2"`, `"position":"3, 2"`), 4, "both at 3, 2"},
		{"unknown player", replace(g5, `"name":"ann"`, `"name":"eve"`), 4, `"eve" is not one of`},
		{"not the ring", replace(g5, `"name":"ann"`, `"name":"bob"`), 4, "listed twice"},
		{"skipped turn", replace(g5, `"turn":5`, `"turn":6`), 4, "the gamestate of turn 6 follows that of turn 4"},
		{"level 4", replace(g5, `"level":1`, `"level":4`), 4, "want 1 to 3"},
		{"unknown message", insert(g5, `{"message":"teleport"}`), 4, `unknown message "teleport"`},
		{"action before endturn", insert(gs[4]+1, `{"message":"action","type":"mine","from":"bob"}`), 4, "before its endturn"},
		{"action of another", insert(g5-1, `{"message":"action","type":"mine","from":"bob"}`), 4, `from "bob" in ann's turn`},
		{"bad direction", insert(g5-1, `{"message":"action","type":"move","direction":"north","from":"ann"}`), 4, `move direction "north"`},
		{"bad mortar", insert(g5-1, `{"message":"action","type":"mortar","coordinates":"1","from":"ann"}`), 4, `mortar coordinates "1"`},
		{"long droid", insert(g5-1, `{"message":"action","type":"droid","sequence":[`+strings.Repeat(`"up",`, jsn.MaxSequence)+`"up"],"from":"ann"}`), 4, "droid sequence of more than"},
		{"too many lines", insert(g5-1, strings.Split(strings.Repeat(`{"message":"endactions"}`+"\n", jsn.MaxTurnLines+1), "\n")...), 4, "more than 256 lines"},
		{"long name", bytes.ReplaceAll(rec, []byte(`"ann"`), []byte(`"`+strings.Repeat("a", jsn.MaxNameBytes+1)+`"`)), -1, "a player name of 65 bytes"},
		{"same names", bytes.ReplaceAll(rec, []byte(`"bob"`), []byte(`"ann"`)), -1, `two players named "ann"`},
		{"no turn 1", replace(gs[1], `"turn":1`, `"turn":2`), -1, "the first gamestate with positions is of turn 2"},
		{"too many players", replace(2, `{"name":"ann"}`, manyPlayers(jsn.MaxPlayers+1)), -1, "18 players, want 1 to 16"},
		{"map too big", replace(gs[1], `"data":[`, `"data":[`+strings.Repeat(`["G"],`, jsn.MaxSize)), -1, "a map of 104 rows"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := jsn.Open(bytes.NewReader(c.data))
			if c.frames < 0 {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("Open: %v, want an error with %q", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			var f engine.Frame
			n := 0
			for {
				err = s.Next(&f)
				if err != nil {
					break
				}
				n++
			}
			if errors.Is(err, io.EOF) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "line ") || n != c.frames {
				t.Errorf("after %d frames (want %d): %v, want an error at a line with %q", n, c.frames, err, c.want)
			}
		})
	}
}

func manyPlayers(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":"p` + strconv.Itoa(i) + `"}`)
	}
	return b.String()
}

// TestClean: line ends in \r\n, blank lines, a last line without its end
// and a recording that stops after a turn's actions all read.
func TestClean(t *testing.T) {
	rec := string(jsntest.Recording())
	for name, data := range map[string]string{
		"crlf":        strings.ReplaceAll(rec, "\n", "\r\n"),
		"blank lines": strings.ReplaceAll(rec, "\n", "\n\n"),
		"no last end": strings.TrimSuffix(rec, "\n"),
		"stops after actions": rec + `{"message":"endturn"}` + "\n" + `{"message":"action","type":"move","direction":"up","from":"ann"}` + "\n" +
			`{"message":"endactions"}` + "\n" + `{"message":"subtitle","text":"Time over!"}` + "\n",
	} {
		_, fr, err := readAll(t, []byte(data))
		if err != nil || len(fr) != jsntest.Turns+1 {
			t.Errorf("%s: %d frames, %v", name, len(fr), err)
		}
	}
}

// FuzzJSN: no input makes the decoder panic or read a frame without its
// board; every error past the start names a line.
func FuzzJSN(f *testing.F) {
	rec := jsntest.Recording()
	f.Add(rec)
	f.Add(rec[:len(rec)/2])
	f.Add([]byte(`{"message":"connect","status":true}` + "\n" + `{"message":"gamestate","turn":1,"players":[{"name":"a","position":"0, 0","health":1,"score":0}],"map":{"data":[["G"]]}}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := jsn.Open(bytes.NewReader(data))
		if err != nil {
			return
		}
		var fr engine.Frame
		for n := 0; ; n++ {
			err := s.Next(&fr)
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				if !strings.HasPrefix(err.Error(), "line ") {
					t.Fatalf("frame %d: error %q names no line", n, err)
				}
				return
			}
			if len(fr.Board.Cells) != fr.Board.Width*fr.Board.Height || len(fr.Values) != len(s.Meta().Players) {
				t.Fatalf("frame %d: %d cells for %d×%d, %d value rows", n, len(fr.Board.Cells), fr.Board.Width, fr.Board.Height, len(fr.Values))
			}
		}
	})
}
