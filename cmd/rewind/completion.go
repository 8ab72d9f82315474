package main

import (
	"slices"
	"strings"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/rooms"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Shell completion (cobra's "rewind completion bash|zsh|fish|powershell"):
// replay files for the commands that read them, built-in bot names for
// --bot, and the fixed choices of the enumerated flags. Everything listed
// here comes from where the choice is defined, so completion never offers
// what the command would refuse.

// replayArgs names, per command, the file extensions its arguments take;
// an empty list completes folders.
var replayArgs = map[string][]string{
	"analyze":       {"rwd", "cfr", "json", "mp.gz"},
	"audit":         {"cfr"},
	"conform":       {"json", "cfr"},
	"export":        {"rwd", "cfr", "json", "mp.gz"},
	"fork":          {"rwd", "cfr"},
	"import":        {"cfr"},
	"info":          {"rwd", "cfr", "json", "mp.gz"},
	"record-vector": {"json", "cfr"},
	"report":        {"rwd", "cfr", "json", "mp.gz"},
	"serve":         {},
	"verify":        {"rwd"},
	"view":          {"rwd", "cfr", "json", "mp.gz"},
}

// flagChoices are the fixed values of enumerated flags, by flag name;
// a flag a game's protocol declares carries its own (rooms.FlagChoices).
var flagChoices = map[string]func(c *cobra.Command) []string{
	"bot":    builtinNames,
	"format": func(*cobra.Command) []string { return []string{"table", "json", "csv"} },
}

// flagFiles are flags naming a file to read, with its extensions.
var flagFiles = map[string][]string{
	"against": {"cfr"},
}

// addCompletions registers the completions on every subcommand of root.
func addCompletions(root *cobra.Command) {
	for _, c := range root.Commands() {
		name := c.Name()
		if exts, ok := replayArgs[name]; ok {
			exts := exts
			c.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
				if len(exts) == 0 {
					return nil, cobra.ShellCompDirectiveFilterDirs
				}
				return exts, cobra.ShellCompDirectiveFilterFileExt
			}
		}
		choicesOf := map[string]func(c *cobra.Command) []string{}
		for flag, choices := range flagChoices {
			if c.Flags().Lookup(flag) != nil {
				choicesOf[flag] = choices
			}
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if values, ok := f.Annotations[rooms.FlagChoices]; ok {
				choicesOf[f.Name] = func(*cobra.Command) []string { return values }
			}
		})
		for flag, choices := range choicesOf {
			c.RegisterFlagCompletionFunc(flag, func(c *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
				var out []string
				for _, v := range choices(c) {
					if strings.HasPrefix(v, prefix) {
						out = append(out, v)
					}
				}
				// --bot also takes an external command line: let the
				// shell complete files when no built-in matches.
				if flag == "bot" && len(out) == 0 {
					return nil, cobra.ShellCompDirectiveDefault
				}
				return out, cobra.ShellCompDirectiveNoFileComp
			})
		}
		for flag, exts := range flagFiles {
			if c.Flags().Lookup(flag) == nil {
				continue
			}
			c.MarkFlagFilename(flag, exts...)
		}
		for _, flag := range []string{"dir"} {
			if c.Flags().Lookup(flag) != nil {
				c.MarkFlagDirname(flag)
			}
		}
	}
}

// builtinNames are the built-in bots of the game c's --game flag names
// (the default game when it has none, or names no game), sorted.
func builtinNames(c *cobra.Command) []string {
	game := engine.Default()
	if f := c.Flags().Lookup("game"); f != nil && f.Value.String() != "" {
		game = f.Value.String()
	}
	info, ok := engine.About(game)
	if !ok {
		info, _ = engine.About(engine.Default())
	}
	var names []string
	for _, b := range info.Bots {
		names = append(names, b.Name)
	}
	slices.Sort(names)
	return names
}
