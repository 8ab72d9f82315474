package rules

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// CommandKind is the kind of a player command.
type CommandKind uint8

// Command kinds. CmdInvalid is a command that could not be parsed; applying
// it produces exactly one error and has no effect.
const (
	CmdInvalid CommandKind = iota
	CmdAttack
	CmdBuild
	CmdUpgrade
)

// Command is one parsed player command.
//
// For CmdAttack, X, Y and Energy are set. For CmdBuild, X, Y and Building
// are set; Building is BuildingNone when the letter was not one of h, g, e,
// f (the command then fails when applied, after the ownership checks, as on
// the reference server). For CmdUpgrade, X and Y are set. For CmdInvalid,
// Err says why parsing failed and Raw holds the text verbatim so that a
// recording can reproduce the error.
type Command struct {
	Kind     CommandKind
	Building Building
	Err      ErrCode
	X, Y     int
	Energy   int64
	Raw      string
}

// ParseCommand parses one command in the official text form:
//
//	a X Y ENERGY   attack cell (X, Y) with ENERGY
//	b X Y LETTER   build LETTER (h Home, g GoldMine, e EnergyWell, f Fortress)
//	u X Y          upgrade the building on (X, Y)
//
// Fields are separated by runs of whitespace (as Python's str.split()),
// leading and trailing whitespace is ignored, and fields after the ones a
// command needs are ignored. Integers follow Python's int(): an optional sign,
// ASCII digits, single underscores between digits. Integers that do not fit
// in 63 bits are reported as ErrBadInteger (on the reference server such a
// command fails its range or energy check, so the outcome is the same).
//
// ParseCommand never fails: a malformed command comes back as a CmdInvalid
// command carrying the reason, so that applying it yields one error. It does
// not allocate.
func ParseCommand(s string) Command {
	var f [4]string
	n := splitFields(s, f[:])
	if n == 0 {
		return Command{Kind: CmdInvalid, Err: ErrEmpty, Raw: s}
	}
	var c Command
	var need int
	switch f[0] {
	case "a":
		c.Kind, need = CmdAttack, 4
	case "b":
		c.Kind, need = CmdBuild, 4
	case "u":
		c.Kind, need = CmdUpgrade, 3
	default:
		return Command{Kind: CmdInvalid, Err: ErrUnknownCommand, Raw: s}
	}
	if n < need {
		return Command{Kind: CmdInvalid, Err: ErrTooFewFields, Raw: s}
	}
	x, ok1 := parsePyInt(f[1])
	y, ok2 := parsePyInt(f[2])
	if !ok1 || !ok2 {
		return Command{Kind: CmdInvalid, Err: ErrBadInteger, Raw: s}
	}
	// Coordinates beyond int32 are off any map; clamp so int is safe on 386.
	c.X, c.Y = clampCoord(x), clampCoord(y)
	switch c.Kind {
	case CmdAttack:
		e, ok := parsePyInt(f[3])
		if !ok {
			return Command{Kind: CmdInvalid, Err: ErrBadInteger, Raw: s}
		}
		c.Energy = e
	case CmdBuild:
		if len(f[3]) == 1 && f[3][0] != ' ' {
			c.Building, _ = BuildingFromLetter(f[3][0])
		}
	}
	return c
}

// AppendParsed appends the commands of lines, each through ParseCommand,
// to dst and returns it.
func AppendParsed(dst []Command, lines []string) []Command {
	for _, s := range lines {
		dst = append(dst, ParseCommand(s))
	}
	return dst
}

func clampCoord(v int64) int {
	const lim = 1 << 30
	if v > lim {
		return lim
	}
	if v < -lim {
		return -lim
	}
	return int(v)
}

// isPySpace reports whether r is whitespace for Python's str.split().
func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// splitFields splits s on whitespace into at most len(dst) fields (later
// fields are dropped) and returns how many fields it stored.
func splitFields(s string, dst []string) int {
	n := 0
	i := 0
	for i < len(s) && n < len(dst) {
		// skip whitespace
		for i < len(s) {
			r, sz := rune(s[i]), 1
			if r >= utf8.RuneSelf {
				r, sz = utf8.DecodeRuneInString(s[i:])
			}
			if !isPySpace(r) {
				break
			}
			i += sz
		}
		if i >= len(s) {
			break
		}
		start := i
		for i < len(s) {
			r, sz := rune(s[i]), 1
			if r >= utf8.RuneSelf {
				r, sz = utf8.DecodeRuneInString(s[i:])
			}
			if isPySpace(r) {
				break
			}
			i += sz
		}
		dst[n] = s[start:i]
		n++
	}
	return n
}

// parsePyInt parses s like Python's int(s) for ASCII input. ok is false for
// anything Python would reject and for values outside int64.
func parsePyInt(s string) (v int64, ok bool) {
	if s == "" {
		return 0, false
	}
	neg := false
	switch s[0] {
	case '+':
		s = s[1:]
	case '-':
		neg = true
		s = s[1:]
	}
	if s == "" {
		return 0, false
	}
	var u uint64
	prevDigit := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			if !prevDigit || i == len(s)-1 {
				return 0, false
			}
			prevDigit = false
			continue
		}
		if c < '0' || c > '9' {
			return 0, false
		}
		prevDigit = true
		if u > (1<<63)/10 {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
		if u > 1<<63 {
			return 0, false
		}
	}
	if neg {
		return -int64(u), true // -(1<<63) wraps to itself, which is correct
	}
	if u > 1<<63-1 {
		return 0, false
	}
	return int64(u), true
}

// ErrCode says why a command failed. The zero value means no error.
type ErrCode uint8

// Command error codes.
const (
	ErrNone ErrCode = iota
	ErrEmpty
	ErrUnknownCommand
	ErrTooFewFields
	ErrBadInteger
	// ErrBotFault stands in for a round in which a bot failed to answer
	// properly (timeout, crash, garbage); the runner records it as one
	// malformed command whose Raw text says what happened.
	ErrBotFault
	ErrOffMap
	ErrNotEnoughEnergy
	ErrNegativeEnergy
	ErrNotAdjacent
	ErrNotOwnCell
	ErrCellHasBuilding
	ErrBadBuildingLetter
	ErrNotEnoughGold
	ErrHomeExists
	ErrNoHome
	ErrNoBuilding
	ErrMaxLevel
	ErrUpgradeHomeFirst
	numErrCodes
)

var errText = [numErrCodes]string{
	ErrNone:              "no error",
	ErrEmpty:             "empty command",
	ErrUnknownCommand:    "unknown command letter (want a, b or u)",
	ErrTooFewFields:      "too few fields",
	ErrBadInteger:        "field is not an integer",
	ErrBotFault:          "the bot failed to answer",
	ErrOffMap:            "cell is off the map",
	ErrNotEnoughEnergy:   "not enough energy",
	ErrNegativeEnergy:    "attack energy is negative",
	ErrNotAdjacent:       "no adjacent cell owned by the player",
	ErrNotOwnCell:        "cell is not the player's",
	ErrCellHasBuilding:   "cell already has a building",
	ErrBadBuildingLetter: "unknown building letter (want h, g, e or f)",
	ErrNotEnoughGold:     "not enough gold",
	ErrHomeExists:        "a home exists or is being built",
	ErrNoHome:            "a home is needed to build this",
	ErrNoBuilding:        "cell has no building",
	ErrMaxLevel:          "building is at maximum level",
	ErrUpgradeHomeFirst:  "upgrade the home first",
}

// String returns a human-readable description of the error.
func (e ErrCode) String() string {
	if e < numErrCodes {
		return errText[e]
	}
	return "unknown error"
}

// Malformed reports whether the code is a parse error (the command text
// itself was bad) rather than a rule violation.
func (e ErrCode) Malformed() bool { return e >= ErrEmpty && e <= ErrBotFault }

// CommandError is one failed command of a round.
type CommandError struct {
	UID   int     // the player who sent it
	Index int     // its position in the player's command list
	Code  ErrCode // why it failed
}

// String returns the command in its official text form ("a 3 4 120",
// "b 3 4 g", "u 3 4"), which ParseCommand parses back to c. A build with
// an unknown letter is written with "?" as its letter. A CmdInvalid
// command returns its raw text when that parses back to its error code
// (always, for a command ParseCommand returned); when it does not (a
// recording kept only part of the text, or none) it returns the shortest
// text of that code (malformedText), so that playing String's text
// rejects the command with the same code. A bot fault (ErrBotFault),
// which no text gives, returns its raw text.
func (c Command) String() string {
	var b [40]byte
	return string(c.AppendText(b[:0]))
}

// AppendText appends String's text of c to dst and returns it.
func (c Command) AppendText(dst []byte) []byte {
	switch c.Kind {
	case CmdAttack:
		dst = c.appendCell(append(dst, 'a'))
		return strconv.AppendInt(append(dst, ' '), c.Energy, 10)
	case CmdBuild:
		l := c.Building.Letter()
		if c.Building == BuildingNone {
			l = '?'
		}
		dst = c.appendCell(append(dst, 'b'))
		return utf8.AppendRune(append(dst, ' '), rune(l))
	case CmdUpgrade:
		return c.appendCell(append(dst, 'u'))
	}
	if c.Err == ErrBotFault || ParseCommand(c.Raw).Err == c.Err {
		return append(dst, c.Raw...)
	}
	if t, ok := malformedText[c.Err]; ok {
		return append(dst, t...)
	}
	return append(dst, c.Raw...)
}

// appendCell appends " X Y".
func (c Command) appendCell(dst []byte) []byte {
	dst = strconv.AppendInt(append(dst, ' '), int64(c.X), 10)
	return strconv.AppendInt(append(dst, ' '), int64(c.Y), 10)
}

// malformedText is the shortest text ParseCommand rejects with each
// parse error code.
var malformedText = map[ErrCode]string{
	ErrEmpty:          "",
	ErrUnknownCommand: "?",
	ErrTooFewFields:   "a",
	ErrBadInteger:     "u ? ?",
}
