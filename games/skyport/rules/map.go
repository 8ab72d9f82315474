package rules

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Tile codes, as the map file and the gamestate's map.data write them
// (RULES-SKYPORT.md §1).
const (
	Grass     byte = 'G'
	Void      byte = 'V'
	Spawn     byte = 'S'
	Rock      byte = 'O'
	Rubidium  byte = 'R'
	Explosium byte = 'E'
	Scrap     byte = 'C'
)

// Limits of ParseMap.
const (
	// MaxMapBytes is the largest map file ParseMap reads.
	MaxMapBytes = 1 << 20
	// MaxSize is the largest map size D ParseMap accepts (the reference
	// asserts D < 100; every shipped map is far smaller).
	MaxSize = 99
	// MaxPlayers is the most spawn tiles (and so players) a game takes.
	MaxPlayers = 16
	// resourceUnits is what a resource tile starts with (Tile.java:42-52).
	resourceUnits = 2
)

// TileIndex returns the small integer the seam's Board uses as a tile's
// Terrain: G 0, V 1, S 2, O 3, R 4, E 5, C 6, and -1 for any other byte.
func TileIndex(code byte) int {
	switch code {
	case Grass:
		return 0
	case Void:
		return 1
	case Spawn:
		return 2
	case Rock:
		return 3
	case Rubidium:
		return 4
	case Explosium:
		return 5
	case Scrap:
		return 6
	}
	return -1
}

// accessible reports whether a player may move onto a tile of this code
// (Tile.java:64-74).
func accessible(code byte) bool {
	return code == Grass || code == Rubidium || code == Explosium || code == Scrap
}

// Dir is one of the six directions.
type Dir uint8

// Directions, in the order the blast of a mortar or droid splashes its
// neighbours (Mortar.java:86-100): up, down, right-down, right-up,
// left-down, left-up.
const (
	Up Dir = iota
	Down
	RightDown
	RightUp
	LeftDown
	LeftUp
	NumDirs
)

var dirNames = [NumDirs]string{"up", "down", "right-down", "right-up", "left-down", "left-up"}

// dirDelta is the (dj, dk) of each direction (RULES-SKYPORT.md §1).
var dirDelta = [NumDirs][2]int{{-1, -1}, {1, 1}, {0, 1}, {-1, 0}, {1, 0}, {0, -1}}

// String returns the protocol's name of d ("left-up").
func (d Dir) String() string {
	if d < NumDirs {
		return dirNames[d]
	}
	return "dir(" + strconv.Itoa(int(d)) + ")"
}

// Delta returns the (dj, dk) step of d.
func (d Dir) Delta() (dj, dk int) { return dirDelta[d][0], dirDelta[d][1] }

// ParseDir returns the direction the protocol names s, exactly (case and
// hyphen matter).
func ParseDir(s string) (Dir, bool) {
	for d, n := range dirNames {
		if n == s {
			return Dir(d), true
		}
	}
	return 0, false
}

// Distance returns the hex distance between (j1, k1) and (j2, k2): for
// the offset (dj, dk), max(|dj|, |dk|) when both have the same sign (or
// one is 0), |dj|+|dk| otherwise.
func Distance(j1, k1, j2, k2 int) int {
	dj, dk := j2-j1, k2-k1
	if (dj >= 0) == (dk >= 0) || dj == 0 || dk == 0 {
		return max(abs(dj), abs(dk))
	}
	return abs(dj) + abs(dk)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Map is a parsed .skyportmap: a diamond of Size×Size tiles, tile (j, k)
// at index j*Size+k. A Map is never modified after parsing; games copy
// the tiles they change.
type Map struct {
	// Players is the header's player count (unused by the rules: the
	// spawn tiles decide how many players a map takes).
	Players int
	// Size is D.
	Size int
	// Description is the header's description, quotes removed.
	Description string
	// Name is what the caller calls the map (a file name); ParseMap
	// leaves it empty.
	Name string
	// Tiles holds the tile codes, index j*Size+k.
	Tiles []byte
}

// Tile returns the code of (j, k), or 0 outside the map.
func (m *Map) Tile(j, k int) byte {
	if j < 0 || k < 0 || j >= m.Size || k >= m.Size {
		return 0
	}
	return m.Tiles[j*m.Size+k]
}

// Spawns returns the spawn tiles in row-major order (j, then k), the
// order World lists them before shuffling (World.java:84-98), as
// indexes j*Size+k.
func (m *Map) Spawns() []int {
	var s []int
	for i, c := range m.Tiles {
		if c == Spawn {
			s = append(s, i)
		}
	}
	return s
}

// Neighbor returns the tile next to (j, k) in direction d and whether it
// is on the map.
func (m *Map) Neighbor(j, k int, d Dir) (nj, nk int, ok bool) {
	nj, nk = j+dirDelta[d][0], k+dirDelta[d][1]
	return nj, nk, nj >= 0 && nk >= 0 && nj < m.Size && nk < m.Size
}

// MapError is a problem in a map file: Line is 1-based (0 when the
// problem is the file as a whole).
type MapError struct {
	Line int
	Err  error
}

func (e *MapError) Error() string {
	if e.Line == 0 {
		return "skyport: map: " + e.Err.Error()
	}
	return fmt.Sprintf("skyport: map line %d: %v", e.Line, e.Err)
}

func (e *MapError) Unwrap() error { return e.Err }

// ErrMapTooLarge is returned for a file over MaxMapBytes.
var ErrMapTooLarge = errors.New("file larger than 1 MiB")

// ParseMap reads a .skyportmap file as WorldParser does (RULES-SKYPORT.md
// §1): the players, size and description header lines, then the
// drawing's rows, one anti-diagonal each, with '/', '\', '_', space and
// tab deleted and empty rows skipped. A row of the wrong length is
// skipped as the reference skips it. Where the reference would crash or
// exit (a bad header, an unknown tile code in a row it reads, rows
// missing at the end), ParseMap returns a *MapError naming the line.
// Lines end with "\n", "\r\n" or "\r". It never panics.
func ParseMap(data []byte) (*Map, error) {
	if len(data) > MaxMapBytes {
		return nil, &MapError{Err: ErrMapTooLarge}
	}
	lines := splitLines(data)
	ln := 0
	next := func() (string, bool) {
		if ln >= len(lines) {
			return "", false
		}
		ln++
		return lines[ln-1], true
	}
	m := &Map{}
	// Header (WorldParser.java:28-45): tokens split on single
	// whitespace characters, the second parsed as an int.
	for h := 0; h < 3; h++ {
		s, ok := next()
		if !ok {
			return nil, &MapError{Line: ln + 1, Err: errors.New("missing header line (players, size, description)")}
		}
		toks := javaSplitWS(s)
		if len(toks) < 2 {
			return nil, &MapError{Line: ln, Err: fmt.Errorf("header line %q has no second token", clip(s))}
		}
		switch h {
		case 0, 1:
			n, ok := parseJavaInt(toks[1])
			if !ok {
				return nil, &MapError{Line: ln, Err: fmt.Errorf("header value %q is not an integer", clip(toks[1]))}
			}
			v := int(n)
			if h == 0 {
				m.Players = v
			} else {
				if v < 1 || v > MaxSize {
					return nil, &MapError{Line: ln, Err: fmt.Errorf("size %d out of range 1..%d", v, MaxSize)}
				}
				m.Size = v
			}
		case 2:
			d := toks[1]
			for _, t := range toks[2:] {
				d += " " + t
			}
			rs := []rune(d)
			if len(rs) < 2 {
				return nil, &MapError{Line: ln, Err: fmt.Errorf("description %q shorter than its two quotes", clip(d))}
			}
			m.Description = string(rs[1 : len(rs)-1])
		}
	}
	D := m.Size
	m.Tiles = make([]byte, D*D)
	row := func(want int) ([]byte, int, error) {
		for {
			s, ok := next()
			if !ok {
				return nil, 0, &MapError{Line: ln + 1, Err: fmt.Errorf("file ends before a row of %d tiles", want)}
			}
			var codes []byte
			n := 0
			for _, r := range s {
				switch r {
				case '/', '\\', '_', ' ', '\t':
					continue
				}
				n++
				if r < utf8.RuneSelf {
					codes = append(codes, byte(r))
				} else {
					codes = append(codes, 0)
				}
			}
			if n == 0 || n != want {
				continue // empty or wrong length: skipped (WorldParser.java:61-65,145-148)
			}
			for i, c := range codes {
				if TileIndex(c) < 0 {
					return nil, 0, &MapError{Line: ln, Err: fmt.Errorf("unknown tile code %q at tile %d", []rune(stripDrawing(s))[i], i+1)}
				}
			}
			return codes, ln, nil
		}
	}
	for r := 0; r < D; r++ {
		codes, _, err := row(r + 1)
		if err != nil {
			return nil, err
		}
		for i, c := range codes {
			m.Tiles[(r-i)*D+i] = c
		}
	}
	for q := 1; q < D; q++ {
		codes, _, err := row(D - q)
		if err != nil {
			return nil, err
		}
		for i, c := range codes {
			m.Tiles[(D-1-i)*D+q+i] = c
		}
	}
	return m, nil
}

func stripDrawing(s string) string {
	b := make([]rune, 0, len(s))
	for _, r := range s {
		switch r {
		case '/', '\\', '_', ' ', '\t':
			continue
		}
		b = append(b, r)
	}
	return string(b)
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// splitLines splits as Scanner.nextLine does: "\r\n", "\n", "\r",
// U+2028, U+2029 and U+0085 end a line; a last line without terminator
// counts if it is not empty.
func splitLines(data []byte) []string {
	var out []string
	start := 0
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c == '\n':
			out = append(out, string(data[start:i]))
			i++
			start = i
		case c == '\r':
			out = append(out, string(data[start:i]))
			i++
			if i < len(data) && data[i] == '\n' {
				i++
			}
			start = i
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(data[i:])
			if r == '\u2028' || r == '\u2029' || r == '\u0085' {
				out = append(out, string(data[start:i]))
				start = i + n
			}
			i += n
		default:
			i++
		}
	}
	if start < len(data) {
		out = append(out, string(data[start:]))
	}
	return out
}

// javaSplitWS is String.split("\\s"): split on every single whitespace
// character, trailing empty strings removed.
func javaSplitWS(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	out = append(out, s[start:])
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// parseJavaInt is Integer.parseInt for ASCII input: an optional sign,
// then one or more decimal digits, the value within int32; ok false where
// parseInt throws.
func parseJavaInt[T ~string | ~[]byte](s T) (v int32, ok bool) {
	if len(s) == 0 {
		return 0, false
	}
	neg := false
	i := 0
	if s[0] == '+' || s[0] == '-' {
		neg = s[0] == '-'
		i = 1
		if len(s) == 1 {
			return 0, false
		}
	}
	var n int64
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
		if n > 1<<31 {
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	if n > 1<<31-1 || n < -1<<31 {
		return 0, false
	}
	return int32(n), true
}
