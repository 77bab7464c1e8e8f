package main

import "github.com/spf13/cobra"

func (a *app) rulesCmd() *cobra.Command {
	return a.pending("rules", "List every rule")
}
