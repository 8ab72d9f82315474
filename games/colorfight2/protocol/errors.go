package protocol

import (
	"strings"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// reasons holds, in one place, the reference server's wording of a failed
// command, by command kind and error code: "<cmd> failed, <reason>.".
var reasons = map[colorfight2.CommandKind]map[colorfight2.ErrCode]string{
	colorfight2.CmdAttack: {
		colorfight2.ErrOffMap:          "Attack position is not in the map",
		colorfight2.ErrNotEnoughEnergy: "Do not have enough energy to attack",
		colorfight2.ErrNotAdjacent:     "No valid surrounding cell to attack",
		// rewind's deviation (docs/rules.md): the reference accepts it.
		colorfight2.ErrNegativeEnergy: "Attack energy can not be negative",
	},
	colorfight2.CmdBuild: {
		colorfight2.ErrOffMap:            "Build position is not in the map",
		colorfight2.ErrNotOwnCell:        "You need to build on your own cell",
		colorfight2.ErrCellHasBuilding:   "There is a building on this cell already",
		colorfight2.ErrBadBuildingLetter: "Not a correct building",
		colorfight2.ErrNotEnoughGold:     "Not enough gold",
		colorfight2.ErrHomeExists:        "You can only have one home",
		colorfight2.ErrNoHome:            "You need to have a home before build other buildings",
	},
	colorfight2.CmdUpgrade: {
		colorfight2.ErrOffMap:           "Upgrade position is not in the map",
		colorfight2.ErrNotOwnCell:       "You need to upgrade on your own cell",
		colorfight2.ErrNoBuilding:       "You can not upgrade empty cell",
		colorfight2.ErrMaxLevel:         "Level is already at maximum",
		colorfight2.ErrUpgradeHomeFirst: "You need to upgrade home first",
		colorfight2.ErrNotEnoughEnergy:  "Not enough energy",
		colorfight2.ErrNotEnoughGold:    "Not enough gold",
	},
}

// commandError returns the reference server's error message for command
// raw (as the player sent it), parsed as c, failing with code.
func commandError(raw string, c colorfight2.Command, code colorfight2.ErrCode) string {
	if c.Kind != colorfight2.CmdInvalid {
		if r, ok := reasons[c.Kind][code]; ok {
			return raw + " failed, " + r + "."
		}
		return raw + " failed, " + code.String() + "."
	}
	fields := strings.Fields(raw)
	switch code {
	case colorfight2.ErrBotFault:
		// a missed lock-step round: the text says what happened
		return raw
	case colorfight2.ErrEmpty:
		return raw + " is not a command"
	case colorfight2.ErrUnknownCommand:
		t := ""
		if len(fields) > 0 {
			t = fields[0]
		}
		return raw + " is a wrong command, cmd type " + t + " is invalid"
	case colorfight2.ErrTooFewFields:
		// Python's IndexError on the missing field.
		return raw + " is a wrong command, list index out of range"
	case colorfight2.ErrBadInteger:
		// Python's int() on the first field that is not an integer.
		for i, f := range fields {
			if i == 0 || i > 3 || (i == 3 && fields[0] != "a") {
				continue
			}
			if !pyIntLike(f) {
				return raw + " is a wrong command, invalid literal for int() with base 10: " + pyRepr(f)
			}
		}
		return raw + " is a wrong command, integer out of range"
	}
	return raw + " is a wrong command, " + code.String()
}

// pyIntLike reports whether s has the shape of a Python int literal.
func pyIntLike(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != '_' {
			return false
		}
	}
	return true
}

// pyRepr quotes s as Python's repr does for simple strings.
func pyRepr(s string) string {
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
