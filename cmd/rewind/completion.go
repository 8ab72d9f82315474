package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/engine/bot"
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

// flagChoices are the fixed values of enumerated flags, by flag name.
var flagChoices = map[string]func() []string{
	"bot":    bot.BuiltinNames,
	"format": func() []string { return []string{"table", "json", "csv"} },
	"preset": func() []string {
		return []string{"default", "official", "rank_2", "rank_4", "rank_8", "duel", "test-run", "constant-run"}
	},
	"replay":           func() []string { return []string{"always", "end", "never"} },
	"first-round-time": func() []string { return []string{"full", "never", "10"} },
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
		for flag, choices := range flagChoices {
			if c.Flags().Lookup(flag) == nil {
				continue
			}
			choices := choices
			c.RegisterFlagCompletionFunc(flag, func(_ *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
				var out []string
				for _, v := range choices() {
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
