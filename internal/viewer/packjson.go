package viewer

import (
	"strconv"
	"unicode/utf8"
)

// The frames of a Packed replay are most of its bytes and of the time
// EncodePacked takes: appendFrame writes one as encoding/json would (the
// same keys, order, omitempty and escaping: TestAppendFrameMatchesJSON,
// FuzzAppendFrame), without reflection or an allocation per value.

// appendFrame appends f's JSON.
func appendFrame(b []byte, f *PackedFrame) []byte {
	b = append(b, `{"turn":`...)
	b = strconv.AppendInt(b, int64(f.Turn), 10)
	b = append(b, `,"active":`...)
	b = strconv.AppendInt(b, int64(f.Active), 10)
	b = append(b, `,"cells":`...)
	b = appendInts(b, f.Cells)
	if len(f.Layers) > 0 {
		b = append(b, `,"layers":[`...)
		for i, l := range f.Layers {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInts(b, l)
		}
		b = append(b, ']')
	}
	b = append(b, `,"values":`...)
	if f.Values == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, v := range f.Values {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInts(b, v)
		}
		b = append(b, ']')
	}
	if len(f.Entities) > 0 {
		b = append(b, `,"entities":[`...)
		for i := range f.Entities {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendEntity(b, &f.Entities[i])
		}
		b = append(b, ']')
	}
	if len(f.Effects) > 0 {
		b = append(b, `,"effects":[`...)
		for i := range f.Effects {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendEffect(b, &f.Effects[i])
		}
		b = append(b, ']')
	}
	if len(f.Events) > 0 {
		b = append(b, `,"events":[`...)
		for i := range f.Events {
			if i > 0 {
				b = append(b, ',')
			}
			e := &f.Events[i]
			b = append(b, `{"k":`...)
			b = strconv.AppendInt(b, int64(e.Kind), 10)
			b = append(b, `,"n":`...)
			b = appendJSONString(b, e.Name)
			b = appendField(b, "p", int64(e.Player))
			b = appendField(b, "o", int64(e.Other))
			b = appendField(b, "x", int64(e.X))
			b = appendField(b, "y", int64(e.Y))
			b = appendField(b, "v", e.Value)
			b = append(b, `,"t":`...)
			b = appendJSONString(b, e.Text)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(f.Commands) > 0 {
		b = append(b, `,"commands":[`...)
		for i, l := range f.Commands {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendStrings(b, l)
		}
		b = append(b, ']')
	}
	if len(f.Sent) > 0 {
		b = append(b, `,"sent":`...)
		b = appendInts(b, f.Sent)
	}
	if len(f.Errors) > 0 {
		b = append(b, `,"errors":[`...)
		for i := range f.Errors {
			if i > 0 {
				b = append(b, ',')
			}
			e := &f.Errors[i]
			b = append(b, `{"p":`...)
			b = strconv.AppendInt(b, int64(e.Player), 10)
			b = appendField(b, "i", int64(e.Index))
			b = appendField(b, "c", int64(e.Code))
			b = append(b, `,"t":`...)
			b = appendJSONString(b, e.Text)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(f.Rejected) > 0 {
		b = append(b, `,"rejected":`...)
		b = appendInts(b, f.Rejected)
	}
	if len(f.Faults) > 0 {
		b = append(b, `,"faults":`...)
		b = appendStrings(b, f.Faults)
	}
	if len(f.Logs) > 0 {
		b = append(b, `,"logs":`...)
		b = appendStrings(b, f.Logs)
	}
	if len(f.Replies) > 0 {
		b = append(b, `,"replies":`...)
		b = appendInts(b, f.Replies)
	}
	if len(f.Marks) > 0 {
		b = append(b, `,"marks":[`...)
		for i := range f.Marks {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendMark(b, &f.Marks[i])
		}
		b = append(b, ']')
	}
	if len(f.Ranking) > 0 {
		b = append(b, `,"ranking":`...)
		b = appendInts(b, f.Ranking)
	}
	if f.NoCommands {
		b = append(b, `,"no_commands":true`...)
	}
	return append(b, '}')
}

func appendEntity(b []byte, e *PackedEntity) []byte {
	b = append(b, `{"k":`...)
	b = appendJSONString(b, e.Kind)
	b = appendField(b, "p", int64(e.Player))
	b = appendField(b, "x", int64(e.X))
	b = appendField(b, "y", int64(e.Y))
	b = appendField(b, "h", e.Health)
	if e.Value != 0 {
		b = appendField(b, "v", e.Value)
	}
	if e.Label != "" {
		b = append(b, `,"l":`...)
		b = appendJSONString(b, e.Label)
	}
	return append(b, '}')
}

func appendMark(b []byte, m *PackedMark) []byte {
	b = append(b, `{"k":`...)
	b = appendJSONString(b, m.Kind)
	b = appendField(b, "p", int64(m.Player))
	b = appendField(b, "x", int64(m.X))
	b = appendField(b, "y", int64(m.Y))
	if m.X2 != 0 {
		b = appendField(b, "x2", int64(m.X2))
	}
	if m.Y2 != 0 {
		b = appendField(b, "y2", int64(m.Y2))
	}
	if m.Color != "" {
		b = append(b, `,"c":`...)
		b = appendJSONString(b, m.Color)
	}
	if m.Text != "" {
		b = append(b, `,"t":`...)
		b = appendJSONString(b, m.Text)
	}
	return append(b, '}')
}

func appendEffect(b []byte, e *PackedEffect) []byte {
	b = append(b, `{"k":`...)
	b = appendJSONString(b, e.Kind)
	if e.Name != "" {
		b = append(b, `,"n":`...)
		b = appendJSONString(b, e.Name)
	}
	b = appendField(b, "p", int64(e.Player))
	b = appendField(b, "x", int64(e.X))
	b = appendField(b, "y", int64(e.Y))
	for _, o := range [...]struct {
		k string
		v int
	}{{"x2", e.X2}, {"y2", e.Y2}, {"r", e.Radius}} {
		if o.v != 0 {
			b = appendField(b, o.k, int64(o.v))
		}
	}
	if len(e.Points) > 0 {
		b = append(b, `,"pts":`...)
		b = appendInts(b, e.Points)
	}
	if e.Value != 0 {
		b = appendField(b, "v", e.Value)
	}
	return append(b, '}')
}

// appendField appends `,"k":v`.
func appendField(b []byte, k string, v int64) []byte {
	b = append(b, ',', '"')
	b = append(b, k...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, v, 10)
}

// appendInts appends a list of integers, null for a nil one.
func appendInts[T int | int64](b []byte, l []T) []byte {
	if l == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range l {
		if i > 0 {
			b = append(b, ',')
		}
		if v >= 0 && v < 10 { // most numbers of a frame: inline
			b = append(b, '0'+byte(v))
		} else {
			b = strconv.AppendInt(b, int64(v), 10)
		}
	}
	return append(b, ']')
}

// appendStrings appends a list of strings, null for a nil one.
func appendStrings(b []byte, l []string) []byte {
	if l == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

const hexDigits = "0123456789abcdef"

// jsonPlain says which ASCII bytes a JSON string holds as they are
// (appendJSONString escapes the others).
var jsonPlain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONString appends s quoted as encoding/json quotes a string:
// '"' and '\' escaped; \b, \f, \n, \r, \t short; other control bytes,
// '<', '>' and '&' (HTML-safe) as \u00XX; invalid UTF-8 as \ufffd;
// U+2028 and U+2029 as \u2028 and \u2029.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	done := 0 // s[:done] is written
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonPlain[c] {
				i++
				continue
			}
			b = append(b, s[done:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			done = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, s[done:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[done:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += n
			continue
		}
		i += n
		done = i
	}
	b = append(b, s[done:]...)
	return append(b, '"')
}
