package viewer

import (
	"encoding/json"
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// escapeCases are strings that exercise every escape encoding/json makes.
var escapeCases = []string{"", "plain", `{"l":[1,2],"c":"MOVE"}`, "<b>&amp;</b>", "tab\there\nnew\rline", "\x00\x01\x1f\b\f\x7f",
	"back\\slash", "ünïcödé ✓", "\u2028\u2029", "bad \xff\xfe utf8", "\xe2\x80", "ok\u2027"}

// sameAsJSON fails when appendFrame and encoding/json disagree on f.
func sameAsJSON(t *testing.T, f *PackedFrame) {
	t.Helper()
	want, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := appendFrame(nil, f); string(got) != string(want) {
		t.Fatalf("appendFrame\n%s\nencoding/json\n%s", got, want)
	}
}

// TestAppendFrameMatchesJSON: the frames of packed toy games, and frames
// built to hit every omitempty, nil-versus-empty list and escape, are
// written byte for byte as encoding/json writes them.
func TestAppendFrameMatchesJSON(t *testing.T) {
	for _, topo := range []engine.Topology{engine.HexAxial, engine.Square, engine.Hex} {
		p, err := PackStream(newToyStream(topo, 5, 5, 30, "<alice>", "bob \xff"), StreamLimits{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range p.Frames {
			sameAsJSON(t, &p.Frames[i])
		}
	}
	sameAsJSON(t, &PackedFrame{})
	sameAsJSON(t, &PackedFrame{Cells: []int64{}, Layers: [][]int64{}, Values: [][]int64{nil, {}}, Commands: [][]string{nil, {}}, Sent: []int{}, Rejected: []int{}, Replies: []int64{}, Ranking: []int{}})
	for _, s := range escapeCases {
		sameAsJSON(t, &PackedFrame{
			Turn: -3, Active: 2, Cells: []int64{-1, 1 << 62}, Layers: [][]int64{nil, {1, -2}, {}}, Values: [][]int64{{1, -9}},
			Entities: []PackedEntity{{Kind: s, Player: -1, X: 1, Y: 2, Health: -5}, {Kind: "k", Value: 7, Label: s}},
			Effects:  []PackedEffect{{Kind: "line", Name: s, X2: 3}, {Kind: s, Y2: -1, Radius: 2, Points: []int{1, 2}, Value: -1}, {Kind: "area"}},
			Events:   []PackedEvent{{Kind: -1, Name: s, Player: 1, Other: -1, X: -1, Y: 4, Value: 1 << 40, Text: s}},
			Commands: [][]string{{s, s}, nil}, Sent: []int{3, 0},
			Errors: []PackedError{{Player: 1, Index: -1, Code: 4, Text: s}}, Rejected: []int{0, 7},
			Faults: []string{"", s}, Logs: []string{s}, Replies: []int64{-1, 1 << 40},
			Marks:   []PackedMark{{Kind: "line", Player: 1, X: 2, Y: 3, X2: 4, Y2: 0, Color: "#ff0000"}, {Kind: "text", Text: s}},
			Ranking: []int{1, 0}, NoCommands: true,
		})
	}
}

// FuzzAppendFrame: any strings and numbers are written as encoding/json
// writes them.
func FuzzAppendFrame(f *testing.F) {
	for _, s := range escapeCases {
		f.Add(s, int64(3), 1)
	}
	f.Fuzz(func(t *testing.T, s string, v int64, n int) {
		sameAsJSON(t, &PackedFrame{
			Turn: n, Cells: []int64{v}, Layers: [][]int64{{v}, nil}, Values: [][]int64{{v, int64(n)}},
			Entities: []PackedEntity{{Kind: s, Value: v, Label: s}},
			Effects:  []PackedEffect{{Kind: s, Name: s, Radius: n, Value: v}},
			Events:   []PackedEvent{{Name: s, Text: s, Value: v}},
			Commands: [][]string{{s}}, Errors: []PackedError{{Text: s, Code: n}}, Faults: []string{s}, Logs: []string{s}, Replies: []int64{v, -1}, Marks: []PackedMark{{Kind: s, Player: n, X: n, X2: n, Color: s, Text: s}}, NoCommands: n%2 == 0,
		})
	})
}
