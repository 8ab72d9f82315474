package main

import (
	"strings"

	"github.com/rewind-game/rewind/engine"
	"github.com/spf13/cobra"
)

// version is the tool version, recorded in replays.
var version = "0.1.0-dev"

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "rewind",
		Short: "Run, record, verify, analyze and show matches of turn-based AI games",
		Long: `rewind plays turn-based AI-competition games exactly as their reference
servers do, records each match as a compact .rwd replay that re-simulates
bit-exactly, reads the games' official replay files, analyzes matches and
shows them in the browser. Its games: ` + gameNames() + `.
play, tournament and server take --game (` + defaultInfo().Name + ` when none is given);
every other command tells a replay's game from the file.

Every command that writes a file refuses to replace an existing one without
--force, and checks its settings before it touches anything. External bots
are any program speaking the JSON-lines protocol of docs/bot-protocol.md; a
replay never names a command that rewind runs (docs/limits.md, "Trust").

` + exitCodes,
		Example: `  rewind demo
  rewind play --bot greedy --bot random -o game.rwd
  rewind view game.rwd`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newConformCmd(), newRecordVectorCmd(), newVerifyCmd(), newExportCmd(), newInfoCmd(), newPlayCmd(), newDemoCmd(), newTournamentCmd(), newAnalyzeCmd(), newDiffCmd(), newIndexCmd(), newReportCmd(), newServeCmd(), newViewCmd(), newImportCmd(), newAuditCmd(), newForkCmd(), newRerunCmd(), newServerCmd(), newWorkerCmd(), newNATSCmd(), newGendocsCmd())
	addCompletions(root)
	usageErrors(root)
	return root
}

// usageErrors makes cobra's refusals of cmd's and its subcommands' flags
// and arguments usage errors (exitUnusable).
func usageErrors(cmd *cobra.Command) {
	cmd.SetFlagErrorFunc(flagError)
	if args := cmd.Args; args != nil {
		cmd.Args = func(c *cobra.Command, a []string) error {
			if err := args(c, a); err != nil {
				return &usageError{err}
			}
			return nil
		}
	}
	for _, c := range cmd.Commands() {
		usageErrors(c)
	}
}

// gameNames lists the registered games by name and id, for help texts:
// "ColorfightII (colorfight2), Monad (monad), …".
func gameNames() string {
	var parts []string
	for _, id := range engine.IDs() {
		info, _ := engine.About(id)
		parts = append(parts, info.Name+" ("+id+")")
	}
	return strings.Join(parts, ", ")
}
