package main

import "github.com/spf13/cobra"

func (a *app) explainCmd() *cobra.Command {
	return a.pending("explain CODE", "Explain a rule")
}
