package cfr

import (
	"bufio"
	"encoding/binary"
	"io"
	"math/bits"
	"strconv"

	"github.com/klauspost/compress/gzip"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// Decoder reads the frames of a .cfr replay one at a time.
//
// It streams: it holds its read buffers, the header and one frame (the
// previous one, onto which the next element's cell prefixes are applied),
// never the whole file. A Decoder is not safe for concurrent use.
type Decoder struct {
	s     *scanner
	hdr   Header
	prev  colorfight2.Frame
	frame int   // index of the next frame Next returns
	err   error // sticky: a *FormatError, or io.EOF after the last frame
	// headerCells counts the entries of element 0's cells lists, all
	// users together (MaxHeaderCells).
	headerCells int
}

// NewDecoder starts reading a replay from r, which may be gzip-compressed
// (detected by the gzip magic bytes) or plain JSON. It reads the opening of
// the array and all of element 0 (the header and frame 0) before
// returning; any problem is reported as a *FormatError. The Decoder does
// not close r.
//
// Plain JSON is read from r only as needed. Gzip input is decompressed by
// a background goroutine up to six 64 KiB buffers ahead of the parser, so
// that decompressing and parsing overlap on a machine with a spare core.
// While the Decoder is in use, and after the caller stops calling Next
// before the end, that goroutine may be reading r; it stops on its own once
// those buffers are full, and at once (waiting for the read in flight) on
// Close. Once Next has returned io.EOF or an error, no read is in flight. A panic of r in the background is raised again by the
// Next call that needed the data.
func NewDecoder(r io.Reader) (*Decoder, error) {
	br := bufio.NewReaderSize(r, 32<<10)
	var src io.Reader = br
	ahead := false
	magic, err := br.Peek(2)
	switch {
	case len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		gz, err := gzip.NewReader(br)
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, &FormatError{Frame: -1, Where: "gzip header", Err: err}
		}
		src, ahead = gz, true
	case err != nil && err != io.EOF && len(magic) < 2:
		return nil, &FormatError{Frame: -1, Err: err}
	}
	d := &Decoder{s: newScanner(src)}
	if ahead {
		d.s = newScannerAhead(src)
	}
	if err := d.s.expect('['); err != nil {
		return nil, d.fail(-1, err)
	}
	if err := d.readHeader(); err != nil {
		return nil, d.fail(0, err)
	}
	if c := d.hdr.Config(); int64(c.Width)*int64(c.Height)*int64(c.MaxTurn) > MaxCellRounds {
		return nil, d.fail(0, limitErr("%dx%d cells for max_turn %d exceeds the limit of %d cell-rounds; see docs/limits.md", c.Width, c.Height, c.MaxTurn, MaxCellRounds))
	}
	return d, nil
}

// Header returns what element 0 carries besides frame 0: info, chat and
// error as raw JSON, the map size and element 0's users with their cells.
// The returned slices are shared with the Decoder and must not be modified.
func (d *Decoder) Header() Header { return d.hdr }

// Next fills f with the next frame, reusing f's storage: frame 0 on the
// first call, then 1, 2, ... Every frame is complete (all cells, all users);
// f.Turn is the frame index. After the last frame Next checks that nothing
// but whitespace follows the array (and, for gzip input, that the stream
// ends cleanly) and returns io.EOF. Any other error is a *FormatError
// (or ErrClosed after Close).
// f is modified only when Next returns nil. After an error or io.EOF every
// further call returns the same error.
func (d *Decoder) Next(f *colorfight2.Frame) error {
	if d.err != nil {
		return d.err
	}
	if d.frame > 0 {
		more, err := d.s.sep(']')
		if err != nil {
			return d.fail(d.frame, err)
		}
		if !more {
			if err := d.trailing(); err != nil {
				return d.fail(-1, at(err, "after the array"))
			}
			d.err = io.EOF
			return io.EOF
		}
		if int64(d.frame)*int64(d.hdr.Width)*int64(d.hdr.Height) > MaxCellRounds {
			return d.fail(d.frame, limitErr("%d rounds of %dx%d cells exceed the limit of %d cell-rounds; see docs/limits.md", d.frame, d.hdr.Width, d.hdr.Height, MaxCellRounds))
		}
		if err := d.readFrame(d.frame); err != nil {
			return d.fail(d.frame, err)
		}
		d.prev.Turn = d.frame
	}
	f.CopyFrom(&d.prev)
	d.frame++
	return nil
}

// Close stops the Decoder early: it waits for the background read of r in
// flight, if any, and reads nothing more, so that r may be used again (or
// closed) at once. Next then returns ErrClosed (or the error or io.EOF it
// already returned). Close does not close r; it always returns nil and may
// be called more than once. Reading to io.EOF or to an error needs no
// Close.
func (d *Decoder) Close() error {
	d.s.stop()
	if d.err == nil {
		d.err = ErrClosed
	}
	return nil
}

// fail records err as the sticky *FormatError.
func (d *Decoder) fail(frame int, err error) error {
	where, cause := splitLoc(err)
	fe := &FormatError{Frame: frame, Where: where, Offset: d.s.offset(), Err: cause}
	d.err = fe
	d.s.stop()
	return fe
}

// trailing checks that only whitespace follows the array.
func (d *Decoder) trailing() error {
	c, err := d.s.peek()
	if err == nil {
		return syntaxErr("unexpected %s after the array", quoteByte(c))
	}
	if d.s.err == io.EOF {
		return nil
	}
	return err
}

var fieldWhere = [NumFields + 1]string{
	"field 0", "field 1", "field 2", "field 3", "field 4",
	"field 5", "field 6", "field 7", "field 8", "field 9", "field 10",
}

func cellWhere(x, y int) string {
	return "cell (" + strconv.Itoa(x) + "," + strconv.Itoa(y) + ")"
}

// key reads an object key and the colon after it. Keys may be as long as
// any raw value (MaxRawBytes): an unknown key of any length is skipped.
func (d *Decoder) key() ([]byte, error) {
	k, err := d.s.string(MaxRawBytes)
	if err != nil {
		return nil, err
	}
	if err := d.s.expect(':'); err != nil {
		return nil, err
	}
	return k, nil
}

// skipUnknown skips the value of the unknown key k (whose colon has been
// read), under the raw-value bounds.
func (d *Decoder) skipUnknown(k []byte) error {
	if err := d.s.skip(); err != nil {
		return at(err, keyWhere(k))
	}
	return nil
}

// keyWhere names an unknown key in an error location (cut to 64 bytes).
func keyWhere(k []byte) string {
	if len(k) > 64 {
		return strconv.Quote(string(k[:64])) + "..."
	}
	return strconv.Quote(string(k))
}

// readHeader reads element 0.
func (d *Decoder) readHeader() error {
	s := d.s
	empty, err := s.open('{', '}')
	if err != nil {
		return err
	}
	if empty {
		return invalidErr("missing key \"turn\"")
	}
	var seen [6]bool
	names := [6]string{"turn", "info", "chat", "error", "game_map", "users"}
	var cells [][][2]int64
	var hasCells []bool
	for {
		k, err := d.key()
		if err != nil {
			return err
		}
		idx := -1
		for i, n := range names {
			if string(k) == n {
				idx = i
			}
		}
		if idx < 0 {
			if err := d.skipUnknown(k); err != nil {
				return err
			}
		} else if seen[idx] {
			return invalidErr("duplicate key %q", k)
		} else {
			seen[idx] = true
		}
		switch idx {
		case 0:
			v, err := s.int()
			if err != nil {
				return at(err, "turn")
			}
			if v != 0 {
				return at(invalidErr("turn is %d, want 0", v), "turn")
			}
		case 1:
			d.hdr.Info, err = s.raw()
		case 2:
			d.hdr.Chat, err = s.raw()
		case 3:
			d.hdr.Error, err = s.raw()
		case 4:
			err = d.readMap0()
		case 5:
			cells, hasCells, err = d.readUsers(true)
		}
		if err != nil {
			return at(err, names[idx])
		}
		more, err := s.sep('}')
		if err != nil {
			return err
		}
		if !more {
			break
		}
	}
	for i, ok := range seen {
		if !ok {
			return invalidErr("missing key %q", names[i])
		}
	}
	d.prev.Turn = 0
	w, h := d.hdr.Width, d.hdr.Height
	d.hdr.Users = make([]HeaderUser, len(d.prev.Users))
	for i := range d.prev.Users {
		u := &d.hdr.Users[i]
		u.FrameUser = d.prev.Users[i]
		u.BuildingOrder = append([]colorfight2.Building(nil), d.prev.Users[i].BuildingOrder...)
		if hasCells[i] {
			u.Cells = cells[i]
			if u.Cells == nil {
				u.Cells = [][2]int64{}
			}
			for _, p := range u.Cells {
				if p[0] < 0 || p[0] >= int64(w) || p[1] < 0 || p[1] >= int64(h) {
					return at(invalidErr("cell [%d,%d] is off the %dx%d map", p[0], p[1], w, h),
						"users: "+strconv.Quote(strconv.FormatInt(u.UID, 10))+": cells")
				}
			}
		}
	}
	return nil
}

// readMap0 reads element 0's game_map (data and headers, in any order).
func (d *Decoder) readMap0() error {
	s := d.s
	empty, err := s.open('{', '}')
	if err != nil {
		return err
	}
	if empty {
		return invalidErr("missing key \"data\"")
	}
	var haveData, haveHeaders bool
	for {
		k, err := d.key()
		if err != nil {
			return err
		}
		switch string(k) {
		case "data":
			if haveData {
				return invalidErr("duplicate key %q", k)
			}
			haveData = true
			if err := d.readData0(); err != nil {
				return err
			}
		case "headers":
			if haveHeaders {
				return invalidErr("duplicate key %q", k)
			}
			haveHeaders = true
			if err := d.readHeaders(); err != nil {
				return at(err, "headers")
			}
		default:
			if err := d.skipUnknown(k); err != nil {
				return err
			}
		}
		more, err := s.sep('}')
		if err != nil {
			return err
		}
		if !more {
			break
		}
	}
	if !haveData {
		return invalidErr("missing key \"data\"")
	}
	if !haveHeaders {
		return invalidErr("missing key \"headers\"")
	}
	return nil
}

// readHeaders checks the headers list.
func (d *Decoder) readHeaders() error {
	s := d.s
	if err := s.expect('['); err != nil {
		return err
	}
	for i := 0; ; i++ {
		if i >= NumFields {
			return invalidErr("more than %d headers", NumFields)
		}
		b, err := s.string(64)
		if err != nil {
			return err
		}
		if string(b) != Headers[i] {
			return invalidErr("header %d is %q, want %q", i, b, Headers[i])
		}
		more, err := s.sep(']')
		if err != nil {
			return err
		}
		if !more {
			if i+1 != NumFields {
				return invalidErr("%d headers, want %d", i+1, NumFields)
			}
			return nil
		}
	}
}

// readData0 reads element 0's data: full cells, size taken from it.
func (d *Decoder) readData0() error {
	s := d.s
	empty, err := s.open('[', ']')
	if err != nil {
		return err
	}
	if empty {
		return limitErr("map height 0 is outside %d..%d", MinSize, MaxSize)
	}
	cells := d.prev.Cells[:0]
	w := -1
	y := 0
	for ; ; y++ {
		if y >= MaxSize {
			return limitErr("map has more than %d rows", MaxSize)
		}
		empty, err := s.open('[', ']')
		if err != nil {
			return at(err, "row "+strconv.Itoa(y))
		}
		if empty {
			return at(limitErr("row has no cells"), "row "+strconv.Itoa(y))
		}
		for x := 0; ; x++ {
			if w < 0 && x >= MaxSize {
				return at(limitErr("map has more than %d columns", MaxSize), "row "+strconv.Itoa(y))
			}
			if w >= 0 && x >= w {
				return at(invalidErr("row has more than %d cells", w), "row "+strconv.Itoa(y))
			}
			cells = append(cells, colorfight2.FrameCell{})
			if k := fastCell(s.buf[s.r:s.n], &cells[len(cells)-1], x, y, true); k > 0 {
				s.r += k
			} else if err := d.readCell(&cells[len(cells)-1], x, y, true); err != nil {
				return at(err, cellWhere(x, y))
			}
			more, err := s.sep(']')
			if err != nil {
				return at(err, cellWhere(x, y))
			}
			if !more {
				if w < 0 {
					w = x + 1
				} else if x+1 != w {
					return at(invalidErr("row has %d cells, want %d", x+1, w), "row "+strconv.Itoa(y))
				}
				break
			}
		}
		more, err := s.sep(']')
		if err != nil {
			return at(err, "row "+strconv.Itoa(y))
		}
		if !more {
			break
		}
	}
	d.prev.Cells = cells
	d.prev.Width, d.prev.Height = w, y+1
	d.hdr.Width, d.hdr.Height = w, y+1
	return nil
}

// readFrame reads element i >= 1 into d.prev.
func (d *Decoder) readFrame(i int) error {
	s := d.s
	empty, err := s.open('{', '}')
	if err != nil {
		return err
	}
	if empty {
		return invalidErr("missing key \"turn\"")
	}
	var seenTurn, seenUsers, seenMap bool
	for {
		k, err := d.key()
		if err != nil {
			return err
		}
		switch string(k) {
		case "turn":
			if seenTurn {
				return invalidErr("duplicate key %q", k)
			}
			seenTurn = true
			v, err := s.int()
			if err != nil {
				return at(err, "turn")
			}
			if v != int64(i) {
				return at(invalidErr("turn is %d, want %d", v, i), "turn")
			}
		case "users":
			if seenUsers {
				return invalidErr("duplicate key %q", k)
			}
			seenUsers = true
			if _, _, err := d.readUsers(false); err != nil {
				return at(err, "users")
			}
		case "game_map":
			if seenMap {
				return invalidErr("duplicate key %q", k)
			}
			seenMap = true
			if err := d.readMapN(); err != nil {
				return err
			}
		default:
			if err := d.skipUnknown(k); err != nil {
				return err
			}
		}
		more, err := s.sep('}')
		if err != nil {
			return err
		}
		if !more {
			break
		}
	}
	switch {
	case !seenTurn:
		return invalidErr("missing key \"turn\"")
	case !seenUsers:
		return invalidErr("missing key \"users\"")
	case !seenMap:
		return invalidErr("missing key \"game_map\"")
	}
	return nil
}

// readMapN reads the game_map of element i >= 1 ("data", optionally
// "headers").
func (d *Decoder) readMapN() error {
	s := d.s
	empty, err := s.open('{', '}')
	if err != nil {
		return at(err, "game_map")
	}
	if empty {
		return at(invalidErr("missing key \"data\""), "game_map")
	}
	var haveData, haveHeaders bool
	for {
		k, err := d.key()
		if err != nil {
			return at(err, "game_map")
		}
		switch string(k) {
		case "data":
			if haveData {
				return at(invalidErr("duplicate key %q", k), "game_map")
			}
			haveData = true
			if err := d.readDataN(); err != nil {
				return err
			}
		case "headers":
			if haveHeaders {
				return at(invalidErr("duplicate key %q", k), "game_map")
			}
			haveHeaders = true
			if err := d.readHeaders(); err != nil {
				return at(at(err, "headers"), "game_map")
			}
		default:
			if err := d.skipUnknown(k); err != nil {
				return at(err, "game_map")
			}
		}
		more, err := s.sep('}')
		if err != nil {
			return at(err, "game_map")
		}
		if !more {
			break
		}
	}
	if !haveData {
		return at(invalidErr("missing key \"data\""), "game_map")
	}
	return nil
}

// readDataN applies the cell prefixes of an element i >= 1 to d.prev.
func (d *Decoder) readDataN() error {
	s := d.s
	w, h := d.prev.Width, d.prev.Height
	cells := d.prev.Cells
	if err := s.expect('['); err != nil {
		return at(err, "game_map: data")
	}
	for y := 0; y < h; y++ {
		if y > 0 {
			more, err := s.sep(']')
			if err != nil {
				return at(err, "game_map: data")
			}
			if !more {
				return at(invalidErr("data has %d rows, want %d", y, h), "game_map: data")
			}
		}
		if err := s.expect('['); err != nil {
			return at(err, "game_map: data: row "+strconv.Itoa(y))
		}
		row := cells[y*w : y*w+w]
		// Fast path over the buffer for the cells written the official
		// way; the general path below takes over at the first other one.
		x := 0
		for b, i := s.buf[s.r:s.n], 0; ; {
			j := i
			if x > 0 {
				if j >= len(b) || b[j] != ',' {
					break
				}
				j++
			}
			if j+1 < len(b) && b[j] == '[' && b[j+1] == ']' {
				j += 2 // unchanged cell
			} else if k := fastCell(b[j:], &row[x], x, y, false); k > 0 {
				j += k
			} else {
				break
			}
			s.r += j - i
			i = j
			if x++; x == w {
				break
			}
		}
		for ; x < w; x++ {
			if x > 0 {
				more, err := s.sep(']')
				if err != nil {
					return at(err, cellWhere(x-1, y))
				}
				if !more {
					return at(invalidErr("row has %d cells, want %d", x, w), "row "+strconv.Itoa(y))
				}
			}
			if err := d.readCell(&row[x], x, y, false); err != nil {
				return at(err, cellWhere(x, y))
			}
		}
		c, err := s.next()
		if err != nil {
			return at(err, cellWhere(w-1, y))
		}
		if c != ']' {
			if c == ',' {
				return at(invalidErr("row has more than %d cells", w), "row "+strconv.Itoa(y))
			}
			return at(syntaxErr("expected ']', found %s", quoteByte(c)), "row "+strconv.Itoa(y))
		}
	}
	c, err := s.next()
	if err != nil {
		return at(err, "game_map: data")
	}
	if c != ']' {
		if c == ',' {
			return at(invalidErr("data has more than %d rows", h), "game_map: data")
		}
		return at(syntaxErr("expected ']', found %s", quoteByte(c)), "game_map: data")
	}
	return nil
}

// readCell reads one cell array at (x, y) over c: a full array when full,
// otherwise any prefix of it (including []).
func (d *Decoder) readCell(c *colorfight2.FrameCell, x, y int, full bool) error {
	s := d.s
	empty, err := s.open('[', ']')
	if err != nil {
		return err
	}
	if empty {
		if full {
			return invalidErr("cell has 0 fields, want %d", NumFields)
		}
		return nil
	}
	for i := 0; ; i++ {
		if i >= NumFields {
			return limitErr("cell has more than %d fields", NumFields)
		}
		var err error
		switch i {
		case 0:
			c.AttackCost, err = s.int()
		case 1:
			c.ForceField, err = s.int()
		case 2:
			err = d.readBuilding(c)
		case 3:
			c.Gold, err = s.int()
		case 4:
			c.Energy, err = s.int()
		case 5:
			c.Owner, err = s.int()
			if err == nil && c.Owner < 0 {
				err = invalidErr("negative owner %d", c.Owner)
			}
		case 6:
			err = d.readPosition(c, x, y)
		case 7:
			c.NaturalGold, err = s.int()
		case 8:
			c.NaturalEnergy, err = s.int()
		case 9:
			c.NaturalCost, err = s.int()
		}
		if err != nil {
			return at(err, fieldWhere[i])
		}
		more, err := s.sep(']')
		if err != nil {
			return at(err, fieldWhere[i+1])
		}
		if !more {
			if full && i+1 != NumFields {
				return invalidErr("cell has %d fields, want %d", i+1, NumFields)
			}
			return nil
		}
	}
}

// fastCell parses the cell array at the start of b when it is written the
// way the official server writes it (compact, every value well within
// range and valid for the cell at (x, y)), stores its fields in c and
// returns the number of bytes it took. It returns 0, having perhaps stored
// some leading fields, for anything else (whitespace, a value it does not
// vouch for, b ending before the cell does): readCell then reads the cell
// from the same place and stores the same values, or reports the problem.
func fastCell(b []byte, c *colorfight2.FrameCell, x, y int, full bool) int {
	if len(b) < 2 || b[0] != '[' {
		return 0
	}
	if b[1] == ']' {
		if full {
			return 0
		}
		return 2
	}
	i := 1
	for f := 0; f < NumFields; f++ {
		switch f {
		case 2: // ["L",level]
			if i+7 >= len(b) || b[i] != '[' || b[i+1] != '"' || b[i+3] != '"' || b[i+4] != ',' || b[i+6] != ']' {
				return 0
			}
			kind, ok := colorfight2.BuildingFromLetter(b[i+2])
			lvl := int64(b[i+5]) - '0'
			if !ok || lvl < 1 || lvl > 3 || (kind == colorfight2.BuildingNone && lvl != 1) {
				return 0
			}
			c.Building, c.Level = kind, lvl
			i += 7
		case 6: // [x,y]
			if i >= len(b) || b[i] != '[' {
				return 0
			}
			px, j := fastInt(b, i+1)
			if j == 0 || b[j] != ',' || px != int64(x) {
				return 0
			}
			py, k := fastInt(b, j+1)
			if k == 0 || b[k] != ']' || py != int64(y) {
				return 0
			}
			c.X, c.Y = px, py
			i = k + 1
		default:
			v, j := fastInt(b, i)
			if j == 0 {
				return 0
			}
			switch f {
			case 0:
				c.AttackCost = v
			case 1:
				c.ForceField = v
			case 3:
				c.Gold = v
			case 4:
				c.Energy = v
			case 5:
				if v < 0 {
					return 0
				}
				c.Owner = v
			case 7:
				c.NaturalGold = v
			case 8:
				c.NaturalEnergy = v
			case 9:
				c.NaturalCost = v
			}
			i = j
		}
		if i >= len(b) {
			return 0
		}
		switch b[i] {
		case ']':
			if full && f != NumFields-1 {
				return 0
			}
			return i + 1
		case ',':
			if f == NumFields-1 {
				return 0
			}
			i++
		default:
			return 0
		}
	}
	return 0
}

// fastInt parses the integer at b[i:] when it is plain (optional minus, 1
// to 18 digits, no leading zero) and followed by another byte of b; it
// returns the value and the index after it, or 0, 0.
func fastInt(b []byte, i int) (int64, int) {
	at := i
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	if i >= 0 && i+8 <= len(b) {
		// Up to 7 digits, 8 bytes at a time: m has a non-zero byte at each
		// byte of x that is not a digit ('0'..'9').
		x := binary.LittleEndian.Uint64(b[i:])
		const hi, zeros, six = 0xF0F0F0F0F0F0F0F0, 0x3030303030303030, 0x0606060606060606
		if m := (x&hi ^ zeros) | ((x+six)&hi ^ zeros); m != 0 {
			n := bits.TrailingZeros64(m) >> 3
			if n == 0 || (n > 1 && b[i] == '0') {
				return 0, 0
			}
			// The n digits, most significant first, as the last n bytes of
			// an 8-digit number with leading zeros; then pairs, quads, all.
			d := (x << (64 - 8*uint(n))) & 0x0F0F0F0F0F0F0F0F
			d = (d*10 + d>>8) & 0x00FF00FF00FF00FF
			d = (d*100 + d>>16) & 0x0000FFFF0000FFFF
			d = (d*10000 + d>>32) & 0xFFFFFFFF
			v := int64(d)
			if neg {
				v = -v
			}
			return v, i + n
		}
	}
	return plainInt(b, at)
}

// plainInt is fastInt one byte at a time: its fallback near the end of
// b and for numbers of 8 digits or more, and the reference its test
// compares it with.
func plainInt(b []byte, i int) (int64, int) {
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	start := i
	var v int64
	for ; i < len(b); i++ {
		d := b[i] - '0'
		if d > 9 {
			break
		}
		v = v*10 + int64(d)
	}
	n := i - start
	if n == 0 || n > 18 || i >= len(b) || (n > 1 && b[start] == '0') {
		return 0, 0
	}
	if neg {
		v = -v
	}
	return v, i
}

// readBuilding reads [letter, level].
func (d *Decoder) readBuilding(c *colorfight2.FrameCell) error {
	s := d.s
	if err := s.expect('['); err != nil {
		return err
	}
	b, err := s.string(8)
	if err != nil {
		return err
	}
	if len(b) != 1 {
		return invalidErr("building letter %q is not one of \" hgef\"", b)
	}
	kind, ok := colorfight2.BuildingFromLetter(b[0])
	if !ok {
		return invalidErr("building letter %q is not one of \" hgef\"", b)
	}
	if err := s.expect(','); err != nil {
		return err
	}
	lvl, err := s.int()
	if err != nil {
		return err
	}
	if lvl < 1 || lvl > 3 {
		return invalidErr("building level %d is outside 1..3", lvl)
	}
	if kind == colorfight2.BuildingNone && lvl != 1 {
		return invalidErr("building level %d for an empty cell, want 1", lvl)
	}
	if err := s.expect(']'); err != nil {
		return err
	}
	c.Building, c.Level = kind, lvl
	return nil
}

// readPosition reads [x, y] and checks it is the cell's place.
func (d *Decoder) readPosition(c *colorfight2.FrameCell, x, y int) error {
	s := d.s
	if err := s.expect('['); err != nil {
		return err
	}
	px, err := s.int()
	if err != nil {
		return err
	}
	if err := s.expect(','); err != nil {
		return err
	}
	py, err := s.int()
	if err != nil {
		return err
	}
	if err := s.expect(']'); err != nil {
		return err
	}
	if px != int64(x) || py != int64(y) {
		return invalidErr("position [%d,%d] is not the cell's place [%d,%d]", px, py, x, y)
	}
	c.X, c.Y = px, py
	return nil
}

// parseUID parses a users key: a decimal uid in 1..MaxUID, no sign, no
// leading zero.
func parseUID(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 10 || b[0] == '0' {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, v <= MaxUID
}

// readUsers reads a users object into d.prev.Users, in file order (any uid
// order; a uid twice is an error). With elem0 it also accepts and returns
// each user's "cells".
func (d *Decoder) readUsers(elem0 bool) (cells [][][2]int64, hasCells []bool, err error) {
	s := d.s
	users := d.prev.Users[:0]
	defer func() { d.prev.Users = users }()
	empty, err := s.open('{', '}')
	if err != nil || empty {
		return nil, nil, err
	}
	for {
		if len(users) >= MaxUsers {
			return nil, nil, limitErr("more than %d users", MaxUsers)
		}
		kb, err := s.string(16)
		if err != nil {
			return nil, nil, err
		}
		uid, ok := parseUID(kb)
		if !ok {
			return nil, nil, invalidErr("user key %q is not a uid in 1..%d", kb, MaxUID)
		}
		where := func() string { return strconv.Quote(strconv.FormatInt(uid, 10)) }
		if err := s.expect(':'); err != nil {
			return nil, nil, at(err, where())
		}
		if len(users) < cap(users) {
			users = users[:len(users)+1]
		} else {
			users = append(users, colorfight2.FrameUser{})
		}
		u := &users[len(users)-1]
		var uc [][2]int64
		var has, fast bool
		if !elem0 {
			if k := fastUser(s.buf[s.r:s.n], u); k > 0 {
				s.r += k
				fast = true
			}
		}
		if !fast {
			uc, has, err = d.readUser(u, elem0)
			if err != nil {
				return nil, nil, at(err, where())
			}
		}
		if u.UID != uid {
			return nil, nil, at(invalidErr("uid %d under key %s", u.UID, where()), where())
		}
		for j := range users[:len(users)-1] {
			if users[j].UID == uid {
				return nil, nil, at(invalidErr("duplicate user key %s", where()), where())
			}
		}
		if elem0 {
			cells = append(cells, uc)
			hasCells = append(hasCells, has)
		}
		more, err := s.sep('}')
		if err != nil {
			return nil, nil, at(err, where())
		}
		if !more {
			return cells, hasCells, nil
		}
	}
}

// User object keys, in the official order; "cells" only in element 0.
var userKeys = [...]string{
	"uid", "username", "verified", "ranking", "energy", "gold", "dead",
	"energy_source", "gold_source", "tech_level", "tax_level", "tax_amount",
	"building_number", "cell_number", "cells",
}

const numUserKeys = len(userKeys) - 1 // required keys (all but cells)

// userKeyTokens are the required user keys as written, with their colon.
var userKeyTokens = func() (t [numUserKeys]string) {
	for i := range t {
		t[i] = `"` + userKeys[i] + `":`
	}
	return t
}()

func userKeyIndex(k []byte) int {
	switch string(k) {
	case "uid":
		return 0
	case "username":
		return 1
	case "verified":
		return 2
	case "ranking":
		return 3
	case "energy":
		return 4
	case "gold":
		return 5
	case "dead":
		return 6
	case "energy_source":
		return 7
	case "gold_source":
		return 8
	case "tech_level":
		return 9
	case "tax_level":
		return 10
	case "tax_amount":
		return 11
	case "building_number":
		return 12
	case "cell_number":
		return 13
	case "cells":
		return 14
	}
	return -1
}

// readUser reads one user object over u (whose old Username is reused
// when unchanged).
func (d *Decoder) readUser(u *colorfight2.FrameUser, elem0 bool) (cells [][2]int64, hasCells bool, err error) {
	s := d.s
	empty, err := s.open('{', '}')
	if err != nil {
		return nil, false, err
	}
	if empty {
		return nil, false, invalidErr("missing key \"uid\"")
	}
	u.Buildings = [colorfight2.NumBuildings]int64{}
	u.BuildingOrder = u.BuildingOrder[:0]
	var seen uint32
	next := 0 // the key that comes next in the official order
	for {
		idx := -1
		if next < numUserKeys {
			// Fast path: the expected key and its colon, written compactly.
			if tok := userKeyTokens[next]; s.n-s.r >= len(tok) && string(s.buf[s.r:s.r+len(tok)]) == tok {
				s.r += len(tok)
				idx = next
			}
		}
		if idx < 0 {
			kb, err := s.string(MaxRawBytes)
			if err != nil {
				return nil, false, err
			}
			idx = userKeyIndex(kb)
			if idx < 0 || (idx == 14 && !elem0) {
				// Unknown keys (and "cells" after element 0) are skipped.
				if err := s.expect(':'); err != nil {
					return nil, false, at(err, keyWhere(kb))
				}
				if err := d.skipUnknown(kb); err != nil {
					return nil, false, err
				}
				more, err := s.sep('}')
				if err != nil {
					return nil, false, err
				}
				if !more {
					break
				}
				continue
			}
			if seen&(1<<idx) != 0 {
				return nil, false, invalidErr("duplicate key %q", userKeys[idx])
			}
			if err := s.expect(':'); err != nil {
				return nil, false, at(err, userKeys[idx])
			}
		} else if seen&(1<<idx) != 0 {
			return nil, false, invalidErr("duplicate key %q", userKeys[idx])
		}
		seen |= 1 << idx
		next = idx + 1
		name := userKeys[idx]
		switch idx {
		case 0:
			u.UID, err = s.int()
			if err == nil && (u.UID < 1 || u.UID > MaxUID) {
				err = invalidErr("uid %d is outside 1..%d", u.UID, MaxUID)
			}
		case 1:
			var b []byte
			b, err = s.string(MaxUsernameBytes)
			if err == nil && string(b) != u.Username {
				u.Username = string(b)
			}
		case 2:
			u.Verified, err = s.bool()
		case 3:
			var b []byte
			b, err = s.number(MaxRankingBytes)
			if err == nil {
				if len(b) == 1 && b[0] == '0' {
					u.Ranking = ""
				} else if string(b) != u.Ranking {
					u.Ranking = string(b)
				}
			}
		case 4:
			u.Energy, err = s.int()
		case 5:
			u.Gold, err = s.int()
		case 6:
			u.Dead, err = s.bool()
		case 7:
			u.EnergySource, err = s.int()
		case 8:
			u.GoldSource, err = s.int()
		case 9:
			u.TechLevel, err = s.int()
		case 10:
			u.TaxLevel, err = s.int()
		case 11:
			u.TaxAmount, err = s.int()
		case 12:
			err = d.readBuildingNumber(u)
		case 13:
			u.CellNumber, err = s.int()
		case 14:
			cells, err = d.readCellList()
			hasCells = true
		}
		if err != nil {
			return nil, false, at(err, name)
		}
		more, err := s.sep('}')
		if err != nil {
			return nil, false, err
		}
		if !more {
			break
		}
	}
	for i := 0; i < numUserKeys; i++ {
		if seen&(1<<i) == 0 {
			return nil, false, invalidErr("missing key %q", userKeys[i])
		}
	}
	return cells, hasCells, nil
}

// cursor walks a byte slice for the fast paths.
type cursor struct {
	b []byte
	i int
}

// lit consumes t if the bytes at the cursor are t.
func (c *cursor) lit(t string) bool {
	if len(c.b)-c.i >= len(t) && string(c.b[c.i:c.i+len(t)]) == t {
		c.i += len(t)
		return true
	}
	return false
}

// int consumes a plain integer (see fastInt).
func (c *cursor) int(v *int64) bool {
	x, j := fastInt(c.b, c.i)
	if j == 0 {
		return false
	}
	*v, c.i = x, j
	return true
}

// bool consumes true or false.
func (c *cursor) bool(v *bool) bool {
	if c.lit("false") {
		*v = false
		return true
	}
	if c.lit("true") {
		*v = true
		return true
	}
	return false
}

// fastUser parses the user object at the start of b when it is written the
// way the official server writes a user after element 0 (compact, keys in
// the official order, a plain ASCII username, every value valid) into u
// and returns its length. It returns 0, having perhaps stored some fields,
// for anything else: readUser then reads the object from the same place
// and stores the same values, or reports the problem.
func fastUser(b []byte, u *colorfight2.FrameUser) int {
	c := cursor{b: b}
	u.Buildings = [colorfight2.NumBuildings]int64{}
	u.BuildingOrder = u.BuildingOrder[:0]
	if !c.lit(`{"uid":`) || !c.int(&u.UID) || u.UID < 1 || u.UID > MaxUID || !c.lit(`,"username":"`) {
		return 0
	}
	start := c.i
	for ; c.i < len(b) && b[c.i] != '"'; c.i++ {
		if ch := b[c.i]; ch < 0x20 || ch >= 0x7f || ch == '\\' || c.i-start >= MaxUsernameBytes {
			return 0
		}
	}
	if c.i >= len(b) {
		return 0
	}
	if name := b[start:c.i]; string(name) != u.Username {
		u.Username = string(name)
	}
	c.i++
	if !c.lit(`,"verified":`) || !c.bool(&u.Verified) || !c.lit(`,"ranking":`) {
		return 0
	}
	start = c.i
	for ; c.i < len(b) && c.i-start <= MaxRankingBytes; c.i++ {
		if ch := b[c.i]; (ch < '0' || ch > '9') && ch != '-' && ch != '+' && ch != '.' && ch != 'e' && ch != 'E' {
			break
		}
	}
	r := b[start:c.i]
	if len(r) > MaxRankingBytes || !validNumber(r) {
		return 0
	}
	if len(r) == 1 && r[0] == '0' {
		u.Ranking = ""
	} else if string(r) != u.Ranking {
		u.Ranking = string(r)
	}
	if !c.lit(`,"energy":`) || !c.int(&u.Energy) ||
		!c.lit(`,"gold":`) || !c.int(&u.Gold) ||
		!c.lit(`,"dead":`) || !c.bool(&u.Dead) ||
		!c.lit(`,"energy_source":`) || !c.int(&u.EnergySource) ||
		!c.lit(`,"gold_source":`) || !c.int(&u.GoldSource) ||
		!c.lit(`,"tech_level":`) || !c.int(&u.TechLevel) ||
		!c.lit(`,"tax_level":`) || !c.int(&u.TaxLevel) ||
		!c.lit(`,"tax_amount":`) || !c.int(&u.TaxAmount) ||
		!c.lit(`,"building_number":{`) {
		return 0
	}
	if !c.lit("}") {
		for {
			var bt colorfight2.Building
			switch {
			case c.lit(`"home":`):
				bt = colorfight2.Home
			case c.lit(`"gold_mine":`):
				bt = colorfight2.GoldMine
			case c.lit(`"energy_well":`):
				bt = colorfight2.EnergyWell
			case c.lit(`"fortress":`):
				bt = colorfight2.Fortress
			default:
				return 0
			}
			if u.Buildings[bt] != 0 || !c.int(&u.Buildings[bt]) || u.Buildings[bt] < 0 {
				return 0
			}
			for _, o := range u.BuildingOrder {
				if o == bt {
					return 0
				}
			}
			u.BuildingOrder = append(u.BuildingOrder, bt)
			if c.lit("}") {
				break
			}
			if !c.lit(",") {
				return 0
			}
		}
	}
	if !c.lit(`,"cell_number":`) || !c.int(&u.CellNumber) || !c.lit("}") {
		return 0
	}
	return c.i
}

// readBuildingNumber reads the building_number object, keeping key order.
func (d *Decoder) readBuildingNumber(u *colorfight2.FrameUser) error {
	s := d.s
	empty, err := s.open('{', '}')
	if err != nil || empty {
		return err
	}
	for {
		kb, err := s.string(16)
		if err != nil {
			return err
		}
		var b colorfight2.Building
		switch string(kb) {
		case "home":
			b = colorfight2.Home
		case "gold_mine":
			b = colorfight2.GoldMine
		case "energy_well":
			b = colorfight2.EnergyWell
		case "fortress":
			b = colorfight2.Fortress
		default:
			return invalidErr("unknown building type %q", kb)
		}
		for _, o := range u.BuildingOrder {
			if o == b {
				return invalidErr("duplicate key %q", b.Key())
			}
		}
		if err := s.expect(':'); err != nil {
			return at(err, b.Key())
		}
		v, err := s.int()
		if err != nil {
			return at(err, b.Key())
		}
		if v < 0 {
			return at(invalidErr("negative count %d", v), b.Key())
		}
		u.Buildings[b] = v
		u.BuildingOrder = append(u.BuildingOrder, b)
		more, err := s.sep('}')
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
	}
}

// readCellList reads a "cells" list of [x, y] pairs.
func (d *Decoder) readCellList() ([][2]int64, error) {
	s := d.s
	out := [][2]int64{}
	empty, err := s.open('[', ']')
	if err != nil || empty {
		return out, err
	}
	for {
		if d.headerCells >= MaxHeaderCells {
			return nil, limitErr("more than %d cells in the users' cells lists", MaxHeaderCells)
		}
		d.headerCells++
		var p [2]int64
		if err := s.expect('['); err != nil {
			return nil, err
		}
		if p[0], err = s.int(); err != nil {
			return nil, err
		}
		if err := s.expect(','); err != nil {
			return nil, err
		}
		if p[1], err = s.int(); err != nil {
			return nil, err
		}
		if err := s.expect(']'); err != nil {
			return nil, err
		}
		out = append(out, p)
		more, err := s.sep(']')
		if err != nil {
			return nil, err
		}
		if !more {
			return out, nil
		}
	}
}
