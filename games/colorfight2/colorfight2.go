// Package colorfight2 registers ColorfightII (a 30×30 territory and
// economy game of up to 8 players over 500 rounds, played as its official
// server plays it) with the engine: its rules (games/colorfight2/rules),
// built-in bots, conformance vectors, official .cfr replays and its
// official server protocol (games/colorfight2/protocol). A program that
// imports it (games/all does) plays, records, reads and serves the game.
package colorfight2

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/games/colorfight2/bots"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrimport"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr/cfrstream"
	"github.com/rewind-game/rewind/games/colorfight2/protocol"
	"github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/games/colorfight2/vectors"
)

// boardScript is the game's painter on the replay page.
//
//go:embed board.js
var boardScript []byte

func init() {
	engine.Register(engine.Registration{
		Ruleset: rules.Ruleset,
		Name:    "ColorfightII",
		// A match seats as many players as the default configuration's
		// max_player (8); the engine itself takes up to 64. The turn
		// limit is the reference server's 200..2000, narrower than what
		// the engine can run.
		MinPlayers: 2, MaxPlayers: rules.DefaultMaxPlayer,
		MinTurns: rules.MinMaxTurn, MaxTurns: rules.MaxMaxTurn, DefaultTurns: rules.DefaultMaxTurn,
		Round: "rounds",
		Bots:  bots.Builtins,
		Vectors: &engine.Vectors{Input: vectors.Input, Expected: vectors.Expected, Conform: vectors.Conform,
			Record: recordVector},
		// The official replay is gzip'd JSON, or JSON: the catch-all of
		// such content, tried after the formats that claim gzip or JSON
		// of their own (a Monad log, a Skyport .jsn). It records states,
		// not commands: import, audit and fork infer them.
		Formats: []engine.Format{{Name: cfrstream.Name, Exts: []string{".cfr"}, Sniff: cfrstream.Sniff, Catchall: true,
			Open: cfrstream.Open, OpenInferred: cfrstream.OpenInferred, Quiet: true, Summarize: cfrstream.Summarize,
			Import: importCFR, Audit: audit, InferRounds: inferRounds, Export: cfrimport.Export, Compare: compare}},
		Protocol:    protocol.Official{},
		OwnProtocol: true, ScoreDuels: true,
		BoardScript: boardScript,
		Document:    &rules.Document,
	})
}

// importCFR is the .cfr format's engine.Format.Import: cfrimport.Import.
func importCFR(r io.Reader, w io.Writer, opts engine.ImportOptions) (*engine.ImportResult, error) {
	res, err := cfrimport.Import(r, w, cfrimport.ImportOptions{Source: opts.Source, SHA256: opts.SHA256, Created: opts.Created, Tool: opts.Tool})
	if err != nil {
		return nil, rulesError(err)
	}
	return &engine.ImportResult{Rounds: res.Rounds, Commands: res.Commands, Complete: res.Complete, Warning: res.Warning}, nil
}

// audit is the .cfr format's engine.Format.Audit: cfr.Audit.
func audit(r io.Reader, limit int) (*engine.AuditResult, error) {
	res, err := cfr.Audit(r, limit)
	if err != nil {
		return nil, err
	}
	out := &engine.AuditResult{Rounds: res.Rounds, More: res.More}
	for _, v := range res.Violations {
		out.Violations = append(out.Violations, v.String())
	}
	for _, u := range res.Unexplained {
		out.Unexplained = append(out.Unexplained, u.String())
	}
	if res.Game != nil {
		out.Cut = res.Game.Truncated
	}
	return out, nil
}

// inferRounds is the .cfr format's engine.Format.InferRounds:
// cfr.InferRounds.
func inferRounds(r io.Reader, upTo int, round func(t int, cmds [][]string, faults []engine.Fault, faultText []string) error) (*engine.GameStart, int, error) {
	st, reached, err := cfr.InferRounds(r, upTo, round)
	if err != nil {
		return nil, reached, rulesError(err)
	}
	return st, reached, nil
}

// rulesError is err, from walking a .cfr, as an *engine.RulesError when
// it says the rules refute (*cfr.AuditError) or do not explain
// (*cfr.UnexplainedError) a round.
func rulesError(err error) error {
	var ae *cfr.AuditError
	if errors.As(err, &ae) && len(ae.Violations) > 0 {
		re := &engine.RulesError{Turn: ae.Violations[0].Turn, Err: err}
		for _, v := range ae.Violations {
			re.Violations = append(re.Violations, v.String())
		}
		return re
	}
	var ue *cfr.UnexplainedError
	if errors.As(err, &ue) {
		return &engine.RulesError{Turn: ue.Round.Turn, Unexplained: true, Err: err}
	}
	return err
}

// compare is the .cfr format's engine.Format.Compare:
// cfrimport.VerifyAgainst.
func compare(rwd, official io.Reader, officialName string) (*engine.Comparison, error) {
	want, err := cfrimport.OpenFrames(official)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", officialName, err)
	}
	defer want.Close()
	res, frames, err := cfrimport.VerifyAgainst(rwd, want)
	if err != nil {
		return nil, err
	}
	return &engine.Comparison{Rounds: res.Rounds, Complete: res.Complete, Frames: frames, Err: res.Err}, nil
}

// recordVector is ColorfightII's engine.Vectors.Record:
// cfrimport.RecordVector of the vector read by vectors.Read.
func recordVector(input, expected []byte, w io.Writer, created time.Time, tool string) (int, error) {
	g, err := vectors.Read(bytes.NewReader(input), bytes.NewReader(expected))
	if err != nil {
		return 0, err
	}
	if err := cfrimport.RecordVector(g, w, created, tool); err != nil {
		return 0, err
	}
	return g.Config.MaxTurn, nil
}
