package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Field is a field of a request body the reference reads.
type Field uint8

// Fields.
const (
	FieldCellX Field = iota
	FieldCellY
	FieldToken
	FieldBoost
	FieldDirection
	FieldName
	FieldPassword
	FieldAdminPassword
	FieldLastTime
	FieldJoinTime
	FieldAIOnly
	numFields
)

var fieldNames = [numFields]string{"cellx", "celly", "token", "boost", "direction", "name", "password",
	"admin_password", "last_time", "ai_join_time", "ai_only"}

// String is the field's name in a body.
func (f Field) String() string { return fieldNames[f] }

// MaxBodyBytes is the longest body ParseBody reads, and MaxBodyDepth the
// deepest nesting of arrays and objects in it (docs/limits.md).
const (
	MaxBodyBytes = 1 << 16
	MaxBodyDepth = 64
)

// Body is a request's body as the reference's require decorator and
// handlers see it (Flask's request.get_json()).
type Body struct {
	// JSON is false for a body that is not JSON (a content type other
	// than application/json) or is JSON null: `data == None`.
	JSON bool
	// Object is true for a JSON object; any other JSON value (an array,
	// a number, a string) lacks every field, as Python's `in` finds.
	Object bool
	raw    [numFields][]byte // each field's JSON value, nil when absent
}

// ErrBadJSON is ParseBody's error for a body with the JSON content type
// that is not JSON (the reference answers Flask's HTML 400 page).
var ErrBadJSON = errors.New("colorfight1: the body is not valid JSON")

// ParseBody parses a request body: isJSON says whether its content type
// is JSON (application/json, or application/…+json, as Flask's is_json).
// A later duplicate key replaces an earlier one, as Python's json does.
// It fails, wrapping ErrBadJSON and saying where, on a JSON body that
// does not parse, is longer than MaxBodyBytes or nests deeper than
// MaxBodyDepth.
func ParseBody(isJSON bool, raw []byte) (Body, error) {
	var b Body
	if !isJSON {
		return b, nil
	}
	if len(raw) > MaxBodyBytes {
		return b, fmt.Errorf("%w: %d bytes, more than %d", ErrBadJSON, len(raw), MaxBodyBytes)
	}
	p := scanner{b: raw}
	p.space()
	start := p.i
	if p.i < len(raw) && raw[p.i] == '{' {
		if err := p.object(&b); err != nil {
			return Body{}, err
		}
		b.JSON, b.Object = true, true
	} else {
		if err := p.value(0); err != nil {
			return Body{}, err
		}
		b.JSON = string(raw[start:p.i]) != "null"
	}
	p.space()
	if p.i != len(raw) {
		return Body{}, p.errorf("data after the value")
	}
	return b, nil
}

// Has reports whether the body has field f (Python's `f in data`).
func (b *Body) Has(f Field) bool { return b.raw[f] != nil }

// Raw returns field f's JSON text, nil when absent.
func (b *Body) Raw(f Field) []byte { return b.raw[f] }

// Set sets field f to the JSON value v (which must be valid JSON), making
// the body a JSON object.
func (b *Body) Set(f Field, v []byte) {
	b.JSON, b.Object = true, true
	b.raw[f] = v
}

// String returns field f as a string, ok false when it is absent or not
// a JSON string.
func (b *Body) String(f Field) (string, bool) {
	v := b.raw[f]
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	for _, c := range v[1 : len(v)-1] {
		if c == '\\' {
			var s string
			if json.Unmarshal(v, &s) != nil {
				return "", false
			}
			return s, true
		}
	}
	return string(v[1 : len(v)-1]), true
}

// Number returns field f as a number (true and false are 1 and 0, as
// Python's bool is an int), ok false when it is absent or not a number.
func (b *Body) Number(f Field) (float64, bool) {
	v := b.raw[f]
	switch string(v) {
	case "true":
		return 1, true
	case "false":
		return 0, true
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	if len(v) == 0 || v[0] != '-' && (v[0] < '0' || v[0] > '9') {
		return 0, false
	}
	x, err := strconv.ParseFloat(string(v), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return x, true
}

// IsTrue reports whether field f is present and `== True` in Python:
// true, or a number equal to 1.
func (b *Body) IsTrue(f Field) bool {
	x, ok := b.Number(f)
	return ok && x == 1
}

// Cell returns the body's cellx and celly as a cell in the map, ok false
// when either is not an integer (an integral number, or a boolean) or is
// off the map: the reference's "Invalid cell position".
func (b *Body) Cell() (x, y int, ok bool) {
	fx, okx := b.Number(FieldCellX)
	fy, oky := b.Number(FieldCellY)
	if !okx || !oky || fx != math.Trunc(fx) || fy != math.Trunc(fy) ||
		!(fx >= 0 && fx < Width && fy >= 0 && fy < Height) {
		return 0, 0, false
	}
	return int(fx), int(fy), true
}

// scanner is a JSON reader that keeps the raw text of the top object's
// fields the rules read.
type scanner struct {
	b []byte
	i int
}

func (p *scanner) errorf(format string, a ...any) error {
	return fmt.Errorf("%w: at byte %d: %s", ErrBadJSON, p.i, fmt.Sprintf(format, a...))
}

func (p *scanner) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *scanner) object(b *Body) error {
	p.i++ // {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return nil
	}
	for {
		p.space()
		ks := p.i
		if err := p.str(); err != nil {
			return err
		}
		key := p.b[ks:p.i]
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return p.errorf("want ':'")
		}
		p.i++
		p.space()
		vs := p.i
		if err := p.value(1); err != nil {
			return err
		}
		f := fieldOf(key)
		if f < numFields {
			b.raw[f] = p.b[vs:p.i:p.i]
		}
		p.space()
		if p.i >= len(p.b) {
			return p.errorf("unterminated object")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return nil
		default:
			return p.errorf("want ',' or '}'")
		}
	}
}

// fieldOf is the field a key (a JSON string with its quotes) names,
// numFields for none.
func fieldOf(key []byte) Field {
	k := key[1 : len(key)-1]
	for _, c := range k {
		if c == '\\' {
			var s string
			if json.Unmarshal(key, &s) != nil {
				return numFields
			}
			k = []byte(s)
			break
		}
	}
	for f, n := range fieldNames {
		if string(k) == n {
			return Field(f)
		}
	}
	return numFields
}

func (p *scanner) value(depth int) error {
	if depth > MaxBodyDepth {
		return p.errorf("nested deeper than %d", MaxBodyDepth)
	}
	if p.i >= len(p.b) {
		return p.errorf("want a value")
	}
	switch c := p.b[p.i]; {
	case c == '"':
		return p.str()
	case c == '{' || c == '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		p.i++
		p.space()
		if p.i < len(p.b) && p.b[p.i] == end {
			p.i++
			return nil
		}
		for {
			p.space()
			if c == '{' {
				if err := p.str(); err != nil {
					return err
				}
				p.space()
				if p.i >= len(p.b) || p.b[p.i] != ':' {
					return p.errorf("want ':'")
				}
				p.i++
				p.space()
			}
			if err := p.value(depth + 1); err != nil {
				return err
			}
			p.space()
			if p.i >= len(p.b) {
				return p.errorf("unterminated %c", c)
			}
			if p.b[p.i] == end {
				p.i++
				return nil
			}
			if p.b[p.i] != ',' {
				return p.errorf("want ',' or '%c'", end)
			}
			p.i++
		}
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, lit := range []string{"true", "false", "null", "NaN", "Infinity"} {
		if len(p.b)-p.i >= len(lit) && string(p.b[p.i:p.i+len(lit)]) == lit {
			p.i += len(lit)
			return nil
		}
	}
	return p.errorf("not a JSON value")
}

func (p *scanner) str() error {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return p.errorf("want a string")
	}
	p.i++
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '"':
			p.i++
			return nil
		case c == '\\':
			if p.i+1 >= len(p.b) {
				return p.errorf("unterminated string")
			}
			switch p.b[p.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i += 2
			case 'u':
				if p.i+6 > len(p.b) {
					return p.errorf("short \\u escape")
				}
				for _, h := range p.b[p.i+2 : p.i+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return p.errorf("bad \\u escape")
					}
				}
				p.i += 6
			default:
				return p.errorf("bad escape")
			}
		case c < 0x20:
			return p.errorf("control character in a string")
		default:
			p.i++
		}
	}
	return p.errorf("unterminated string")
}

func (p *scanner) number() error {
	s := p.i
	if p.b[p.i] == '-' {
		p.i++
		if len(p.b)-p.i >= 8 && string(p.b[p.i:p.i+8]) == "Infinity" {
			p.i += 8
			return nil
		}
	}
	digits := func() int {
		n := 0
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(p.b) && p.b[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		p.i = s
		return p.errorf("bad number")
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return p.errorf("bad number")
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return p.errorf("bad number")
		}
	}
	return nil
}
