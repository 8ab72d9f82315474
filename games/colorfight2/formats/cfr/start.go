package cfr

import (
	"errors"
	"fmt"
	"io"

	"github.com/rewind-game/rewind/engine"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
)

// errRoundsDone stops the walk once InferRounds has given what it wants.
var errRoundsDone = errors.New("cfr: rounds given")

// InferRounds reads an official replay as rewind import infers it (Walk)
// and gives its rounds 0 .. upTo-1 to round, in order, as the seam plays
// them: round t's commands per player as text, and its faults with their
// text (colorfight2.RoundText; the lists are valid during the call only).
// It stops after round upTo-1 and returns the game's start (its setup of
// the replay's configuration, map and players, their names, the official
// info object, and the ratings of the players' first frame) and the turn
// the replay reached (upTo, or less for a replay that ends first). A
// round the rules do not explain fails with *UnexplainedError, a frame
// they forbid with *AuditError; an error of round is returned as it is.
func InferRounds(r io.Reader, upTo int, round func(t int, cmds [][]string, faults []engine.Fault, faultText []string) error) (*engine.GameStart, int, error) {
	var cmds [][]string
	var faults []engine.Fault
	var faultText []string
	reached := 0
	g, err := Walk(r, func(g *Game, s *Step) error {
		if len(s.Violations) > 0 {
			return &AuditError{Violations: s.Violations}
		}
		if s.Unexplained != nil {
			return &UnexplainedError{Round: *s.Unexplained}
		}
		reached = s.Turn
		if t := s.Turn - 1; t < upTo {
			n := len(g.Players)
			if len(cmds) < n {
				cmds, faults, faultText = make([][]string, n), make([]engine.Fault, n), make([]string, n)
			}
			for p := range cmds {
				cmds[p] = cmds[p][:0]
			}
			clear(faults)
			clear(faultText)
			colorfight2.RoundText(s.Commands, cmds, faults, faultText)
			if err := round(t, cmds[:n], faults[:n], faultText[:n]); err != nil {
				return err
			}
		}
		if s.Turn >= upTo {
			return errRoundsDone
		}
		return nil
	})
	if err != nil && !errors.Is(err, errRoundsDone) {
		return nil, reached, err
	}
	setup, err := colorfight2.MarshalSetup(colorfight2.Setup{Config: g.Config, Map: g.Map, Players: g.Players})
	if err != nil {
		return nil, reached, fmt.Errorf("cfr: %w", err)
	}
	st := &engine.GameStart{Ruleset: colorfight2.Ruleset, Setup: setup, MaxTurns: g.Config.MaxTurn, Info: g.Header.Info, Verified: g.Verified, Ranking: g.Ranking}
	for _, p := range g.Players {
		st.Names = append(st.Names, p.Name)
	}
	return st, reached, nil
}
