package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/replay"
)

type infoOptions struct {
	files  []string
	stdout io.Writer
}

func newInfoCmd() *cobra.Command {
	opts := &infoOptions{}
	return &cobra.Command{
		Use:   "info FILE...",
		Short: "Print what a replay says about its game, without playing it",
		Long: `info prints what a replay says about its game: format, configuration, map,
players, provenance, how many rounds the file holds and whether it is
complete, and the leader at the last whole round. It reads the file without
re-simulating it: a .rwd of any game, or a game's official file. A .rwd of
a game whose players name themselves as it is played (joining a game in
progress under a name of their own) is played for those names.

Exit status: 0 every file is complete; 1 a file is damaged (its CRC, its
body or a record); 2 a file cannot be read; 3 a file is cut short and
sound as far as it goes. info reads every file given; the status is the
worst (1 before 3).`,
		Example: `  rewind info game.rwd
  rewind info tournament/game-0001.rwd tournament/game-0002.rwd`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.files = args
			opts.stdout = cmd.OutOrStdout()
			var status error
			for _, f := range args {
				err := runInfo(opts, f)
				var ee *exitError
				if err != nil && !errors.As(err, &ee) {
					return err
				}
				status = worseStatus(status, err)
			}
			return status
		},
	}
}

func runInfo(opts *infoOptions, path string) error {
	// Each pass reads its own copy: a .cfr decoder reads ahead in the
	// background, so a file it was given is not read by anything else.
	data, err := readReplayFile(path)
	if err != nil {
		return err
	}
	w := opts.stdout
	// A format with a summary pass of its own is described from its own
	// header and frames below.
	if f, ok := source.LookupStreamFormat(data[:min(len(data), source.SniffBytes)]); ok && source.SummarizedByStream(f) {
		return officialInfo(w, path, data)
	}
	br := bufio.NewReaderSize(bytes.NewReader(data), source.SniffBytes)
	prefix, _ := br.Peek(source.SniffBytes)
	format, err := source.Sniff(prefix)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(w, "%s\n  format:   %s, %d bytes\n", path, format, len(data))
	homes := map[int]string{}
	if format == source.RWD {
		h, err := replay.ReadHeader(br)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if !h.Legacy() {
			return rwdInfo(w, path, data, h)
		}
		c := h.Config
		fmt.Fprintf(w, "  ruleset:  %s v%d\n  game:     %dx%d, max_turn %d, max_player %d\n", h.Ruleset, h.RulesetVersion, c.Width, c.Height, c.MaxTurn, c.MaxPlayer)
		if h.Seed != nil {
			fmt.Fprintf(w, "  map:      generated from seed %d\n", *h.Seed)
		} else {
			fmt.Fprintf(w, "  map:      stored explicitly\n")
		}
		if !h.Created.IsZero() {
			fmt.Fprintf(w, "  created:  %s\n", h.Created.UTC().Format(time.RFC3339))
		}
		fmt.Fprintf(w, "  tool:     %s\n  checkpoints every %d rounds\n", h.Tool, h.CheckpointEvery)
		writeParent(w, h)
		if h.Import != nil {
			how := "recorded"
			if h.Import.Inferred {
				how = "inferred"
			}
			fmt.Fprintf(w, "  imported: from %s (sha256 %s); commands %s\n", h.Import.Source, h.Import.SHA256, how)
		}
		for _, p := range h.Players {
			homes[p.UID] = fmt.Sprintf("  home (%d,%d)", p.Home.X, p.Home.Y)
		}
	}
	sum, err := source.Summarize(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for _, kv := range sum.Settings {
		fmt.Fprintf(w, "  %-10s%s\n", kv[0]+":", kv[1])
	}
	fmt.Fprintf(w, "  rounds:   %d, %s\n", sum.Rounds, sum.Status())
	if sum.Damage != nil {
		fmt.Fprintf(w, "  damage:   %v\n", sum.Damage)
	}
	writeMarks(w, &sum.Marks, "rounds")
	if sum.Winner != 0 {
		fmt.Fprintf(w, "  leader:   %d %q, %d %s\n", sum.Winner, sum.PlayerName(sum.Winner), sum.WinnerScore, sum.Unit)
	}
	fmt.Fprintf(w, "  players:\n")
	for _, p := range sum.Players {
		bot := p.Bot
		if bot == "" {
			bot = "-"
		}
		fmt.Fprintf(w, "    %d  %-24q%s  bot %s\n", p.UID, p.Name, homes[p.UID], bot)
	}
	return stopStatusError(sum.Damage)
}

// writeMarks prints, per seat whose bot drew marks, how many in how many
// of the game's rounds (its word, plural: "rounds", "turns"), and from
// which turn on.
func writeMarks(w io.Writer, c *replay.MarkCount, rounds string) {
	for p, n := range c.Marks {
		if n > 0 {
			fmt.Fprintf(w, "  marks:    seat %d drew %d marks in %d %s, from its answer to turn %d on\n", p+1, n, c.Turns[p], rounds, c.First[p])
		}
	}
}

// writeParent prints the game a fork plays on from, when h names one.
func writeParent(w io.Writer, h *replay.Header) {
	if h.Parent != nil {
		fmt.Fprintf(w, "  fork of:  %s (sha256 %s) from turn %d\n", h.Parent.Source, h.Parent.SHA256, h.Parent.Turn)
	}
}

// rwdInfo prints the rest of the info of a .rwd whose header names its
// game by ruleset, setup and seed (replay.Header.Generic), in any codec:
// its header, how many whole rounds, checkpoints, commands and faults it
// holds (read, not played), whether it is complete and the footer's
// ranking with each player's score, named by the ruleset's metric. Its
// players go by their played names (source.PlayedNames: the recording
// of a game whose players name themselves during play is played for
// them).
func rwdInfo(w io.Writer, path string, data []byte, h *replay.Header) error {
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
	writeMarks(w, &sum.Marks, info.Round)
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
	names, err := source.PlayedNames(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(w, "  players:\n")
	for i, p := range h.Players {
		bot := p.Bot
		if bot == "" {
			bot = "-"
		}
		line := fmt.Sprintf("    %d  %-24q  bot %s", p.UID, names[i], bot)
		if f != nil {
			line += fmt.Sprintf("  rank %d, %s %d", rank[p.UID], score, f.Gold[p.UID-1])
		}
		fmt.Fprintln(w, line)
	}
	return stopStatusError(sum.Err)
}

// officialInfo prints the info of a replay of a registered stream format
// (an official format read as frames, source.StreamFormatOf): its
// format, game, label, settings, how many turns it holds and whether it
// reads to its end, and the last frame's ranking with each player's
// score (the ruleset's score metric), as the file has them.
func officialInfo(w io.Writer, path string, data []byte) error {
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
	status, why := "complete (read to the end)", "damage"
	switch {
	case source.CutShort(sum.Damage):
		status, why = "incomplete (cut short: the turns before the cut are shown)", "cut"
	case sum.Damage != nil:
		status = "damaged: the turns before the damage are shown"
	}
	fmt.Fprintf(w, "  turns:    %d, %s\n", sum.Rounds, status)
	if sum.Damage != nil {
		fmt.Fprintf(w, "  %-9s %v\n", why+":", sum.Damage)
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
		fmt.Fprintf(w, "    %d  %-24q  bot %s  rank %d, %s %d\n", p.UID, p.Name, bot, p.Rank, score, p.Score)
	}
	return stopStatusError(sum.Damage)
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
