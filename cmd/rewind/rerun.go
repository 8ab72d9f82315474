package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/diff"
	"github.com/rewind-game/rewind/internal/match"
	"github.com/rewind-game/rewind/internal/rerun"
	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/replay"
	"github.com/spf13/cobra"
)

type rerunOptions struct {
	in     string
	seat   int
	from   int
	follow bool
	force  bool
	format string
	play   playOptions
}

func newRerunCmd() *cobra.Command {
	opts := &rerunOptions{}
	cmd := &cobra.Command{
		Use:   "rerun FILE --seat N --bot N=NAME|COMMAND [--from T] [--follow -o new.rwd]",
		Short: "Ask a bot again at each of a seat's turns of a replay: where does it play otherwise?",
		Long: `rerun plays a recorded game (.rwd) again and, at each round in which seat N
acts, asks the bot --bot N=NAME|COMMAND what it would send there, from the
game exactly as it stands in the recording. The game follows the recording
(the other seats keep their recorded commands, and so does seat N), so the
bot is asked every turn of the very game it played. rerun reports the first
round whose commands differ from the recorded ones, with both and what the
bot logged on stderr while it was asked for that round. It is a regression
test for a bot: the bot that played a game must reproduce it.

Seats are numbered from 1 as rewind info prints them. The bot comes only
from --bot: a replay never names a command that rewind runs. A built-in is
started with the seed the replay records for the seat (a replay written
before seeds were recorded: the seed rewind play derives from the game's
seed, else from --seed), and asked at every one of the seat's rounds, so it
draws as it drew. Commands are compared as the replay keeps them: as sent
(text codec), or as the game took them (a game's own compact codec).

--from T compares from round T on (rounds numbered from 0, as fork counts
them); an external bot is first asked at round T, a built-in from round 0.

--follow lets the bot's commands change the game from the first difference
on: the game plays on from that round with the bot at seat N, and the other
seats with their own built-ins (or --bot M=NAME|COMMAND), as rewind fork
--turn ROUND would, into a new replay (-o) that verifies on its own and
names its parent.

--format table (default) prints it for people; json prints one object.

Exit status: 0 no difference; 1 the bot differs (or the file is damaged);
2 the file cannot be read or the command line is wrong; 3 no difference up
to where a file cut short ends.`,
		Example: `  rewind rerun game.rwd --seat 2 --bot 2=greedy
  rewind rerun game.rwd --seat 2 --bot 2="python3 mybot.py" --from 100
  rewind rerun game.rwd --seat 2 --bot 2="python3 mybot.py" --follow -o what-mine-does.rwd`,
		Args: cobra.ExactArgs(1),
		RunE: playOnRunE(&opts.in, &opts.play, func(ctx context.Context) error {
			return runRerun(ctx, opts)
		}),
	}
	f := cmd.Flags()
	f.IntVar(&opts.seat, "seat", 0, "the seat to ask again, from 1 as rewind info numbers them (required)")
	f.StringArrayVar(&opts.play.bots, "bot", nil, "N=NAME|COMMAND: the bot for seat N (required for --seat); with --follow, other seats' bots too (repeat)")
	f.IntVar(&opts.from, "from", 0, "the first round compared (from 0)")
	f.BoolVar(&opts.follow, "follow", false, "play on from the first difference with the bot's commands, into a new replay (-o)")
	f.StringVarP(&opts.play.out, "output", "o", "", "the replay --follow writes")
	f.BoolVar(&opts.force, "force", false, "replace the output file if it exists")
	f.StringVar(&opts.format, "format", "table", "table or json")
	f.Uint64Var(&opts.play.seed, "seed", 42, "the match seed of a replay that records no bot seeds (rewind play's default)")
	deadlineFlag(f, &opts.play.deadline)
	return cmd
}

// rerunSpecs returns the --bot spec of each seat given one (uid order,
// "" for none), checking the command line: every value is N=SPEC, the
// rerun seat has one, others only with --follow.
func rerunSpecs(opts *rerunOptions, players int, builtins []string) ([]string, error) {
	try := fmt.Sprintf("rewind rerun %s --seat %d --bot %d=NAME|COMMAND (a built-in: %s; or a command such as \"python3 mybot.py\")",
		opts.in, max(opts.seat, 1), max(opts.seat, 1), strings.Join(builtins, ", "))
	if opts.seat < 1 || opts.seat > players {
		return nil, usagef("--seat %d: the game has seats 1..%d (rewind info %s lists them); type %s", opts.seat, players, opts.in, try)
	}
	specs := make([]string, players)
	for _, b := range opts.play.bots {
		uid, spec, ok := seatSpec(b)
		switch {
		case !ok:
			return nil, usagef("--bot %q: say which seat it plays: %s", b, try)
		case uid < 1 || uid > players:
			return nil, usagef("--bot %q: no seat %d (the game has seats 1..%d)", b, uid, players)
		case specs[uid-1] != "":
			return nil, usagef("--bot %q: seat %d is given twice", b, uid)
		case uid != opts.seat && !opts.follow:
			return nil, usagef("--bot %q: only seat %d is asked again; other seats' bots play only with --follow", b, opts.seat)
		case spec == "":
			return nil, usagef("--bot %q is empty: %s", b, try)
		}
		specs[uid-1] = spec
	}
	if specs[opts.seat-1] == "" {
		return nil, usagef("no bot for seat %d: rerun asks only the bot you give, never the one a replay names; type %s", opts.seat, try)
	}
	return specs, nil
}

func runRerun(ctx context.Context, opts *rerunOptions) error {
	if opts.format != "table" && opts.format != "json" {
		return usagef("unknown --format %q (want table or json)", opts.format)
	}
	if opts.from < 0 {
		return usagef("--from %d: rounds are numbered from 0", opts.from)
	}
	if opts.follow && opts.play.out == "" {
		return usagef("--follow writes a new replay: give -o FILE")
	}
	if !opts.follow && opts.play.out != "" {
		return usagef("-o: only --follow writes a replay")
	}
	if opts.follow {
		if err := checkOutput(opts.play.out, opts.force); err != nil {
			return &usageError{err}
		}
	}
	data, err := readReplayFile(opts.in)
	if err != nil {
		return &usageError{err}
	}
	if format, err := source.Sniff(data[:min(len(data), source.SniffBytes)]); err == nil && format != source.RWD {
		return usagef("%s: rerun reads a .rwd; make one with rewind import %s -o game.rwd", opts.in, opts.in)
	}
	sim, err := replay.OpenSim(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: %w", opts.in, err)
	}
	defer sim.Close()
	h := sim.Header()
	info, _ := engine.About(h.Ruleset)
	specs, err := rerunSpecs(opts, len(h.Players), botNames(info))
	if err != nil {
		return err
	}
	p := opts.seat - 1
	opts.play.game, opts.play.turns = h.Ruleset, h.Config.MaxTurn
	if opts.play.out == "" {
		// An external bot's whole stderr goes beside the replay.
		opts.play.logDir = filepath.Dir(opts.in)
	}
	seat, _, err := watchedSeat(specs[p], p, &opts.play, filepath.Base(opts.in)+".rerun")
	if err != nil {
		return err
	}
	_, builtin := info.FindBot(specs[p])
	seed, _ := source.HeaderBotSeed(h, p, opts.play.seed)
	res, err := rerun.Run(ctx, sim, opts.in, rerun.Options{Seat: opts.seat, Bot: seat.Bot, Seed: seed, From: opts.from, AskBefore: builtin})
	if err != nil {
		seat.Bot.Close()
		return err
	}
	res.Bot = specs[p]
	if opts.follow && res.Difference != nil {
		fl, err := rerunFollow(ctx, opts, data, specs, res, seat)
		if err != nil {
			return err
		}
		res.Follow = fl
	} else {
		seat.Bot.Close()
	}
	if res.Stop != nil {
		fmt.Fprintf(opts.play.stderr, "warning: %s %s (%v); compared its %d whole turns\n", opts.in, stopWords(res.Stop), res.Stop, res.Turns)
	}
	if opts.format == "json" {
		enc := json.NewEncoder(opts.play.stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(res)
	} else {
		err = writeRerunTable(opts.play.stdout, res, info.Round)
	}
	if err != nil {
		return err
	}
	switch {
	case res.Difference != nil:
		return &exitError{code: exitFailed}
	case res.Stop != nil:
		return stopStatusError(res.Stop)
	}
	return nil
}

// rerunFollow plays the game on from res's first difference with the
// bot (Continue) at the rerun seat and every other seat's bot as fork
// seats it, into opts.play.out.
func rerunFollow(ctx context.Context, opts *rerunOptions, data []byte, specs []string, res *rerun.Result, bot match.GameSeat) (*rerun.Follow, error) {
	d, p := res.Difference, opts.seat-1
	fk, err := source.ForkAt(opts.in, data, d.Round)
	if err != nil {
		bot.Bot.Close()
		return nil, fmt.Errorf("%s: %w", opts.in, err)
	}
	specs, err = forkSpecs(fk, givenSpecs(specs), "")
	if err != nil {
		bot.Bot.Close()
		return nil, &usageError{fmt.Errorf("--follow: %w", err)}
	}
	seats := make([]match.GameSeat, len(specs))
	seed := res.BotSeed
	seats[p] = match.GameSeat{Bot: rerun.Continue(bot.Bot, d), Identity: specs[p], Seed: &seed}
	mres, err := playFork(ctx, fk, specs, seats, &opts.play, opts.force)
	if err != nil {
		return nil, err
	}
	abs, _ := filepath.Abs(opts.play.out)
	return &rerun.Follow{File: abs, Turns: mres.Turn, Parent: d.Round}, nil
}

// givenSpecs turns specs (uid order, "" for none) into fork's --bot
// UID=SPEC values.
func givenSpecs(specs []string) []string {
	var out []string
	for i, s := range specs {
		if s != "" {
			out = append(out, fmt.Sprintf("%d=%s", i+1, s))
		}
	}
	return out
}

// writeRerunTable writes a rerun's result for people.
func writeRerunTable(w io.Writer, res *rerun.Result, rounds string) error {
	ew := &tableText{}
	seedFrom := "recorded"
	if !res.SeedRecorded {
		seedFrom = "derived: the replay records none"
	}
	recorded := res.RecordedBot
	if recorded == "" {
		recorded = "not recorded"
	}
	ew.printf("%s: %s, seat %d (%s; played by %s)\n", res.File, res.Ruleset, res.Seat, res.Name, recorded)
	ew.printf("asked: %s (seed %d, %s), from round %d\n", res.Bot, res.BotSeed, seedFrom, res.From)
	d := res.Difference
	if d == nil {
		ew.printf("no difference: the bot sent the recorded commands in all %d of the seat's %s compared (to turn %d)\n", res.Compared, rounds, res.Turns)
		if res.Follow == nil {
			return ew.flush(w)
		}
	} else {
		ew.printf("first difference: round %d (from turn %d to %d), after %d of the seat's %s the same\n", d.Round, d.Round, d.Turn, res.Compared-1, rounds)
		tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  recorded\t%s\n", diff.ShowCommands(d.Commands.A, d.Commands.FaultA, false))
		fmt.Fprintf(tw, "  bot\t%s\n", diff.ShowCommands(d.Commands.B, d.Commands.FaultB, false))
		tw.Flush()
		writeLog(ew, "bot's log at that round", d.Log)
		if d.RecordedLog != "" {
			writeLog(ew, "recorded log", d.RecordedLog)
		}
	}
	if f := res.Follow; f != nil {
		ew.printf("follow: %s (%d turns; turns 0..%d are %s's)\n", f.File, f.Turns, f.Parent, filepath.Base(res.File))
	}
	return ew.flush(w)
}

// writeLog writes a bot's log under a title, each line indented.
func writeLog(ew *tableText, title, log string) {
	if log == "" {
		ew.printf("%s: (nothing)\n", title)
		return
	}
	ew.printf("%s:\n", title)
	for _, l := range strings.Split(strings.TrimRight(log, "\n"), "\n") {
		ew.printf("  | %s\n", l)
	}
}

// tableText gathers a table's text, written at once by flush.
type tableText struct{ bytes.Buffer }

func (t *tableText) printf(format string, args ...any) { fmt.Fprintf(t, format, args...) }

// flush writes the text to w.
func (t *tableText) flush(w io.Writer) error {
	_, err := w.Write(t.Bytes())
	return err
}
