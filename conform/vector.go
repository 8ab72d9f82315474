// Package conform replays conformance vectors — games played on the
// official ColorfightII server, given as a command log plus the server's own
// .cfr replay — on our engine and compares every field of every frame and
// the number of failed commands per player per round.
//
// The vector format is described in testdata/conformance/README.md: a pair of
// files NAME.commands.json and NAME.cfr.
package conform

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/rewind-game/rewind/engine/colorfight2"
)

// GameColorfight2 is the Game of a ColorfightII vector.
const GameColorfight2 = "colorfight2"

// Limits on a command log, so a hostile file cannot exhaust memory.
const (
	MaxCommandLogBytes = 256 << 20
	MaxTurns           = colorfight2.MaxMaxTurn
)

// Vector names one conformance vector: its command log and the
// reference's output (a .cfr replay for ColorfightII; another game's
// expected file, rulesets.Info.Vectors).
type Vector struct {
	Name     string // NAME, the common file-name stem
	Game     string // GameColorfight2 ("" too) or another registered game's id
	Commands string // path of NAME.commands.json (another game: its input file)
	CFR      string // path of NAME.cfr (ColorfightII)
	States   string // another game: the path of its expected file
	// Probes is set for another game's file of single-turn probes
	// (rulesets.Vectors.ProbesFile, at Commands): Rounds then counts its
	// cases.
	Probes bool
}

// Find expands paths — directories or vector files — into vectors
// (sorted by name within a directory, each game's in registry order). A
// directory contributes every vector of a registered game
// (rulesets.Info.Vectors: NAME+input with NAME+expected beside it, e.g.
// Monad's NAME.commands.json + NAME.states.json.gz) and every other
// *.commands.json as a ColorfightII vector, which needs NAME.cfr.
func Find(paths []string) ([]Vector, error) {
	var vs []Vector
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("conform: %w", err)
		}
		if st.IsDir() {
			ms, err := filepath.Glob(filepath.Join(p, "*.commands.json"))
			if err != nil {
				return nil, fmt.Errorf("conform: %s: %w", p, err)
			}
			seam, err := seamVectors(p)
			if err != nil {
				return nil, err
			}
			vs = append(vs, seam...)
			claimed := map[string]bool{}
			for _, v := range seam {
				claimed[v.Commands] = true
			}
			if len(ms) == 0 && len(seam) == 0 {
				return nil, fmt.Errorf("conform: %s: no vectors in directory", p)
			}
			sort.Strings(ms)
			for _, m := range ms {
				if claimed[m] {
					continue
				}
				v, err := vectorFor(m)
				if err != nil {
					return nil, err
				}
				vs = append(vs, v)
			}
			continue
		}
		v, err := vectorFor(p)
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	return vs, nil
}

func vectorFor(p string) (Vector, error) {
	if v, ok, err := seamVectorFor(p); ok || err != nil {
		return v, err
	}
	var stem string
	switch {
	case strings.HasSuffix(p, ".commands.json"):
		stem = strings.TrimSuffix(p, ".commands.json")
	case strings.HasSuffix(p, ".cfr"):
		stem = strings.TrimSuffix(p, ".cfr")
	default:
		return Vector{}, fmt.Errorf("conform: %s: not a vector file (want NAME.commands.json and NAME.cfr, or a registered game's vector files: %s)", p, strings.Join(seamEndings(), ", "))
	}
	v := Vector{Name: filepath.Base(stem), Game: GameColorfight2, Commands: stem + ".commands.json", CFR: stem + ".cfr"}
	for _, f := range []string{v.Commands, v.CFR} {
		if _, err := os.Stat(f); err != nil {
			return Vector{}, fmt.Errorf("conform: vector %s: %w", v.Name, err)
		}
	}
	return v, nil
}

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
