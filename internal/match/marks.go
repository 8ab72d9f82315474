package match

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/rewind-game/rewind/engine"
)

// Marker is a GamePlayer whose bot draws marks over the board (a bot
// outside the process: the lines of its stderr that start with
// MarkPrefix, docs/bot-protocol.md "Marks"). RoundMarks returns the
// marks' texts (what follows the prefix, each at most MaxMarkLine bytes
// or cut to MaxMarkLine+1 to say it was longer) it wrote while last
// asked, at most MaxMarksPerSeat of them, and how many more it wrote
// (dropped); the runner calls it after the bot answered and the slices
// are valid until the bot is asked again. Marks are not part of the
// game. A wrapper must forward it.
type Marker interface {
	RoundMarks() (lines [][]byte, dropped int)
}

// Bounds of the marks a bot draws (docs/limits.md): they are the
// replay's (replay.MaxMarksPerSeat, replay.MaxMarkTextBytes; a test
// keeps them equal), and the runner keeps no more.
const (
	// MarkPrefix opens a mark line on a bot's stderr.
	MarkPrefix = "rewind:mark "
	// MaxMarksPerSeat is the most marks a seat's bot draws for one round;
	// the rest are dropped with a note in the round's log.
	MaxMarksPerSeat = 256
	// MaxMarkLine bounds a mark's JSON text (after the prefix).
	MaxMarkLine = 512
	// MaxMarkText bounds a text mark's text, in UTF-8 bytes.
	MaxMarkText = 64
	// maxMarkNotes is how many dropped marks a round's log names; the
	// rest are counted in one more line.
	maxMarkNotes = 5
)

// markJSON is a mark as a bot writes it: exactly one of Dot, Line, Cell
// and Text (with At), and an optional Color "#rrggbb".
type markJSON struct {
	Dot   *[2]int    `json:"dot"`
	Line  *[2][2]int `json:"line"`
	Cell  *[2]int    `json:"cell"`
	Text  *string    `json:"text"`
	At    *[2]int    `json:"at"`
	Color *string    `json:"color"`
}

// ParseMark reads one mark of seat p (its JSON text, after MarkPrefix)
// on a board of width × height cells (the game's own coordinates:
// engine.Board's X, Y). The error says what is wrong with it: not JSON,
// not exactly one kind, a cell off the board, a bad colour, a text empty
// or over MaxMarkText bytes.
func ParseMark(p int, text []byte, width, height int) (engine.BotMark, error) {
	m := engine.BotMark{Player: p, Color: -1}
	if len(text) > MaxMarkLine {
		return m, fmt.Errorf("longer than %d bytes", MaxMarkLine)
	}
	var j markJSON
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return m, fmt.Errorf("not a mark's JSON: %v", err)
	}
	if dec.More() {
		return m, fmt.Errorf("more than one JSON value")
	}
	kinds := 0
	for _, set := range []bool{j.Dot != nil, j.Line != nil, j.Cell != nil, j.Text != nil} {
		if set {
			kinds++
		}
	}
	if kinds != 1 {
		return m, fmt.Errorf("%d kinds, want exactly one of \"dot\", \"line\", \"cell\", \"text\"", kinds)
	}
	if j.At != nil && j.Text == nil {
		return m, fmt.Errorf("\"at\" belongs to a text mark")
	}
	var at *[2]int
	switch {
	case j.Dot != nil:
		m.Kind, at = engine.MarkDot, j.Dot
	case j.Cell != nil:
		m.Kind, at = engine.MarkCell, j.Cell
	case j.Line != nil:
		m.Kind, at = engine.MarkLine, &j.Line[0]
		if !onBoard(j.Line[1], width, height) {
			return m, offBoard(j.Line[1], width, height)
		}
		m.X2, m.Y2 = j.Line[1][0], j.Line[1][1]
	default:
		m.Kind, at, m.Text = engine.MarkText, j.At, *j.Text
		if at == nil {
			return m, fmt.Errorf("a text mark without its cell (\"at\")")
		}
		if m.Text == "" || len(m.Text) > MaxMarkText || !utf8.ValidString(m.Text) {
			return m, fmt.Errorf("a text of %d bytes, want 1..%d bytes of UTF-8", len(m.Text), MaxMarkText)
		}
	}
	if !onBoard(*at, width, height) {
		return m, offBoard(*at, width, height)
	}
	m.X, m.Y = at[0], at[1]
	if j.Color != nil {
		c, err := parseColor(*j.Color)
		if err != nil {
			return m, err
		}
		m.Color = c
	}
	return m, nil
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
// dropped more over MaxMarksPerSeat) on a board of width × height,
// appends the good ones to marks and returns them with the round log's
// notes of those dropped: one line each (what and where: its number among
// the round's marks, why), at most maxMarkNotes, then a count.
func seatMarks(marks []engine.BotMark, p int, lines [][]byte, dropped, width, height int) ([]engine.BotMark, []byte) {
	var notes []byte
	bad := 0
	if len(lines) > MaxMarksPerSeat {
		lines, dropped = lines[:MaxMarksPerSeat], dropped+len(lines)-MaxMarksPerSeat
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
		notes = fmt.Appendf(notes, "rewind: %d marks dropped past the first %d of the round\n", dropped, MaxMarksPerSeat)
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
