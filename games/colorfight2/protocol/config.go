package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	bot "github.com/rewind-game/rewind/games/colorfight2/bots"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// RoomConfig is a room's game configuration: the fields of the reference
// server's /restart config, plus rewind's lock-step mode and built-in bots.
type RoomConfig struct {
	// MaxTurn is the number of rounds, 200..2000.
	MaxTurn int
	// MaxPlayer is 2, 4 or 8.
	MaxPlayer int
	// RoundTime is the time between rounds in seconds, 0.2..20, or 0 for
	// lock-step: a round runs as soon as every connected player has sent
	// its commands (built-in bots are always ready), or at the server's
	// LockstepDeadline.
	RoundTime float64
	// FirstRoundTime says how turn 0 ends: "full" (registered players
	// plus Bots reach MaxPlayer), "never" (an admin's /start), or a
	// number of seconds 0..60 after the room's creation or restart,
	// written as decimal text ("10", "2.5").
	FirstRoundTime string
	// FinishTime: 0 keeps a finished game; otherwise the room restarts
	// (new map and game_id) that many seconds (0..60) after the end.
	FinishTime float64
	// AllowJoinAfterStart is reported as configured; rewind never seats a
	// player after turn 0 (docs/server.md).
	AllowJoinAfterStart bool
	// AllowManualMode is passed on in the info object.
	AllowManualMode bool
	// ReplayEnable is "always", "never" or "end": when
	// /gameroom/{id}/replay serves the game.
	ReplayEnable string
	// RoomDescription is at most 500 characters.
	RoomDescription string
	// Bots are built-in bot names (games/colorfight2/bots.Builtin) that fill the free
	// seats at the start, in order.
	Bots []string
	// WaitFor, when above 0, ends turn 0 as soon as that many players
	// have registered through the protocol (official bots), whatever
	// FirstRoundTime says: the built-in Bots wait for them, then fill
	// their seats (rewind; 0..MaxPlayer).
	WaitFor int
}

// presets mirror the reference server's config presets.
var presets = map[string]RoomConfig{
	"default":  {MaxTurn: 500, MaxPlayer: 8, RoundTime: 1, FirstRoundTime: "1", AllowJoinAfterStart: true, AllowManualMode: true, ReplayEnable: "never"},
	"official": {MaxTurn: 500, MaxPlayer: 8, RoundTime: 1, FirstRoundTime: "never", ReplayEnable: "end"},
	"rank_2": {MaxTurn: 300, MaxPlayer: 2, RoundTime: 1, FirstRoundTime: "full", FinishTime: 30, ReplayEnable: "end",
		RoomDescription: "Rank room. The result will be reported for ranking. 2 player room. Start when full and restart 30s after finish."},
	"rank_4": {MaxTurn: 400, MaxPlayer: 4, RoundTime: 1, FirstRoundTime: "full", FinishTime: 30, ReplayEnable: "end",
		RoomDescription: "Rank room. The result will be reported for ranking. 4 player room. Start when full and restart 30s after finish."},
	"rank_8": {MaxTurn: 500, MaxPlayer: 8, RoundTime: 1, FirstRoundTime: "full", FinishTime: 30, ReplayEnable: "end",
		RoomDescription: "Rank room. The result will be reported for ranking. 8 player room. Start when full and restart 30s after finish."},
	"duel": {MaxTurn: 500, MaxPlayer: 2, RoundTime: 1, FirstRoundTime: "full", FinishTime: 30, ReplayEnable: "end",
		RoomDescription: "This is the test duel room. Only two players are allowed in the room. The game will start as long as two players both join the game. The replay will be saved at the end of the game and the game will restart after it's saved. Manual mode is also disallowed in this room."},
	"test-run":     {MaxTurn: 500, MaxPlayer: 8, RoundTime: 1, FirstRoundTime: "full", FinishTime: 20, ReplayEnable: "end"},
	"constant-run": {MaxTurn: 500, MaxPlayer: 8, RoundTime: 1, FirstRoundTime: "10", FinishTime: 20, AllowJoinAfterStart: true, AllowManualMode: true, ReplayEnable: "never"},
}

// Preset returns the reference server's config preset called name
// (default, official, rank_2, rank_4, rank_8, duel, test-run,
// constant-run); ok is false for any other name.
func Preset(name string) (RoomConfig, bool) {
	c, ok := presets[name]
	return c, ok
}

// Validate reports the first field outside the ranges /restart accepts,
// in the reference server's wording (rewind adds round_time 0 and bots).
func (c RoomConfig) Validate() error {
	switch {
	case c.MaxTurn < colorfight2.MinMaxTurn || c.MaxTurn > colorfight2.MaxMaxTurn:
		return errMsg("max_turn value invalid")
	case c.MaxPlayer != 2 && c.MaxPlayer != 4 && c.MaxPlayer != 8:
		return errMsg("max_player value invalid")
	case utf8.RuneCountInString(c.RoomDescription) > 500 || !utf8.ValidString(c.RoomDescription):
		return errMsg("room_description value invalid, it needs to be a string under 500 chars")
	case !(c.RoundTime == 0 || (c.RoundTime >= 0.2 && c.RoundTime <= 20)):
		return errMsg("round_time value invalid")
	case c.FinishTime < 0 || c.FinishTime > 60 || math.IsNaN(c.FinishTime):
		return errMsg("finish_time value invalid")
	case c.ReplayEnable != "always" && c.ReplayEnable != "never" && c.ReplayEnable != "end":
		return errMsg("replay_enable value invalid")
	}
	if _, _, err := c.firstRound(); err != nil {
		return err
	}
	if len(c.Bots) > 8 {
		return errMsg("bots value invalid, at most 8 bots")
	}
	if c.WaitFor < 0 || c.WaitFor > c.MaxPlayer {
		return errMsg("wait_for value invalid, it needs to be 0..max_player")
	}
	for _, b := range c.Bots {
		if _, err := bot.Builtin(b); err != nil {
			return errMsg(fmt.Sprintf("bots value invalid, %q is not a built-in bot", b))
		}
	}
	return nil
}

// MinFinishTime is the shortest finish_time (other than 0, which keeps
// the finished game) a room's own password may set: below it, only the
// master admin password.
const MinFinishTime = 5.0

// masterOnly reports the first change from old that only the master admin
// password may make: lock-step (round_time 0), built-in bots, and a
// finish_time under MinFinishTime — the settings that let a room play
// games back to back at machine speed. Settings old already had (the
// operator's) are kept by any restart.
func (c RoomConfig) masterOnly(old RoomConfig) error {
	switch {
	case c.RoundTime == 0 && old.RoundTime != 0:
		return errMsg("round_time 0 (lock-step) needs the master admin password")
	case len(c.Bots) > 0 && !slices.Equal(c.Bots, old.Bots):
		return errMsg("bots need the master admin password")
	case c.FinishTime > 0 && c.FinishTime < MinFinishTime && c.FinishTime != old.FinishTime:
		return errMsg("finish_time under " + strconv.FormatFloat(MinFinishTime, 'f', -1, 64) + " s needs the master admin password")
	}
	return nil
}

// start modes of turn 0
const (
	startCountdown = iota
	startFull
	startNever
)

// firstRound decodes FirstRoundTime.
func (c RoomConfig) firstRound() (mode int, secs float64, err error) {
	switch c.FirstRoundTime {
	case "full":
		return startFull, 0, nil
	case "never":
		return startNever, 0, nil
	}
	v, perr := strconv.ParseFloat(c.FirstRoundTime, 64)
	if perr != nil || !(v >= 0 && v <= 60) {
		return 0, 0, errMsg("first_round_time value invalid")
	}
	return startCountdown, v, nil
}

// errMsg is an error whose text is sent to clients as err_msg.
type errMsg string

func (e errMsg) Error() string { return string(e) }

// applyJSON applies the /restart config object fields to c, with the
// reference's checks and error texts; c is unchanged on error.
func (c *RoomConfig) applyJSON(raw json.RawMessage) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return errMsg("Invalid data, config needs to be an object")
	}
	n := *c
	n.Bots = append([]string(nil), c.Bots...)
	// Map iteration order is random; check fields in a fixed order so
	// that the first error reported does not vary.
	for _, k := range sortedKeys(fields) {
		v := fields[k]
		switch k {
		case "max_turn":
			i, ok := jsonInt(v)
			if !ok || i < 200 || i > 2000 {
				return errMsg("max_turn value invalid")
			}
			n.MaxTurn = int(i)
		case "max_player":
			f, ok := jsonNumber(v)
			if !ok || (f != 2 && f != 4 && f != 8) {
				return errMsg("max_player value invalid")
			}
			n.MaxPlayer = int(f)
		case "room_description":
			var s string
			if json.Unmarshal(v, &s) != nil || utf8.RuneCountInString(s) > 500 {
				return errMsg("room_description value invalid, it needs to be a string under 500 chars")
			}
			n.RoomDescription = s
		case "round_time":
			f, ok := jsonNumber(v)
			if !ok || !(f == 0 || (f >= 0.2 && f <= 20)) {
				return errMsg("round_time value invalid")
			}
			n.RoundTime = f
		case "first_round_time":
			var s string
			if json.Unmarshal(v, &s) == nil {
				if s != "full" && s != "never" {
					return errMsg("first_round_time value invalid")
				}
				n.FirstRoundTime = s
				break
			}
			f, ok := jsonNumber(v)
			if !ok || f < 0 || f > 60 {
				return errMsg("first_round_time value invalid")
			}
			n.FirstRoundTime = strconv.FormatFloat(f, 'f', -1, 64)
		case "finish_time":
			f, ok := jsonNumber(v)
			if !ok || f < 0 || f > 60 {
				return errMsg("finish_time value invalid")
			}
			n.FinishTime = f
		case "allow_join_after_start", "allow_manual_mode":
			var b bool
			if json.Unmarshal(v, &b) != nil {
				return errMsg(k + " value invalid")
			}
			if k == "allow_join_after_start" {
				n.AllowJoinAfterStart = b
			} else {
				n.AllowManualMode = b
			}
		case "replay_enable":
			var s string
			if json.Unmarshal(v, &s) != nil || (s != "always" && s != "never" && s != "end") {
				return errMsg("replay_enable value invalid")
			}
			n.ReplayEnable = s
		case "wait_for":
			i, ok := jsonInt(v)
			if !ok || i < 0 || i > 8 {
				return errMsg("wait_for value invalid, it needs to be 0..max_player")
			}
			n.WaitFor = int(i)
		case "bots":
			var bs []string
			if json.Unmarshal(v, &bs) != nil {
				return errMsg("bots value invalid, it needs to be a list of built-in bot names")
			}
			n.Bots = bs
		default:
			return errMsg(fmt.Sprintf("Invalid field %s", k))
		}
	}
	if err := n.Validate(); err != nil {
		return err
	}
	*c = n
	return nil
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// insertion sort: configs have a handful of keys
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// jsonNumber decodes a JSON number (not a bool or string, unlike
// Python's loose checks, which also reject those).
func jsonNumber(v json.RawMessage) (float64, bool) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// jsonInt decodes a JSON integer written without fraction or exponent
// (Python's type(val) == int).
func jsonInt(v json.RawMessage) (int64, bool) {
	v = bytes.TrimSpace(v)
	i, err := strconv.ParseInt(string(v), 10, 64)
	return i, err == nil
}

// infoJSON is the "info" object of the state message and of the .cfr.
func infoJSON(c RoomConfig, countDown int, gameID string) []byte {
	b := make([]byte, 0, 256)
	b = append(b, `{"max_turn":`...)
	b = strconv.AppendInt(b, int64(c.MaxTurn), 10)
	b = append(b, `,"max_player":`...)
	b = strconv.AppendInt(b, int64(c.MaxPlayer), 10)
	b = append(b, `,"width":30,"height":30,"round_time":`...)
	b = appendFloat(b, c.RoundTime)
	b = append(b, `,"start_count_down":`...)
	b = strconv.AppendInt(b, int64(countDown), 10)
	b = append(b, `,"allow_manual_mode":`...)
	b = strconv.AppendBool(b, c.AllowManualMode)
	b = append(b, `,"game_id":"`...)
	b = append(b, gameID...) // digits only
	b = append(b, `","replay_version":2,"game_version":2}`...)
	return b
}

// appendFloat writes f as Python writes a float: always with a decimal
// point or exponent ("1.0", "0.5"). The Java client needs the point.
func appendFloat(b []byte, f float64) []byte {
	n := len(b)
	b = strconv.AppendFloat(b, f, 'g', -1, 64)
	if !bytes.ContainsAny(b[n:], ".eEn") {
		b = append(b, ".0"...)
	}
	return b
}

// secondsDuration converts seconds to a Duration.
func secondsDuration(secs float64) time.Duration {
	return time.Duration(secs * float64(time.Second))
}
