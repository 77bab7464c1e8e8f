package main

import "github.com/spf13/cobra"

func (a *app) matchCmd() *cobra.Command {
	return a.pending("match", "Pairwise matches")
}
