// Package cfrimport writes .rwd replays from ColorfightII's official
// files: Import infers the commands of a server's .cfr replay, Record
// plays a conformance vector's logged commands. It sits above both
// replay (the .rwd writer) and replay/cfr (the official format), which
// must not import replay: the game registry imports ColorfightII's
// vectors, which read .cfr, and replay imports the registry.
package cfrimport

import (
	"io"
	"path/filepath"
	"time"

	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/cfr"
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
	var rw *replay.Writer
	res := &ImportResult{}
	var last *colorfight2.State
	g, err := cfr.Walk(r, func(g *cfr.Game, s *cfr.Step) error {
		if len(s.Violations) > 0 {
			return &cfr.AuditError{Violations: s.Violations}
		}
		if s.Unexplained != nil {
			return &cfr.UnexplainedError{Round: *s.Unexplained}
		}
		if rw == nil {
			h := replay.Header{Config: g.Config, Map: g.Map, Created: opts.Created, Tool: opts.Tool,
				CFRInfo: g.Header.Info, Import: &replay.Import{Source: filepath.Base(opts.Source), SHA256: opts.SHA256, Inferred: true}}
			for i, p := range g.Players {
				h.Players = append(h.Players, replay.Player{UID: p.UID, Name: p.Name, Home: p.Home, Verified: g.Verified[i], Ranking: g.Ranking[i]})
			}
			var err error
			if rw, err = replay.NewWriter(w, h); err != nil {
				return err
			}
		}
		for _, c := range s.Commands {
			res.Commands += len(c)
		}
		res.Rounds = s.Turn
		last = s.State
		return rw.WriteRound(s.Commands, s.State)
	})
	if err != nil {
		return res, err
	}
	res.Warning = g.Truncated
	if rw != nil && last != nil && last.Over() {
		if err := rw.Close(last); err != nil {
			return res, err
		}
		res.Complete = true
	}
	return res, nil
}
