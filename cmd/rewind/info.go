package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
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
re-simulating it: a .rwd of any game, or a game's official file.`,
		Example: `  rewind info game.rwd
  rewind info tournament/game-0001.rwd tournament/game-0002.rwd`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.files = args
			opts.stdout = cmd.OutOrStdout()
			for _, f := range args {
				if err := runInfo(opts, f); err != nil {
					return err
				}
			}
			return nil
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
	// A .cfr is described from its own header and frames below.
	if name, ok := source.StreamFormatOf(data[:min(len(data), source.SniffBytes)]); ok && name != string(source.CFR) {
		return streamInfo(w, path, data)
	}
	br := bufio.NewReader(bytes.NewReader(data))
	prefix, _ := br.Peek(8)
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
		if h.Generic() {
			return seamInfo(w, path, data, h)
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
	} else {
		d, err := cfr.NewDecoder(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		hd := d.Header()
		fmt.Fprintf(w, "  game:     %dx%d\n  info:     %s\n", hd.Width, hd.Height, hd.Info)
	}
	sum, err := source.Summarize(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(w, "  rounds:   %d, %s\n", sum.Rounds, sum.Status())
	if sum.Damage != nil {
		fmt.Fprintf(w, "  damage:   %v\n", sum.Damage)
	}
	if sum.Winner != 0 {
		fmt.Fprintf(w, "  leader:   %d %q, %d gold\n", sum.Winner, sum.PlayerName(sum.Winner), sum.WinnerGold)
	}
	fmt.Fprintf(w, "  players:\n")
	for _, p := range sum.Players {
		bot := p.Bot
		if bot == "" {
			bot = "-"
		}
		fmt.Fprintf(w, "    %d  %-24q%s  bot %s\n", p.UID, p.Name, homes[p.UID], bot)
	}
	return nil
}

// writeParent prints the game a fork plays on from, when h names one.
func writeParent(w io.Writer, h *replay.Header) {
	if h.Parent != nil {
		fmt.Fprintf(w, "  fork of:  %s (sha256 %s) from turn %d\n", h.Parent.Source, h.Parent.SHA256, h.Parent.Turn)
	}
}
