package main

import "github.com/spf13/cobra"

func (a *app) writebackCmd() *cobra.Command {
	return a.pending("writeback", "Write a posterior to the idea store")
}
