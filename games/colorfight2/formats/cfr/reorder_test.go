package cfr_test

// External test package: it uses analysis, which imports this package.

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/internal/analysis"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
)

func readJSON(t *testing.T, path string) []byte {
	t.Helper()
	return testutil.Gunzip(t, cfr.ReadShared(t, path))
}

// endString returns the index just after the JSON string starting at i.
func endString(js []byte, i int) int {
	for j := i + 1; j < len(js); j++ {
		switch js[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(js)
}

// endValue returns the index just after the object or array starting at i
// (compact JSON).
func endValue(js []byte, i int) int {
	depth := 0
	for j := i; j < len(js); {
		switch js[j] {
		case '"':
			j = endString(js, j)
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
		j++
	}
	return len(js)
}

// rotateUsers rewrites the decompressed JSON of a replay so that every
// element's users object lists its members rotated left by one (the first
// uid moves to the end, as when a uid freed during turn 0 is reused by the
// last registrant). Everything else stays byte for byte.
func rotateUsers(t *testing.T, js []byte) []byte {
	var out bytes.Buffer
	depth, rotated := 0, 0
	for i := 0; i < len(js); {
		c := js[i]
		if c == '"' {
			j := endString(js, i)
			if depth == 2 && string(js[i:j]) == `"users"` && j < len(js) && js[j] == ':' {
				out.Write(js[i : j+1])
				end := endValue(js, j+1)
				out.Write(rotateObject(js[j+1 : end]))
				rotated++
				i = end
				continue
			}
			out.Write(js[i:j])
			i = j
			continue
		}
		switch c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		out.WriteByte(c)
		i++
	}
	if rotated < 2 {
		t.Fatalf("rotated %d users objects", rotated)
	}
	return out.Bytes()
}

// rotateObject rotates the members of a compact JSON object left by one.
func rotateObject(obj []byte) []byte {
	var members [][]byte
	for i := 1; i < len(obj)-1; {
		start := i
		i = endString(obj, i) + 1 // key and colon
		if obj[i] == '{' || obj[i] == '[' {
			i = endValue(obj, i)
		} else {
			for i < len(obj)-1 && obj[i] != ',' {
				i++
			}
		}
		members = append(members, obj[start:i])
		i++ // comma
	}
	if len(members) < 2 {
		return obj
	}
	members = append(members[1:], members[0])
	return append(append([]byte{'{'}, bytes.Join(members, []byte{','})...), '}')
}

func decodeFrames(t *testing.T, data []byte) (cfr.Header, []colorfight2.Frame) {
	t.Helper()
	h, frames, err := cfr.DecodeAll(data)
	if err != nil {
		t.Fatal(err)
	}
	return h, frames
}

func encodeJSON(t *testing.T, h cfr.Header, frames []colorfight2.Frame) []byte {
	t.Helper()
	return cfr.EncodeFrames(t, h, frames, true)
}

func analyze(t *testing.T, js []byte) *analysis.Document {
	t.Helper()
	src, err := source.NewStream(bytes.NewReader(js), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := analysis.AnalyzeDocument(src)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestUsersInAnyOrder: a replay whose users are listed in a rotated order in
// every frame decodes with the file's order, exports byte-identical, holds
// the same game (Diff matches users by uid) and analyses to the same result.
func TestUsersInAnyOrder(t *testing.T) {
	for _, path := range []string{"realworld/RuntimeTerrorsVictory.cfr", "realworld/Segfault1.cfr", "conformance/c06.cfr"} {
		t.Run(path, func(t *testing.T) {
			orig := readJSON(t, path)
			rot := rotateUsers(t, orig)
			if bytes.Equal(rot, orig) || len(rot) != len(orig) {
				t.Fatal("rotation did not change the order or changed the length")
			}
			h, want := decodeFrames(t, orig)
			_, got := decodeFrames(t, rot)
			if len(got) != len(want) {
				t.Fatalf("%d frames, want %d", len(got), len(want))
			}
			for i := range want {
				w, g := want[i].Users, got[i].Users
				if len(w) > 1 && (g[len(g)-1].UID != w[0].UID || g[0].UID != w[1].UID) {
					t.Fatalf("frame %d: users not in file order: %d first, %d last", i, g[0].UID, g[len(g)-1].UID)
				}
				if d := colorfight2.Diff(&want[i], &got[i]); d != nil {
					t.Fatalf("frame %d: %s", i, d)
				}
			}
			// Export is byte-identical to the rotated file.
			if out := encodeJSON(t, h, got); !bytes.Equal(out, rot) {
				t.Fatal("export of the rotated replay differs from it")
			}
			// The encoder given the rotated frames writes the same text the
			// rewrite produced.
			for i := range want {
				if u := want[i].Users; len(u) > 1 {
					want[i].Users = append(u[1:], u[0])
				}
			}
			if out := encodeJSON(t, h, want); !bytes.Equal(out, rot) {
				t.Fatal("encoding rotated frames differs from the rotated text")
			}
			// The same analysis: winner, final gold of every player.
			a, b := analyze(t, orig), analyze(t, rot)
			if a.Summary.Winner != b.Summary.Winner || len(a.Summary.Ranking) != len(b.Summary.Ranking) {
				t.Fatalf("winner %d vs %d", a.Summary.Winner, b.Summary.Winner)
			}
			for i := range a.Summary.Ranking {
				x, y := a.Summary.Ranking[i], b.Summary.Ranking[i]
				if x.UID != y.UID || x.Score != y.Score || x.Username != y.Username || !slices.Equal(x.Values, y.Values) {
					t.Errorf("standing %d: %+v vs %+v", i, x, y)
				}
			}
			if path == "realworld/RuntimeTerrorsVictory.cfr" {
				w := b.Summary.Ranking[0]
				if gold, _ := w.Get("gold"); w.Username != "RuntimeTerrors" || gold != 648787 {
					t.Errorf("winner %s with %d gold", w.Username, gold)
				}
			}
		})
	}
}

// TestDuplicateUIDRefused: the same uid twice in one element is an error.
func TestDuplicateUIDRefused(t *testing.T) {
	orig := readJSON(t, "conformance/c01.cfr")
	bad := bytes.Replace(orig, []byte(`"2":{"uid":2,`), []byte(`"1":{"uid":1,`), 1)
	d, err := cfr.NewDecoder(bytes.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	var f colorfight2.Frame
	for err == nil {
		err = d.Next(&f)
	}
	var fe *cfr.FormatError
	if !errors.As(err, &fe) || fe.Frame != 1 || !errors.Is(err, cfr.ErrInvalid) {
		t.Errorf("err = %v", err)
	}
}

// TestDiffUsers: Diff matches users by uid and compares rankings as text
// ("" being 0).
func TestDiffUsers(t *testing.T) {
	mk := func(users ...colorfight2.FrameUser) *colorfight2.Frame {
		return &colorfight2.Frame{Turn: 3, Width: 1, Height: 1, Cells: make([]colorfight2.FrameCell, 1), Users: users}
	}
	a := colorfight2.FrameUser{UID: 1, Username: "a"}
	b := colorfight2.FrameUser{UID: 3, Username: "b", Ranking: "1.5e-8", Verified: true}
	if d := colorfight2.Diff(mk(a, b), mk(b, a)); d != nil {
		t.Errorf("reordered users differ: %s", d)
	}
	zero := a
	zero.Ranking = "0"
	if d := colorfight2.Diff(mk(a, b), mk(b, zero)); d != nil {
		t.Errorf(`ranking "" vs "0": %s`, d)
	}
	other := b
	other.Ranking = "1.50e-8"
	if d := colorfight2.Diff(mk(a, b), mk(other, a)); d == nil || d.Where != "user 3" || d.Field != "ranking" || d.Want != "1.5e-8" || d.Got != "1.50e-8" {
		t.Errorf("ranking text: %v", d)
	}
	c := colorfight2.FrameUser{UID: 2, Username: "a"}
	if d := colorfight2.Diff(mk(a, b), mk(b, c)); d == nil || d.Where != "user 1" || d.Field != "uid" {
		t.Errorf("missing uid: %v", d)
	}
}
