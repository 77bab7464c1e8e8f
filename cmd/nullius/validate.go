package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/suggest"
)

// validateCmd groups the JSON artifact validators. Each artifact family adds
// its subcommands from its own file.
func (a *app) validateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "validate KIND FILE...",
		Short: "Validate JSON artifacts (matches, rosters, votes, surveys, ledgers, ...)",
		Long: `Validate checks JSON artifacts against their schema and the semantic rules no
schema can state. Each KIND is a subcommand; every finding carries the JSON
pointer and the line:column it maps to.

Exit codes: 0 no error finding, 1 error findings, 2 usage, I/O or internal error.`,
		Example: `  nullius validate match campaign/artifacts/matches/*.json
  nullius validate survey --format json artifacts/literature/survey.json`,
		// Without a RunE, cobra prints help and exits 0 for `validate` and
		// `validate bogus`: a CI step that validated nothing would pass.
		RunE: func(cmd *cobra.Command, args []string) error {
			var kinds []string
			for _, c := range cmd.Commands() {
				if c.IsAvailableCommand() {
					kinds = append(kinds, c.Name())
				}
			}
			list := "none in this build"
			if len(kinds) > 0 {
				list = "one of " + strings.Join(kinds, ", ")
			}
			if len(args) == 0 {
				return usageErrorf("validate needs an artifact kind (%s); see 'nullius validate --help'", list)
			}
			return usageErrorf("unknown artifact kind %q for validate%s; use %s", args[0], suggest.DidYouMean(suggest.Closest(args[0], kinds)), list)
		},
	}
	cmd.AddCommand(a.matchValidateCmds()...)
	cmd.AddCommand(a.priorValidateCmds()...)
	return cmd
}
