package match

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/rewind-game/rewind/engine"
)

// Marker is a GamePlayer whose bot draws marks over the board (a bot
// outside the process: the lines of its stderr that start with
// MarkPrefix, docs/bot-protocol.md "Marks"). RoundMarks returns the
// marks' texts (what follows the prefix, each at most MaxMarkLine bytes
// or cut to MaxMarkLine+1 to say it was longer) it wrote while last
// asked, at most engine.MaxBotMarks of them, and how many more it wrote
// (dropped); the runner calls it after the bot answered and the slices
// are valid until the bot is asked again. Marks are not part of the
// game. A wrapper must forward it.
type Marker interface {
	RoundMarks() (lines [][]byte, dropped int)
}

// Bounds of the mark lines a bot writes (docs/limits.md), beside those
// of the marks themselves (engine.MaxBotMarks, engine.MaxBotMarkTextBytes).
const (
	// MarkPrefix opens a mark line on a bot's stderr.
	MarkPrefix = "rewind:mark "
	// MaxMarkLine bounds a mark's JSON text (after the prefix).
	MaxMarkLine = 512
	// maxMarkNotes is how many dropped marks a round's log names; the
	// rest are counted in one more line.
	maxMarkNotes = 5
)

// markKeys are the keys of a mark's JSON object, spelled as
// docs/bot-protocol.md ("Marks") writes them.
var markKeys = [...]string{"dot", "line", "cell", "text", "at", "color"}

// ParseMark reads one mark of seat p (its JSON text, after MarkPrefix)
// on a board of width × height cells (the game's own coordinates:
// engine.Board's X, Y): one JSON object whose keys are spelled exactly
// as docs/bot-protocol.md writes them ("dot", "line", "cell", "text",
// "at", "color"), each at most once, a cell exactly two JSON integers
// [x, y] and a line exactly two cells. The error says what is wrong with
// it: not JSON, an unknown or repeated key, not exactly one kind, a cell
// that is not [x, y] or off the board, a bad colour, a text empty or over
// engine.MaxBotMarkTextBytes bytes.
func ParseMark(p int, text []byte, width, height int) (engine.BotMark, error) {
	m := engine.BotMark{Player: p, Color: -1}
	if len(text) > MaxMarkLine {
		return m, fmt.Errorf("longer than %d bytes", MaxMarkLine)
	}
	var vals [len(markKeys)]json.RawMessage
	if err := markObject(text, &vals); err != nil {
		return m, err
	}
	dot, line, cell, txt, at, color := vals[0], vals[1], vals[2], vals[3], vals[4], vals[5]
	kinds := 0
	for _, v := range []json.RawMessage{dot, line, cell, txt} {
		if v != nil {
			kinds++
		}
	}
	if kinds != 1 {
		return m, fmt.Errorf("%d kinds, want exactly one of \"dot\", \"line\", \"cell\", \"text\"", kinds)
	}
	if at != nil && txt == nil {
		return m, fmt.Errorf("\"at\" belongs to a text mark")
	}
	var (
		c   [2]int
		err error
	)
	switch {
	case dot != nil:
		m.Kind = engine.MarkDot
		c, err = markCell("dot", dot, width, height)
	case cell != nil:
		m.Kind = engine.MarkCell
		c, err = markCell("cell", cell, width, height)
	case line != nil:
		m.Kind = engine.MarkLine
		var ends []json.RawMessage
		if json.Unmarshal(line, &ends) != nil || len(ends) != 2 {
			return m, fmt.Errorf("\"line\" %s, want two cells [[x1, y1], [x2, y2]]", line)
		}
		var c2 [2]int
		if c2, err = markCell("line", ends[1], width, height); err != nil {
			return m, err
		}
		m.X2, m.Y2 = c2[0], c2[1]
		c, err = markCell("line", ends[0], width, height)
	default:
		m.Kind = engine.MarkText
		if json.Unmarshal(txt, &m.Text) != nil {
			return m, fmt.Errorf("\"text\" %s, want a string", txt)
		}
		if at == nil {
			return m, fmt.Errorf("a text mark without its cell (\"at\")")
		}
		if m.Text == "" || len(m.Text) > engine.MaxBotMarkTextBytes || !utf8.ValidString(m.Text) {
			return m, fmt.Errorf("a text of %d bytes, want 1..%d bytes of UTF-8", len(m.Text), engine.MaxBotMarkTextBytes)
		}
		c, err = markCell("at", at, width, height)
	}
	if err != nil {
		return m, err
	}
	m.X, m.Y = c[0], c[1]
	if color != nil {
		var s string
		if json.Unmarshal(color, &s) != nil {
			return m, fmt.Errorf("colour %s, want \"#rrggbb\"", color)
		}
		if m.Color, err = parseColor(s); err != nil {
			return m, err
		}
	}
	return m, nil
}

// markObject reads text, one JSON object and nothing after it, into
// vals: vals[k] is the value of key markKeys[k], nil when absent. It
// refuses a key not in markKeys (compared byte for byte) and a key given
// twice.
func markObject(text []byte, vals *[len(markKeys)]json.RawMessage) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	t, err := dec.Token()
	if err != nil {
		return fmt.Errorf("not a mark's JSON: %v", err)
	}
	if t != json.Delim('{') {
		return fmt.Errorf("not a mark's JSON object")
	}
	for dec.More() {
		t, err = dec.Token()
		if err != nil {
			return fmt.Errorf("not a mark's JSON: %v", err)
		}
		key, _ := t.(string)
		k := slices.Index(markKeys[:], key)
		if k < 0 {
			return fmt.Errorf("unknown key %q", key)
		}
		if vals[k] != nil {
			return fmt.Errorf("key %q twice", key)
		}
		if err := dec.Decode(&vals[k]); err != nil {
			return fmt.Errorf("not a mark's JSON: %v", err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("not a mark's JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("more after the mark's JSON object")
	}
	return nil
}

// markCell reads the cell v of a mark's key: exactly two JSON integers
// [x, y], on the board.
func markCell(key string, v json.RawMessage, width, height int) ([2]int, error) {
	var c []int
	if json.Unmarshal(v, &c) != nil || len(c) != 2 {
		return [2]int{}, fmt.Errorf("%q %s, want a cell [x, y] of two integers", key, v)
	}
	if !onBoard([2]int(c), width, height) {
		return [2]int{}, offBoard([2]int(c), width, height)
	}
	return [2]int(c), nil
}

func onBoard(c [2]int, width, height int) bool {
	return c[0] >= 0 && c[1] >= 0 && c[0] < width && c[1] < height
}

func offBoard(c [2]int, width, height int) error {
	return fmt.Errorf("cell [%d,%d] off the %d×%d board", c[0], c[1], width, height)
}

// parseColor reads "#rrggbb".
func parseColor(s string) (int32, error) {
	if len(s) != 7 || s[0] != '#' {
		return 0, fmt.Errorf("colour %q, want \"#rrggbb\"", s)
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return 0, fmt.Errorf("colour %q, want \"#rrggbb\"", s)
	}
	return int32(v), nil
}

// seatMarks parses the marks seat p's bot wrote for a round (lines, and
// dropped more over engine.MaxBotMarks) on a board of width × height,
// appends the good ones to marks and returns them with the round log's
// notes of those dropped: one line each (what and where: its number among
// the round's marks, why), at most maxMarkNotes, then a count.
func seatMarks(marks []engine.BotMark, p int, lines [][]byte, dropped, width, height int) ([]engine.BotMark, []byte) {
	var notes []byte
	bad := 0
	if len(lines) > engine.MaxBotMarks {
		lines, dropped = lines[:engine.MaxBotMarks], dropped+len(lines)-engine.MaxBotMarks
	}
	for i, l := range lines {
		m, err := ParseMark(p, l, width, height)
		if err != nil {
			if bad++; bad <= maxMarkNotes {
				notes = fmt.Appendf(notes, "rewind: mark %d dropped: %v\n", i+1, err)
			}
			continue
		}
		marks = append(marks, m)
	}
	if bad > maxMarkNotes {
		notes = fmt.Appendf(notes, "rewind: %d more marks dropped\n", bad-maxMarkNotes)
	}
	if dropped > 0 {
		notes = fmt.Appendf(notes, "rewind: %d marks dropped past the first %d of the round\n", dropped, engine.MaxBotMarks)
	}
	return marks, notes
}

// markBoard is the size of a game's board, read once, when a bot first
// draws (engine.Game.Board: a board keeps its size over a game).
type markBoard struct {
	read          bool
	width, height int
	b             engine.Board
}

// marks adds to r.Marks the marks seat p's bot drew for the round (a
// Marker that started) and returns the notes of those dropped, nil when
// none.
func (mb *markBoard) marks(r *GameRound, g engine.Game, bot GamePlayer, p int, started bool) []byte {
	mk, ok := bot.(Marker)
	if !ok || !started {
		return nil
	}
	lines, dropped := mk.RoundMarks()
	if len(lines) == 0 && dropped == 0 {
		return nil
	}
	if !mb.read {
		g.Board(&mb.b)
		mb.read, mb.width, mb.height = true, mb.b.Width, mb.b.Height
		mb.b = engine.Board{}
	}
	var notes []byte
	r.Marks, notes = seatMarks(r.Marks, p, lines, dropped, mb.width, mb.height)
	return notes
}
