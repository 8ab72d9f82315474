package match

import (
	"testing"

	"github.com/rewind-game/rewind/engine"
)

// parseMarkCases are marks as a bot writes them on a 30×20 board, with
// what ParseMark makes of them (ok false: refused).
var parseMarkCases = []struct {
	text string
	ok   bool
	want engine.BotMark
}{
	{`{"dot":[12,7]}`, true, engine.BotMark{Kind: engine.MarkDot, X: 12, Y: 7, Color: -1}},
	{`{"line":[[12,7],[14,9]],"color":"#1f5fbf"}`, true, engine.BotMark{Kind: engine.MarkLine, X: 12, Y: 7, X2: 14, Y2: 9, Color: 0x1f5fbf}},
	{`{"cell":[3,4],"color":"#f5c400"}`, true, engine.BotMark{Kind: engine.MarkCell, X: 3, Y: 4, Color: 0xf5c400}},
	{`{"text":"e251","at":[12,7]}`, true, engine.BotMark{Kind: engine.MarkText, X: 12, Y: 7, Color: -1, Text: "e251"}},
	{` { "at" : [ 0 , 19 ] , "text" : "é" } `, true, engine.BotMark{Kind: engine.MarkText, X: 0, Y: 19, Color: -1, Text: "é"}},
	// A cell is exactly two JSON integers.
	{`{"dot":[5]}`, false, engine.BotMark{}},
	{`{"dot":[]}`, false, engine.BotMark{}},
	{`{"dot":[1,2,3]}`, false, engine.BotMark{}},
	{`{"dot":null}`, false, engine.BotMark{}},
	{`{"dot":[1.5,2]}`, false, engine.BotMark{}},
	{`{"dot":[1.0,2]}`, false, engine.BotMark{}},
	{`{"dot":[1e0,2]}`, false, engine.BotMark{}},
	{`{"dot":["1",2]}`, false, engine.BotMark{}},
	{`{"dot":{"0":1,"1":2}}`, false, engine.BotMark{}},
	{`{"cell":[1]}`, false, engine.BotMark{}},
	{`{"text":"a","at":[1,2,3]}`, false, engine.BotMark{}},
	{`{"line":[[1,2]]}`, false, engine.BotMark{}},
	{`{"line":[[1,2],[3,4],[5,6]]}`, false, engine.BotMark{}},
	{`{"line":[[1,2],[3]]}`, false, engine.BotMark{}},
	{`{"line":[1,2]}`, false, engine.BotMark{}},
	// Keys are spelled as documented, each once.
	{`{"DOT":[1,2]}`, false, engine.BotMark{}},
	{`{"Dot":[1,2]}`, false, engine.BotMark{}},
	{`{"dot":[1,2],"Color":"#ffffff"}`, false, engine.BotMark{}},
	{`{"Text":"a","AT":[1,2]}`, false, engine.BotMark{}},
	{`{"colour":"#ffffff","dot":[1,2]}`, false, engine.BotMark{}},
	{`{"dot":[1,2],"dot":[3,4]}`, false, engine.BotMark{}},
	// The rest of the rules.
	{`{"dot":[30,1]}`, false, engine.BotMark{}},
	{`{"dot":[-1,1]}`, false, engine.BotMark{}},
	{`{"dot":[1,2],"cell":[1,2]}`, false, engine.BotMark{}},
	{`{"dot":[1,2],"at":[1,2]}`, false, engine.BotMark{}},
	{`{"text":"a"}`, false, engine.BotMark{}},
	{`{"text":"","at":[1,2]}`, false, engine.BotMark{}},
	{`{"dot":[1,2],"color":"red"}`, false, engine.BotMark{}},
	{`{"dot":[1,2],"color":null}`, false, engine.BotMark{}},
	{`{"dot":[1,2]} {}`, false, engine.BotMark{}},
	{`[1,2]`, false, engine.BotMark{}},
	{`{}`, false, engine.BotMark{}},
	{``, false, engine.BotMark{}},
}

// TestParseMark: ParseMark takes the marks docs/bot-protocol.md
// ("Marks") describes, as spelled there, and refuses anything else:
// a cell that is not exactly two JSON integers, a key spelled otherwise
// or given twice, a cell off the board, a bad colour or text.
func TestParseMark(t *testing.T) {
	for _, c := range parseMarkCases {
		m, err := ParseMark(1, []byte(c.text), 30, 20)
		if !c.ok {
			if err == nil {
				t.Errorf("%s: accepted as %+v", c.text, m)
			}
			continue
		}
		c.want.Player = 1
		if err != nil || m != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.text, m, err, c.want)
		}
	}
}

// FuzzParseMark: no text panics ParseMark, and a mark it accepts is on
// the board, of one kind, with a colour and text within their bounds.
func FuzzParseMark(f *testing.F) {
	for _, c := range parseMarkCases {
		f.Add(c.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMark(0, []byte(text), 30, 20)
		if err != nil {
			return
		}
		on := func(x, y int) bool { return x >= 0 && y >= 0 && x < 30 && y < 20 }
		if m.Kind < engine.MarkDot || m.Kind > engine.MarkText || !on(m.X, m.Y) || m.Kind == engine.MarkLine && !on(m.X2, m.Y2) ||
			m.Color < -1 || m.Color > 0xffffff || (m.Kind == engine.MarkText) != (m.Text != "") || len(m.Text) > engine.MaxBotMarkTextBytes {
			t.Fatalf("%q accepted as %+v", text, m)
		}
	})
}
