package rules

// The fast path of ParseCommand: a scanner for the common shape of a
// command object that does not allocate. It accepts only objects whose keys
// are plain strings (no escapes) and whose values are integers, plain
// strings, true, false, null, or arrays of those; anything else (floats,
// escapes, nested objects or arrays, syntax errors) makes it give up, and
// ParseCommand falls back to parseSlow, which defines the result. A fuzz
// test checks that both agree wherever the fast path answers.

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func trimJSONSpace(b []byte) []byte {
	for len(b) > 0 && isJSONSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isJSONSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

type tokKind uint8

const (
	tokNone tokKind = iota
	tokInt
	tokString
	tokLiteral
	tokArray
)

type fastScanner struct {
	b []byte
	i int
}

func (s *fastScanner) ws() {
	for s.i < len(s.b) && isJSONSpace(s.b[s.i]) {
		s.i++
	}
}

// str scans a string without escapes at s.i (the opening quote) and
// returns its contents.
func (s *fastScanner) str() ([]byte, bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false
	}
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		c := s.b[j]
		switch {
		case c == '"':
			s.i = j + 1
			return s.b[start:j], true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, false
		}
	}
	return nil, false
}

// integer scans -?(0|[1-9][0-9]*) not followed by a fraction or exponent.
func (s *fastScanner) integer() ([]byte, bool) {
	start := s.i
	j := s.i
	if j < len(s.b) && s.b[j] == '-' {
		j++
	}
	if j >= len(s.b) || s.b[j] < '0' || s.b[j] > '9' {
		return nil, false
	}
	if s.b[j] == '0' {
		j++
	} else {
		for j < len(s.b) && s.b[j] >= '0' && s.b[j] <= '9' {
			j++
		}
	}
	if j < len(s.b) && (s.b[j] == '.' || s.b[j] == 'e' || s.b[j] == 'E' || (s.b[j] >= '0' && s.b[j] <= '9')) {
		return nil, false
	}
	s.i = j
	return s.b[start:j], true
}

func (s *fastScanner) literal() bool {
	for _, lit := range [...]string{"null", "true", "false"} {
		if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
			s.i += len(lit)
			return true
		}
	}
	return false
}

// scalar scans an integer, a plain string or a literal.
func (s *fastScanner) scalar() (tokKind, []byte, bool) {
	if s.i >= len(s.b) {
		return tokNone, nil, false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		v, ok := s.str()
		return tokString, v, ok
	case c == '-' || (c >= '0' && c <= '9'):
		v, ok := s.integer()
		return tokInt, v, ok
	default:
		return tokLiteral, nil, s.literal()
	}
}

type fastValue struct {
	set    bool
	kind   tokKind
	tok    []byte
	n      int // array length
	elem   [2]tokKind
	elemOf [2][]byte
}

// value scans a scalar or an array of scalars.
func (s *fastScanner) value(v *fastValue) bool {
	*v = fastValue{set: true}
	if s.i < len(s.b) && s.b[s.i] == '[' {
		v.kind = tokArray
		s.i++
		s.ws()
		if s.i < len(s.b) && s.b[s.i] == ']' {
			s.i++
			return true
		}
		for {
			s.ws()
			k, t, ok := s.scalar()
			if !ok {
				return false
			}
			if v.n < 2 {
				v.elem[v.n], v.elemOf[v.n] = k, t
			}
			v.n++
			s.ws()
			if s.i >= len(s.b) {
				return false
			}
			if s.b[s.i] == ']' {
				s.i++
				return true
			}
			if s.b[s.i] != ',' {
				return false
			}
			s.i++
		}
	}
	k, t, ok := s.scalar()
	v.kind, v.tok = k, t
	return ok
}

// parseFast returns ParseCommand's result, or ok == false when the input
// is outside the shapes it handles.
func parseFast(b []byte) (Command, bool) {
	s := fastScanner{b: b}
	var l, c, d, n, skip fastValue
	s.ws()
	if s.i >= len(b) || b[s.i] != '{' {
		return Command{}, false
	}
	s.i++
	s.ws()
	if s.i < len(b) && b[s.i] == '}' {
		s.i++
	} else {
		for {
			s.ws()
			key, ok := s.str()
			if !ok {
				return Command{}, false
			}
			s.ws()
			if s.i >= len(b) || b[s.i] != ':' {
				return Command{}, false
			}
			s.i++
			s.ws()
			dst := &skip
			if len(key) == 1 {
				switch key[0] {
				case 'l':
					dst = &l
				case 'c':
					dst = &c
				case 'd':
					dst = &d
				case 'n':
					dst = &n
				}
			}
			if !s.value(dst) {
				return Command{}, false
			}
			s.ws()
			if s.i >= len(b) {
				return Command{}, false
			}
			if b[s.i] == '}' {
				s.i++
				break
			}
			if b[s.i] != ',' {
				return Command{}, false
			}
			s.i++
		}
	}
	s.ws()
	if s.i != len(b) {
		return Command{}, false
	}
	if !l.set || !c.set || !d.set || !n.set {
		return Command{Err: ErrMissingField}, true
	}
	if d.kind != tokInt {
		return Command{Err: ErrBadDirection}, true
	}
	dv := atoiSat(d.tok)
	if dv < 1 || dv > 7 {
		return Command{Err: ErrBadDirection}, true
	}
	if l.kind != tokArray || l.n < 2 || l.elem[0] != tokInt || l.elem[1] != tokInt {
		return Command{Err: ErrBadPosition}, true
	}
	if n.kind != tokInt {
		return Command{Err: ErrBadCount}, true
	}
	nv := atoiSat(n.tok)
	if nv > MaxCount {
		return Command{Err: ErrBadCount}, true
	}
	if nv < 1 {
		nv = 0
	}
	cmd := Command{
		X: clampCoord(atoiSat(l.elemOf[0])), Y: clampCoord(atoiSat(l.elemOf[1])),
		Dir: Dir(dv), Count: nv, Kind: KindUnknown,
	}
	if c.kind == tokString {
		switch string(c.tok) {
		case "MOVE":
			cmd.Kind = KindMove
		case "BUILD":
			cmd.Kind = KindBuild
		case "MINE":
			cmd.Kind = KindMine
		}
	}
	if !OnMap(cmd.X, cmd.Y) {
		return Command{Err: ErrOffMap}, true
	}
	return cmd, true
}

// atoiSat converts an integer token, saturating beyond int64.
func atoiSat(t []byte) int64 {
	neg := len(t) > 0 && t[0] == '-'
	if neg {
		t = t[1:]
	}
	var u uint64
	for _, c := range t {
		if u > (1<<63)/10 {
			u = 1 << 63
			break
		}
		u = u*10 + uint64(c-'0')
		if u > 1<<63 {
			u = 1 << 63
			break
		}
	}
	if neg {
		return -int64(u) // -(1<<63) wraps to math.MinInt64, the saturated value
	}
	if u > 1<<63-1 {
		return 1<<63 - 1
	}
	return int64(u)
}
