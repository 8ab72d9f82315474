package rules

// This file reads a bot's line the way the reference's org.json
// (2012-12-01, JSONTokener/JSONObject/JSONArray) does: more leniently than
// JSON (unquoted keys and values, single quotes, "=" or "=>" for ":", ";"
// for ",", trailing separators, anything after the closing brace), a
// repeated key refused, and org.json's error messages with their
// positions. Positions count UTF-16 code units, as Java's chars. The
// parser keeps its nodes and strings in arenas reused from line to line
// and turn to turn, so a warm parser does not allocate.

import (
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

type jkind uint8

const (
	jString jkind = iota + 1
	jInt          // java.lang.Integer
	jLong         // java.lang.Long
	jDouble       // java.lang.Double
	jTrue
	jFalse
	jNull // JSONObject.NULL
	jObject
	jArray
)

// jnode is one value. Strings (and object keys) are spans of jparser.str.
type jnode struct {
	kind        jkind
	s, e        int32 // string value span
	ks, ke      int32 // key span, for an object member
	n           int64 // an Integer or Long; a Double's bits
	first, last int32 // children (members or elements), -1 if none
	next        int32 // next sibling, -1 at the end
	count       int32
}

// parse outcomes
const (
	parseOK = iota
	parseSyntax
	// parseReaderDies: the line throws something that is not a
	// JSONException (a NumberFormatException from a bad \u escape, a
	// StackOverflowError from deep nesting) out of the player's reader
	// thread, which then reads nothing more from that player
	// (AIClientHandler.java catches only IOException and
	// ProtocolException).
	parseReaderDies
)

// maxDepth is where nesting stands in for Java's StackOverflowError (the
// real depth depends on the JVM's stack size).
const maxDepth = 1000

type jparser struct {
	// str holds the turn's lines, as UTF-16, and the strings built
	// from them; a line occupies str[ls:le] while it is read, and a
	// string without escapes is a span of its line.
	ls, le int
	pos    int
	// tokener state (JSONTokener)
	index, character, line int64
	previous               uint16
	usePrevious, eof       bool

	str   []uint16
	nodes []jnode
	sb    []uint16 // scratch for unquoted values
	depth int

	failed  int    // parseSyntax or parseReaderDies once failed
	errText []byte // syntax error text (org.json's message)
}

// reset forgets every node and string (the start of a turn).
func (p *jparser) reset() {
	p.str = p.str[:0]
	p.nodes = p.nodes[:0]
}

// load decodes line (UTF-8; invalid bytes become U+FFFD) into UTF-16
// units and resets the tokener.
func (p *jparser) load(line string) {
	p.ls = len(p.str)
	if cap(p.str)-len(p.str) < len(line) {
		grown := make([]uint16, len(p.str), 2*cap(p.str)+2*len(line))
		copy(grown, p.str)
		p.str = grown
	}
	in := p.str[:len(p.str)+len(line)]
	dst := in[p.ls:]
	dst = dst[:len(line)]
	i := 0
	for ; i < len(line); i++ {
		c := line[i]
		if c >= utf8.RuneSelf {
			break
		}
		dst[i] = uint16(c)
	}
	in = in[:p.ls+i]
	for i < len(line) {
		c := line[i]
		if c < utf8.RuneSelf {
			in = append(in, uint16(c))
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(line[i:])
		i += n
		if r >= 0x10000 {
			a, b := utf16.EncodeRune(r)
			in = append(in, uint16(a), uint16(b))
		} else {
			in = append(in, uint16(r))
		}
	}
	p.str = in
	p.le = len(in)
	p.pos = p.ls
	p.index, p.character, p.line = 0, 1, 1
	p.previous = 0
	p.usePrevious, p.eof = false, false
	p.depth = 0
	p.failed = parseOK
	p.errText = p.errText[:0]
}

func (p *jparser) next() uint16 {
	var c uint16
	if p.usePrevious {
		p.usePrevious = false
		c = p.previous
	} else {
		if p.pos < p.le {
			c = p.str[p.pos]
			p.pos++
		}
		if c == 0 { // end of stream (a NUL char reads as the end too)
			p.eof = true
		}
	}
	p.index++
	if p.previous == '\r' {
		p.line++
		if c == '\n' {
			p.character = 0
		} else {
			p.character = 1
		}
	} else if c == '\n' {
		p.line++
		p.character = 0
	} else {
		p.character++
	}
	p.previous = c
	return c
}

func (p *jparser) back() bool {
	if p.usePrevious || p.index <= 0 {
		p.plainError("Stepping back two steps is not supported")
		return false
	}
	p.index--
	p.character--
	p.usePrevious = true
	p.eof = false
	return true
}

func (p *jparser) end() bool { return p.eof && !p.usePrevious }

func (p *jparser) nextClean() uint16 {
	for {
		c := p.next()
		if c == 0 || c > ' ' {
			return c
		}
	}
}

func (p *jparser) plainError(msg string) {
	if p.failed == parseOK {
		p.failed = parseSyntax
		p.errText = append(p.errText[:0], msg...)
	}
}

func (p *jparser) syntaxError(msg string) {
	if p.failed != parseOK {
		return
	}
	p.failed = parseSyntax
	b := append(p.errText[:0], msg...)
	b = append(b, " at "...)
	b = strconv.AppendInt(b, p.index, 10)
	b = append(b, " [character "...)
	b = strconv.AppendInt(b, p.character, 10)
	b = append(b, " line "...)
	b = strconv.AppendInt(b, p.line, 10)
	p.errText = append(b, ']')
}

func (p *jparser) newNode(k jkind) int32 {
	p.nodes = append(p.nodes, jnode{kind: k, first: -1, last: -1, next: -1})
	return int32(len(p.nodes) - 1)
}

// parseObject parses the line as new JSONObject(String) does and returns
// the root object's node; p.failed says whether it worked.
func (p *jparser) parseObject(line string) int32 {
	p.load(line)
	if obj := p.fastObject(); obj >= 0 {
		return obj
	}
	return p.object()
}

// fastObject reads the common line at once: an object of double-quoted
// keys whose values are double-quoted strings or arrays of them, without
// escapes, control characters or repeated keys, spaces and tabs between
// tokens, anything after the closing brace. On such a line org.json
// builds exactly this object. Anything else returns -1 with nothing
// consumed, for the general parser (object), which also gives the
// errors.
func (p *jparser) fastObject() int32 {
	in := p.str[:p.le]
	i := p.ls
	mark := len(p.nodes)
	bail := func() int32 {
		p.nodes = p.nodes[:mark]
		return -1
	}
	skip := func() {
		for i < len(in) && (in[i] == ' ' || in[i] == '\t') {
			i++
		}
	}
	// str reads a "…" token at i into a new string node.
	str := func() int32 {
		if i >= len(in) || in[i] != '"' {
			return -1
		}
		j := i + 1
		for j < len(in) && in[j] != '"' && in[j] != '\\' && in[j] >= ' ' {
			j++
		}
		if j >= len(in) || in[j] != '"' {
			return -1
		}
		n := p.newNode(jString)
		p.nodes[n].s, p.nodes[n].e = int32(i+1), int32(j)
		i = j + 1
		return n
	}
	skip()
	if i >= len(in) || in[i] != '{' {
		return -1
	}
	i++
	obj := p.newNode(jObject)
	skip()
	if i < len(in) && in[i] == '}' {
		return obj
	}
	for {
		k := str()
		if k < 0 {
			return bail()
		}
		ks, ke := p.nodes[k].s, p.nodes[k].e
		skip()
		if i >= len(in) || in[i] != ':' {
			return bail()
		}
		i++
		skip()
		var v int32
		switch {
		case i >= len(in):
			return bail()
		case in[i] == '"':
			v = str()
		case in[i] == '[':
			i++
			skip()
			v = p.newNode(jArray)
			if i < len(in) && in[i] == ']' {
				i++
				break
			}
			for {
				e := str()
				if e < 0 {
					return bail()
				}
				p.appendChild(v, e)
				skip()
				if i < len(in) && in[i] == ']' {
					i++
					break
				}
				if i >= len(in) || in[i] != ',' {
					return bail()
				}
				i++
				skip()
			}
		default:
			return bail()
		}
		if v < 0 || p.member(obj, in[ks:ke]) >= 0 {
			return bail()
		}
		p.nodes[v].ks, p.nodes[v].ke = ks, ke
		p.appendChild(obj, v)
		skip()
		if i >= len(in) {
			return bail()
		}
		switch in[i] {
		case '}':
			return obj
		case ',':
			i++
			skip()
		default:
			return bail()
		}
	}
}

// object is JSONObject(JSONTokener).
func (p *jparser) object() int32 {
	return p.nested('{', "A JSONObject text must begin with '{'", (*jparser).objectBody)
}

// nested reads a value that opens with open (else the syntax error
// msg) and whose body reads on, one level deeper: past maxDepth the
// reference's reader dies.
func (p *jparser) nested(open uint16, msg string, body func(*jparser) int32) int32 {
	if p.nextClean() != open {
		p.syntaxError(msg)
		return -1
	}
	p.depth++
	if p.depth > maxDepth {
		p.failed = parseReaderDies
		return -1
	}
	r := body(p)
	p.depth--
	return r
}

func (p *jparser) objectBody() int32 {
	obj := p.newNode(jObject)
	for {
		c := p.nextClean()
		switch c {
		case 0:
			p.syntaxError("A JSONObject text must end with '}'")
			return -1
		case '}':
			return obj
		default:
			if !p.back() {
				return -1
			}
		}
		kv := p.value()
		if p.failed != parseOK {
			return -1
		}
		var ks, ke int32
		if p.nodes[kv].kind == jString {
			ks, ke = p.nodes[kv].s, p.nodes[kv].e
		} else {
			ks = int32(len(p.str))
			p.appendValueText(kv)
			ke = int32(len(p.str))
		}
		c = p.nextClean()
		if c == '=' {
			if p.next() != '>' {
				if !p.back() {
					return -1
				}
			}
		} else if c != ':' {
			p.syntaxError("Expected a ':' after a key")
			return -1
		}
		v := p.value()
		if p.failed != parseOK {
			return -1
		}
		// putOnce: a repeated key is refused.
		if p.member(obj, p.str[ks:ke]) >= 0 {
			var buf [64]byte
			b := append(buf[:0], "Duplicate key \""...)
			b = appendUnits(b, p.str[ks:ke])
			p.plainError(string(append(b, '"')))
			return -1
		}
		p.nodes[v].ks, p.nodes[v].ke = ks, ke
		p.appendChild(obj, v)
		switch p.nextClean() {
		case ';', ',':
			if p.nextClean() == '}' {
				return obj
			}
			if !p.back() {
				return -1
			}
		case '}':
			return obj
		default:
			p.syntaxError("Expected a ',' or '}'")
			return -1
		}
	}
}

func (p *jparser) appendChild(parent, child int32) {
	pn := &p.nodes[parent]
	if pn.last < 0 {
		pn.first = child
	} else {
		p.nodes[pn.last].next = child
	}
	pn.last = child
	pn.count++
}

// array is JSONArray(JSONTokener).
func (p *jparser) array() int32 {
	return p.nested('[', "A JSONArray text must start with '['", (*jparser).arrayBody)
}

func (p *jparser) arrayBody() int32 {
	arr := p.newNode(jArray)
	if p.nextClean() == ']' {
		return arr
	}
	if !p.back() {
		return -1
	}
	for {
		var v int32
		if p.nextClean() == ',' {
			if !p.back() {
				return -1
			}
			v = p.newNode(jNull)
		} else {
			if !p.back() {
				return -1
			}
			v = p.value()
			if p.failed != parseOK {
				return -1
			}
		}
		p.appendChild(arr, v)
		switch p.nextClean() {
		case ';', ',':
			if p.nextClean() == ']' {
				return arr
			}
			if !p.back() {
				return -1
			}
		case ']':
			return arr
		default:
			p.syntaxError("Expected a ',' or ']'")
			return -1
		}
	}
}

// value is JSONTokener.nextValue.
func (p *jparser) value() int32 {
	c := p.nextClean()
	switch c {
	case '"', '\'':
		return p.quoted(c)
	case '{':
		if !p.back() {
			return -1
		}
		return p.object()
	case '[':
		if !p.back() {
			return -1
		}
		return p.array()
	}
	sb := p.sb[:0]
	for c >= ' ' && !isValueStop(c) {
		sb = append(sb, c)
		c = p.next()
	}
	p.sb = sb
	if !p.back() {
		return -1
	}
	// String.trim: drop chars <= ' ' at both ends.
	s, e := 0, len(sb)
	for s < e && sb[s] <= ' ' {
		s++
	}
	for e > s && sb[e-1] <= ' ' {
		e--
	}
	if s == e {
		p.syntaxError("Missing value")
		return -1
	}
	return p.stringToValue(sb[s:e])
}

func isValueStop(c uint16) bool {
	switch c {
	case ',', ':', ']', '}', '/', '\\', '"', '[', '{', ';', '=', '#':
		return true
	}
	return false
}

// quoted is JSONTokener.nextString.
func (p *jparser) quoted(q uint16) int32 {
	// Fast path: a string without escapes is a span of the line.
	// (quoted is entered right after next() read the quote, so there is
	// no char stepped back.)
	if !p.usePrevious {
		i := p.pos
		for i < p.le {
			c := p.str[i]
			if c == q || c == '\\' || c == '\n' || c == '\r' || c == 0 {
				break
			}
			i++
		}
		if i < p.le && p.str[i] == q {
			n := i - p.pos
			nd := p.newNode(jString)
			p.nodes[nd].s, p.nodes[nd].e = int32(p.pos), int32(i)
			p.index += int64(n + 1)
			p.character += int64(n + 1)
			p.previous = q
			p.pos = i + 1
			return nd
		}
	}
	s := int32(len(p.str))
	for {
		c := p.next()
		switch c {
		case 0, '\n', '\r':
			p.syntaxError("Unterminated string")
			return -1
		case '\\':
			c = p.next()
			switch c {
			case 'b':
				p.str = append(p.str, '\b')
			case 't':
				p.str = append(p.str, '\t')
			case 'n':
				p.str = append(p.str, '\n')
			case 'f':
				p.str = append(p.str, '\f')
			case 'r':
				p.str = append(p.str, '\r')
			case 'u':
				// next(4), then Integer.parseInt(…, 16): a sign is
				// allowed; anything else unparsable throws a
				// NumberFormatException, which kills the reader.
				var h [4]uint16
				for i := range h {
					h[i] = p.next()
					if p.end() {
						p.syntaxError("Substring bounds error")
						return -1
					}
				}
				v, ok := parseHex4(h)
				if !ok {
					p.failed = parseReaderDies
					return -1
				}
				p.str = append(p.str, uint16(v))
			case '"', '\'', '\\', '/':
				p.str = append(p.str, c)
			default:
				p.syntaxError("Illegal escape.")
				return -1
			}
		default:
			if c == q {
				n := p.newNode(jString)
				p.nodes[n].s, p.nodes[n].e = s, int32(len(p.str))
				return n
			}
			p.str = append(p.str, c)
		}
	}
}

// parseHex4 is Integer.parseInt(s, 16) on four chars (ASCII hex digits
// only; Java would also take other Unicode hex digits).
func parseHex4(h [4]uint16) (int32, bool) {
	i, neg := 0, false
	if h[0] == '-' || h[0] == '+' {
		neg, i = h[0] == '-', 1
	}
	var v int32
	for ; i < 4; i++ {
		d := hexVal(h[i])
		if d < 0 {
			return 0, false
		}
		v = v*16 + d
	}
	if neg {
		v = -v
	}
	return v, true
}

func hexVal(c uint16) int32 {
	switch {
	case c >= '0' && c <= '9':
		return int32(c - '0')
	case c >= 'a' && c <= 'f':
		return int32(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int32(c-'A') + 10
	}
	return -1
}

// stringToValue is JSONObject.stringToValue on a trimmed, non-empty
// unquoted token.
func (p *jparser) stringToValue(t []uint16) int32 {
	if eqFold(t, "true") {
		return p.newNode(jTrue)
	}
	if eqFold(t, "false") {
		return p.newNode(jFalse)
	}
	if eqFold(t, "null") {
		return p.newNode(jNull)
	}
	b := t[0]
	if (b >= '0' && b <= '9') || b == '.' || b == '-' || b == '+' {
		if indexUnit(t, '.') || indexUnit(t, 'e') || indexUnit(t, 'E') {
			if f, ok := javaParseDouble(t); ok {
				n := p.newNode(jDouble)
				p.nodes[n].n = int64(math.Float64bits(f))
				return n
			}
		} else if v, ok := javaParseLong(t); ok {
			k := jLong
			if v == int64(int32(v)) {
				k = jInt
			}
			n := p.newNode(k)
			p.nodes[n].n = v
			return n
		}
	}
	n := p.newNode(jString)
	s := int32(len(p.str))
	p.str = append(p.str, t...)
	p.nodes[n].s, p.nodes[n].e = s, int32(len(p.str))
	return n
}

func indexUnit(t []uint16, c uint16) bool {
	for _, x := range t {
		if x == c {
			return true
		}
	}
	return false
}

func eqFold(t []uint16, s string) bool {
	if len(t) != len(s) {
		return false
	}
	for i, c := range t {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != uint16(s[i]) {
			return false
		}
	}
	return true
}

// javaParseLong is Long.parseLong for ASCII digits.
func javaParseLong(t []uint16) (int64, bool) {
	i, neg := 0, false
	if t[0] == '-' || t[0] == '+' {
		neg, i = t[0] == '-', 1
	}
	if i == len(t) {
		return 0, false
	}
	var v uint64
	for ; i < len(t); i++ {
		c := t[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
		if v > 1<<63 {
			return 0, false
		}
	}
	if neg {
		return -int64(v), true // v == 1<<63 gives MinInt64
	}
	if v > 1<<63-1 {
		return 0, false
	}
	return int64(v), true
}

// javaParseDouble is Double.valueOf for the forms that give a finite
// value: decimal or hexadecimal (with a 'p' exponent) floating point, an
// optional trailing f/F/d/D. NaN and infinities fall back to a string in
// stringToValue, as they do in org.json.
func javaParseDouble(t []uint16) (float64, bool) {
	var buf [64]byte
	if len(t) > len(buf) {
		// Long inputs: only decimal digits and the usual marks matter.
		b := make([]byte, 0, len(t))
		for _, c := range t {
			if c >= 0x80 {
				return 0, false
			}
			b = append(b, byte(c))
		}
		return parseDoubleBytes(b)
	}
	b := buf[:0]
	for _, c := range t {
		if c >= 0x80 {
			return 0, false
		}
		b = append(b, byte(c))
	}
	return parseDoubleBytes(b)
}

func parseDoubleBytes(b []byte) (float64, bool) {
	if n := len(b); n > 0 {
		switch b[n-1] {
		case 'f', 'F', 'd', 'D':
			hex := len(b) > 2 && (b[0] == '0' || b[1] == '0') && (indexByte(b, 'x') || indexByte(b, 'X'))
			if !hex || indexByte(b, 'p') || indexByte(b, 'P') {
				b = b[:n-1]
			}
		}
	}
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9', c == '.', c == '+', c == '-', c == 'e', c == 'E',
			c == 'x', c == 'X', c == 'p', c == 'P', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		default:
			return 0, false
		}
	}
	if len(b) == 0 {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

func indexByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// appendValueText appends to p.str the Java toString() of node v (what
// an object key becomes, JSONObject.java: key = nextValue().toString()).
func (p *jparser) appendValueText(v int32) {
	var buf [128]byte
	nd := &p.nodes[v]
	if nd.kind == jString {
		p.str = append(p.str, p.str[nd.s:nd.e]...)
		return
	}
	b := p.appendJava(buf[:0], v)
	for _, r := range string(b) {
		if r >= 0x10000 {
			a, c := utf16.EncodeRune(r)
			p.str = append(p.str, uint16(a), uint16(c))
		} else {
			p.str = append(p.str, uint16(r))
		}
	}
}

// member returns the member of object obj whose key is key, or -1.
func (p *jparser) member(obj int32, key []uint16) int32 {
	for c := p.nodes[obj].first; c >= 0; c = p.nodes[c].next {
		n := &p.nodes[c]
		if unitsEq(p.str[n.ks:n.ke], key) {
			return c
		}
	}
	return -1
}

// get returns the member of obj named key (ASCII), or -1.
func (p *jparser) get(obj int32, key string) int32 {
	for c := p.nodes[obj].first; c >= 0; c = p.nodes[c].next {
		n := &p.nodes[c]
		if unitsEqString(p.str[n.ks:n.ke], key) {
			return c
		}
	}
	return -1
}

// isString reports whether node v is a Java String.
func (p *jparser) isString(v int32) bool { return v >= 0 && p.nodes[v].kind == jString }

// strEq reports whether node v is the String s.
func (p *jparser) strEq(v int32, s string) bool {
	return p.isString(v) && unitsEqString(p.str[p.nodes[v].s:p.nodes[v].e], s)
}

func (p *jparser) strUnits(v int32) []uint16 { return p.str[p.nodes[v].s:p.nodes[v].e] }

func unitsEq(a, b []uint16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func unitsEqString(a []uint16, s string) bool {
	if len(a) != len(s) {
		return false
	}
	for i := range a {
		if a[i] != uint16(s[i]) {
			return false
		}
	}
	return true
}

// appendUnits appends UTF-16 units as UTF-8 (a lone surrogate becomes
// U+FFFD).
func appendUnits(b []byte, u []uint16) []byte {
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c < utf8.RuneSelf {
			b = append(b, byte(c))
			continue
		}
		r := rune(c)
		if utf16.IsSurrogate(r) && i+1 < len(u) {
			if d := utf16.DecodeRune(r, rune(u[i+1])); d != utf8.RuneError {
				r = d
				i++
			}
		}
		b = utf8.AppendRune(b, r)
	}
	return b
}

// appendJava appends the Java toString() of node v: a String as is,
// numbers as Integer/Long/Double print, true/false/null, objects and
// arrays as org.json writes them (object members in the order read: the
// reference's HashMap order is not reproduced).
func (p *jparser) appendJava(b []byte, v int32) []byte {
	nd := &p.nodes[v]
	switch nd.kind {
	case jString:
		return appendUnits(b, p.str[nd.s:nd.e])
	case jObject, jArray:
		return p.appendJSON(b, v)
	}
	return p.appendScalar(b, v, false)
}

func (p *jparser) appendScalar(b []byte, v int32, jsonForm bool) []byte {
	nd := &p.nodes[v]
	switch nd.kind {
	case jInt, jLong:
		return strconv.AppendInt(b, nd.n, 10)
	case jDouble:
		if jsonForm {
			return appendJSONDouble(b, math.Float64frombits(uint64(nd.n)))
		}
		return appendJavaDouble(b, math.Float64frombits(uint64(nd.n)))
	case jTrue:
		return append(b, "true"...)
	case jFalse:
		return append(b, "false"...)
	case jNull:
		return append(b, "null"...)
	}
	return b
}

// appendJSON appends node v as org.json's toString() writes it.
func (p *jparser) appendJSON(b []byte, v int32) []byte {
	nd := &p.nodes[v]
	switch nd.kind {
	case jString:
		return appendQuoted(b, p.str[nd.s:nd.e])
	case jObject:
		b = append(b, '{')
		for c := nd.first; c >= 0; c = p.nodes[c].next {
			if c != nd.first {
				b = append(b, ',')
			}
			b = appendQuoted(b, p.str[p.nodes[c].ks:p.nodes[c].ke])
			b = append(b, ':')
			b = p.appendJSON(b, c)
		}
		return append(b, '}')
	case jArray:
		b = append(b, '[')
		for c := nd.first; c >= 0; c = p.nodes[c].next {
			if c != nd.first {
				b = append(b, ',')
			}
			b = p.appendJSON(b, c)
		}
		return append(b, ']')
	}
	return p.appendScalar(b, v, true)
}

// appendQuoted is JSONObject.quote.
func appendQuoted(b []byte, u []uint16) []byte {
	b = append(b, '"')
	var prev uint16
	for i, c := range u {
		switch {
		case c == '\\' || c == '"':
			b = append(b, '\\', byte(c))
		case c == '/':
			if prev == '<' {
				b = append(b, '\\')
			}
			b = append(b, '/')
		case c == '\b':
			b = append(b, `\b`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\f':
			b = append(b, `\f`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c < ' ' || (c >= 0x80 && c < 0xa0) || (c >= 0x2000 && c < 0x2100):
			const hex = "0123456789abcdef"
			b = append(b, '\\', 'u', hex[c>>12], hex[c>>8&15], hex[c>>4&15], hex[c&15])
		case utf16.IsSurrogate(rune(c)):
			if i+1 < len(u) && utf16.DecodeRune(rune(c), rune(u[i+1])) != utf8.RuneError {
				b = utf8.AppendRune(b, utf16.DecodeRune(rune(c), rune(u[i+1])))
			} else if i == 0 || utf16.DecodeRune(rune(u[i-1]), rune(c)) == utf8.RuneError {
				b = utf8.AppendRune(b, utf8.RuneError)
			}
		default:
			b = utf8.AppendRune(b, rune(c))
		}
		prev = c
	}
	return append(b, '"')
}

// appendJavaDouble appends Double.toString(f) for a finite f: plain
// notation with at least one decimal for 1e-3 <= |f| < 1e7, else
// "d.dddE±n", from the shortest digits that round-trip.
func appendJavaDouble(b []byte, f float64) []byte {
	if f == 0 {
		if 1/f < 0 {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	}
	a := f
	if a < 0 {
		a = -a
	}
	if a >= 1e-3 && a < 1e7 {
		b = strconv.AppendFloat(b, f, 'f', -1, 64)
		for i := len(b) - 1; i >= 0 && b[i] != '-'; i-- {
			if b[i] == '.' {
				return b
			}
			if b[i] < '0' || b[i] > '9' {
				break
			}
		}
		return append(b, ".0"...)
	}
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64) // -d.ddde±xx
	i := 0
	for i < len(e) && e[i] != 'e' {
		i++
	}
	mant := e[:i]
	b = append(b, mant...)
	if !indexByte(mant, '.') {
		b = append(b, ".0"...)
	}
	b = append(b, 'E')
	exp := e[i+1:]
	if exp[0] == '-' {
		b = append(b, '-')
	}
	exp = exp[1:]
	for len(exp) > 1 && exp[0] == '0' {
		exp = exp[1:]
	}
	return append(b, exp...)
}

// appendJSONDouble is JSONObject.numberToString for a Double: Java's
// text with trailing zeros after a decimal point (and then the point)
// removed when there is no exponent.
func appendJSONDouble(b []byte, f float64) []byte {
	s := len(b)
	b = appendJavaDouble(b, f)
	t := b[s:]
	if indexByte(t, '.') && !indexByte(t, 'E') {
		for len(b) > s && b[len(b)-1] == '0' {
			b = b[:len(b)-1]
		}
		if len(b) > s && b[len(b)-1] == '.' {
			b = b[:len(b)-1]
		}
	}
	return b
}

// javaIntValue is Number.intValue / Integer.parseInt as getInt applies
// them (JSONObject.getInt): ok false where getInt throws.
func (p *jparser) javaIntValue(v int32) (int32, bool) {
	nd := &p.nodes[v]
	switch nd.kind {
	case jInt, jLong:
		return int32(nd.n), true
	case jDouble:
		return javaD2I(math.Float64frombits(uint64(nd.n))), true
	case jString:
		return parseInt32Units(p.str[nd.s:nd.e])
	}
	return 0, false
}

// javaD2I is Java's (int) cast of a double: NaN 0, saturating, toward
// zero.
func javaD2I(f float64) int32 {
	switch {
	case f != f:
		return 0
	case f >= 2147483647:
		return 2147483647
	case f <= -2147483648:
		return -2147483648
	}
	return int32(f)
}
