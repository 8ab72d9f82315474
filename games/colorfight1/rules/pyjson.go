package rules

import "strconv"

// AppendFloat appends f as Python's repr() writes it (and so its json
// module): the shortest digits that read back as f; fixed notation with
// at least one digit after the point when the decimal exponent is
// between −4 and 15, otherwise d[.ddd]e±XX with at least two exponent
// digits. Infinities and NaN are written as Python's json writes them
// (Infinity, -Infinity, NaN).
func AppendFloat(dst []byte, f float64) []byte {
	switch {
	case f != f:
		return append(dst, "NaN"...)
	case f > 1.7976931348623157e308:
		return append(dst, "Infinity"...)
	case f < -1.7976931348623157e308:
		return append(dst, "-Infinity"...)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // -d.ddde±XX
	neg := e[0] == '-'
	if neg {
		e = e[1:]
		dst = append(dst, '-')
	}
	i := 0
	for i < len(e) && e[i] != 'e' {
		i++
	}
	mant, exp := e[:i], e[i+1:]
	x, _ := strconv.Atoi(string(exp))
	// digits without the point
	var digits [24]byte
	nd := 0
	for _, c := range mant {
		if c != '.' {
			digits[nd] = c
			nd++
		}
	}
	d := digits[:nd]
	if x < -4 || x >= 16 {
		dst = append(dst, d[0])
		if nd > 1 {
			dst = append(dst, '.')
			dst = append(dst, d[1:]...)
		}
		dst = append(dst, 'e')
		if x < 0 {
			dst = append(dst, '-')
			x = -x
		} else {
			dst = append(dst, '+')
		}
		if x < 10 {
			dst = append(dst, '0')
		}
		return strconv.AppendInt(dst, int64(x), 10)
	}
	if x < 0 {
		dst = append(dst, '0', '.')
		for range -x - 1 {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	}
	// x ≥ 0: x+1 digits before the point
	if nd <= x+1 {
		dst = append(dst, d...)
		for range x + 1 - nd {
			dst = append(dst, '0')
		}
		return append(dst, '.', '0')
	}
	dst = append(dst, d[:x+1]...)
	dst = append(dst, '.')
	return append(dst, d[x+1:]...)
}

// pyEscapes is the letter after the backslash of the characters Python's
// json module writes as a two-character escape, 0 for the others.
var pyEscapes = [0x80]byte{'"': '"', '\\': '\\', '\n': 'n', '\r': 'r', '\t': 't', '\b': 'b', '\f': 'f'}

// AppendString appends s as a JSON string the way Python's json module
// writes it with ensure_ascii: ", \ and the control characters escaped
// (\n, \r, \t, \b, \f, else \u00XX), every non-ASCII character as \uXXXX
// (lower-case hex; a surrogate pair above U+FFFF), invalid UTF-8 as
// U+FFFD.
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	u4 := func(dst []byte, r rune) []byte {
		return append(dst, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
	}
	dst = append(dst, '"')
	for _, r := range s {
		switch {
		case r < 0x80 && pyEscapes[r] != 0:
			dst = append(dst, '\\', pyEscapes[r])
		case r < 0x20 || r >= 0x7f && r < 0x10000:
			dst = u4(dst, r)
		case r >= 0x10000:
			r -= 0x10000
			dst = u4(dst, 0xd800+(r>>10))
			dst = u4(dst, 0xdc00+(r&0x3ff))
		default:
			dst = append(dst, byte(r))
		}
	}
	return append(dst, '"')
}
