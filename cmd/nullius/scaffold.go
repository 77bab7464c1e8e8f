package main

import "github.com/spf13/cobra"

func (a *app) scaffoldCmd() *cobra.Command {
	return a.pending("scaffold", "Create a Gaia package skeleton")
}
