// Package cfrimport writes .rwd replays from ColorfightII's official
// files: Import infers the commands of a server's .cfr replay, Record
// plays a conformance vector's logged commands. It sits above both
// replay (the .rwd writer) and games/colorfight2/formats/cfr (the official format), which
// must not import replay: the game registry imports ColorfightII's
// vectors, which read .cfr, and replay imports the registry.
package cfrimport

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/replay"
)

// ImportOptions describe an import.
type ImportOptions struct {
	// Source names the official replay (its base name goes in the header)
	// and SHA256 is the hex SHA-256 of its bytes (see cfr.SHA256).
	Source, SHA256 string
	Created        time.Time
	Tool           string
}

// ImportResult is what Import did.
type ImportResult struct {
	Rounds   int
	Commands int
	Complete bool  // the replay reached max_turn and the .rwd has its footer
	Warning  error // a damaged replay imported up to its last whole frame
}

// Import reads an official replay from r and writes to w a .rwd whose
// commands — inferred round by round (cfr.Walk) — re-simulate to every frame of
// it. The header says the commands are inferred and names the source's
// SHA-256. A replay that breaks the rules is not imported: the error is an
// *cfr.AuditError listing the violations (nothing is written after the first).
// A replay with a round the inference cannot explain, and the rules do not
// refute, is not imported either: the error is a *cfr.UnexplainedError.
func Import(r io.Reader, w io.Writer, opts ImportOptions) (*ImportResult, error) {
	var rw replay.GameWriter
	var rg *colorfight2.Game
	res := &ImportResult{}
	g, err := cfr.Walk(r, func(g *cfr.Game, s *cfr.Step) error {
		if len(s.Violations) > 0 {
			return &cfr.AuditError{Violations: s.Violations}
		}
		if s.Unexplained != nil {
			return &cfr.UnexplainedError{Round: *s.Unexplained}
		}
		if rw == nil {
			var err error
			rg, rw, err = newRecording(w, colorfight2.Setup{Config: g.Config, Map: g.Map, Players: g.Players}, func(h *replay.Header) {
				h.Created, h.Tool, h.CFRInfo = opts.Created, opts.Tool, g.Header.Info
				h.Import = &replay.Import{Source: filepath.Base(opts.Source), SHA256: opts.SHA256, Inferred: true}
				for i := range h.Players {
					h.Players[i].Verified, h.Players[i].Ranking = g.Verified[i], g.Ranking[i]
				}
			})
			if err != nil {
				return err
			}
		}
		for _, c := range s.Commands {
			res.Commands += len(c)
		}
		res.Rounds = s.Turn
		return playRound(rw, rg, s.Commands, s.State)
	})
	if err != nil {
		return res, err
	}
	res.Warning = g.Truncated
	if rw != nil && rg.Over() {
		if err := rw.Close(rg); err != nil {
			return res, err
		}
		res.Complete = true
	}
	return res, nil
}

// newRecording starts a .rwd of the ColorfightII game su describes, under
// the header the seam gives it (replay.GameHeader: its own codec, the map
// explicit) as edit completes it, and returns the game, at turn 0, and
// the writer of its rounds.
func newRecording(w io.Writer, su colorfight2.Setup, edit func(h *replay.Header)) (*colorfight2.Game, replay.GameWriter, error) {
	g, err := colorfight2.NewSetupGame(su, engine.Settings{})
	if err != nil {
		return nil, nil, err
	}
	names := make([]string, len(su.Players))
	for i, p := range su.Players {
		names[i] = p.Name
	}
	h, err := replay.GameHeader(colorfight2.Ruleset, g, 0, nil, su.Config.MaxTurn, names, nil)
	if err != nil {
		return nil, nil, err
	}
	edit(&h)
	rw, err := replay.NewGameWriter(w, h)
	if err != nil {
		return nil, nil, err
	}
	return g, rw, nil
}

// playRound plays a round of commands found elsewhere on g
// (colorfight2.Game.PlayApplied) and writes its record; want, when not
// nil, is the state the round must reach there.
func playRound(rw replay.GameWriter, g *colorfight2.Game, cmds [][]colorfight2.Command, want *colorfight2.State) error {
	g.PlayApplied(cmds)
	if want != nil && (g.Turn() != want.Turn() || g.Hash() != want.Hash()) {
		return fmt.Errorf("cfrimport: the recording reached turn %d hash %016x, the inference turn %d hash %016x", g.Turn(), g.Hash(), want.Turn(), want.Hash())
	}
	return rw.WriteRound(nil, g)
}
