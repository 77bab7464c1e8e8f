package main

import "github.com/spf13/cobra"

func (a *app) gateCmd() *cobra.Command {
	return a.pending("gate", "Run a literature gate")
}
