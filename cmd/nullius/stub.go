package main

import "github.com/spf13/cobra"

// pending returns a placeholder command for work that has not landed yet.
// It fails honestly (exit 2) instead of pretending to pass.
func (a *app) pending(use, short string) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short + " (not available in this build)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return usageErrorf("%s is not available in this build", cmd.CommandPath())
		},
	}
}
