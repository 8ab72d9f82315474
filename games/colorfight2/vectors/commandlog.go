package vectors

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// Limits on a command log, so a hostile file cannot exhaust memory.
const (
	MaxCommandLogBytes = 256 << 20
	MaxTurns           = colorfight2.MaxMaxTurn
)

// CommandLog is a parsed NAME.commands.json.
type CommandLog struct {
	MaxTurn   int
	MaxPlayer int
	Players   int
	Seed      int64
	// Commands[t][uid-1] holds what player uid sent at turn t, to be
	// applied in round t -> t+1. len(Commands) == MaxTurn.
	Commands [][][]string
	// Errors[t][uid-1] is how many commands of player uid failed in the
	// round that produced turn t (t = 1..MaxTurn; Errors[0] is empty).
	Errors [][]int
}

type rawLog struct {
	MaxTurn   *int            `json:"max_turn"`
	MaxPlayer *int            `json:"max_player"`
	Players   *int            `json:"players"`
	Seed      json.RawMessage `json:"seed"`
	Turns     []struct {
		Turn     int                 `json:"turn"`
		Commands map[string][]string `json:"commands"`
	} `json:"turns"`
	Errors []struct {
		Turn   int                 `json:"turn"`
		Errors map[string][]string `json:"errors"`
	} `json:"errors"`
}

// ReadCommandLog parses a command log, checking that every turn and uid is
// in range. Errors name the file's offending entry.
func ReadCommandLog(r io.Reader) (*CommandLog, error) {
	var raw rawLog
	dec := json.NewDecoder(io.LimitReader(r, MaxCommandLogBytes+1))
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("command log: invalid JSON: %w", err)
	}
	if raw.MaxTurn == nil || raw.MaxPlayer == nil || raw.Players == nil {
		return nil, errors.New("command log: missing max_turn, max_player or players")
	}
	l := &CommandLog{MaxTurn: *raw.MaxTurn, MaxPlayer: *raw.MaxPlayer, Players: *raw.Players}
	if l.MaxTurn < 1 || l.MaxTurn > MaxTurns {
		return nil, fmt.Errorf("command log: max_turn %d outside 1..%d", l.MaxTurn, MaxTurns)
	}
	if l.Players < 1 || l.Players > colorfight2.MaxPlayers || l.Players > l.MaxPlayer {
		return nil, fmt.Errorf("command log: players %d invalid for max_player %d", l.Players, l.MaxPlayer)
	}
	_ = json.Unmarshal(raw.Seed, &l.Seed) // informational only
	l.Commands = make([][][]string, l.MaxTurn)
	for i, t := range raw.Turns {
		if t.Turn < 0 || t.Turn >= l.MaxTurn {
			return nil, fmt.Errorf("command log: turns[%d]: turn %d outside 0..%d", i, t.Turn, l.MaxTurn-1)
		}
		if l.Commands[t.Turn] == nil {
			l.Commands[t.Turn] = make([][]string, l.Players)
		}
		for k, cmds := range t.Commands {
			uid, err := parseUID(k, l.Players)
			if err != nil {
				return nil, fmt.Errorf("command log: turns[%d] (turn %d): %w", i, t.Turn, err)
			}
			l.Commands[t.Turn][uid-1] = append(l.Commands[t.Turn][uid-1], cmds...)
		}
	}
	l.Errors = make([][]int, l.MaxTurn+1)
	for i, e := range raw.Errors {
		if e.Turn < 1 || e.Turn > l.MaxTurn {
			return nil, fmt.Errorf("command log: errors[%d]: turn %d outside 1..%d", i, e.Turn, l.MaxTurn)
		}
		if l.Errors[e.Turn] == nil {
			l.Errors[e.Turn] = make([]int, l.Players)
		}
		for k, msgs := range e.Errors {
			uid, err := parseUID(k, l.Players)
			if err != nil {
				return nil, fmt.Errorf("command log: errors[%d] (turn %d): %w", i, e.Turn, err)
			}
			l.Errors[e.Turn][uid-1] += len(msgs)
		}
	}
	return l, nil
}

func parseUID(k string, players int) (int, error) {
	uid, err := strconv.Atoi(k)
	if err != nil || uid < 1 || uid > players {
		return 0, fmt.Errorf("uid %q is not one of 1..%d", k, players)
	}
	return uid, nil
}

// ErrorCount returns how many commands of player uid failed in the round
// that produced turn t.
func (l *CommandLog) ErrorCount(t, uid int) int {
	if t < 0 || t >= len(l.Errors) || l.Errors[t] == nil {
		return 0
	}
	return l.Errors[t][uid-1]
}
