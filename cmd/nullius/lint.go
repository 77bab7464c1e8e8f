package main

import "github.com/spf13/cobra"

func (a *app) lintCmd() *cobra.Command {
	return a.pending("lint PATH...", "Run the Gaia discipline scan")
}
