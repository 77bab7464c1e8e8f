package main

import "github.com/spf13/cobra"

func (a *app) renderCmd() *cobra.Command {
	return a.pending("render", "Render the argument graph page")
}
