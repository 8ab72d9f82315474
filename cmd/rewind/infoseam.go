package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/replay"
)

// seamInfo prints the rest of the info of a .rwd in the generic codec:
// its header, how many whole rounds, checkpoints, commands and faults it
// holds (read, not played), whether it is complete and the footer's
// ranking with each player's score, named by the ruleset's metric.
func seamInfo(w io.Writer, path string, data []byte, h *replay.Header) error {
	rs, err := engine.Get(h.Ruleset)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	info, _ := engine.About(h.Ruleset)
	codec := h.Codec
	if h.Compact() {
		codec = h.Ruleset + "'s own (compact)"
	}
	fmt.Fprintf(w, "  ruleset:  %s v%d (%s), codec %s\n  game:     max_turn %d, %d players\n", h.Ruleset, h.RulesetVersion, info.Name, codec, h.Config.MaxTurn, len(h.Players))
	switch {
	case h.Compact() && len(h.Setup) <= 200:
		// A compact header's setup is a JSON object (valid: no control
		// characters) with the seed.
		fmt.Fprintf(w, "  setup:    %s\n", h.Setup)
	case len(h.Setup) > 0:
		fmt.Fprintf(w, "  setup:    %d bytes (from a map file), seed %d\n", len(h.Setup), h.GameSeed)
	default:
		fmt.Fprintf(w, "  setup:    drawn from seed %d\n", h.GameSeed)
	}
	if g, err := h.NewGame(rs); err == nil {
		if s := g.Setting(); s != nil {
			writeSettings(w, s)
		}
	}
	if !h.Created.IsZero() {
		fmt.Fprintf(w, "  created:  %s\n", h.Created.UTC().Format(time.RFC3339))
	}
	fmt.Fprintf(w, "  tool:     %s\n  checkpoints every %d %s\n", h.Tool, h.CheckpointEvery, info.Round)
	writeParent(w, h)
	sum, err := replay.SummarizeText(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	status := "complete"
	switch {
	case errors.Is(sum.Err, replay.ErrTruncated):
		status = "incomplete (no footer: the recording stops after its last whole round)"
	case sum.Err != nil:
		status = "damaged"
	}
	fmt.Fprintf(w, "  %s: %d, %s; %d checkpoints; %d commands; %d bot faults\n", info.Round, sum.Rounds, status, sum.Checkpoints, sum.Commands, sum.Faults)
	if sum.Err != nil && !errors.Is(sum.Err, replay.ErrTruncated) {
		fmt.Fprintf(w, "  damage:   %v\n", sum.Err)
	}
	score := "score"
	if ms := rs.Metrics(); len(ms) > 0 {
		score = ms[engine.FooterIndex(rs, h.Compact())].Name
	}
	rank := map[int]int{}
	f := sum.Footer
	if f != nil {
		fmt.Fprintf(w, "  final:    turn %d, hash %016x\n", f.Turn, f.Hash)
		for i, uid := range f.Ranking {
			rank[uid] = i + 1
		}
	}
	fmt.Fprintf(w, "  players:\n")
	for _, p := range h.Players {
		bot := p.Bot
		if bot == "" {
			bot = "-"
		}
		line := fmt.Sprintf("    %d  %-24q  bot %s", p.UID, p.Name, bot)
		if f != nil {
			line += fmt.Sprintf("  rank %d, %s %d", rank[p.UID], score, f.Gold[p.UID-1])
		}
		fmt.Fprintln(w, line)
	}
	return nil
}
