package main

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/output"
)

func (a *app) explainCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "explain CODE|NAME",
		Short: "Explain a rule",
		Long: `Explain prints what a rule checks and why, how to fix a finding, and a failing
and a passing example. The rule may be named by its code (GAIA011, any case) or
its kebab-case name (infer-off-grade-pair). 'nullius rules' lists them all.`,
		Example: `  nullius explain GAIA011
  nullius explain infer-off-grade-pair
  nullius explain --format json GAIA011`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf("explain takes exactly one rule code or name, got %d; run 'nullius rules' to list them", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			r, ok := diag.Lookup(args[0])
			if !ok {
				return usageErrorf("unknown rule %q; run 'nullius rules' to list them", args[0])
			}
			switch format {
			case "text":
				return output.WriteExplain(a.stdout, r)
			case "json":
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false)
				return enc.Encode(r)
			}
			return usageErrorf("unknown format %q for explain; use text or json", format)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text or json")
	return cmd
}
