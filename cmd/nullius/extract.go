package main

import "github.com/spf13/cobra"

func (a *app) extractCmd() *cobra.Command {
	return a.pending("extract", "Extract a posterior through gaia")
}
