package main

import "github.com/spf13/cobra"

// validateCmd groups the JSON artifact validators. Each artifact family adds
// its subcommands from its own file.
func (a *app) validateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "validate KIND FILE...",
		Short: "Validate JSON artifacts (matches, rosters, votes, surveys, ledgers, ...)",
	}
	cmd.AddCommand(a.matchValidateCmds()...)
	cmd.AddCommand(a.priorValidateCmds()...)
	return cmd
}
