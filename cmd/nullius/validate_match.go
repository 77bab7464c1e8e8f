package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/readlimit"
	vm "github.com/nullius-dev/nullius/validators/match"
)

// matchValidateCmds returns `validate match|commitment|roster|vote|panel-report`.
func (a *app) matchValidateCmds() []*cobra.Command {
	docs := map[string]string{
		"match":        "pairwise_match_v1 artifacts (match-<id>.json)",
		"commitment":   "criteria commitments (commitment.json)",
		"roster":       "judge rosters (agents.json v1)",
		"vote":         "stored judge vote records (votes/*.json)",
		"panel-report": "panel run reports (panel_run_report.json)",
	}
	examples := map[string]string{
		"match":        "campaign/artifacts/matches/match-5d0b3e21.json",
		"commitment":   "mat/commitment.json",
		"roster":       ".nullius/agents.json",
		"vote":         "mat/panel/votes/*.json",
		"panel-report": "mat/panel/panel_run_report.json",
	}
	var out []*cobra.Command
	for _, kind := range vm.Kinds() {
		var f reportFlags
		cmd := &cobra.Command{
			Use:   kind + " FILE...",
			Short: "Validate " + docs[kind],
			Long: fmt.Sprintf(`Validate %s field by field (MATCH/ROSTER rules, each finding with its JSON
pointer and line:column), then against the embedded JSON Schema.

Exit codes: 0 no error finding; 1 error findings; 2 a file could not be read or a usage error.`, docs[kind]) + limitsNote,
			Example: "  nullius validate " + kind + " " + examples[kind] + "\n" +
				"  nullius validate " + kind + " --format json " + examples[kind] + " | jq '.diagnostics[]'",
			Args: cobra.MinimumNArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				return a.validateMatchFiles(&f, kind, args)
			},
		}
		f.register(cmd)
		out = append(out, cmd)
	}
	return out
}

func (a *app) validateMatchFiles(f *reportFlags, kind string, paths []string) error {
	c, err := vm.NewChecker(kind)
	if err != nil {
		return &exitErr{code: exitError, msg: err.Error()}
	}
	var all []diag.Diagnostic
	for _, p := range paths {
		src, err := readlimit.ReadFile(p, matchKindLimit(kind))
		if readlimit.Refused(err) {
			return &exitErr{code: exitError, msg: err.Error()}
		}
		if err != nil {
			return &exitErr{code: exitError, msg: fmt.Sprintf("could not read %q: %v", p, err)}
		}
		all = append(all, c.File(p, src)...)
	}
	return a.report(f, "validate "+kind, all, len(paths))
}

// matchKindLimit is the size cap of a file validated as kind: the small
// protocol records (commitment, roster, vote) get the small cap.
func matchKindLimit(kind string) readlimit.Kind {
	switch kind {
	case "commitment", "roster", "vote":
		return readlimit.Small
	}
	return readlimit.JSON
}
