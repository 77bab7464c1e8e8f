package main

import "github.com/spf13/cobra"

func (a *app) reportCmd() *cobra.Command {
	return a.pending("report", "Report normalizers and portfolio")
}
