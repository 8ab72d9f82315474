package cfr

import (
	"errors"
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// scanner is a small pull JSON tokenizer over a reader, tailored to the .cfr
// format: it never keeps more than its fixed buffer (aheadBufs of them with
// read-ahead) and the token at hand.
type scanner struct {
	src   io.Reader
	ahead *readAhead // non-nil: src is read ahead in the background
	buf   []byte
	r, n  int   // read position and end of valid data in buf
	off   int64 // offset of buf[0] in the stream
	err   error // sticky error of src (io.EOF at the end)
	str   []byte
}

const scanBufSize = 64 << 10

func newScanner(src io.Reader) *scanner {
	return &scanner{src: src, buf: make([]byte, scanBufSize)}
}

// offset is the stream offset of the next unread byte.
func (s *scanner) offset() int64 { return s.off + int64(s.r) }

// fill reads more data after the buffer is exhausted; it reports whether
// any byte is available.
func (s *scanner) fill() bool {
	if s.r < s.n {
		return true
	}
	if s.err != nil {
		return false
	}
	s.off += int64(s.n)
	s.r, s.n = 0, 0
	if s.ahead != nil {
		c := s.ahead.next(s.buf)
		s.buf = nil
		if c.panicked {
			s.err = errPanicked
			panic(c.panicVal)
		}
		s.buf, s.n, s.err = c.buf, c.n, c.err
		return s.n > 0
	}
	for tries := 0; tries < 100; tries++ {
		m, err := s.src.Read(s.buf)
		if m < 0 || m > len(s.buf) {
			s.err = errInvalidCount
			return false
		}
		s.n = m
		if err != nil {
			s.err = err
		}
		if m > 0 {
			return true
		}
		if err != nil {
			return false
		}
	}
	s.err = io.ErrNoProgress
	return false
}

// eofErr is the error for running out of input in the middle of a value.
func (s *scanner) eofErr() error {
	if s.err == nil || s.err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return s.err
}

// peek skips whitespace and returns the next byte without consuming it.
func (s *scanner) peek() (byte, error) {
	for {
		for s.r < s.n {
			c := s.buf[s.r]
			if c > ' ' || (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
				return c, nil
			}
			s.r++
		}
		if !s.fill() {
			return 0, s.eofErr()
		}
	}
}

// next skips whitespace and consumes one byte.
func (s *scanner) next() (byte, error) {
	if s.r < s.n {
		if c := s.buf[s.r]; c > ' ' {
			s.r++
			return c, nil
		}
	}
	return s.nextSlow()
}

//go:noinline
func (s *scanner) nextSlow() (byte, error) {
	c, err := s.peek()
	if err == nil {
		s.r++
	}
	return c, err
}

func syntaxErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrSyntax}, args...)...)
}

func invalidErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

func limitErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrLimit}, args...)...)
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// expect consumes the byte want (after whitespace).
func (s *scanner) expect(want byte) error {
	c, err := s.next()
	if err != nil {
		return err
	}
	if c != want {
		return syntaxErr("expected %q, found %s", rune(want), quoteByte(c))
	}
	return nil
}

// sep consumes ',' (returning true) or the closing byte (returning false).
func (s *scanner) sep(close byte) (more bool, err error) {
	c, err := s.next()
	if err != nil {
		return false, err
	}
	switch c {
	case ',':
		return true, nil
	case close:
		return false, nil
	}
	return false, syntaxErr("expected ',' or %q, found %s", rune(close), quoteByte(c))
}

// open consumes the opening byte and reports whether the container is
// empty (in which case the closing byte is consumed too).
func (s *scanner) open(open, close byte) (empty bool, err error) {
	if err := s.expect(open); err != nil {
		return false, err
	}
	c, err := s.peek()
	if err != nil {
		return false, err
	}
	if c == close {
		s.r++
		return true, nil
	}
	return false, nil
}

// int reads a JSON number that must be an integer fitting in int64.
func (s *scanner) int() (int64, error) {
	// Fast path: a plain integer followed, inside the buffer, by a byte
	// that cannot continue a number.
	if v, j := fastInt(s.buf[:s.n], s.r); j > 0 {
		if c := s.buf[j]; c != '.' && c != 'e' && c != 'E' {
			s.r = j
			return v, nil
		}
	}
	return s.intSlow()
}

func (s *scanner) intSlow() (int64, error) {
	c, err := s.next()
	if err != nil {
		return 0, err
	}
	neg := false
	if c == '-' {
		neg = true
		if s.r >= s.n && !s.fill() {
			return 0, s.eofErr()
		}
		c = s.buf[s.r]
		s.r++
	}
	if c < '0' || c > '9' {
		if c == 't' || c == 'f' || c == 'n' || c == '"' || c == '[' || c == '{' {
			return 0, invalidErr("expected an integer, found %s", quoteByte(c))
		}
		return 0, syntaxErr("expected a number, found %s", quoteByte(c))
	}
	var v uint64 = uint64(c - '0')
	const limit = 1 << 63
	first := c
	for {
		if s.r >= s.n && !s.fill() {
			break // the number ends with the input; the caller's next read fails
		}
		c = s.buf[s.r]
		if c < '0' || c > '9' {
			break
		}
		if first == '0' {
			return 0, syntaxErr("number with a leading zero")
		}
		s.r++
		if v > (limit-uint64(c-'0'))/10 {
			return 0, invalidErr("integer out of range")
		}
		v = v*10 + uint64(c-'0')
	}
	if s.r < s.n {
		switch s.buf[s.r] {
		case '.', 'e', 'E':
			return 0, invalidErr("expected an integer, found a fraction or exponent")
		}
	}
	if neg {
		return -int64(v), nil // v <= 1<<63; -(1<<63) wraps to MinInt64 correctly
	}
	if v > limit-1 {
		return 0, invalidErr("integer out of range")
	}
	return int64(v), nil
}

// bool reads true or false.
func (s *scanner) bool() (bool, error) {
	c, err := s.peek()
	if err != nil {
		return false, err
	}
	var want string
	switch c {
	case 't':
		want = "true"
	case 'f':
		want = "false"
	default:
		if c == '"' || c == '-' || (c >= '0' && c <= '9') || c == '[' || c == '{' || c == 'n' {
			return false, invalidErr("expected a boolean, found %s", quoteByte(c))
		}
		return false, syntaxErr("expected a boolean, found %s", quoteByte(c))
	}
	if err := s.literal(want, nil); err != nil {
		return false, err
	}
	return c == 't', nil
}

// literal consumes the exact bytes of lit, adding them to rec if non-nil.
func (s *scanner) literal(lit string, rec *rawSink) error {
	for i := 0; i < len(lit); i++ {
		if s.r >= s.n && !s.fill() {
			return s.eofErr()
		}
		c := s.buf[s.r]
		if c != lit[i] {
			return syntaxErr("invalid literal, expected %q", lit)
		}
		s.r++
	}
	if rec != nil {
		for i := 0; i < len(lit); i++ {
			if err := rec.add(lit[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// rawByte consumes one byte without skipping whitespace.
func (s *scanner) rawByte() (byte, error) {
	if s.r >= s.n && !s.fill() {
		return 0, s.eofErr()
	}
	c := s.buf[s.r]
	s.r++
	return c, nil
}

func hexVal(c byte) (rune, bool) {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0'), true
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10, true
	}
	return 0, false
}

// hex4 reads the 4 hex digits of a \u escape.
func (s *scanner) hex4() (rune, error) {
	var r rune
	for i := 0; i < 4; i++ {
		c, err := s.rawByte()
		if err != nil {
			return 0, err
		}
		h, ok := hexVal(c)
		if !ok {
			return 0, syntaxErr("invalid \\u escape")
		}
		r = r<<4 | h
	}
	return r, nil
}

// string reads a JSON string, unescaped, into s.str and returns it (valid
// until the next call). It fails with ErrLimit beyond max bytes.
func (s *scanner) string(max int) ([]byte, error) {
	c, err := s.next()
	if err != nil {
		return nil, err
	}
	if c != '"' {
		if c == '-' || (c >= '0' && c <= '9') || c == '[' || c == '{' || c == 't' || c == 'f' || c == 'n' {
			return nil, invalidErr("expected a string, found %s", quoteByte(c))
		}
		return nil, syntaxErr("expected a string, found %s", quoteByte(c))
	}
	out := s.str[:0]
	for {
		// Fast path: plain bytes inside the buffer.
		i := s.r
		for i < s.n {
			c := s.buf[i]
			if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
				break
			}
			i++
		}
		out = append(out, s.buf[s.r:i]...)
		s.r = i
		if len(out) > max {
			return nil, limitErr("string longer than %d bytes", max)
		}
		c, err := s.rawByte()
		if err != nil {
			return nil, err
		}
		switch {
		case c == '"':
			s.str = out
			return out, nil
		case c < 0x20:
			return nil, syntaxErr("control character in string")
		case c >= 0x80:
			// Gather one UTF-8 sequence and validate it.
			var seq [4]byte
			seq[0] = c
			n := 1
			want := utf8Len(c)
			if want == 0 {
				return nil, invalidErr("invalid UTF-8 in string")
			}
			for n < want {
				b, err := s.rawByte()
				if err != nil {
					return nil, err
				}
				seq[n] = b
				n++
			}
			if _, size := utf8.DecodeRune(seq[:n]); size != n {
				return nil, invalidErr("invalid UTF-8 in string")
			}
			out = append(out, seq[:n]...)
		case c != '\\':
			out = append(out, c)
		default: // backslash
			e, err := s.rawByte()
			if err != nil {
				return nil, err
			}
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, err := s.hex4()
				if err != nil {
					return nil, err
				}
				if utf16.IsSurrogate(r) {
					if r >= 0xDC00 {
						return nil, invalidErr("lone surrogate in string")
					}
					if err := s.literal(`\u`, nil); err != nil {
						if errors.Is(err, ErrSyntax) {
							return nil, invalidErr("lone surrogate in string")
						}
						return nil, err
					}
					r2, err := s.hex4()
					if err != nil {
						return nil, err
					}
					r = utf16.DecodeRune(r, r2)
					if r == utf8.RuneError {
						return nil, invalidErr("lone surrogate in string")
					}
				}
				out = utf8.AppendRune(out, r)
			default:
				return nil, syntaxErr("invalid escape in string")
			}
		}
		if len(out) > max {
			return nil, limitErr("string longer than %d bytes", max)
		}
	}
}

// raw reads one JSON value of any kind and returns its bytes exactly as in
// the input (without surrounding whitespace), bounded by MaxRawBytes and
// MaxRawDepth.
func (s *scanner) raw() ([]byte, error) {
	if _, err := s.peek(); err != nil {
		return nil, err
	}
	rec := rawSink{keep: true}
	if err := s.rawValue(&rec, 0); err != nil {
		return nil, err
	}
	return rec.b, nil
}

// skip reads one JSON value of any kind and discards it, checking its
// grammar under the same bounds as raw (MaxRawBytes, MaxRawDepth); it
// allocates nothing.
func (s *scanner) skip() error {
	if _, err := s.peek(); err != nil {
		return err
	}
	var rec rawSink
	return s.rawValue(&rec, 0)
}

// rawSink counts the bytes of a raw value and, with keep, records them.
type rawSink struct {
	b    []byte
	n    int
	keep bool
}

func (r *rawSink) add(c byte) error {
	r.n++
	if r.keep {
		r.b = append(r.b, c)
	}
	if r.n > MaxRawBytes {
		return limitErr("value longer than %d bytes", MaxRawBytes)
	}
	return nil
}

// rawSkipWS copies whitespace to rec and returns the next byte unconsumed.
func (s *scanner) rawSkipWS(rec *rawSink) (byte, error) {
	for {
		if s.r >= s.n && !s.fill() {
			return 0, s.eofErr()
		}
		c := s.buf[s.r]
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c, nil
		}
		s.r++
		if err := rec.add(c); err != nil {
			return 0, err
		}
	}
}

func (s *scanner) rawTake(rec *rawSink) (byte, error) {
	c, err := s.rawByte()
	if err != nil {
		return 0, err
	}
	return c, rec.add(c)
}

func (s *scanner) rawValue(rec *rawSink, depth int) error {
	if depth > MaxRawDepth {
		return limitErr("nesting deeper than %d", MaxRawDepth)
	}
	c, err := s.rawSkipWS(rec)
	if err != nil {
		return err
	}
	switch {
	case c == '{' || c == '[':
		close := byte('}')
		if c == '[' {
			close = ']'
		}
		if _, err := s.rawTake(rec); err != nil {
			return err
		}
		c, err := s.rawSkipWS(rec)
		if err != nil {
			return err
		}
		if c == close {
			_, err := s.rawTake(rec)
			return err
		}
		for {
			if close == '}' {
				c, err := s.rawSkipWS(rec)
				if err != nil {
					return err
				}
				if c != '"' {
					return syntaxErr("expected an object key, found %s", quoteByte(c))
				}
				if err := s.rawString(rec); err != nil {
					return err
				}
				c, err = s.rawSkipWS(rec)
				if err != nil {
					return err
				}
				if c != ':' {
					return syntaxErr("expected ':', found %s", quoteByte(c))
				}
				if _, err := s.rawTake(rec); err != nil {
					return err
				}
			}
			if err := s.rawValue(rec, depth+1); err != nil {
				return err
			}
			c, err := s.rawSkipWS(rec)
			if err != nil {
				return err
			}
			if _, err := s.rawTake(rec); err != nil {
				return err
			}
			if c == close {
				return nil
			}
			if c != ',' {
				return syntaxErr("expected ',' or %q, found %s", rune(close), quoteByte(c))
			}
		}
	case c == '"':
		return s.rawString(rec)
	case c == 't':
		return s.literal("true", rec)
	case c == 'f':
		return s.literal("false", rec)
	case c == 'n':
		return s.literal("null", rec)
	case c == '-' || (c >= '0' && c <= '9'):
		return s.rawNumber(rec)
	}
	return syntaxErr("unexpected %s", quoteByte(c))
}

func (s *scanner) rawString(rec *rawSink) error {
	if _, err := s.rawTake(rec); err != nil { // opening quote
		return err
	}
	var seq [utf8.UTFMax]byte // the UTF-8 sequence being gathered
	ns, want := 0, 0
	for {
		c, err := s.rawTake(rec)
		if err != nil {
			return err
		}
		if ns > 0 {
			if c&0xC0 != 0x80 {
				return invalidErr("invalid UTF-8 in string")
			}
			seq[ns] = c
			ns++
			if ns == want {
				if _, size := utf8.DecodeRune(seq[:ns]); size != ns {
					return invalidErr("invalid UTF-8 in string")
				}
				ns = 0
			}
			continue
		}
		switch {
		case c == '"':
			return nil
		case c < 0x20:
			return syntaxErr("control character in string")
		case c >= 0x80:
			if want = utf8Len(c); want == 0 {
				return invalidErr("invalid UTF-8 in string")
			}
			seq[0] = c
			ns = 1
		case c == '\\':
			e, err := s.rawTake(rec)
			if err != nil {
				return err
			}
			switch e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for i := 0; i < 4; i++ {
					h, err := s.rawTake(rec)
					if err != nil {
						return err
					}
					if _, ok := hexVal(h); !ok {
						return syntaxErr("invalid \\u escape")
					}
				}
			default:
				return syntaxErr("invalid escape in string")
			}
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// utf8Len is the length (2..4) of the UTF-8 sequence lead byte c starts,
// 0 where c starts none.
func utf8Len(c byte) int {
	switch {
	case c&0xE0 == 0xC0:
		return 2
	case c&0xF0 == 0xE0:
		return 3
	case c&0xF8 == 0xF0:
		return 4
	}
	return 0
}

// rawNumber copies a JSON number, checking its grammar.
func (s *scanner) rawNumber(rec *rawSink) error {
	peek := func() (byte, bool) {
		if s.r >= s.n && !s.fill() {
			return 0, false
		}
		return s.buf[s.r], true
	}
	digits := func() (int, error) {
		n := 0
		for {
			c, ok := peek()
			if !ok || !isDigit(c) {
				return n, nil
			}
			if _, err := s.rawTake(rec); err != nil {
				return n, err
			}
			n++
		}
	}
	c, _ := peek()
	if c == '-' {
		if _, err := s.rawTake(rec); err != nil {
			return err
		}
	}
	c, ok := peek()
	if !ok {
		return s.eofErr()
	}
	if c == '0' {
		if _, err := s.rawTake(rec); err != nil {
			return err
		}
	} else if isDigit(c) {
		if _, err := digits(); err != nil {
			return err
		}
	} else {
		return syntaxErr("invalid number")
	}
	// part copies the byte that starts a fraction or an exponent, an
	// exponent's sign, and the one or more digits that must follow.
	part := func(sign bool) error {
		if _, err := s.rawTake(rec); err != nil {
			return err
		}
		if sign {
			if c, ok := peek(); ok && (c == '+' || c == '-') {
				if _, err := s.rawTake(rec); err != nil {
					return err
				}
			}
		}
		n, err := digits()
		if err != nil {
			return err
		}
		if n == 0 {
			return s.numberEnd()
		}
		return nil
	}
	if c, ok := peek(); ok && c == '.' {
		if err := part(false); err != nil {
			return err
		}
	}
	if c, ok := peek(); ok && (c == 'e' || c == 'E') {
		return part(true)
	}
	return nil
}

// numberEnd is the error for a number missing its digits: the input ended
// or a wrong byte follows.
func (s *scanner) numberEnd() error {
	if s.r >= s.n && !s.fill() {
		return s.eofErr()
	}
	return syntaxErr("invalid number")
}

// number reads a JSON number of any form (integer, fraction, exponent) and
// returns its exact text in s.str (valid until the next call). It fails
// with ErrLimit beyond max bytes and with ErrInvalid when the value is not
// a number.
func (s *scanner) number(max int) ([]byte, error) {
	c, err := s.peek()
	if err != nil {
		return nil, err
	}
	if c != '-' && !isDigit(c) {
		if c == '"' || c == '[' || c == '{' || c == 't' || c == 'f' || c == 'n' {
			return nil, invalidErr("expected a number, found %s", quoteByte(c))
		}
		return nil, syntaxErr("expected a number, found %s", quoteByte(c))
	}
	out := s.str[:0]
	// The grammar, one byte at a time: state is what may come next.
	const (
		sSign      = iota // optional '-', then sInt
		sInt              // the first digit (required)
		sIntMore          // more digits, '.', 'e', or the end
		sFracReq          // a digit (required)
		sFrac             // more digits, 'e', or the end
		sExpSign          // '+', '-' or a digit (required)
		sExpReq           // a digit (required)
		sExp              // more digits or the end
		sAfterZero        // '.', 'e' or the end (a digit is a leading zero)
	)
	st := sSign
	for {
		if s.r >= s.n && !s.fill() {
			if s.err != io.EOF && s.err != nil {
				return nil, s.err
			}
			switch st {
			case sIntMore, sFrac, sExp, sAfterZero:
				s.str = out
				return out, nil
			}
			return nil, io.ErrUnexpectedEOF
		}
		c := s.buf[s.r]
		next := -1
		switch st {
		case sSign:
			if c == '-' {
				next = sInt
			} else if c == '0' {
				next = sAfterZero
			} else if isDigit(c) {
				next = sIntMore
			}
		case sInt:
			if c == '0' {
				next = sAfterZero
			} else if isDigit(c) {
				next = sIntMore
			}
		case sIntMore, sAfterZero:
			switch {
			case isDigit(c):
				if st == sAfterZero {
					return nil, syntaxErr("number with a leading zero")
				}
				next = sIntMore
			case c == '.':
				next = sFracReq
			case c == 'e' || c == 'E':
				next = sExpSign
			}
		case sFracReq, sFrac:
			switch {
			case isDigit(c):
				next = sFrac
			case st == sFrac && (c == 'e' || c == 'E'):
				next = sExpSign
			}
		case sExpSign:
			if c == '+' || c == '-' {
				next = sExpReq
			} else if isDigit(c) {
				next = sExp
			}
		case sExpReq, sExp:
			if isDigit(c) {
				next = sExp
			}
		}
		if next < 0 {
			switch st {
			case sIntMore, sFrac, sExp, sAfterZero:
				s.str = out
				return out, nil
			}
			return nil, syntaxErr("invalid number")
		}
		if len(out) >= max {
			return nil, limitErr("number longer than %d bytes", max)
		}
		out = append(out, c)
		s.r++
		st = next
	}
}

// validNumber reports whether b is exactly one JSON number.
func validNumber[T string | []byte](b T) bool {
	i := 0
	digits := func() bool {
		j := i
		for i < len(b) && isDigit(b[i]) {
			i++
		}
		return i > j
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == len(b)
}
