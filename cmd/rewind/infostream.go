package main

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"unicode"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/source"
)

// streamInfo prints the info of a replay of a registered stream format
// (an official format read as generic frames, source.StreamFormat): its
// format, game, label, settings, how many turns it holds and whether it
// reads to its end, and the last frame's ranking with each player's
// score (the ruleset's score metric), as the file has them.
func streamInfo(w io.Writer, path string, data []byte) error {
	sum, m, err := source.SummarizeStream(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	name := m.Ruleset
	if info, ok := engine.About(m.Ruleset); ok {
		name = info.Name
	}
	fmt.Fprintf(w, "%s\n  format:   %s, %d bytes\n  game:     %s (ruleset %s v%d)\n", path, m.Format, len(data), name, m.Ruleset, m.RulesetVersion)
	if m.Label != "" {
		fmt.Fprintf(w, "  label:    %s\n", m.Label)
	}
	if m.Resimulated {
		fmt.Fprintf(w, "  frames:   re-simulated from the recorded commands\n")
	} else {
		fmt.Fprintf(w, "  frames:   read as recorded, not re-simulated\n")
	}
	writeSettings(w, m.Settings)
	status := "complete (read to the end)"
	if sum.Damage != nil {
		status = "damaged: the turns before the damage are shown"
	}
	fmt.Fprintf(w, "  turns:    %d, %s\n", sum.Rounds, status)
	if sum.Damage != nil {
		fmt.Fprintf(w, "  damage:   %v\n", sum.Damage)
	}
	score := "score"
	if m.Score >= 0 && m.Score < len(m.Metrics) {
		score = m.Metrics[m.Score].Name
	}
	fmt.Fprintf(w, "  players:  (at the last turn)\n")
	for _, p := range sum.Players {
		bot := p.Bot
		if bot == "" {
			bot = "-"
		}
		fmt.Fprintf(w, "    %d  %-24q  bot %s  rank %d, %s %d\n", p.UID-1, p.Name, bot, p.Rank, score, p.Score)
	}
	return nil
}

// writeSettings prints a game's settings (engine.Game.Setting, or a stream's
// own) one per line; a key or value with a character that is not
// printable is quoted, so a hostile file cannot move the terminal's
// cursor.
func writeSettings(w io.Writer, settings [][2]string) {
	safe := func(s string) string {
		for _, r := range s {
			if !unicode.IsPrint(r) {
				return strconv.Quote(s)
			}
		}
		return s
	}
	for _, kv := range settings {
		fmt.Fprintf(w, "  %-9s %s\n", safe(kv[0])+":", safe(kv[1]))
	}
}
