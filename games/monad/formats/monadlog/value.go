package monadlog

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
)

// kind is the type of the next value.
type kind uint8

const (
	kindOther kind = iota
	kindMap
	kindArray
	kindInt
	kindFloat
	kindString
	kindBool
	kindNil
)

func (k kind) String() string {
	return [...]string{"another type", "an object", "a list", "an integer", "a float", "a string", "a boolean", "null"}[k]
}

// valueReader is a stream of JSON or msgpack values, read in order:
// peek at the next one, then read it (readMap and readArray call fn for
// each key or element, which must read exactly one value) or skip it.
type valueReader interface {
	peek() (kind, error)
	readMap(fn func(key string) error) error
	readArray(fn func(i int) error) error
	readInt() (int64, error)
	readString() (string, error)
	readBool() (bool, error)
	// skip skips one value of any kind, at most MaxDepth deep.
	skip() error
}

// unexpected turns a truncated input into io.ErrUnexpectedEOF.
func unexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// --- msgpack, through vmihailenco/msgpack's streaming Decoder.

type msgpackReader struct {
	d   *msgpack.Decoder
	buf []byte
}

func newMsgpackReader(r io.Reader) *msgpackReader {
	return &msgpackReader{d: msgpack.NewDecoder(bufio.NewReaderSize(r, 64<<10))}
}

func (m *msgpackReader) peek() (kind, error) {
	c, err := m.d.PeekCode()
	if err != nil {
		return kindOther, unexpected(err)
	}
	switch {
	case msgpcode.IsFixedMap(c) || c == msgpcode.Map16 || c == msgpcode.Map32:
		return kindMap, nil
	case msgpcode.IsFixedArray(c) || c == msgpcode.Array16 || c == msgpcode.Array32:
		return kindArray, nil
	case msgpcode.IsFixedNum(c) || c >= msgpcode.Uint8 && c <= msgpcode.Int64:
		return kindInt, nil
	case c == msgpcode.Float || c == msgpcode.Double:
		return kindFloat, nil
	case msgpcode.IsString(c) || msgpcode.IsBin(c):
		// Old msgpack-python (use_bin_type=False) wrote str as raw.
		return kindString, nil
	case c == msgpcode.True || c == msgpcode.False:
		return kindBool, nil
	case c == msgpcode.Nil:
		return kindNil, nil
	}
	return kindOther, nil
}

func (m *msgpackReader) readMap(fn func(key string) error) error {
	n, err := m.d.DecodeMapLen()
	if err != nil {
		return unexpected(err)
	}
	for i := 0; i < n; i++ {
		k, err := m.peek()
		if err != nil {
			return err
		}
		if k != kindString {
			return fmt.Errorf("a key is %s", k)
		}
		key, err := m.readString()
		if err != nil {
			return err
		}
		if err := fn(key); err != nil {
			return err
		}
	}
	return nil
}

func (m *msgpackReader) readArray(fn func(i int) error) error {
	n, err := m.d.DecodeArrayLen()
	if err != nil {
		return unexpected(err)
	}
	for i := 0; i < n; i++ {
		if err := fn(i); err != nil {
			return err
		}
	}
	return nil
}

func (m *msgpackReader) readInt() (int64, error) {
	c, err := m.d.PeekCode()
	if err != nil {
		return 0, unexpected(err)
	}
	if k, _ := m.peek(); k != kindInt {
		return 0, fmt.Errorf("%s, want an integer", k)
	}
	if c == msgpcode.Uint64 {
		v, err := m.d.DecodeUint64()
		if err != nil {
			return 0, unexpected(err)
		}
		if v > math.MaxInt64 {
			return 0, fmt.Errorf("integer %d out of range", v)
		}
		return int64(v), nil
	}
	v, err := m.d.DecodeInt64()
	return v, unexpected(err)
}

func (m *msgpackReader) readString() (string, error) {
	n, err := m.d.DecodeBytesLen()
	if err != nil {
		return "", unexpected(err)
	}
	if n < 0 || n > MaxString {
		return "", fmt.Errorf("a string of %d bytes (at most %d)", n, MaxString)
	}
	if cap(m.buf) < n {
		m.buf = make([]byte, n)
	}
	b := m.buf[:n]
	if err := m.d.ReadFull(b); err != nil {
		return "", unexpected(err)
	}
	return intern(b), nil
}

// intern returns b as a string, without allocating for the log's keys.
func intern(b []byte) string {
	switch string(b) {
	case "r":
		return "r"
	case "u":
		return "u"
	case "p":
		return "p"
	case "b":
		return "b"
	case "t":
		return "t"
	case "d":
		return "d"
	case "n":
		return "n"
	case "o":
		return "o"
	case "map":
		return "map"
	case "res":
		return "res"
	case "cmd":
		return "cmd"
	}
	return string(b)
}

func (m *msgpackReader) readBool() (bool, error) {
	v, err := m.d.DecodeBool()
	return v, unexpected(err)
}

func (m *msgpackReader) skip() error { return m.skipDepth(0) }

// skipDepth skips one value; msgpack.Decoder.Skip recurses without a
// bound, so containers are walked here.
func (m *msgpackReader) skipDepth(depth int) error {
	k, err := m.peek()
	if err != nil {
		return err
	}
	if k != kindMap && k != kindArray {
		return unexpected(m.d.Skip())
	}
	if depth >= MaxDepth {
		return fmt.Errorf("values nested more than %d deep", MaxDepth)
	}
	var n int
	if k == kindMap {
		n, err = m.d.DecodeMapLen()
		n *= 2
	} else {
		n, err = m.d.DecodeArrayLen()
	}
	if err != nil {
		return unexpected(err)
	}
	for i := 0; i < n; i++ {
		if err := m.skipDepth(depth + 1); err != nil {
			return err
		}
	}
	return nil
}

// --- JSON, scanned by hand (encoding/json's Decoder.Token allocates per
// token; a log has millions).

type jsonReader struct {
	r       *bufio.Reader
	scratch []byte
}

func newJSONReader(r io.Reader) *jsonReader {
	return &jsonReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next byte that is not white space, without consuming it.
func (j *jsonReader) next() (byte, error) {
	for {
		c, err := j.r.ReadByte()
		if err != nil {
			return 0, unexpected(err)
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		j.r.UnreadByte()
		return c, nil
	}
}

func (j *jsonReader) peek() (kind, error) {
	c, err := j.next()
	if err != nil {
		return kindOther, err
	}
	switch {
	case c == '{':
		return kindMap, nil
	case c == '[':
		return kindArray, nil
	case c == '"':
		return kindString, nil
	case c == 't' || c == 'f':
		return kindBool, nil
	case c == 'n':
		return kindNil, nil
	case c == '-' || c >= '0' && c <= '9':
		num, err := j.r.Peek(32)
		if len(num) == 0 {
			return kindOther, err
		}
		for i, b := range num {
			if i > 0 && (b == '.' || b == 'e' || b == 'E') {
				return kindFloat, nil
			}
			if b != '-' && (b < '0' || b > '9') {
				break
			}
		}
		return kindInt, nil
	case c == 'N' || c == 'I':
		return kindFloat, nil // Python's NaN, Infinity
	}
	return kindOther, fmt.Errorf("invalid JSON at %q", c)
}

func (j *jsonReader) expectByte(want byte) error {
	c, err := j.next()
	if err != nil {
		return err
	}
	if c != want {
		return fmt.Errorf("invalid JSON: %q where %q was expected", c, want)
	}
	j.r.ReadByte()
	return nil
}

// container walks an object or list: open, then items separated by
// commas, then close.
func (j *jsonReader) container(open, close byte, item func(i int) error) error {
	if err := j.expectByte(open); err != nil {
		return err
	}
	c, err := j.next()
	if err != nil {
		return err
	}
	if c == close {
		j.r.ReadByte()
		return nil
	}
	for i := 0; ; i++ {
		if err := item(i); err != nil {
			return err
		}
		c, err := j.next()
		if err != nil {
			return err
		}
		j.r.ReadByte()
		switch c {
		case close:
			return nil
		case ',':
		default:
			return fmt.Errorf("invalid JSON: %q after an item", c)
		}
	}
}

func (j *jsonReader) readMap(fn func(key string) error) error {
	return j.container('{', '}', func(int) error {
		key, err := j.readString()
		if err != nil {
			return err
		}
		if err := j.expectByte(':'); err != nil {
			return err
		}
		return fn(key)
	})
}

func (j *jsonReader) readArray(fn func(i int) error) error {
	return j.container('[', ']', fn)
}

func (j *jsonReader) readInt() (int64, error) {
	if k, err := j.peek(); err != nil || k != kindInt {
		if err == nil {
			err = fmt.Errorf("%s, want an integer", k)
		}
		return 0, err
	}
	j.scratch = j.scratch[:0]
	for {
		c, err := j.r.ReadByte()
		if err != nil {
			if err == io.EOF {
				break
			}
			return 0, err
		}
		if c != '-' && (c < '0' || c > '9') {
			j.r.UnreadByte()
			break
		}
		if len(j.scratch) > 24 {
			return 0, errors.New("integer out of range")
		}
		j.scratch = append(j.scratch, c)
	}
	v, err := strconv.ParseInt(string(j.scratch), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("integer %q: %w", j.scratch, err.(*strconv.NumError).Err)
	}
	return v, nil
}

func (j *jsonReader) readString() (string, error) {
	if err := j.expectByte('"'); err != nil {
		return "", err
	}
	j.scratch = append(j.scratch[:0], '"')
	escaped := false
	for {
		c, err := j.r.ReadByte()
		if err != nil {
			return "", unexpected(err)
		}
		if len(j.scratch) > 6*MaxString {
			return "", fmt.Errorf("a string longer than %d bytes", MaxString)
		}
		j.scratch = append(j.scratch, c)
		switch {
		case c == '\\':
			c2, err := j.r.ReadByte()
			if err != nil {
				return "", unexpected(err)
			}
			j.scratch = append(j.scratch, c2)
			escaped = true
			continue
		case c == '"':
		default:
			continue
		}
		break
	}
	if !escaped {
		s := j.scratch[1 : len(j.scratch)-1]
		if len(s) > MaxString {
			return "", fmt.Errorf("a string longer than %d bytes", MaxString)
		}
		return intern(s), nil
	}
	var s string
	if err := json.Unmarshal(j.scratch, &s); err != nil {
		return "", fmt.Errorf("invalid JSON string: %w", err)
	}
	if len(s) > MaxString {
		return "", fmt.Errorf("a string longer than %d bytes", MaxString)
	}
	return s, nil
}

func (j *jsonReader) readBool() (bool, error) {
	c, err := j.next()
	if err != nil {
		return false, err
	}
	if c == 't' {
		return true, j.literal("true")
	}
	return false, j.literal("false")
}

func (j *jsonReader) literal(want string) error {
	b, err := j.r.Peek(len(want))
	if err != nil || string(b) != want {
		return fmt.Errorf("invalid JSON: want %s", want)
	}
	j.r.Discard(len(want))
	return nil
}

func (j *jsonReader) skip() error { return j.skipDepth(0) }

func (j *jsonReader) skipDepth(depth int) error {
	k, err := j.peek()
	if err != nil {
		return err
	}
	if (k == kindMap || k == kindArray) && depth >= MaxDepth {
		return fmt.Errorf("values nested more than %d deep", MaxDepth)
	}
	switch k {
	case kindMap:
		return j.readMap(func(string) error { return j.skipDepth(depth + 1) })
	case kindArray:
		return j.readArray(func(int) error { return j.skipDepth(depth + 1) })
	case kindString:
		_, err := j.readString()
		return err
	case kindBool:
		_, err := j.readBool()
		return err
	case kindNil:
		return j.literal("null")
	case kindInt:
		_, err := j.readInt()
		return err
	case kindFloat:
		return j.skipNumber()
	}
	return errors.New("invalid JSON")
}

// skipNumber skips a number of any form (Python also writes NaN,
// Infinity and -Infinity).
func (j *jsonReader) skipNumber() error {
	n := 0
	for {
		c, err := j.r.ReadByte()
		if err != nil {
			if err == io.EOF && n > 0 {
				return nil
			}
			return unexpected(err)
		}
		switch {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E',
			c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			n++
			if n > 64 {
				return errors.New("invalid JSON number")
			}
			continue
		}
		j.r.UnreadByte()
		return nil
	}
}
