package rules

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Kind is a command's type, the "c" field of a bot's command.
type Kind uint8

// Command kinds. KindUnknown is any "c" other than the exact strings
// "MOVE", "BUILD" and "MINE" (other strings, case variants, numbers, null,
// lists): such a command takes part in the combat phase and is then
// dropped, as in the reference (RULES-MONAD.md §6.2, §6.3).
const (
	KindUnknown Kind = iota
	KindMove
	KindBuild
	KindMine
)

// String returns the kind as the reference spells it ("MOVE", "BUILD",
// "MINE"), or "?" for KindUnknown.
func (k Kind) String() string {
	switch k {
	case KindMove:
		return "MOVE"
	case KindBuild:
		return "BUILD"
	case KindMine:
		return "MINE"
	}
	return "?"
}

// Dir is a hex direction, 1..7 as the reference numbers them. DirImplicit
// (0) is the reference's None: the direction of an implicit mine, logged as
// null.
type Dir uint8

// Directions (params.py: Direction).
const (
	DirImplicit Dir = 0
	East        Dir = 1
	West        Dir = 2
	NorthEast   Dir = 3
	NorthWest   Dir = 4
	SouthEast   Dir = 5
	SouthWest   Dir = 6
	None        Dir = 7
)

// Opposite returns the opposite direction: East<->West, NorthEast<->SouthWest,
// NorthWest<->SouthEast; None and DirImplicit are their own opposites.
func (d Dir) Opposite() Dir {
	switch d {
	case East:
		return West
	case West:
		return East
	case NorthEast:
		return SouthWest
	case SouthWest:
		return NorthEast
	case NorthWest:
		return SouthEast
	case SouthEast:
		return NorthWest
	}
	return d
}

// deltas[parity][d] is (dx, dy) for direction d from a row of that parity.
var deltas = [2][8][2]int{
	{{0, 0}, {1, 0}, {-1, 0}, {1, -1}, {0, -1}, {1, 1}, {0, 1}, {0, 0}},
	{{0, 0}, {1, 0}, {-1, 0}, {0, -1}, {-1, -1}, {0, 1}, {-1, 1}, {0, 0}},
}

// Neighbor returns the position one step from (x, y) in direction d on the
// even-r hex grid (even rows shifted right): the delta depends on the parity
// of y. It does not check bounds, so the result may be off the map. For
// None, DirImplicit and any d outside 1..7 it returns (x, y).
func Neighbor(x, y int, d Dir) (int, int) {
	if d > None {
		return x, y
	}
	dd := deltas[y&1][d]
	return x + dd[0], y + dd[1]
}

// OnMap reports whether (x, y) is a cell of the 20×20 map.
func OnMap(x, y int) bool { return x >= 0 && x < Width && y >= 0 && y < Height }

// Command is one parsed command of a player: MOVE Count units from (X, Y)
// in direction Dir, BUILD a hive at (X, Y), or MINE (X, Y) with Count
// units. Count is never negative: the reference turns every count below 1
// into 0 (such a command is still executed and logged with n: 0).
//
// Err is non-zero when the command is malformed (see ParseCommand); Step
// then rejects it with that code and it has no effect at all. Step also
// rejects, with the same codes, a command built in Go whose origin is off
// the map, whose Dir is outside 1..7 or whose Count exceeds MaxCount.
//
// Raw is the text a rejected command was sent as, when it is known (Round
// keeps it, a record keeps it within MaxRawCommandBytes): what the replay
// page shows. Err, not Raw, decides what the command does.
type Command struct {
	X, Y  int
	Kind  Kind
	Dir   Dir
	Count int64
	Err   ErrCode
	Raw   string
}

// AppendText appends c to dst as the command object a bot sends,
// {"l":[x,y],"c":"MOVE","d":1,"n":3}, which ParseCommand reads back to
// c (Err aside; a KindUnknown is written "c":"?", and DirImplicit "d":0,
// which ParseCommand rejects: an implicit mine is no command a bot can
// send).
func (c Command) AppendText(dst []byte) []byte {
	dst = append(dst, `{"l":[`...)
	dst = strconv.AppendInt(dst, int64(c.X), 10)
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, int64(c.Y), 10)
	dst = append(dst, `],"c":"`...)
	dst = append(dst, c.Kind.String()...)
	dst = append(dst, `","d":`...)
	dst = strconv.AppendInt(dst, int64(c.Dir), 10)
	dst = append(dst, `,"n":`...)
	dst = strconv.AppendInt(dst, c.Count, 10)
	return append(dst, '}')
}

// MaxCount is the largest unit count a command may claim. The reference
// takes Python's unbounded integers; rewind rejects larger counts with
// ErrBadCount (no map ever holds 2^31 units).
const MaxCount = 1<<31 - 1

// ParseReply parses one bot reply, the JSON list of command objects the
// reference reads from a bot each turn, appending one Command per element
// to dst (in order, malformed ones included with their Err) and returning
// it. A reply that is not a JSON list becomes a single command with Err
// ErrNotList, which Step rejects: the player sends nothing that turn (the
// reference aborts the match; see ParseCommand).
func ParseReply(data []byte, dst []Command) []Command {
	var elems []json.RawMessage
	data = trimJSONSpace(data)
	if len(data) == 0 || data[0] != '[' || json.Unmarshal(data, &elems) != nil {
		return append(dst, Command{Err: ErrNotList})
	}
	for _, e := range elems {
		dst = append(dst, ParseCommand(e))
	}
	return dst
}

// ParseCommand parses one command object {"l": [x, y], "c": type, "d":
// dir, "n": count} as the reference's Command.from_dict accepts it: keys
// other than l, c, d, n are ignored (a repeated key counts with its last
// value, as Python's json does), "l" may hold more than two elements,
// "c" may be any JSON value (see KindUnknown), a count below 1 becomes 0.
//
// It never fails: a malformed command comes back with Err set. The checks
// run in this order, the first failure giving the code: the value is an
// object (ErrNotObject); l, c, d and n are all present (ErrMissingField);
// d is a JSON integer 1..7 (ErrBadDirection); l is a list whose first two
// elements are JSON integers (ErrBadPosition); n is a JSON integer no
// larger than MaxCount (ErrBadCount); (x, y) is on the map (ErrOffMap).
// "JSON integer" means a number written without fraction or exponent:
// 1.0 and true are rejected although Python would coerce them.
//
// This is rewind's one deviation from the reference: where the reference
// raises out of the turn and aborts the whole match (or coerces a float or
// boolean), rewind rejects that one command and the game plays on.
func ParseCommand(data []byte) Command {
	if c, ok := parseFast(data); ok {
		return c
	}
	return parseSlow(data)
}

// parseSlow is ParseCommand through encoding/json: the definition the fast
// path must agree with.
func parseSlow(data []byte) Command {
	var obj map[string]json.RawMessage
	data = trimJSONSpace(data)
	if len(data) == 0 || data[0] != '{' || json.Unmarshal(data, &obj) != nil {
		return Command{Err: ErrNotObject}
	}
	l, okL := obj["l"]
	c, okC := obj["c"]
	d, okD := obj["d"]
	n, okN := obj["n"]
	if !okL || !okC || !okD || !okN {
		return Command{Err: ErrMissingField}
	}
	var cmd Command
	dv, ok := jsonInt(d)
	if !ok || dv < 1 || dv > 7 {
		return Command{Err: ErrBadDirection}
	}
	cmd.Dir = Dir(dv)
	var pos []json.RawMessage
	if bytes.HasPrefix(trimJSONSpace(l), []byte("[")) && json.Unmarshal(l, &pos) == nil && len(pos) >= 2 {
		x, okx := jsonInt(pos[0])
		y, oky := jsonInt(pos[1])
		if !okx || !oky {
			return Command{Err: ErrBadPosition}
		}
		cmd.X, cmd.Y = clampCoord(x), clampCoord(y)
	} else {
		return Command{Err: ErrBadPosition}
	}
	nv, ok := jsonInt(n)
	switch {
	case !ok, nv > MaxCount:
		return Command{Err: ErrBadCount}
	case nv < 1:
		nv = 0
	}
	cmd.Count = nv
	cmd.Kind = kindOf(c)
	if !OnMap(cmd.X, cmd.Y) {
		return Command{Err: ErrOffMap}
	}
	return cmd
}

func kindOf(raw json.RawMessage) Kind {
	raw = trimJSONSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return KindUnknown
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return KindUnknown
	}
	switch s {
	case "MOVE":
		return KindMove
	case "BUILD":
		return KindBuild
	case "MINE":
		return KindMine
	}
	return KindUnknown
}

// jsonInt reads a JSON number written as an integer (no fraction, no
// exponent). Values beyond int64 saturate: callers only compare them with
// bounds far inside int64.
func jsonInt(raw json.RawMessage) (int64, bool) {
	s := string(trimJSONSpace(raw))
	if !isIntToken(s) {
		return 0, false
	}
	v, _ := strconv.ParseInt(s, 10, 64) // out of range: the saturated value
	return v, true
}

func isIntToken(s string) bool {
	if s == "" {
		return false
	}
	i := 0
	if s[0] == '-' {
		i = 1
	}
	if i == len(s) {
		return false
	}
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
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

// ErrCode says why a command failed or had no effect. The zero value means
// it was executed.
type ErrCode uint8

// Error codes. The malformed ones (ErrNotList .. ErrBadCount) and ErrOffMap
// are rewind's deviation: the command is rejected before the turn and has no
// effect at all. ErrUnknownType: the command collided in the combat phase
// like any other and was then dropped. ErrTargetOffMap, ErrNoUnits,
// ErrTooManyUnits: it failed the reference's verify_move when its turn to
// execute came, and is not logged. ErrOwnHive, ErrEnemyHive,
// ErrNotEnoughResources, ErrNoUnitHere: a BUILD that passed verification
// and is logged, but built nothing.
const (
	ErrNone ErrCode = iota
	ErrNotList
	ErrNotObject
	ErrMissingField
	ErrBadDirection
	ErrBadPosition
	ErrBadCount
	ErrOffMap
	ErrUnknownType
	ErrTargetOffMap
	ErrNoUnits
	ErrTooManyUnits
	ErrOwnHive
	ErrEnemyHive
	ErrNotEnoughResources
	ErrNoUnitHere
	numErrCodes
)

var errText = [numErrCodes]string{
	ErrNone:               "no error",
	ErrNotList:            "reply is not a JSON list",
	ErrNotObject:          "command is not a JSON object",
	ErrMissingField:       "command lacks one of l, c, d, n",
	ErrBadDirection:       "direction is not an integer 1..7",
	ErrBadPosition:        "l is not a list of two integers",
	ErrBadCount:           "n is not an integer up to 2^31-1",
	ErrOffMap:             "position is off the map",
	ErrUnknownType:        "unknown command type (want MOVE, BUILD or MINE)",
	ErrTargetOffMap:       "move target is off the map",
	ErrNoUnits:            "no units of the player there",
	ErrTooManyUnits:       "fewer units there than the count",
	ErrOwnHive:            "the cell already has the player's hive",
	ErrEnemyHive:          "the cell has an enemy hive",
	ErrNotEnoughResources: "fewer than 100 resources",
	ErrNoUnitHere:         "no unit of the player in the cell",
}

// String describes the code.
func (e ErrCode) String() string {
	if e < numErrCodes {
		return errText[e]
	}
	return "unknown error"
}

// Malformed reports whether the code rejects a command before the turn
// (rewind's deviation from the reference, which aborts the match).
func (e ErrCode) Malformed() bool { return e >= ErrNotList && e <= ErrOffMap }

// Logged reports whether a command with this code is executed and appears
// in the reference's log (ErrNone and the BUILD codes).
func (e ErrCode) Logged() bool { return e == ErrNone || e >= ErrOwnHive }
