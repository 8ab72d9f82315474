package cfr

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// Encoder writes frames as a .cfr replay in exactly the official server's
// JSON layout: compact separators, the official key order, element 0 in
// full form, later elements as minimal cell prefixes, strings escaped as
// Python's json.dumps does (ASCII only), users in the frame's order (any
// uid order), rankings as their exact text ("" as 0). Decoding an official replay and
// re-encoding its frames reproduces its decompressed JSON byte for byte.
//
// An Encoder is not safe for concurrent use.
type Encoder struct {
	w     *bufio.Writer
	gz    *gzip.Writer // nil for plain JSON output
	hdr   Header
	cells map[int64][][2]int64 // header cells by uid
	prev  colorfight2.Frame
	n     int   // frames written
	err   error // sticky write error
	done  bool
	buf   []byte
}

// NewEncoder returns an Encoder writing a gzip-compressed replay to w.
// h supplies element 0's info, chat and error (raw JSON, written verbatim;
// each must be valid JSON, nil meaning {} / [] / {}), optionally the map
// size every frame must have, and the "cells" lists of element 0's users.
// Close finishes the JSON array and the gzip stream and flushes, but does
// not close w.
func NewEncoder(w io.Writer, h Header) (*Encoder, error) {
	e, err := newEncoder(h)
	if err != nil {
		return nil, err
	}
	e.gz = gzip.NewWriter(w)
	e.w = bufio.NewWriterSize(e.gz, 64<<10)
	return e, nil
}

// NewJSONEncoder is like NewEncoder but writes the uncompressed JSON text
// (what zcat of a .cfr shows). Close finishes the array and flushes, but
// does not close w.
func NewJSONEncoder(w io.Writer, h Header) (*Encoder, error) {
	e, err := newEncoder(h)
	if err != nil {
		return nil, err
	}
	e.w = bufio.NewWriterSize(w, 64<<10)
	return e, nil
}

func newEncoder(h Header) (*Encoder, error) {
	check := func(name string, raw json.RawMessage, def string) (json.RawMessage, error) {
		if raw == nil {
			return json.RawMessage(def), nil
		}
		if len(raw) > MaxRawBytes {
			return nil, fmt.Errorf("%w: header %s longer than %d bytes", ErrLimit, name, MaxRawBytes)
		}
		if !json.Valid(raw) {
			return nil, fmt.Errorf("%w: header %s is not valid JSON", ErrInvalid, name)
		}
		return raw, nil
	}
	var err error
	if h.Info, err = check("info", h.Info, "{}"); err != nil {
		return nil, err
	}
	if h.Chat, err = check("chat", h.Chat, "[]"); err != nil {
		return nil, err
	}
	if h.Error, err = check("error", h.Error, "{}"); err != nil {
		return nil, err
	}
	if h.Width != 0 || h.Height != 0 {
		if err := checkSize(h.Width, h.Height); err != nil {
			return nil, err
		}
	}
	e := &Encoder{hdr: h, cells: map[int64][][2]int64{}}
	for _, u := range h.Users {
		if u.Cells != nil {
			e.cells[u.UID] = u.Cells
		}
	}
	return e, nil
}

func checkSize(w, h int) error {
	if w < MinSize || w > MaxSize || h < MinSize || h > MaxSize {
		return fmt.Errorf("%w: map size %dx%d is outside %d..%d", ErrBadFrame, w, h, MinSize, MaxSize)
	}
	return nil
}

// WriteFrame appends frame f. The first frame is written as element 0 (full
// cells, info/chat/error and headers from the Header, users with their
// header cells); later frames as minimal prefixes against the previously
// written frame. Frames must be written in order: f.Turn must equal the
// number of frames written so far, and every frame must have the first
// frame's size. A frame the Decoder would reject (size, turn, cell count,
// position, building letter or level, too many users, a uid listed twice,
// a ranking that is not a JSON number, over-long or non-UTF-8 username,
// bad building order) is refused with an
// error wrapping ErrBadFrame and nothing is written; the Encoder stays
// usable. Write errors are sticky.
func (e *Encoder) WriteFrame(f *colorfight2.Frame) error {
	if e.done {
		return ErrClosed
	}
	if e.err != nil {
		return e.err
	}
	if err := e.validate(f); err != nil {
		return err
	}
	b := e.buf[:0]
	if e.n == 0 {
		b = append(b, '[')
		b = e.appendElem0(b, f)
	} else {
		b = append(b, ',')
		b = e.appendElem(b, f)
	}
	e.buf = b[:0]
	if _, err := e.w.Write(b); err != nil {
		e.err = err
		return err
	}
	e.prev.CopyFrom(f)
	e.n++
	return nil
}

// Close writes the end of the array, finishes the gzip stream (if any) and
// flushes; it does not close the underlying writer. It returns ErrNoFrames
// (after still finishing the stream, as "[]") if no frame was written.
// Further calls return ErrClosed.
func (e *Encoder) Close() error {
	if e.done {
		return ErrClosed
	}
	e.done = true
	if e.err != nil {
		return e.err
	}
	var err error
	if e.n == 0 {
		_, err = e.w.WriteString("[]")
	} else {
		_, err = e.w.WriteString("]")
	}
	if ferr := e.w.Flush(); err == nil {
		err = ferr
	}
	if e.gz != nil {
		if cerr := e.gz.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		e.err = err
		return err
	}
	if e.n == 0 {
		return ErrNoFrames
	}
	return nil
}

func badFrame(f *colorfight2.Frame, format string, args ...any) error {
	return fmt.Errorf("%w: turn %d: "+format, append([]any{ErrBadFrame, f.Turn}, args...)...)
}

// validate checks that f can be written and read back.
func (e *Encoder) validate(f *colorfight2.Frame) error {
	if f.Turn != e.n {
		return badFrame(f, "turn is %d, want %d", f.Turn, e.n)
	}
	if err := checkSize(f.Width, f.Height); err != nil {
		return fmt.Errorf("turn %d: %w", f.Turn, err)
	}
	if e.n == 0 {
		if e.hdr.Width != 0 && (f.Width != e.hdr.Width || f.Height != e.hdr.Height) {
			return badFrame(f, "size %dx%d, header says %dx%d", f.Width, f.Height, e.hdr.Width, e.hdr.Height)
		}
	} else if f.Width != e.prev.Width || f.Height != e.prev.Height {
		return badFrame(f, "size %dx%d, first frame is %dx%d", f.Width, f.Height, e.prev.Width, e.prev.Height)
	}
	if len(f.Cells) != f.Width*f.Height {
		return badFrame(f, "%d cells for a %dx%d map", len(f.Cells), f.Width, f.Height)
	}
	for i := range f.Cells {
		c := &f.Cells[i]
		x, y := i%f.Width, i/f.Width
		if c.X != int64(x) || c.Y != int64(y) {
			return badFrame(f, "cell (%d,%d) has position [%d,%d]", x, y, c.X, c.Y)
		}
		if c.Building >= colorfight2.NumBuildings {
			return badFrame(f, "cell (%d,%d) has building %d", x, y, c.Building)
		}
		if c.Level < 1 || c.Level > 3 || (c.Building == colorfight2.BuildingNone && c.Level != 1) {
			return badFrame(f, "cell (%d,%d) has %s level %d", x, y, c.Building, c.Level)
		}
		if c.Owner < 0 {
			return badFrame(f, "cell (%d,%d) has owner %d", x, y, c.Owner)
		}
	}
	if len(f.Users) > MaxUsers {
		return badFrame(f, "%d users, at most %d", len(f.Users), MaxUsers)
	}
	for i := range f.Users {
		u := &f.Users[i]
		if u.UID < 1 || u.UID > MaxUID {
			return badFrame(f, "uid %d is outside 1..%d", u.UID, MaxUID)
		}
		for j := range f.Users[:i] {
			if f.Users[j].UID == u.UID {
				return badFrame(f, "uid %d listed twice", u.UID)
			}
		}
		if u.Ranking != "" && (len(u.Ranking) > MaxRankingBytes || !validNumber(u.Ranking)) {
			return badFrame(f, "user %d: ranking %.80q is not a JSON number of at most %d bytes", u.UID, u.Ranking, MaxRankingBytes)
		}
		if len(u.Username) > MaxUsernameBytes || !utf8.ValidString(u.Username) {
			return badFrame(f, "user %d: username too long or not UTF-8", u.UID)
		}
		var seen [colorfight2.NumBuildings]bool
		for _, b := range u.BuildingOrder {
			if b == colorfight2.BuildingNone || b >= colorfight2.NumBuildings || seen[b] {
				return badFrame(f, "user %d: bad BuildingOrder %v", u.UID, u.BuildingOrder)
			}
			seen[b] = true
		}
		for b := colorfight2.Home; b < colorfight2.NumBuildings; b++ {
			if u.Buildings[b] < 0 {
				return badFrame(f, "user %d: negative %s count", u.UID, b)
			}
		}
	}
	if e.n == 0 {
		for _, u := range f.Users {
			for _, p := range e.cells[u.UID] {
				if p[0] < 0 || p[0] >= int64(f.Width) || p[1] < 0 || p[1] >= int64(f.Height) {
					return badFrame(f, "user %d: header cell [%d,%d] is off the map", u.UID, p[0], p[1])
				}
			}
		}
	}
	return nil
}

func (e *Encoder) appendElem0(b []byte, f *colorfight2.Frame) []byte {
	return e.appendFull(b, f, 0, e.hdr.Info, e.hdr.Chat, e.hdr.Error)
}

// appendFull writes a frame in the full form — element 0 of a replay, and
// the game_channel's state message (AppendStateMessage): every cell, the
// headers and the users with their header cells.
func (e *Encoder) appendFull(b []byte, f *colorfight2.Frame, turn int, info, chat, errs []byte) []byte {
	b = append(b, `{"turn":`...)
	b = strconv.AppendInt(b, int64(turn), 10)
	b = append(b, `,"info":`...)
	b = append(b, info...)
	b = append(b, `,"chat":`...)
	b = append(b, chat...)
	b = append(b, `,"error":`...)
	b = append(b, errs...)
	b = append(b, `,"game_map":{"data":`...)
	b = colorfight2.AppendMapData(b, f, nil)
	b = append(b, `,"headers":[`...)
	for i, h := range Headers {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, h...)
		b = append(b, '"')
	}
	b = append(b, `]},"users":`...)
	b = e.appendUsers(b, f, true)
	b = append(b, '}')
	return b
}

func (e *Encoder) appendElem(b []byte, f *colorfight2.Frame) []byte {
	b = append(b, `{"turn":`...)
	b = strconv.AppendInt(b, int64(f.Turn), 10)
	b = append(b, `,"users":`...)
	b = e.appendUsers(b, f, false)
	b = append(b, `,"game_map":{"data":`...)
	b = colorfight2.AppendMapData(b, f, func(i int) int { return prefixLen(&e.prev.Cells[i], &f.Cells[i]) })
	return append(b, "}}"...)
}

// prefixLen is the number of leading fields to write for cell c given the
// previous frame's cell p: up to the last differing field.
func prefixLen(p, c *colorfight2.FrameCell) int {
	switch {
	case p.NaturalCost != c.NaturalCost:
		return 10
	case p.NaturalEnergy != c.NaturalEnergy:
		return 9
	case p.NaturalGold != c.NaturalGold:
		return 8
	case p.X != c.X || p.Y != c.Y:
		return 7
	case p.Owner != c.Owner:
		return 6
	case p.Energy != c.Energy:
		return 5
	case p.Gold != c.Gold:
		return 4
	case p.Building != c.Building || p.Level != c.Level:
		return 3
	case p.ForceField != c.ForceField:
		return 2
	case p.AttackCost != c.AttackCost:
		return 1
	}
	return 0
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

func (e *Encoder) appendUsers(b []byte, f *colorfight2.Frame, elem0 bool) []byte {
	b = append(b, '{')
	for i := range f.Users {
		u := &f.Users[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = colorfight2.AppendUserKey(b, u.UID)
		b = append(b, `,"username":`...)
		b = appendPyString(b, u.Username)
		b = append(b, `,"verified":`...)
		b = appendBool(b, u.Verified)
		b = append(b, `,"ranking":`...)
		if u.Ranking == "" {
			b = append(b, '0')
		} else {
			b = append(b, u.Ranking...)
		}
		b = colorfight2.AppendUserEconomy(b, u)
		b = append(b, `,"building_number":{`...)
		first := true
		var listed [colorfight2.NumBuildings]bool
		key := func(bt colorfight2.Building) {
			b = colorfight2.AppendBuildingEntry(b, u, bt, first)
			first = false
		}
		for _, bt := range u.BuildingOrder {
			listed[bt] = true
			key(bt)
		}
		for bt := colorfight2.Home; bt < colorfight2.NumBuildings; bt++ {
			if !listed[bt] && u.Buildings[bt] != 0 {
				key(bt)
			}
		}
		b = append(b, `},"cell_number":`...)
		b = strconv.AppendInt(b, u.CellNumber, 10)
		if elem0 {
			if cells, ok := e.cells[u.UID]; ok {
				b = append(b, `,"cells":[`...)
				for j, p := range cells {
					if j > 0 {
						b = append(b, ',')
					}
					b = append(b, '[')
					b = strconv.AppendInt(b, p[0], 10)
					b = append(b, ',')
					b = strconv.AppendInt(b, p[1], 10)
					b = append(b, ']')
				}
				b = append(b, ']')
			}
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendPyString writes s as Python's json.dumps(ensure_ascii=True) does:
// \" \\ \n \r \t \b \f, other bytes outside ' '..'~' as \u00XX or
// \uXXXX (surrogate pairs above U+FFFF). s must be valid UTF-8.
func appendPyString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"':
			b = append(b, `\"`...)
		case r == '\\':
			b = append(b, `\\`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\b':
			b = append(b, `\b`...)
		case r == '\f':
			b = append(b, `\f`...)
		case r >= ' ' && r <= '~':
			b = append(b, byte(r))
		case r > 0xFFFF:
			r -= 0x10000
			b = appendU(b, 0xD800+(r>>10))
			b = appendU(b, 0xDC00+(r&0x3FF))
		default:
			b = appendU(b, r)
		}
	}
	return append(b, '"')
}

func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
}
