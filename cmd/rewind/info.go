package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/replay"
	"github.com/rewind-game/rewind/replay/cfr"
	"github.com/rewind-game/rewind/replay/source"
)

type infoOptions struct {
	files  []string
	stdout io.Writer
}

func newInfoCmd() *cobra.Command {
	opts := &infoOptions{}
	return &cobra.Command{
		Use:   "info FILE...",
		Short: "Print a replay's header (.rwd or .cfr) without playing it",
		Long: `info prints what a replay says about its game: format, configuration, map,
players and provenance. For .rwd it reads only the uncompressed header; for
.cfr it reads the first two frames.`,
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
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	br := bufio.NewReader(f)
	prefix, _ := br.Peek(8)
	format, err := source.Sniff(prefix)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	w := opts.stdout
	fmt.Fprintf(w, "%s\n  format:   %s, %d bytes\n", path, format, st.Size())
	if format == source.RWD {
		h, err := replay.ReadHeader(br)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
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
		fmt.Fprintf(w, "  players:\n")
		for _, p := range h.Players {
			bot := p.Bot
			if bot == "" {
				bot = "-"
			}
			fmt.Fprintf(w, "    %d  %-24q home (%d,%d)  bot %s\n", p.UID, p.Name, p.Home.X, p.Home.Y, bot)
		}
		return nil
	}
	d, err := cfr.NewDecoder(br)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	hd := d.Header()
	fmt.Fprintf(w, "  game:     %dx%d\n  info:     %s\n", hd.Width, hd.Height, hd.Info)
	var fr colorfight2.Frame
	for i := 0; i < 2; i++ {
		if err := d.Next(&fr); err != nil {
			return fmt.Errorf("%s: frame %d: %w", path, i, err)
		}
	}
	fmt.Fprintf(w, "  players:\n")
	for _, u := range fr.Users {
		fmt.Fprintf(w, "    %d  %q\n", u.UID, u.Username)
	}
	return nil
}
