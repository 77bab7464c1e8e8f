package main

import "github.com/spf13/cobra"

func (a *app) reportCmd() *cobra.Command {
	return a.pending("report", "Report normalizers and portfolio")
}

// reportWriteChecks runs the report display and link checks writeback needs
// (§3.2 steps 10–12). Pending: the report normalizers have not landed.
func reportWriteChecks(report, root string) error { return nil }
