package main

import (
	"github.com/spf13/cobra"
)

// version is the tool version, recorded in replays.
var version = "0.1.0-dev"

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "rewind",
		Short:         "Run, record, verify and analyze matches of turn-based AI games",
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newConformCmd(), newRecordVectorCmd(), newVerifyCmd(), newExportCmd(), newInfoCmd(), newPlayCmd(), newDemoCmd(), newTournamentCmd(), newAnalyzeCmd(), newIndexCmd(), newReportCmd(), newServeCmd(), newViewCmd(), newImportCmd(), newAuditCmd(), newForkCmd(), newServerCmd(), newWorkerCmd(), newNATSCmd(), newGendocsCmd())
	addCompletions(root)
	return root
}
